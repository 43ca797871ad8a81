/**
 * Redaction of secrets, credentials and tokens in what the request log keeps. Applied to a copy;
 * the request and response themselves are never changed.
 */
import { MAX_DEPTH } from '../http/body.js';

export const REDACTED = '[REDACTED]';

/** JSON keys whose values are secret wherever they appear (compared lower-cased). */
const secretKeys = new Set([
  'authorization',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'credentials',
  'password',
  'passphrase',
  'secret',
  'api_key',
  'apikey',
  'private_key',
]);

/** Headers whose values are secret (lower-cased). `Idempotency-Key` is not a secret and is kept. */
const secretHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-admin-token']);

/** Something shaped like a JWT (three base64url parts, the first a JSON header). */
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/** Secret strings shorter than this are not scrubbed from free text (they would mangle it). */
const MIN_SCRUB_LENGTH = 8;

export function isSecretKey(key: string): boolean {
  return secretKeys.has(key.toLowerCase());
}

/**
 * Whether the value under `key` is a secret as a whole. `credentials` always is (whatever its
 * shape); under another secret key an object is not redacted whole but looked into, so a JSON
 * Schema that describes an `api_key` or `client_secret` (a carrier's credentials_format) stays
 * readable while any secret value inside it is still redacted.
 */
function isSecretValue(key: string, value: unknown): boolean {
  if (!isSecretKey(key)) return false;
  return key.toLowerCase() === 'credentials' || value === null || typeof value !== 'object' || Array.isArray(value);
}

/**
 * Collects the secrets of one request, so they can also be scrubbed where they turn up again
 * outside a secret key (echoed in a response, a query string, an error detail).
 */
export class SecretSet {
  private readonly values = new Set<string>();

  add(value: unknown): void {
    if (typeof value === 'string') {
      if (value.length >= MIN_SCRUB_LENGTH) this.values.add(value);
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      this.add(String(value));
    } else if (Array.isArray(value)) {
      for (const item of value) this.add(item);
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) this.add(item);
    }
  }

  /** Every known secret in `text`, and anything shaped like a JWT, replaced. */
  scrub(text: string): string {
    let out = text.replace(JWT, REDACTED);
    // Longest first, so a secret that contains another is replaced whole.
    for (const secret of [...this.values].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }
}

/**
 * String members with a secret key in JSON text that could not be parsed (a body cut at the
 * capture limit), e.g. `"client_secret": "..."`, with their value replaced.
 */
export function redactSecretMembers(text: string): string {
  return text.replace(/"([A-Za-z_]+)"(\s*):(\s*)"(?:[^"\\]|\\.)*("|$)/g, (member, key: string, before: string, after: string, end: string) =>
    secretKeys.has(key.toLowerCase()) ? `"${key}"${before}:${after}"${REDACTED}${end}` : member,
  );
}

/** Bearer/Basic header value: keeps the scheme, hides the rest. */
function redactHeaderValue(value: string): string {
  const scheme = /^\s*(\w+)\s+\S/.exec(value)?.[1];
  return scheme ? `${scheme} ${REDACTED}` : REDACTED;
}

/** Headers as a plain object; secret ones keep only their scheme. Their values join `secrets`. */
export function redactHeaders(headers: Headers, secrets: SecretSet): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const key = name.toLowerCase();
    if (secretHeaders.has(key)) {
      secrets.add(value);
      secrets.add(/^\s*\w+\s+(\S+)/.exec(value)?.[1]);
      out[key] = redactHeaderValue(value);
    } else {
      out[key] = value;
    }
  });
  return out;
}

/** Collects the values under secret keys, at any depth, into `secrets`. */
export function collectSecrets(value: unknown, secrets: SecretSet): void {
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, secrets);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (isSecretValue(key, inner)) secrets.add(inner);
      else collectSecrets(inner, secrets);
    }
  }
}

/** A size note for base64 contents, instead of the bytes. */
function contentsNote(base64: string): string {
  const bytes = Math.floor((base64.replace(/\s|=+$/g, '').length * 3) / 4);
  return `[${bytes} bytes of base64 contents, not logged]`;
}

/**
 * A deep copy of a JSON value with every secret removed: values of secret keys become
 * `[REDACTED]` (whole objects too, e.g. `credentials`), base64 `contents` (logos) become a size
 * note, and every string is scrubbed of known secrets and JWTs.
 */
export function redactJson(value: unknown, secrets: SecretSet, depth = 0): unknown {
  if (typeof value === 'string') return secrets.scrub(value);
  // The log shows what the API would read; deeper documents are refused by it anyway.
  if (depth > MAX_DEPTH) return `[nested deeper than ${MAX_DEPTH} levels, not logged]`;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secrets, depth + 1));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, inner]): [string, unknown] => {
      if (isSecretValue(key, inner)) return [key, inner === null || inner === undefined || inner === '' ? inner : REDACTED];
      if (key.toLowerCase() === 'contents' && typeof inner === 'string') return [key, contentsNote(inner)];
      return [key, redactJson(inner, secrets, depth + 1)];
    });
    // fromEntries defines members, so a `__proto__` key stays a member instead of becoming the prototype.
    return Object.fromEntries(entries);
  }
  return value;
}

/** A path with its query: values of secret parameters replaced, the rest scrubbed. */
export function redactPath(pathWithQuery: string, secrets: SecretSet): string {
  const mark = pathWithQuery.indexOf('?');
  if (mark < 0) return secrets.scrub(pathWithQuery);
  const path = pathWithQuery.slice(0, mark);
  const parts = pathWithQuery
    .slice(mark + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // keep the raw name
      }
      return eq >= 0 && isSecretKey(decoded) ? `${name}=${encodeURIComponent(REDACTED)}` : part;
    });
  return secrets.scrub(`${path}?${parts.join('&')}`);
}
