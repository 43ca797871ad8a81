import type { z } from 'zod';
import type { ClockView } from '../clock.js';
import type { Principal } from '../model/tenancy.js';
import type { Services } from './services.js';
import type { Store } from '../store/store.js';
import type { Rules } from '../domain/rules.js';
import type { KindRegistry } from '../jsonapi/resource.js';
import type { RenderCache } from '../jsonapi/render-cache.js';
import type { Ctx, HandlerSettings } from './context.js';
import type { Declaration, Endpoint } from './endpoint.js';
import { ownUrl } from './own-url.js';

/**
 * The wider context of the endpoints that act on the sandbox itself rather than on a tenant's
 * resources: the sandbox controls (`/_sandbox/*`), the token endpoints and the OpenAPI document.
 * They reach the keys, the request log, the usage counters, every tenant's clock and the global
 * clock (`services.clock`) through `services`; a resource handler gets the narrow `Ctx`, and
 * `resources/` may not import this module (.dependency-cruiser.cjs).
 */
export interface AppCtx extends Ctx {
  /** Everything the app built once: keys, request log, usage, limiter, clocks, the global clock. */
  readonly services: Services;
}

/** `http://host:port` of an absolute URL, without parsing all of it. */
function originOf(url: string): string {
  const end = url.indexOf('/', url.indexOf('//') + 2);
  return end < 0 ? url : url.slice(0, end);
}

/**
 * One request's context; a class, because an object literal with a getter is slow to make. Every
 * request gets one; what a handler may read of it is the type its endpoint declared (`Ctx` or `AppCtx`).
 */
class RequestCtx implements AppCtx {
  private parsed: URL | undefined;
  readonly rules: Rules;

  constructor(
    readonly services: Services,
    readonly principal: Principal | undefined,
    private readonly base: string,
    private readonly rawUrl: string,
    readonly answerHeaders: Record<string, string> | undefined,
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

  get settings(): HandlerSettings {
    return this.services.config;
  }

  get renderCache(): RenderCache {
    return this.services.renderCache;
  }

  get inFlight(): Set<string> {
    return this.services.inFlight;
  }

  url(path: string): string {
    return this.base + path;
  }
}

/** Builds the context of one request; the request URL is only parsed when a handler needs it. */
export function createCtx(services: Services, requestUrl: string, principal: Principal | undefined, answerHeaders?: Record<string, string>): AppCtx {
  const origin = services.config.publicUrl ?? originOf(requestUrl);
  return new RequestCtx(services, principal, origin.endsWith('/') ? origin.replace(/\/+$/, '') : origin, requestUrl, answerHeaders);
}

/**
 * A context for work the sandbox does for a caller outside a request (webhook payloads): it sees
 * what the caller sees, and links use the public URL or the address the server listens at (the
 * port it was given when it has not started listening: `--port 0` picks another).
 */
export function callerCtx(services: Services, principal: Principal): Ctx {
  const base = services.config.publicUrl ?? services.listeningAt ?? ownUrl(services.config.host, services.config.port);
  return createCtx(services, base, principal);
}

/**
 * Declares one of the sandbox's own endpoints (a control, a token endpoint): as `endpoint()`,
 * but its handler gets the app context. `mount` builds the same context object for every
 * request, so this changes only what the handler's type lets it read.
 */
export function appEndpoint<
  PS extends z.ZodType = z.ZodType<Record<string, string>>,
  QS extends z.ZodObject = z.ZodObject<{}>,
  BS extends z.ZodType = z.ZodType<undefined>,
  HS extends z.ZodObject = z.ZodObject<{}>,
>(def: Declaration<AppCtx, PS, QS, BS, HS>): Endpoint {
  return def as unknown as Endpoint;
}
