import type { ClockView } from '../clock.js';
import type { Config } from '../config.js';
import type { Principal } from '../model/tenancy.js';
import type { Store } from '../store/store.js';
import type { Acting, Rules } from '../domain/rules.js';
import { ApiError } from '../jsonapi/errors.js';
import type { RenderContext, ResourceKind } from '../jsonapi/resource.js';
import type { RenderCache } from '../jsonapi/render-cache.js';

/** The settings a handler reads; everything else of the configuration is the app's. */
export type HandlerSettings = Pick<Config, 'logoMaxBytes' | 'tenantPerVisitor' | 'shared'>;

/**
 * What a handler sees of one request: the caller and the rules and clock of its tenant, the
 * store, the few settings it reads, and how to render and link. Not the app's services: the
 * sandbox controls and the token endpoints, which need more, declare an `AppCtx`
 * (`http/app-context.ts`).
 */
export interface Ctx extends RenderContext, Acting {
  /** The store the sandbox keeps its data in: handlers read and open transactions through it. */
  readonly store: Store;
  /** The authenticated client, or `undefined` on a public endpoint called without a token. */
  readonly principal: Principal | undefined;
  /** The rules on the clock of the caller's tenant (the global clock without a caller). */
  readonly rules: Rules;
  /** The clock of the caller's tenant (`rules.clock`): every "now" of a request is read from it. */
  readonly clock: ClockView;
  readonly settings: HandlerSettings;
  /** Rendered GET documents, for as long as the data does not change. */
  readonly renderCache: RenderCache;
  /** Idempotency keys whose first request is still running (`http/idempotency.ts`). */
  readonly inFlight: Set<string>;
  /** Absolute URL of a path on this sandbox (from the configured public URL or the request host). */
  url(path: string): string;
  /** The URL the request was made to. */
  readonly requestUrl: URL;
  /**
   * Headers every answer to this request carries, known before the handler runs (the rate
   * limit's): a handler that builds its answer with them (`textResponse`'s `extra`) spares the
   * request a second response made to add them (http/mount.ts).
   */
  readonly answerHeaders?: Record<string, string>;
}

/** The principal of a request that an endpoint declared as authenticated. */
export function principalOf(ctx: Ctx): Principal {
  if (!ctx.principal) throw ApiError.of('missingToken', 'This endpoint needs an access token.', { source: { header: 'Authorization' } });
  return ctx.principal;
}

/** A resource kind rendered in a request: its functions see the whole request context. */
export type Kind<R extends { id: string }> = ResourceKind<R, Ctx>;
