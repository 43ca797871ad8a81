import type { ClockView } from '../clock.js';
import type { Principal } from '../model/tenancy.js';
import type { Services } from '../services.js';
import type { Store } from '../store/store.js';
import type { Acting, Rules } from '../domain/rules.js';
import { ApiError } from '../jsonapi/errors.js';
import type { KindRegistry, RenderContext, ResourceKind } from '../jsonapi/resource.js';

/** What a handler sees of one request: the app's services, the caller and how to build links. */
export interface Ctx extends RenderContext, Acting {
  readonly services: Services;
  /** The store the sandbox keeps its data in: handlers read and open transactions through it. */
  readonly store: Store;
  /** The authenticated client, or `undefined` on a public endpoint called without a token. */
  readonly principal: Principal | undefined;
  /** The rules on the clock of the caller's tenant (the global clock without a caller). */
  readonly rules: Rules;
  /** The clock of the caller's tenant (`rules.clock`): every "now" of a request is read from it. */
  readonly clock: ClockView;
  /** Absolute URL of a path on this sandbox (from the configured public URL or the request host). */
  url(path: string): string;
  /** The URL the request was made to. */
  readonly requestUrl: URL;
}

/** `http://host:port` of an absolute URL, without parsing all of it. */
function originOf(url: string): string {
  const end = url.indexOf('/', url.indexOf('//') + 2);
  return end < 0 ? url : url.slice(0, end);
}

/** One request's context; a class, because an object literal with a getter is slow to make. */
class RequestCtx implements Ctx {
  private parsed: URL | undefined;
  readonly rules: Rules;

  constructor(
    readonly services: Services,
    readonly principal: Principal | undefined,
    private readonly base: string,
    private readonly rawUrl: string,
  ) {
    this.rules = services.rules.forTenant(principal?.organizationId);
  }

  get requestUrl(): URL {
    return (this.parsed ??= new URL(this.rawUrl));
  }

  get store(): Store {
    return this.services.store;
  }

  get kinds(): KindRegistry {
    return this.services.kinds;
  }

  get clock(): ClockView {
    return this.rules.clock;
  }

  url(path: string): string {
    return this.base + path;
  }
}

/** Builds the context of one request; the request URL is only parsed when a handler needs it. */
export function createCtx(services: Services, requestUrl: string, principal: Principal | undefined): Ctx {
  const origin = services.config.publicUrl ?? originOf(requestUrl);
  return new RequestCtx(services, principal, origin.endsWith('/') ? origin.replace(/\/+$/, '') : origin, requestUrl);
}

/**
 * A context for work the sandbox does for a caller outside a request (webhook payloads): it sees
 * what the caller sees, and links use the public URL or the local address of the server.
 */
export function callerCtx(services: Services, principal: Principal): Ctx {
  const base = services.config.publicUrl ?? `http://${services.config.host === '0.0.0.0' ? '127.0.0.1' : services.config.host}:${services.config.port}`;
  return createCtx(services, base, principal);
}

/** The principal of a request that an endpoint declared as authenticated. */
export function principalOf(ctx: Ctx): Principal {
  if (!ctx.principal) throw ApiError.of('missingToken', 'This endpoint needs an access token.', { source: { header: 'Authorization' } });
  return ctx.principal;
}

/** A resource kind rendered in a request: its functions see the whole request context. */
export type Kind<R extends { id: string }> = ResourceKind<R, Ctx>;
