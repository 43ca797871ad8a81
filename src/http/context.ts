import type { Principal } from '../auth/principal.js';
import type { Services } from '../services.js';
import { ApiError } from '../jsonapi/errors.js';
import type { ResourceKind } from '../jsonapi/resource.js';

/** What a handler sees of one request: the app's services, the caller and how to build links. */
export interface Ctx {
  readonly services: Services;
  /** The authenticated client, or `undefined` on a public endpoint called without a token. */
  readonly principal: Principal | undefined;
  /** Absolute URL of a path on this sandbox (from the configured public URL or the request host). */
  url(path: string): string;
  /** The URL the request was made to. */
  readonly requestUrl: URL;
}

/** Builds the context of one request. */
export function createCtx(services: Services, requestUrl: URL, principal: Principal | undefined): Ctx {
  const base = (services.config.publicUrl ?? requestUrl.origin).replace(/\/+$/, '');
  return { services, principal, requestUrl, url: (path) => base + path };
}

/** The principal of a request that an endpoint declared as authenticated. */
export function principalOf(ctx: Ctx): Principal {
  if (!ctx.principal) throw ApiError.of('missingToken', 'This endpoint needs an access token.');
  return ctx.principal;
}

/** Resource kinds by type, for `include` and relationship rendering. */
export type KindRegistry = ReadonlyMap<string, ResourceKind<any>>;
