import { generateState } from '../fixtures/generate.js';
import { knownClients } from '../fixtures/clients.js';
import { seededSecret } from '../auth/shared-secrets.js';
import { hashSecret } from '../auth/secrets.js';
import { loadStartPack } from '../fixtures/start-pack.js';
import { describeJsonSyntax } from '../controls/pack-source.js';
import { createApp, createServices } from '../app.js';
import { generateKeys } from '../auth/keys.js';
import { fixedClock } from '../clock.js';
import { closestName, ConfigError, configFromValues, settings, type Config } from '../config.js';
import type { Logger } from '../http/services.js';
import { LATEST_SECONDS } from '../model/common.js';
import { memoryPersistence } from '../store/persistence.js';
import { openStore } from '../store/store.js';

/** Where `request()` paths are resolved when no `publicUrl` is configured. */
export const DEFAULT_SANDBOX_URL = 'http://parcel-sandbox.test';

/** What `createSandbox` takes; a name that is none of these throws a TypeError naming it. */
export interface SandboxOptions {
  /** Seed of the generated fixtures (default 1): the same seed gives the same ids and data. */
  seed?: number;
  /** Start of the sandbox clock, as Unix seconds or a Date (default: the real time now). */
  now?: number | Date;
  /**
   * Settings as the CLI knows them, by their names in code, e.g. `{ registrationDelay: 0, tokenTtl: 60,
   * publicUrl }`, checked by the same rules: an unknown name or a bad value throws a `ConfigError`
   * naming it. Those of the process (port, host, data file, logging) have no effect here.
   */
  config?: Partial<Config>;
  /** Receives unexpected errors (a pino logger fits); `console.error` when not given. */
  logger?: Logger;
}

/** One in-process sandbox: its own data in memory and its own clocks, no port. */
export interface Sandbox {
  /** The base URL `request()` resolves paths against and links in answers start with. */
  readonly url: string;
  readonly seed: number;
  /**
   * A drop-in `fetch` for API clients: takes a Request, or a URL (absolute, or a path relative
   * to `url`) and init. It never touches the network. Safe to pass around unbound.
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /**
   * `fetch` for a path such as `/shipments?page[size]=5`. A string body without Content-Type is
   * sent as `application/vnd.api+json`.
   */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** An access token of a seeded client (default `sandbox-client`, every scope it has), or of a client of the `fixtures` pack with a `secret`. */
  token(clientId?: string, scope?: string): Promise<string>;
  /**
   * Moves the sandbox clock forward and runs everything that became due (registrations,
   * verifications, status walks), like `POST /_sandbox/clock`. Resolves with the new time.
   * With `{ token }` (an access token of a tenant) it moves that tenant's clock only, as the
   * control does with that token; without, the global clock (and every tenant that follows it).
   */
  advanceClock(seconds: number, options?: { token?: string }): Promise<number>;
  /** Restores the seeded data and the start time, like `POST /_sandbox/reset`. */
  reset(): Promise<void>;
  /** The sandbox time in Unix seconds: of the global clock, or of an organization's clock. */
  now(organizationId?: string): number;
  /** Releases the sandbox: webhook deliveries that are out end at once, and requests afterwards fail. */
  close(): Promise<void>;
}

/** The options `createSandbox` takes; every other name is refused, so that a misspelt one is not silently ignored. */
const OPTION_NAMES: readonly (keyof SandboxOptions)[] = ['seed', 'now', 'config', 'logger'];

/** Throws a TypeError naming an option `createSandbox` does not take (with what was likely meant). */
function checkOptionNames(options: unknown): asserts options is SandboxOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`createSandbox: options must be an object (${OPTION_NAMES.join(', ')}), got ${Array.isArray(options) ? 'an array' : String(options)}`);
  }
  for (const name of Object.keys(options)) {
    if ((OPTION_NAMES as readonly string[]).includes(name)) continue;
    const meant = closestName(name, OPTION_NAMES);
    // A setting given beside the options instead of in `config` is the likeliest slip.
    const hint = settings.some((setting) => setting.key === name)
      ? `${name} is a setting: pass it in config, createSandbox({ config: { ${name}: ... } })`
      : `${meant ? `did you mean ${meant}? ` : ''}the options are ${OPTION_NAMES.join(', ')}`;
    throw new TypeError(`createSandbox: '${name}' is not an option; ${hint}`);
  }
}

