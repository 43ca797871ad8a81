/** Which names hold secrets: members, query parameters, form fields and headers. */

export const REDACTED = '[REDACTED]';

/**
 * Member names whose values are secret wherever they appear, compared on the name as parsed
 * (escapes decoded), lower-cased and without separators: `api_key`, `apiKey`, `API-KEY` and
 * `"api_k\u0065y"` are one name.
 */
const secretNames = new Set([
  'authorization',
  'credentials',
  'credential',
  'cookie',
  'setcookie',
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'privatekey',
]);

/** Parts that make a name secret wherever they occur in it: `api_secret`, `dhl_password`, `x-api-key`. */
const secretParts = ['secret', 'password', 'passphrase', 'apikey', 'privatekey', 'accesskey', 'signingkey'];

/** Headers whose values are secret besides those with a secret name. `Idempotency-Key` is not a secret and is kept. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-admin-token']);

/**
 * Whether a member (or query parameter, or header) name holds a secret: a known name, a name
 * containing `secret`, `password`, `api_key` and the like, or ending in `token` (`access_token`,
 * `refresh_token`, `csrf-token`; not `token_type`).
 */
export function isSecretKey(key: string): boolean {
  const name = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return secretNames.has(name) || name.endsWith('token') || secretParts.some((part) => name.includes(part));
}

/** Whether a header's value is secret (lower-case name). */
export function isSecretHeader(name: string): boolean {
  return secretHeaders.has(name) || isSecretKey(name);
}

const SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Whether an object is a JSON Schema (`{"type": "string", ...}`, `{"properties": ...}`), which describes a secret without holding one. */
function isSchema(value: object): boolean {
  const fields = value as Record<string, unknown>;
  return (typeof fields.type === 'string' && SCHEMA_TYPES.has(fields.type)) || Object.hasOwn(fields, 'properties') || Object.hasOwn(fields, '$ref');
}

/**
 * Whether the value under `key` is a secret as a whole: anything under a secret name, except a
 * JSON Schema, which is looked into instead, so a carrier's `credentials_format` (describing an
 * `api_key` or `client_secret`) stays readable while any secret value inside it is still
 * redacted. `credentials` is always a secret, whatever its shape.
 */
export function isSecretValue(key: string, value: unknown): boolean {
  if (!isSecretKey(key)) return false;
  if (key.toLowerCase() === 'credentials' || value === null || typeof value !== 'object' || Array.isArray(value)) return true;
  return !isSchema(value);
}
