import type { ExampleIds } from './ids.js';

/** One operation's example request: what the API reference fills in before Execute. */
export interface ExampleRequest {
  path?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * Only the admin token (or no token, on a sandbox without one) may do this: a broker's
   * operation, or a control over the whole sandbox. The page sends the admin token when it is
   * authorized as SandboxAdmin.
   */
  admin?: true;
}

/** Examples by operation id, as functions of the tenant's ids. */
export type ExampleSet = Record<string, (ids: ExampleIds) => ExampleRequest>;

const dataRef = (type: string, id: string) => ({ data: { type, id } });

/** A JSON:API relationship naming one resource. */
export const ref = dataRef;