function startSeconds(now: SandboxOptions['now']): number {
  if (now === undefined) return Math.floor(Date.now() / 1000);
  const seconds = now instanceof Date ? Math.floor(now.getTime() / 1000) : now;
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new TypeError(`createSandbox: 'now' must be Unix seconds or a valid Date, got ${String(now)}`);
  // The clocks stop at the end of 9999 (dates past it cannot be written in ISO 8601), as POST
  // /_sandbox/clock does; the likeliest value past it is Date.now(), which counts milliseconds.
  if (seconds > LATEST_SECONDS) {
    const hint = seconds / 1000 <= LATEST_SECONDS ? ' (milliseconds? Date.now() / 1000 is seconds)' : '';
    throw new RangeError(`createSandbox: 'now' must be Unix seconds up to ${LATEST_SECONDS} (9999-12-31T23:59:59Z), got ${String(now)}${hint}`);
  }
  return seconds;
}

/** A value as an error message shows it: a string in quotes, so that '10' is not taken for 10. */
const shown = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : String(value));

/**
 * advanceClock's options: `{ token }` or nothing. A token passed in their place (a string) would
 * otherwise be ignored and move the global clock, every tenant's, instead of the tenant's.
 */
function checkClockOptions(options: unknown): void {
  const usage = "advanceClock(seconds, { token }) takes a tenant's access token in an object";
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    // A token is not repeated into the message (test logs are kept and shared).
    throw new TypeError(`parcel-sandbox: ${usage}; got ${typeof options === 'string' ? 'a string: pass it as { token }' : shown(options)}`);
  }
  for (const name of Object.keys(options)) if (name !== 'token') throw new TypeError(`parcel-sandbox: '${name}' is not an option of advanceClock; ${usage}`);
  const { token } = options as { token?: unknown };
  if (token !== undefined && (typeof token !== 'string' || token === '')) throw new TypeError(`parcel-sandbox: ${usage}; its token is ${shown(token)}`);
}

/** The methods a logger is called with: a value without them would fail the first request that logs. */
const LOGGER_METHODS = ['error', 'warn', 'info', 'debug'] as const;

function checkLogger(logger: unknown): asserts logger is Logger | undefined {
  if (logger === undefined) return;
  const missing = LOGGER_METHODS.filter((method) => typeof (logger as Record<string, unknown> | null)?.[method] !== 'function');
  if (missing.length > 0) {
    throw new TypeError(
      `createSandbox: 'logger' must have the methods ${LOGGER_METHODS.join(', ')} (a pino logger or console fits); it lacks ${missing.join(', ')}`,
    );
  }
}

