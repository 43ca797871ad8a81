// The API reference's examples: one per operation that takes parameters or a body, resolved for a tenant.
import type { Endpoint } from '../../http/endpoint.js';
import { accountExamples } from './account.js';
import type { ExampleIds } from './ids.js';
import { returnsExamples } from './returns.js';
import { shippingExamples } from './shipping.js';
import type { ExampleRequest, ExampleSet } from './types.js';

export type { ExampleRequest } from './types.js';
export { defaultTenant, exampleIds, firstShop, type ExampleIds, type ExampleTenant } from './ids.js';
export { forgetExampleRows, makeExampleRows } from './setup.js';

/** Every operation's example, by operation id. */
export const examples: ExampleSet = { ...shippingExamples, ...accountExamples, ...returnsExamples };

/**
 * Operations whose example ends what the caller's token can do: run after every other, in this
 * order (a tenant reset removes the example rows; revoking the client's tokens ends the session).
 */
const closingOperations: readonly string[] = ['resetSandbox', 'revokeSandboxTokens'];

/** Every example resolved for one tenant, by operation id. */
export function resolveExamples(ids: ExampleIds): Map<string, ExampleRequest> {
  return new Map(Object.entries(examples).map(([operationId, example]) => [operationId, example(ids)]));
}

/**
 * The request the page sends for an example: its path parameters filled in, its query, its headers,
 * the bearer token (the admin's where the example is meant for it) and its body as JSON.
 */
export function exampleRequest(
  endpoint: Endpoint,
  example: ExampleRequest,
  base: string,
  tokens: { client: string; admin: string },
): { url: string; init: RequestInit } {
  let path = endpoint.path;
  for (const [name, value] of Object.entries(example.path ?? {})) path = path.replace(`{${name}}`, encodeURIComponent(value));
  const query = new URLSearchParams(Object.entries(example.query ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const headers: Record<string, string> = { ...(example.headers ?? {}) };
  if (endpoint.auth !== 'none') headers.authorization = `Bearer ${example.admin ? tokens.admin : tokens.client}`;
  const init: RequestInit = { method: endpoint.method.toUpperCase(), headers };
  if (example.body !== undefined) {
    headers['content-type'] = endpoint.bodyFormat === 'json-or-form' ? 'application/json' : 'application/vnd.api+json';
    init.body = JSON.stringify(example.body);
  }
  return { url: `${base}${path}${query ? `?${query}` : ''}`, init };
}

/**
 * The operations in the order the API reference lists them (tags A-Z, paths A-Z, the closing ones
 * last), each with its example resolved for `ids` (an empty one where it needs none).
 */
export function examplesInPageOrder(endpoints: readonly Endpoint[], ids: ExampleIds): { endpoint: Endpoint; example: ExampleRequest }[] {
  const shown = endpoints.filter((endpoint) => !endpoint.internal);
  const byPath = [...shown].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const tags = [...new Set(shown.map((endpoint) => endpoint.tag))].sort();
  const listed = tags.flatMap((tag) => byPath.filter((endpoint) => endpoint.tag === tag));
  const closing = closingOperations.map((id) => listed.find((endpoint) => endpoint.operationId === id)!);
  const ordered = [...listed.filter((endpoint) => !closingOperations.includes(endpoint.operationId)), ...closing];
  const resolved = resolveExamples(ids);
  return ordered.map((endpoint) => ({ endpoint, example: resolved.get(endpoint.operationId) ?? {} }));
}
