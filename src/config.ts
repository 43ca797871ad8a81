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
  /** How the process log is written: `pretty` one line per request for people, `json` lines for tools, `auto` pretty on a terminal. */
  logFormat: 'auto' | 'pretty' | 'json';
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

/** `count`: a whole number of at least 1 (a quota); `choice`: one of the setting's `choices`. */
type Kind = 'port' | 'int' | 'count' | 'string' | 'bool' | 'url' | 'choice';

/**
 * One setting: its config key, environment variable, CLI flag, type, default and help text, and
 * the rule its value follows. The table is the one schema of the configuration: the command line,
 * the environment and `createSandbox({ config })` are all checked against it.
 */
export interface Setting {
  key: keyof Config;
  env: string;
  flag: string;
  kind: Kind;
  default: string | undefined;
  help: string;
  /** Name of the flag's value in the usage text; derived from `kind` when not given. */
  arg?: string;
  /** Smallest and largest value of an `int`. */
  min?: number;
  max?: number;
  /** What an `int` counts (`seconds`, `bytes`), for messages. */
  unit?: string;
  /** The values a `choice` takes. */
  choices?: readonly string[];
  /** Why a `string` value cannot be used, or `undefined` when it can. */
  check?: (value: string) => string | undefined;
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
    check: hostListProblem,
  },
  {
    key: 'logLevel',
    env: 'LOG_LEVEL',
    flag: 'log-level',
    kind: 'choice',
    arg: 'level',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    help: 'fatal, error, warn, info, debug, trace or silent',
  },
  {
    key: 'logFormat',
    env: 'LOG_FORMAT',
    flag: 'log-format',
    kind: 'choice',
    arg: 'format',
    choices: ['auto', 'pretty', 'json'],
    default: 'auto',
    help: 'pretty: one line per request for people; json: JSON lines for tools; auto: pretty when stdout is a terminal',
  },
  {
    key: 'authPort',
    env: 'AUTH_PORT',
    flag: 'auth-port',
    kind: 'port',
    default: undefined,
    help: 'optional second port serving only POST /access-token and the JWKS',
  },
  { key: 'tokenTtl', env: 'TOKEN_TTL', flag: 'token-ttl', kind: 'int', min: 1, unit: 'seconds', default: '86400', help: 'access token lifetime in seconds' },
  {
    key: 'adminToken',
    env: 'SANDBOX_ADMIN_TOKEN',
    flag: 'admin-token',
    kind: 'string',
    arg: 'token',
    default: undefined,
    help: 'bearer token that may use every /_sandbox/ control on every tenant',
    check: adminTokenProblem,
  },
  { key: 'bodyLimit', env: 'BODY_LIMIT', flag: 'body-limit', kind: 'int', min: 1024, unit: 'bytes', default: '5242880', help: 'largest request body in bytes' },
  {
    key: 'logoMaxBytes',
    env: 'LOGO_MAX_BYTES',
    flag: 'logo-max-bytes',
    kind: 'int',
    min: 1,
    unit: 'bytes',
    default: '1048576',
    help: 'largest shop logo in bytes',
  },
  {
    key: 'contractVerificationDelay',
    env: 'CONTRACT_VERIFICATION_DELAY',
    flag: 'contract-verification-delay',
    kind: 'int',
    min: 0,
    default: '5',
    help: 'seconds until a new or re-keyed contract is verified',
  },
  {
    key: 'registrationDelay',
    env: 'REGISTRATION_DELAY',
    flag: 'registration-delay',
    kind: 'int',
    min: 0,
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
    check: hostListProblem,
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
    min: 1,
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
    min: 1,
    max: MAX_TENANT_TTL,
    unit: 'seconds',
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
function adminTokenProblem(token: string): string | undefined {
  if (BEARER_TOKEN.test(token)) return undefined;
  const bad = [...token].find((char) => !/[A-Za-z0-9\-._~+/=]/.test(char));
  const what = bad === undefined ? "'=' only at its end" : bad === ' ' ? 'no spaces' : `no ${JSON.stringify(bad)}`;
  return `cannot be sent as a bearer token: use letters, digits and - . _ ~ + / only (${what})`;
}

/** One entry of a host list (`HOOK_ALLOWED_HOSTS`, `ALLOWED_HOSTS`): a host name, IP or `*.domain`, with an optional port. */
const HOST_ENTRY = /^(\*|\*\.[a-z0-9.-]+|[a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

/** Why a host list cannot be used (an entry that is not a host, `*.domain` or `host:port`), or `undefined`. */
function hostListProblem(list: string): string | undefined {
  for (const entry of list
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean)) {
    const port = HOST_ENTRY.exec(entry)?.[2];
    if (!HOST_ENTRY.test(entry) || (port !== undefined && Number(port.slice(1)) > 65535)) {
      return `has an entry that is not a host, *.domain or host:port: '${entry}'`;
    }
  }
  return undefined;
}

/**
 * A setting with an unusable value; the message is one line naming the setting the way it was
 * given (`REGISTRATION_DELAY (--registration-delay)` on the command line, `config.registrationDelay`
 * in code). `setting` and `problem` are the same whichever way it was given.
 */
export class ConfigError extends Error {
  // Named, so that a test runner's report and String(error) say what failed: a setting.
  override readonly name = 'ConfigError';
  /** The setting to blame, when there is one. */
  readonly setting?: keyof Config;
  /** What is wrong with it, without its name: `must not be negative, got -5`. */
  readonly problem?: string;

  constructor(message: string, cause?: { setting: keyof Config; problem: string }) {
    super(message);
    this.setting = cause?.setting;
    this.problem = cause?.problem;
  }
}

/** How a setting is called in messages: by its variable and flag, or by its key in code. */
type Naming = (setting: Setting) => string;

/** The command line's and the environment's name of a setting. */
const cliName: Naming = (setting) => `${setting.env} (--${setting.flag})`;

/** `createSandbox({ config })`'s name of a setting. */
const codeName: Naming = (setting) => `config.${setting.key}`;

const byKey = new Map<string, Setting>(settings.map((setting) => [setting.key, setting]));

function settingOf(key: keyof Config): Setting {
  return byKey.get(key)!;
}

/** A value as messages show it: text quoted, anything else as JavaScript writes it. */
function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 80 ? `${value.slice(0, 80)}...` : value}'`;
  if (typeof value === 'object' && value !== null) return (JSON.stringify(value) ?? String(value)).slice(0, 80);
  return String(value);
}

