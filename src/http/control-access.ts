import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { authenticate, bearerToken } from '../auth/authenticate.js';
import type { Principal } from '../model/tenancy.js';
import { ApiError } from '../jsonapi/errors.js';
import type { Services } from './services.js';
import { isJsonMediaType, mediaType } from './media.js';

/** Paths of the sandbox controls: no CORS, and the rules of `authorizeControl`. */
export const CONTROL_PREFIX = '/_sandbox/';

export function isControlPath(pathname: string): boolean {
  return pathname.startsWith(CONTROL_PREFIX);
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether `presented` is the admin token, in constant time: the digests have the same length
 * whatever the input. `compare` is there for the test that sees what is compared.
 */
export function isAdminToken(presented: string, adminToken: string, compare: (a: Buffer, b: Buffer) => boolean = timingSafeEqual): boolean {
  return compare(digest(presented), digest(adminToken));
}

/** Whether an Authorization header carries the configured admin token. */
export function presentsAdminToken(services: Services, header: string | undefined): boolean {
  const token = bearerToken(header);
  const adminToken = services.config.adminToken;
  return token !== undefined && adminToken !== undefined && isAdminToken(token, adminToken);
}

/**
 * `host[:port]` of a URL, lower-cased; `undefined` when it is not one. The scheme is left out: behind
 * a proxy that ends TLS the sandbox sees http where the browser says https, and a page on the
 * sandbox's own host and port is the sandbox's.
 */
function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.host.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * The web origin a browser says the request comes from when that is not the sandbox itself, or
 * `undefined` for a request of the sandbox's own pages or of no web page at all (curl, a test
 * runner, a CI job). Browsers send `Origin` on every cross-origin POST and CORS request, and
 * `Sec-Fetch-Site` on everything else (an `<img>`, a link), so both are looked at.
 */
function foreignOrigin(c: Context, services: Services): string | undefined {
  return foreignOriginOf(services, c.req.url, { origin: c.req.header('origin'), secFetchSite: c.req.header('sec-fetch-site') });
}

/** `foreignOrigin` on the request URL and its `Origin` and `Sec-Fetch-Site` headers. */
export function foreignOriginOf(
  services: Services,
  requestUrl: string,
  headers: { origin?: string | undefined; secFetchSite?: string | undefined },
): string | undefined {
  const { origin } = headers;
  if (origin !== undefined) {
    const own = new Set([hostOf(requestUrl), services.config.publicUrl && hostOf(services.config.publicUrl)].filter(Boolean));
    const theirs = hostOf(origin.trim());
    return theirs !== undefined && own.has(theirs) ? undefined : origin.trim() || 'null';
  }
  const site = headers.secFetchSite?.trim().toLowerCase();
  if (site === 'cross-site' || site === 'same-site') return `a ${site} page`;
  return undefined;
}

/**
 * Who may use a `/_sandbox/` control, and on what:
 * - the admin token (compared in constant time) acts on the whole sandbox;
 * - a tenant's access token acts on that tenant only: the handler gets its principal;
 * - no token acts on the whole sandbox only when no admin token is configured and the request
 *   comes from no web page of another origin (a local sandbox, a CI container reached from its
 *   host); a foreign page is refused with 403.
 * Resolves with the tenant's principal, or `undefined` for the whole sandbox.
 */
export async function authorizeControl(services: Services, c: Context): Promise<Principal | undefined> {
  const header = c.req.header('authorization');
  const adminToken = services.config.adminToken;
  const token = bearerToken(header);
  if (token !== undefined) {
    if (adminToken !== undefined && isAdminToken(token, adminToken)) return undefined;
    try {
      return await authenticate(services, header);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const why = error.errors[0]?.detail ?? 'it could not be verified.';
      const expected = adminToken === undefined ? "a tenant's access token (no admin token is configured)" : "the admin token or a tenant's access token";
      throw ApiError.of('invalidToken', `The sandbox controls take ${expected}; this bearer token is neither. As an access token: ${why}`, {
        source: { header: 'Authorization' },
      });
    }
  }
  if (header !== undefined && header.trim() !== '') {
    // No bearer token at all, as on every other endpoint (14003), not one that failed its check.
    throw ApiError.of('missingToken', 'The sandbox controls take a bearer token: send Authorization: Bearer <token>.', { source: { header: 'Authorization' } });
  }
  if (adminToken !== undefined) {
    throw ApiError.of('missingToken', "The sandbox controls need the admin token (SANDBOX_ADMIN_TOKEN) or a tenant's access token as a bearer token.", {
      source: { header: 'Authorization' },
    });
  }
  refuseForeignPage(services, c, 'the sandbox controls');
  return undefined;
}

/**
 * Whether a request without a token acts as the broker (the admin token's part) on a broker-level
 * operation: only on a sandbox without an admin token, and never for a web page of another
 * origin (403), exactly as at the sandbox controls. What such a request may create it may also
 * change and delete, so every broker-level operation takes it the same way.
 */
export function anonymousBroker(services: Services, c: Context): boolean {
  if (services.config.adminToken !== undefined || (c.req.header('authorization') ?? '').trim() !== '') return false;
  refuseForeignPage(services, c, "the broker's operations");
  return true;
}

/** 403/10013 for a request without a token from a web page of another origin. */
function refuseForeignPage(services: Services, c: Context, what: string): void {
  const foreign = foreignOrigin(c, services);
  if (foreign === undefined) return;
  throw ApiError.of(
    'actionNotAllowed',
    `A web page (${foreign}) cannot use ${what} without a token. Call them from a program or your own shell, send a tenant's access token, or configure SANDBOX_ADMIN_TOKEN and send it.`,
    { source: { header: c.req.header('origin') !== undefined ? 'Origin' : 'Sec-Fetch-Site' } },
  );
}

/**
 * Control requests that change something must say they send JSON: a browser cannot send that
 * Content-Type to another origin without asking first (a preflight), which the controls refuse.
 */
export function requireJsonContentType(c: Context): void {
  const header = c.req.header('content-type');
  const type = header === undefined ? '' : mediaType(header);
  if (isJsonMediaType(type)) return;
  const sent = type === '' ? 'no Content-Type' : `Content-Type '${type}'`;
  throw ApiError.of(
    'invalidHeader',
    `The sandbox controls need Content-Type: application/json on every POST (this request has ${sent}); the body may be empty or {}.`,
    {
      status: 415,
      source: { header: 'Content-Type' },
    },
  );
}

/** A refusal for what only the admin token (or no token on a sandbox without one) may do. */
export function globalOnly(action: string): ApiError {
  return ApiError.of(
    'actionNotAllowed',
    `${action} acts on every tenant, so a tenant's access token may not do it; use the admin token (SANDBOX_ADMIN_TOKEN), or no token on a sandbox without one.`,
    { source: { header: 'Authorization' } },
  );
}
