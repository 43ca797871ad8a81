/** Typed, frozen settings of one sandbox, parsed once from the environment (and CLI flags). */
export interface Config {
  port: number;
  host: string;
  /** JSON data file, or `null` to keep everything in memory. */
  dataFile: string | null;
  /** Data lives in memory only (`dataFile` is then `null`). */
  memory: boolean;
  seed: number;
  /** Start from freshly seeded data even when the data file exists. */
  reset: boolean;
  /** Base of every link the sandbox writes; defaults to the request's own origin. */
  publicUrl: string | undefined;
  /**
   * More hosts the sandbox controls answer for (`HOOK_ALLOWED_HOSTS`'s syntax; `*` for any),
   * beside loopback names, IP addresses and the public URL's host, which they always answer.
   */
  allowedHosts: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Optional second port that serves only the auth server. */
  authPort: number | undefined;
  /** Lifetime of access tokens in seconds. */
  tokenTtl: number;
  /**
   * The bearer token that acts on the whole sandbox through `/_sandbox/`. Without one, a request
   * with no token acts globally unless it comes from a web page of another origin.
   */
  adminToken: string | undefined;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /** Largest shop logo in bytes, after base64 decoding. */
  logoMaxBytes: number;
  /** Seconds on the sandbox clock between creating (or re-keying) a contract and its verification. */
  contractVerificationDelay: number;
  /** Seconds on the sandbox clock between a shipment's register_at and its registration result. */
  registrationDelay: number;
  /**
   * Hosts webhooks may be sent to: comma separated, `*.domain` wildcards, `*` (or unset) for any;
   * an entry with `:port` allows only that port. Private, link-local and metadata addresses are
   * refused unless a host is named exactly.
   */
  hookAllowedHosts: string | undefined;
  /** Every id the sandbox hands out while running is random (shared mode turns it on). */
  randomIds: boolean;
  /**
   * One sandbox for many (CI jobs, a docs site's visitors): needs an admin token, refuses
   * webhooks to loopback addresses and makes ids random.
   */
  shared: boolean;
  /**
   * How many tenants created through `POST /_sandbox/tenants` (and for visitors) may exist at once;
   * at the cap a new one takes the place of the oldest visitor tenant, else (not for a visitor) of
   * the oldest ephemeral tenant, or is refused (429).
   */
  maxTenants: number;
  /** The API reference page (`/docs`) makes a short-lived tenant of its own for each visitor. */
  tenantPerVisitor: boolean;
  /** Seconds a visitor's tenant lives. */
  visitorTtl: number;
  /** Most shipments one organization may keep (POST /shipments and the like answer 429 past it). */
  quotaShipments: number;
  /** Most hooks one organization may keep. */
  quotaHooks: number;
  /** Most files (labels, customs documents, manifests, return reports) one organization may keep. */
  quotaFiles: number;
  /** Requests one organization (or one address, without a token) may make per minute of real time. */
  rateLimit: number;
  /**
   * A pack (folder or file) the sandbox is seeded with over the base set; its folder's `packs/`
   * hold packs tenants may name. Like the seed, it shapes a new data file (or `--reset`).
   */
  fixtures: string | undefined;
  /** Seed the pack alone, without the base set's catalogue and accounts. */
  fixturesOnly: boolean;
}

/** The longest `ttl` a tenant may be given: 30 days. */
export const MAX_TENANT_TTL = 30 * 86400;

/** `count`: a whole number of at least 1 (a quota). */
type Kind = 'port' | 'int' | 'count' | 'string' | 'bool' | 'url' | 'level';

/** One setting: its config key, environment variable, CLI flag, type, default and help text. */
export interface Setting {
  key: keyof Config;
  env: string;
  flag: string;
  kind: Kind;
  default: string | undefined;
  help: string;
  /** Name of the flag's value in the usage text; derived from `kind` when not given. */
  arg?: string;
}