/** `n unit`, the unit in the singular for 1. */
function amount(n: number, unit: string | undefined): string {
  if (unit === undefined) return String(n);
  return `${n} ${n === 1 ? unit.replace(/s$/, '') : unit}`;
}

/** What an `int` out of its range is told. */
function rangeProblem(setting: Setting, value: number): string | undefined {
  const { min, max, unit } = setting;
  if ((min === undefined || value >= min) && (max === undefined || value <= max)) return undefined;
  if (max !== undefined) return `must be ${min ?? Number.MIN_SAFE_INTEGER} to ${amount(max, unit)}, got ${value}`;
  if (min === 0) return `must not be negative, got ${value}`;
  return `must be at least ${amount(min!, unit)}, got ${value}`;
}

/** Why `value` cannot be the value of `setting`, or `undefined` when it can. */
function valueProblem(setting: Setting, value: unknown): string | undefined {
  switch (setting.kind) {
    case 'port':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65535 ? undefined : `must be a port number 0-65535, got ${shown(value)}`;
    case 'int':
      return Number.isSafeInteger(value) ? rangeProblem(setting, value as number) : `must be an integer, got ${shown(value)}`;
    case 'count':
      return Number.isSafeInteger(value) && (value as number) >= 1 ? undefined : `must be a whole number of at least 1, got ${shown(value)}`;
    case 'bool':
      return typeof value === 'boolean' ? undefined : `must be true or false, got ${shown(value)}`;
    case 'url':
      return typeof value === 'string' && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)
        ? undefined
        : `must be an http(s) URL, got ${shown(value)}`;
    case 'choice':
      return typeof value === 'string' && setting.choices!.includes(value) ? undefined : `must be one of ${setting.choices!.join(', ')}, got ${shown(value)}`;
    case 'string':
      return typeof value !== 'string' ? `must be a string, got ${shown(value)}` : setting.check?.(value);
  }
}

/** The value of `setting` once it passed its rule (a URL loses its trailing slashes); a `ConfigError` naming it otherwise. */
function checked(setting: Setting, value: unknown, name: Naming): unknown {
  const problem = valueProblem(setting, value);
  if (problem !== undefined) throw new ConfigError(`${name(setting)} ${problem}`, { setting: setting.key, problem });
  return setting.kind === 'url' ? (value as string).replace(/\/+$/, '') : value;
}

/**
 * A value as text (a flag or a variable) read as the type of its setting: digits as a number,
 * true/false/1/0 as a boolean. Text that is neither stays text, and the setting's rule refuses it.
 */
function fromText(setting: Setting, raw: string): unknown {
  switch (setting.kind) {
    case 'port':
    case 'int':
    case 'count':
      return /^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
    case 'bool':
      return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
    default:
      return raw;
  }
}

/** The value of an environment variable; an empty variable counts as unset. */
function fromEnv(env: Record<string, string | undefined>, setting: Setting): string | undefined {
  const value = env[setting.env];
  return value === '' ? undefined : value;
}

/** The settings the command line (`overrides`) or the environment gave a value, rather than left to their default. */
export function givenSettings(env: Record<string, string | undefined>, overrides: Partial<Record<keyof Config, string>>): ReadonlySet<keyof Config> {
  return new Set(settings.filter((setting) => overrides[setting.key] !== undefined || fromEnv(env, setting) !== undefined).map((setting) => setting.key));
}

