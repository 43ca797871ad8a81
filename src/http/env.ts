import type { Principal } from '../model/tenancy.js';

/** What the middleware of one request leaves for the next (hono's context variables). */
export type AppEnv = {
  Variables: {
    principal?: Principal;
    /** Why the body was refused while it was read (too large, too deep); only part of it was read. */
    bodyRefused?: { note: string; error: Error };
    /** The body text was scanned for its JSON nesting as it was read. */
    bodyScanned?: boolean;
    /** The rate-limit headers of the caller's window, for every answer once the request was counted (http/rate-limit.ts). */
    rateLimit?: Record<string, string>;
  };
};