export const settings: readonly Setting[] = [
  { key: 'port', env: 'PORT', flag: 'port', kind: 'port', default: '8080', help: 'port of the API and auth server; 0 picks a free port' },
  { key: 'host', env: 'HOST', flag: 'host', kind: 'string', arg: 'host', default: '127.0.0.1', help: 'interface to listen on; 0.0.0.0 for all' },
  {
    key: 'dataFile',
    env: 'DATA_FILE',
    flag: 'data',
    kind: 'string',
    arg: 'file',
    default: './data/sandbox.json',
    help: 'JSON data file, created from the seed on first start',
  },
  { key: 'memory', env: 'MEMORY', flag: 'memory', kind: 'bool', default: 'false', help: 'keep all data in memory, no data file (also DATA_FILE=:memory:)' },
  { key: 'seed', env: 'SEED', flag: 'seed', kind: 'int', default: '1', help: 'seed of the generated fixtures; same seed, same ids and data' },
  { key: 'reset', env: 'RESET', flag: 'reset', kind: 'bool', default: 'false', help: 'replace the data file with freshly seeded data on start' },
  { key: 'publicUrl', env: 'PUBLIC_URL', flag: 'public-url', kind: 'url', default: undefined, help: 'base URL written in links (default: the request host)' },
  {
    key: 'allowedHosts',
    env: 'ALLOWED_HOSTS',
    flag: 'allowed-hosts',
    kind: 'string',
    arg: 'hosts',
    default: undefined,
    help: 'more hosts /_sandbox/ answers for, beside localhost, IP addresses and the public URL: comma separated, *.domain wildcards, host:port, * for any',
  },
  { key: 'logLevel', env: 'LOG_LEVEL', flag: 'log-level', kind: 'level', default: 'info', help: 'fatal, error, warn, info, debug, trace or silent' },
  {
    key: 'authPort',
    env: 'AUTH_PORT',
    flag: 'auth-port',
    kind: 'port',
    default: undefined,
    help: 'optional second port serving only POST /access-token and the JWKS',
  },
  { key: 'tokenTtl', env: 'TOKEN_TTL', flag: 'token-ttl', kind: 'int', default: '86400', help: 'access token lifetime in seconds' },
  {
    key: 'adminToken',
    env: 'SANDBOX_ADMIN_TOKEN',
    flag: 'admin-token',
    kind: 'string',
    arg: 'token',
    default: undefined,
    help: 'bearer token that may use every /_sandbox/ control on every tenant',
  },
  { key: 'bodyLimit', env: 'BODY_LIMIT', flag: 'body-limit', kind: 'int', default: '5242880', help: 'largest request body in bytes' },
  { key: 'logoMaxBytes', env: 'LOGO_MAX_BYTES', flag: 'logo-max-bytes', kind: 'int', default: '1048576', help: 'largest shop logo in bytes' },
  {
    key: 'contractVerificationDelay',
    env: 'CONTRACT_VERIFICATION_DELAY',
    flag: 'contract-verification-delay',
    kind: 'int',
    default: '5',
    help: 'seconds until a new or re-keyed contract is verified',
  },
  {
    key: 'registrationDelay',
    env: 'REGISTRATION_DELAY',
    flag: 'registration-delay',
    kind: 'int',
    default: '2',
    help: 'seconds from register_at until a shipment is registered (or fails)',
  },
  {
    key: 'hookAllowedHosts',
    env: 'HOOK_ALLOWED_HOSTS',
    flag: 'hook-allowed-hosts',
    kind: 'string',
    arg: 'hosts',
    default: undefined,
    help: 'hosts webhooks may be sent to: comma separated, *.domain wildcards, host:port pins a port (default: any public or loopback host)',
  },
  {
    key: 'randomIds',
    env: 'RANDOM_IDS',
    flag: 'random-ids',
    kind: 'bool',
    default: 'false',
    help: 'hand out random ids instead of ids that follow from the seed',
  },
  {
    key: 'shared',
    env: 'SANDBOX_SHARED',
    flag: 'shared',
    kind: 'bool',
    default: 'false',
    help: 'one sandbox for many: needs an admin token, no webhooks to loopback, random ids',
  },
  {
    key: 'maxTenants',
    env: 'MAX_TENANTS',
    flag: 'max-tenants',
    kind: 'int',
    default: '1000',
    help: 'most tenants made through the controls at once; at the cap the oldest visitor tenant makes way, then the oldest ephemeral one, else 429',
  },
  {
    key: 'tenantPerVisitor',
    env: 'TENANT_PER_VISITOR',
    flag: 'tenant-per-visitor',
    kind: 'bool',
    default: 'false',
    help: 'the /docs page makes a short-lived tenant of its own for each visitor (needs an admin token)',
  },
  {
    key: 'visitorTtl',
    env: 'VISITOR_TTL',
    flag: 'visitor-ttl',
    kind: 'int',
    default: '1800',
    help: "seconds a visitor's tenant lives (--tenant-per-visitor)",
  },
  {
    key: 'quotaShipments',
    env: 'QUOTA_SHIPMENTS',
    flag: 'quota-shipments',
    kind: 'count',
    default: '100000',
    help: 'most shipments one organization may keep; creating more answers 429',
  },
  { key: 'quotaHooks', env: 'QUOTA_HOOKS', flag: 'quota-hooks', kind: 'count', default: '1000', help: 'most hooks one organization may keep' },
  {
    key: 'quotaFiles',
    env: 'QUOTA_FILES',
    flag: 'quota-files',
    kind: 'count',
    default: '200000',
    help: 'most files (labels, customs documents, manifests, return reports) one organization may keep',
  },
  {
    key: 'rateLimit',
    env: 'RATE_LIMIT',
    flag: 'rate-limit',
    kind: 'count',
    default: '30000',
    help: 'requests per minute per organization (per address without a token); more answer 429',
  },
  {
    key: 'fixtures',
    env: 'FIXTURES',
    flag: 'fixtures',
    kind: 'string',
    arg: 'path',
    default: undefined,
    help: 'a pack (folder or .json file) seeded over the base set; its packs/ folder holds packs tenants can name',
  },
  {
    key: 'fixturesOnly',
    env: 'FIXTURES_ONLY',
    flag: 'fixtures-only',
    kind: 'bool',
    default: 'false',
    help: 'seed the --fixtures pack alone, without the base set (its statuses stay)',
  },
];

