import type { Libraries } from '../domain/libraries.js';
import type { Keys } from '../auth/keys.js';
import type { TokenVerifier } from '../auth/tokens.js';
import type { RenderCache } from '../jsonapi/render-cache.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Scheduler } from '../domain/scheduler.js';
import type { KindRegistry } from '../jsonapi/resource.js';
import type { RequestLog } from '../requestlog/log.js';
import type { UsageRecord } from '../requestlog/usage.js';
import type { ResourceEvents, Rules } from '../domain/rules.js';
import type { Store } from '../store/store.js';
import type { TenantClocks } from '../store/tenant-clocks.js';
import type { RateLimiter } from './rate-limiter.js';
import type { StartPack } from '../fixtures/world.js';
import type { ServedOperations } from './served-operations.js';

/** The logging calls the sandbox makes; a pino logger fits. */
export interface Logger {
  error(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  info(object: object, message?: string): void;
  debug(object: object, message?: string): void;
  /** Whether a level is logged (pino has it); lets hot paths skip building log lines. */
  isLevelEnabled?(level: string): boolean;
}

/** What the app factory is handed: nothing in the sandbox reaches for globals. */
export interface AppDeps {
  store: Store;
  /** The global sandbox clock; each tenant's clock is never behind it (`clocks`). */
  clock: Clock;
  keys: Keys;
  config: Config;
  /** Where unexpected errors go; the console when not given. */
  logger?: Logger;
  /** The pack the sandbox was seeded with over the base set (`--fixtures`), checked; a reset seeds it again. */
  fixtures?: StartPack;
  /** What loads the libraries not loaded at start; the modules' own imports when not given. */
  libraries?: Libraries;
}

/** The deps plus what the app builds from them once, shared by every request. */
export interface Services extends AppDeps {
  /**
   * What the domain rules are handed (store, clock, jobs, their settings, events, renderer), on
   * the global clock; `rules.forTenant(organizationId)` gives a tenant's, on its clock.
   */
  rules: Rules;
  /** The clock of every tenant (organization); `clock` is the global one. */
  clocks: TenantClocks;
  kinds: KindRegistry;
  jobs: Scheduler;
  events?: ResourceEvents;
  /** Rendered GET documents, for as long as the data does not change. */
  renderCache: RenderCache;
  /** Checks access tokens (and remembers the ones it has verified). */
  tokens: TokenVerifier;
  /** Idempotency keys whose first request is still running (never persisted: a crash ends it). */
  inFlight: Set<string>;
  /** The last requests and responses, redacted, for `GET /_sandbox/requests` (never persisted). */
  requestLog: RequestLog;
  /** Every request counted by tenant, operation, status, refusal cause and deprecated use, for `GET /_sandbox/report` (never persisted, never rotated, bounded). */
  usage: UsageRecord;
  /** Which of production's operations each endpoint serves, and where the API reference shows each. */
  operations: ServedOperations;
  /** Requests per minute of each tenant, in real time (never persisted). */
  limiter: RateLimiter;
  /**
   * Sends a request to this sandbox's own app, in process (set by `createApp`): how the API
   * reference's example rows are made, by the same requests a user would send.
   */
  dispatch?: (request: Request) => Promise<Response>;
  /**
   * Where the server answers once it listens (set by the server): the links of webhook payloads,
   * which no request's host names, point there when no public URL is configured.
   */
  listeningAt?: string;
}
