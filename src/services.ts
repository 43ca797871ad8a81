import type { Keys } from './auth/keys.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Scheduler } from './domain/scheduler.js';
import type { KindRegistry } from './http/context.js';
import type { Store } from './store/store.js';

/** The logging calls the sandbox makes; a pino logger fits. */
export interface Logger {
  error(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  info(object: object, message?: string): void;
  debug(object: object, message?: string): void;
}

/** What the app factory is handed: nothing in the sandbox reaches for globals. */
export interface AppDeps {
  store: Store;
  clock: Clock;
  keys: Keys;
  config: Config;
  /** Where unexpected errors go; the console when not given. */
  logger?: Logger;
}

/** The deps plus what the app builds from them once, shared by every request. */
export interface Services extends AppDeps {
  kinds: KindRegistry;
  jobs: Scheduler;
}