/**
 * Creates an in-process sandbox for tests: the whole API as a fetch handler over seeded data in
 * memory, with a clock that only moves when told to (`advanceClock`). Sandboxes share nothing.
 */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptionNames(options);
  checkLogger(options.logger);
  const values = options.config === undefined ? {} : options.config;
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    throw new TypeError(`createSandbox: 'config' must be an object of settings, got ${Array.isArray(values) ? 'an array' : String(values)}`);
  let checked: Config;
  try {
    // Checked as given first, so that a refusal names the value the caller wrote.
    checked = configFromValues(values);
    // The controls answer the default URL's host, which is no loopback name, beside the hosts a
    // config names: reset() and advanceClock() call them there (a config's hosts alone got 421).
    const defaultHost = new URL(DEFAULT_SANDBOX_URL).host;
    if (checked.allowedHosts !== undefined) checked = configFromValues({ ...values, allowedHosts: `${defaultHost},${checked.allowedHosts}` });
    else checked = configFromValues({ ...values, allowedHosts: defaultHost });
  } catch (error) {
    if (error instanceof ConfigError) error.message = `createSandbox: ${error.message}`;
    throw error;
  }
  const seed = options.seed ?? checked.seed;
  if (!Number.isSafeInteger(seed)) throw new TypeError(`createSandbox: 'seed' must be an integer, got ${String(seed)}`);
  const start = startSeconds(options.now);
  const config: Config = Object.freeze({ ...checked, seed, dataFile: null, memory: true });
  // A pack of `config.fixtures` (a folder or file) seeds the sandbox over the base set; a broken one throws a FixtureError.
  const fixtures = config.fixtures === undefined ? undefined : await loadStartPack(config.fixtures, config.fixturesOnly, describeJsonSyntax);
  const store = await openStore({ persistence: memoryPersistence(), seed, initial: () => generateState(seed, start, fixtures) });
  const clock = fixedClock(start);
  const services = createServices({ store, clock, keys: await generateKeys(), config, logger: options.logger, ...(fixtures ? { fixtures } : {}) });
  const clients = knownClients(fixtures);
  const app = createApp(services);
  const url = config.publicUrl ?? DEFAULT_SANDBOX_URL;
  let closed = false;

  // A public URL with a path (`https://example.com/sandbox`, as behind a proxy) starts every link
  // with that path, which the app does not serve: in-process there is no proxy to take it off, so
  // fetch does, and links from answers (and an API client based on `url`) reach the app.
  const prefix = new URL(url).pathname.replace(/\/+$/, '');
  const underPrefix = (target: URL) => prefix !== '' && (target.pathname === prefix || target.pathname.startsWith(`${prefix}/`));
  const appUrl = (target: URL): URL => {
    if (!underPrefix(target)) return target;
    const served = new URL(target);
    served.pathname = target.pathname.slice(prefix.length) || '/';
    return served;
  };

  const fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    if (closed) throw new Error('parcel-sandbox: this sandbox is closed');
    let request = input instanceof Request && init === undefined ? input : new Request(input instanceof Request ? input : new URL(input, url), init);
    const target = new URL(request.url);
    if (underPrefix(target)) request = new Request(appUrl(target), request);
    return app.fetch(request);
  };

  const request = (path: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/vnd.api+json');
    return fetch(new URL(path, url), { ...init, headers });
  };

  /** Calls a `/_sandbox/` control endpoint, with `token` or else the admin token when one is configured. */
  const control = async <T>(path: string, body?: unknown, token = config.adminToken): Promise<T> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const answer = await request(path, { method: 'POST', headers, body: JSON.stringify(body ?? {}) });
    if (!answer.ok) throw new Error(`parcel-sandbox: POST ${path} failed with ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as T;
  };

  return {
    url,
    seed,
    fetch,
    request,
    async token(clientId = 'sandbox-client', scope = '*') {
      if (closed) throw new Error('parcel-sandbox: this sandbox is closed');
      // The clients whose secret is known and that the data holds with it (a pack may leave a base client out, or give it another secret).
      const usable = clients.filter((candidate) => store.get('clients', candidate.id)?.secret_sha256 === hashSecret(candidate.secret));
      const client = usable.find((candidate) => candidate.id === clientId);
      if (!client) {
        const choice = usable.length > 0 ? `use one of ${usable.map((c) => c.id).join(', ')}` : 'it holds no client whose secret it knows';
        throw new Error(`parcel-sandbox: no seeded client '${clientId}'; ${choice}`);
      }
      const answer = await request('/access-token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: client.id, client_secret: seededSecret(config, client), scope }),
      });
      if (!answer.ok) throw new Error(`parcel-sandbox: token for '${clientId}' refused with ${answer.status}: ${await answer.text()}`);
      return ((await answer.json()) as { access_token: string }).access_token;
    },
    async advanceClock(seconds, options = {}) {
      if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError(`parcel-sandbox: advanceClock takes whole seconds, 0 or more; got ${shown(seconds)}`);
      checkClockOptions(options);
      return (await control<{ now: number }>('/_sandbox/clock', { advance: seconds }, options.token ?? config.adminToken)).now;
    },
    async reset() {
      await control('/_sandbox/reset');
    },
    now: (organizationId) => (organizationId === undefined ? clock.now() : services.clocks.of(organizationId).now()),
    async close() {
      if (closed) return;
      closed = true;
      // Deliveries that are out end now rather than at their 10 s deadline: the test runner can exit.
      await services.jobs.abandon();
      await store.close();
    },
  };
}
