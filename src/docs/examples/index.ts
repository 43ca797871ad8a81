// The API reference's examples: one per operation that takes parameters or a body, resolved for a tenant.
import { accountExamples } from './account.js';
import type { ExampleIds } from './ids.js';
import { returnsExamples } from './returns.js';
import { shippingExamples } from './shipping.js';
import type { ExampleRequest, ExampleSet } from './types.js';

export type { ExampleRequest } from './types.js';
export { defaultTenant, exampleIds, firstShop, type ExampleIds, type ExampleSecrets, type ExampleTenant } from './ids.js';
export { examplesMade, forgetExampleRows, makeExampleRows } from './setup.js';

/** Every operation's example, by operation id. */
export const examples: ExampleSet = { ...shippingExamples, ...accountExamples, ...returnsExamples };

/**
 * Operations whose example ends what the caller's token can do: run after every other, in this
 * order (a tenant reset removes the example rows; revoking the client's tokens ends the session).
 */
export const closingOperations: readonly string[] = ['resetSandbox', 'revokeSandboxTokens'];

/** Every example resolved for one tenant, by operation id. */
export function resolveExamples(ids: ExampleIds): Map<string, ExampleRequest> {
  return new Map(Object.entries(examples).map(([operationId, example]) => [operationId, example(ids)]));
}