/**
 * What RFC 6750 allows in a bearer token (b64token). An admin token outside it (a space, a quote)
 * could never be sent in an Authorization header, so it is refused at start.
 */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Why an admin token cannot be sent as a bearer token, or `undefined` when it can. */
export function adminTokenProblem(token: string): string | undefined {
  if (BEARER_TOKEN.test(token)) return undefined;
  const bad = [...token].find((char) => !/[A-Za-z0-9\-._~+/=]/.test(char));
  const what = bad === undefined ? "'=' only at its end" : bad === ' ' ? 'no spaces' : `no ${JSON.stringify(bad)}`;
  return `SANDBOX_ADMIN_TOKEN (--admin-token) cannot be sent as a bearer token: use letters, digits and - . _ ~ + / only (${what})`;
}

/** One entry of a host list (`HOOK_ALLOWED_HOSTS`, `ALLOWED_HOSTS`): a host name, IP or `*.domain`, with an optional port. */
const HOST_ENTRY = /^(\*|\*\.[a-z0-9.-]+|[a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

/** Refuses a host list with an entry that is not a host, `*.domain` or `host:port`. */
function checkHostList(list: string, name: string): void {
  for (const entry of list
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)) {
    const port = HOST_ENTRY.exec(entry)?.[2];
    if (!HOST_ENTRY.test(entry) || (port !== undefined && Number(port.slice(1)) > 65535)) {
      throw new ConfigError(`${name} has an entry that is not a host, *.domain or host:port: '${entry}'`);
    }
  }
}

/** A setting with an unusable value; the message is one line naming the setting. */
export class ConfigError extends Error {}

const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseValue(setting: Setting, raw: string): unknown {
  const name = `${setting.env} (--${setting.flag})`;
  switch (setting.kind) {
    case 'port': {
      const port = Number(raw);
      if (!/^\d+$/.test(raw) || port < 0 || port > 65535) throw new ConfigError(`${name} must be a port number 0-65535, got '${raw}'`);
      return port;
    }
    case 'int':
      if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer, got '${raw}'`);
      return Number(raw);
    case 'count':
      if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < 1) {
        throw new ConfigError(`${name} must be a whole number of at least 1, got '${raw}'`);
      }
      return Number(raw);
    case 'bool':
      if (!['true', 'false', '1', '0'].includes(raw)) throw new ConfigError(`${name} must be true or false, got '${raw}'`);
      return raw === 'true' || raw === '1';
    case 'url':
      if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) throw new ConfigError(`${name} must be an http(s) URL, got '${raw}'`);
      return raw.replace(/\/+$/, '');
    case 'level':
      if (!levels.includes(raw)) throw new ConfigError(`${name} must be one of ${levels.join(', ')}, got '${raw}'`);
      return raw;
    default:
      return raw;
  }
}

/** The value of an environment variable; an empty variable counts as unset. */
function fromEnv(env: Record<string, string | undefined>, setting: Setting): string | undefined {
  const value = env[setting.env];
  return value === '' ? undefined : value;
}

/**
 * Builds the config from string values by setting key: `overrides` (the CLI flags) win over
 * environment variables, which win over defaults. Memory mode: `memory: true`, `--memory`,
 * `MEMORY=true` or a data file named `:memory:`; a `--data` flag beats `MEMORY` from the
 * environment, and `--data` with `--memory` is an error.
 */
export function parseConfig(env: Record<string, string | undefined>, overrides: Partial<Record<keyof Config, string>> = {}, memory = false): Config {
  const config: Record<string, unknown> = {};
  for (const setting of settings) {
    const raw = overrides[setting.key] ?? fromEnv(env, setting) ?? setting.default;
    config[setting.key] = raw === undefined ? undefined : parseValue(setting, raw);
  }
  const memoryFlag = overrides.memory === undefined ? undefined : (config.memory as boolean);
  if (memoryFlag && overrides.dataFile !== undefined) throw new ConfigError('--data and --memory cannot be used together; pick one');
  const wantsMemory = memoryFlag ?? (overrides.dataFile === undefined && (config.memory as boolean));
  const inMemory = memory || wantsMemory || config.dataFile === ':memory:';
  config.memory = inMemory;
  if (inMemory) config.dataFile = null;
  if ((config.tokenTtl as number) < 1) throw new ConfigError(`TOKEN_TTL (--token-ttl) must be at least 1 second`);
  if ((config.bodyLimit as number) < 1024) throw new ConfigError(`BODY_LIMIT (--body-limit) must be at least 1024 bytes`);
  if ((config.logoMaxBytes as number) < 1) throw new ConfigError(`LOGO_MAX_BYTES (--logo-max-bytes) must be at least 1`);
  if ((config.registrationDelay as number) < 0) throw new ConfigError(`REGISTRATION_DELAY (--registration-delay) must not be negative`);
  if ((config.contractVerificationDelay as number) < 0)
    throw new ConfigError(`CONTRACT_VERIFICATION_DELAY (--contract-verification-delay) must not be negative`);
  if (config.adminToken !== undefined) {
    const problem = adminTokenProblem(config.adminToken as string);
    if (problem) throw new ConfigError(problem);
  }
  if (config.shared && config.adminToken === undefined) {
    throw new ConfigError('SANDBOX_SHARED (--shared) needs an admin token: set SANDBOX_ADMIN_TOKEN (--admin-token), or every caller could reset every tenant');
  }
  if ((config.maxTenants as number) < 1) {
    throw new ConfigError(`MAX_TENANTS (--max-tenants) must be at least 1, got ${config.maxTenants as number}`);
  }
  const visitorTtl = config.visitorTtl as number;
  if (visitorTtl < 1 || visitorTtl > MAX_TENANT_TTL) {
    throw new ConfigError(`VISITOR_TTL (--visitor-ttl) must be 1 to ${MAX_TENANT_TTL} seconds (30 days), got ${visitorTtl}`);
  }
  if (config.tenantPerVisitor && config.adminToken === undefined) {
    throw new ConfigError(
      'TENANT_PER_VISITOR (--tenant-per-visitor) needs an admin token: set SANDBOX_ADMIN_TOKEN (--admin-token), or every visitor of the page could reset every tenant',
    );
  }
  if (config.hookAllowedHosts !== undefined) checkHostList(config.hookAllowedHosts as string, 'HOOK_ALLOWED_HOSTS (--hook-allowed-hosts)');
  if (config.allowedHosts !== undefined) checkHostList(config.allowedHosts as string, 'ALLOWED_HOSTS (--allowed-hosts)');
  if (config.fixturesOnly && config.fixtures === undefined)
    throw new ConfigError('FIXTURES_ONLY (--fixtures-only) needs a pack: set FIXTURES (--fixtures <path>)');
  if (config.shared) config.randomIds = true;
  return Object.freeze(config) as unknown as Config;
}

/** Config for tests and library use: defaults plus the given values, data in memory. */
export function testConfig(values: Partial<Config> = {}): Config {
  return Object.freeze({ ...parseConfig({}, {}, true), ...values });
}
