import type { Principal } from '../model/tenancy.js';
import type { DeprecatedUse } from './deprecations.js';
import type { Endpoint } from './endpoint.js';

/** What the middleware of one request leaves for the next (hono's context variables). */
export type AppEnv = {
  Variables: {
    principal?: Principal;
    /** Why the body was refused before it was read to its end (too large, too deep, too many values): the log notes it instead of reading it. */
    bodyRefused?: { note: string; error: Error };
    /** The body as the endpoint parsed it (JSON or a form), or why it could not: the request log keeps it without parsing again. */
    bodyParsed?: { value: unknown } | { why: string };
    /** The rate-limit headers of the caller's window, for every answer once the request was counted (http/rate-limit.ts). */
    rateLimit?: Record<string, string>;
    /** The request log's id of the request (http/request-log.ts). */
    requestId?: number;
    /** The endpoint whose route the request took, once it is known (its handler, or its body limit). */
    endpoint?: Endpoint;
    /** The organization a request without a token proved it acts for (a token request with the right secret). */
    tenant?: string;
    /** What the request used that production deprecates (http/deprecations.ts), for its log entry. */
    deprecated?: readonly DeprecatedUse[];
  };
};
