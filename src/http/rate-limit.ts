import type { Context } from 'hono';
import { requestsPerMinute } from '../domain/quotas.js';
import { ApiError } from '../jsonapi/errors.js';
import type { Principal } from '../model/tenancy.js';
import type { Services } from './services.js';
import type { Endpoint } from './endpoint.js';
import { presentsAdminToken } from './control-access.js';
import type { AppEnv } from './env.js';

/*
 * Which window a request counts in and what the caller is told (RateLimiter, in rate-limiter.ts,
 * does the counting).
 */

/** The key of a caller without a token: its address (everything behind one proxy shares it). */
function addressKey(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  // A space never occurs in an organization id, so an address never shares an organization's window.
  return `address ${incoming?.socket?.remoteAddress ?? 'unknown'}`;
}

/**
 * Whose window a request counts in, before its body is read: the token's organization; nothing
 * for a caller acting on the whole sandbox (the admin token; a control without a token, which
 * only a sandbox without an admin token allows); else the caller's address. Endpoints that name
 * their caller in the body (the token endpoint) are counted later, by `countRequest`.
 */
export function callerKey(services: Services, c: Context, endpoint: Endpoint, principal: Principal | undefined): string | undefined {
  if (principal) return principal.organizationId;
  if (endpoint.auth === 'control') return undefined;
  if (services.config.adminToken !== undefined && presentsAdminToken(services, c.req.header('authorization'))) return undefined;
  return addressKey(c);
}

/**
 * For endpoints that know whose window counts only once they have read the body (the token
 * endpoint): refuses a caller whose address has used up its window before its credentials are
 * looked at, so a refused address learns nothing from them. Counts nothing otherwise.
 */
export function refuseSpentAddress(services: Services, c: Context<AppEnv>): void {
  const window = addressKey(c);
  if (services.limiter.peek(window) >= requestsPerMinute(services.rules, window)) countRequest(services, c, undefined);
}

/**
 * Counts one request in the window of `key` (an organization id, or the caller's address when
 * `undefined`), leaves the rate-limit headers for the answer, and throws 429 (10011) with
 * Retry-After when the window is used up.
 */
export function countRequest(services: Services, c: Context<AppEnv>, key: string | undefined): void {
  const window = key ?? addressKey(c);
  // An address has no overrides of its own: it gets the default limit.
  const { count, limit, resetMs } = services.limiter.take(window, requestsPerMinute(services.rules, window));
  const reset = String(Math.ceil(resetMs / 1000));
  // Named as in the IETF draft (draft-ietf-httpapi-ratelimit-headers): the limit, what is left, seconds until it refills.
  const headers = { 'ratelimit-limit': String(limit), 'ratelimit-remaining': String(Math.max(0, limit - count)), 'ratelimit-reset': reset };
  c.set('rateLimit', headers);
  if (count <= limit) return;
  const who = key === undefined || key.startsWith('address ') ? 'this address (requests without an access token)' : 'this organization';
  throw ApiError.of(
    'tooManyRequests',
    `The rate limit of ${who} is ${limit} requests per minute and it is used up; try again in ${reset} seconds (Retry-After).`,
    { headers: { ...headers, 'retry-after': reset }, meta: { quota: 'requests_per_minute', limit, retry_after: Number(reset) } },
  );
}