/** Rules between settings, checked once every value passed its own; freezes the config. */
function finish(config: Record<string, unknown>, name: Naming): Config {
  const needsAdminToken = (key: 'shared' | 'tenantPerVisitor', who: string) => {
    if (config[key] && config.adminToken === undefined) {
      const problem = `needs an admin token: set ${name(settingOf('adminToken'))}, or ${who} could reset every tenant`;
      throw new ConfigError(`${name(settingOf(key))} ${problem}`, { setting: key, problem });
    }
  };
  needsAdminToken('shared', 'every caller');
  needsAdminToken('tenantPerVisitor', 'every visitor of the page');
  if (config.fixturesOnly && config.fixtures === undefined) {
    const problem = `needs a pack: set ${name(settingOf('fixtures'))}`;
    throw new ConfigError(`${name(settingOf('fixturesOnly'))} ${problem}`, { setting: 'fixturesOnly', problem });
  }
  if (config.shared) config.randomIds = true;
  return Object.freeze(config) as unknown as Config;
}

/**
 * Builds the config from string values by setting key: `overrides` (the CLI flags) win over
 * environment variables, which win over defaults. Memory mode: `memory: true`, `--memory`,
 * `MEMORY=true` or a data file named `:memory:`; a `--data` flag beats `MEMORY` from the
 * environment, and `--data` with `--memory` is an error. `MEMORY=true` beats `DATA_FILE` without a
 * word: the Docker image sets `DATA_FILE` in its environment, where it cannot be told from the
 * user's, and `MEMORY=true` on the image (README's CI compose file) must still mean memory.
 */
export function parseConfig(env: Record<string, string | undefined>, overrides: Partial<Record<keyof Config, string>> = {}, memory = false): Config {
  const config: Record<string, unknown> = {};
  for (const setting of settings) {
    const raw = overrides[setting.key] ?? fromEnv(env, setting) ?? setting.default;
    config[setting.key] = raw === undefined ? undefined : checked(setting, fromText(setting, raw), cliName);
  }
  const memoryFlag = overrides.memory === undefined ? undefined : (config.memory as boolean);
  if (memoryFlag && overrides.dataFile !== undefined) throw new ConfigError('--data and --memory cannot be used together; pick one');
  const wantsMemory = memoryFlag ?? (overrides.dataFile === undefined && (config.memory as boolean));
  const inMemory = memory || wantsMemory || config.dataFile === ':memory:';
  config.memory = inMemory;
  if (inMemory) config.dataFile = null;
  // The auth server on the API's own port would fail to listen as a port "already in use", by
  // the sandbox itself. The process's ports only: in code (createSandbox) neither is listened on.
  if (config.authPort !== undefined && config.authPort !== 0 && config.authPort === config.port) {
    const problem = `must be another port than ${cliName(settingOf('port'))}, both are ${config.port}; the API port serves POST /access-token too, so leave ${settingOf('authPort').env} unset unless the auth server needs a port of its own`;
    throw new ConfigError(`${cliName(settingOf('authPort'))} ${problem}`, { setting: 'authPort', problem });
  }
  return finish(config, cliName);
}

/** The setting a misspelt name most likely meant (a few letters off, or another case), if any. */
export function closestName(name: string, names: readonly string[]): string | undefined {
  const folded = name.toLowerCase().replace(/[-_]/g, '');
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const distance = editDistance(folded, candidate.toLowerCase().replace(/[-_]/g, ''));
    if (distance <= Math.max(1, Math.floor(folded.length / 4)) && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

/** Edit distance counting a swap of two neighbouring letters as one edit (`prot` is one from `port`). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Settings given by key in code (`createSandbox({ config })`), checked by the same rules as the
 * command line: an unknown key, or a value its setting refuses, throws a `ConfigError` naming
 * `config.<key>`. Keys left out (or `undefined`) take their default; the data stays in memory.
 */
export function configFromValues(values: object): Config {
  const config: Record<string, unknown> = { ...parseConfig({}, {}, true) };
  for (const [key, value] of Object.entries(values)) {
    const setting = byKey.get(key);
    if (!setting) {
      const meant = closestName(key, [...byKey.keys()]);
      const hint = meant ? `did you mean ${meant}?` : `the settings are ${[...byKey.keys()].join(', ')}`;
      throw new ConfigError(`config.${key} is not a setting; ${hint}`);
    }
    // The data file and memory mode are the caller's to decide, not a setting's rule's.
    if (value === undefined || setting.key === 'dataFile' || setting.key === 'memory') continue;
    config[key] = checked(setting, value, codeName);
  }
  return finish(config, codeName);
}

/** Config for tests and library use: defaults plus the given values, data in memory. */
export function testConfig(values: Partial<Config> = {}): Config {
  return Object.freeze({ ...parseConfig({}, {}, true), ...values });
}
