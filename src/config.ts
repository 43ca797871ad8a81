/** Typed, frozen settings of one sandbox, parsed once from the environment (and CLI flags). */
export interface Config {
  port: number;
  host: string;
  /** JSON data file, or `null` to keep everything in memory. */
  dataFile: string | null;
  seed: number;
  /** Start from freshly seeded data even when the data file exists. */
  reset: boolean;
  /** Base of every link the sandbox writes; defaults to the request's own origin. */
  publicUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Optional second port that serves only the auth server. */
  authPort: number | undefined;
  /** Lifetime of access tokens in seconds. */
  tokenTtl: number;
  /** When set, every `/_sandbox/` request needs `Authorization: Bearer <adminToken>`. */
  adminToken: string | undefined;
  /** Largest accepted request body in bytes. */
  bodyLimit: number;
  /** Largest shop logo in bytes, after base64 decoding. */
  logoMaxBytes: number;
  /** Seconds on the sandbox clock between creating (or re-keying) a contract and its verification. */
  contractVerificationDelay: number;
  /** Seconds on the sandbox clock between a shipment's register_at and its registration result. */
  registrationDelay: number;
}

type Kind = 'port' | 'int' | 'string' | 'bool' | 'url' | 'level';

/** One setting: its config key, environment variable, CLI flag, type, default and help text. */
export interface Setting {
  key: keyof Config;
  env: string;
  flag: string;
  kind: Kind;
  default: string | undefined;
  help: string;
}

export const settings: readonly Setting[] = [
  { key: 'port', env: 'PORT', flag: 'port', kind: 'port', default: '8080', help: 'port of the API and auth server' },
  { key: 'host', env: 'HOST', flag: 'host', kind: 'string', default: '127.0.0.1', help: 'interface to listen on (0.0.0.0 for all)' },
  { key: 'dataFile', env: 'DATA_FILE', flag: 'data', kind: 'string', default: './data/sandbox.json', help: 'JSON data file, created from the seed on first start' },
  { key: 'seed', env: 'SEED', flag: 'seed', kind: 'int', default: '1', help: 'seed of the generated fixtures; same seed, same ids and data' },
  { key: 'reset', env: 'RESET', flag: 'reset', kind: 'bool', default: 'false', help: 'replace the data file with freshly seeded data on start' },
  { key: 'publicUrl', env: 'PUBLIC_URL', flag: 'public-url', kind: 'url', default: undefined, help: 'base URL written in links (default: the request host)' },
  { key: 'logLevel', env: 'LOG_LEVEL', flag: 'log-level', kind: 'level', default: 'info', help: 'fatal, error, warn, info, debug, trace or silent' },
  { key: 'authPort', env: 'AUTH_PORT', flag: 'auth-port', kind: 'port', default: undefined, help: 'optional second port serving only POST /access-token and the JWKS' },
  { key: 'tokenTtl', env: 'TOKEN_TTL', flag: 'token-ttl', kind: 'int', default: '86400', help: 'access token lifetime in seconds' },
  { key: 'adminToken', env: 'SANDBOX_ADMIN_TOKEN', flag: 'admin-token', kind: 'string', default: undefined, help: 'bearer token required by /_sandbox/ control endpoints' },
  { key: 'bodyLimit', env: 'BODY_LIMIT', flag: 'body-limit', kind: 'int', default: '5242880', help: 'largest request body in bytes' },
  { key: 'logoMaxBytes', env: 'LOGO_MAX_BYTES', flag: 'logo-max-bytes', kind: 'int', default: '1048576', help: 'largest shop logo in bytes' },
  { key: 'contractVerificationDelay', env: 'CONTRACT_VERIFICATION_DELAY', flag: 'contract-verification-delay', kind: 'int', default: '5', help: 'seconds until a new or re-keyed contract is verified' },
  { key: 'registrationDelay', env: 'REGISTRATION_DELAY', flag: 'registration-delay', kind: 'int', default: '2', help: 'seconds from register_at until a shipment is registered (or fails)' },
];

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
    case 'bool':
      if (!['true', 'false', '1', '0', ''].includes(raw)) throw new ConfigError(`${name} must be true or false, got '${raw}'`);
      return raw === 'true' || raw === '1' || raw === '';
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

/**
 * Builds the config from string values by setting key (flags win over environment variables,
 * which win over defaults). `memory: true` keeps data in memory instead of the data file.
 */
export function parseConfig(env: Record<string, string | undefined>, overrides: Partial<Record<keyof Config, string>> = {}, memory = false): Config {
  const config: Record<string, unknown> = {};
  for (const setting of settings) {
    const raw = overrides[setting.key] ?? env[setting.env] ?? setting.default;
    config[setting.key] = raw === undefined ? undefined : parseValue(setting, raw);
  }
  if (memory || env.DATA_FILE === ':memory:') config.dataFile = null;
  if ((config.tokenTtl as number) < 1) throw new ConfigError(`TOKEN_TTL (--token-ttl) must be at least 1 second`);
  if ((config.bodyLimit as number) < 1024) throw new ConfigError(`BODY_LIMIT (--body-limit) must be at least 1024 bytes`);
  if ((config.logoMaxBytes as number) < 1) throw new ConfigError(`LOGO_MAX_BYTES (--logo-max-bytes) must be at least 1`);
  if ((config.registrationDelay as number) < 0) throw new ConfigError(`REGISTRATION_DELAY (--registration-delay) must not be negative`);
  if ((config.contractVerificationDelay as number) < 0) throw new ConfigError(`CONTRACT_VERIFICATION_DELAY (--contract-verification-delay) must not be negative`);
  return Object.freeze(config) as unknown as Config;
}

/** Config for tests and library use: defaults plus the given values, data in memory. */
export function testConfig(values: Partial<Config> = {}): Config {
  return Object.freeze({ ...parseConfig({}, {}, true), ...values });
}
