/**
 * Redaction of secrets, credentials and tokens in what the request log keeps. Applied to a copy;
 * the request and response themselves are never changed.
 */
import { MAX_DEPTH } from '../http/json-depth.js';

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

/** Something shaped like a JWT (three base64url parts, the first a JSON header). */
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/** Secret strings shorter than this are not scrubbed from free text (they would mangle it). */
const MIN_SCRUB_LENGTH = 8;

/**
 * Whether a member (or query parameter, or header) name holds a secret: a known name, a name
 * containing `secret`, `password`, `api_key` and the like, or ending in `token` (`access_token`,
 * `refresh_token`, `csrf-token`; not `token_type`).
 */
export function isSecretKey(key: string): boolean {
  const name = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return secretNames.has(name) || name.endsWith('token') || secretParts.some((part) => name.includes(part));
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
function isSecretValue(key: string, value: unknown): boolean {
  if (!isSecretKey(key)) return false;
  if (key.toLowerCase() === 'credentials' || value === null || typeof value !== 'object' || Array.isArray(value)) return true;
  return !isSchema(value);
}

/** The secret values of a JSON value (those under secret names, at any depth), as strings. */
export function secretValues(value: unknown): string[] {
  const secrets = new SecretSet();
  collectSecrets(value, secrets);
  return secrets.list();
}

/**
 * Collects the secrets of one request, so they can also be scrubbed where they turn up again
 * outside a secret key (echoed in a response, a query string, an error detail).
 */
export class SecretSet {
  private readonly values = new Set<string>();
  /** The values longest first, made when first needed after a change. */
  private sorted: string[] | undefined;

  /**
   * `most` and `longest` bound what a set collects (the request log's capture of a large body:
   * scrubbing costs each secret a search of each string, so a body of thousands of secret members
   * must not make it thousands of searches); by default, none.
   */
  constructor(private readonly bounds: { most: number; longest: number } = { most: Number.POSITIVE_INFINITY, longest: Number.POSITIVE_INFINITY }) {}

  add(value: unknown): void {
    if (typeof value === 'string') {
      if (value.length < MIN_SCRUB_LENGTH || value.length > this.bounds.longest || this.values.size >= this.bounds.most) return;
      this.values.add(value);
      this.sorted = undefined;
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      this.add(String(value));
    } else if (Array.isArray(value)) {
      for (const item of value) this.add(item);
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) this.add(item);
    }
  }

  /** The secrets collected, to keep with a body that is not kept whole. */
  list(): string[] {
    return [...this.values];
  }

  /** Every known secret in `text`, and anything shaped like a JWT, replaced. */
  scrub(text: string): string {
    let out = text.replace(JWT, REDACTED);
    // Longest first, so a secret that contains another is replaced whole.
    this.sorted ??= [...this.values].sort((a, b) => b.length - a.length);
    for (const secret of this.sorted) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }
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
    if (secretHeaders.has(key) || isSecretKey(key)) {
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

const CONTENTS_NOTE = /^\[\d+ bytes of base64 contents, not logged\]$/;

/** A size note for base64 contents, instead of the bytes (a note already made stays as it is). */
function contentsNote(base64: string): string {
  if (CONTENTS_NOTE.test(base64)) return base64;
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

/** JSON length of a value, counted only until it passes `limit` (then some number past it). */
export function jsonSizeUpTo(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (item === null || typeof item !== 'object') size += String(item).length;
    else if (Array.isArray(item)) {
      size += 1 + item.length;
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
    } else {
      size += 1;
      for (const key in item as Record<string, unknown>) {
        size += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return size;
}

/**
 * A string is scrubbed of secrets up to this far past where it is cut, so no secret that starts
 * before the cut leaves a prefix behind, without scrubbing megabytes of a string to keep 256
 * characters of it. Secrets longer than this are not collected from a large body (keep.ts).
 */
export const SCRUB_WINDOW = 4096;

/** Strings longer than this are cut in a shortened body, however much room is left. */
const SHORTENED_STRING = 256;
/** Below this much room, a member is not opened up any more, only named. */
const SHORTENED_ROOM = 48;
/** At most this many members of one object are looked at: a body of a million tiny members costs no more than one of a few. */
const SHORTENED_MEMBERS = 256;

/**
 * A JSON value cut down to about `budget` characters of JSON by its structure, never by its text:
 * members and items are kept in order while they fit; a member that does not fit is opened up
 * (its first members, its first items) when there is room, else replaced by a note of what it
 * was; long strings are cut with their length noted (after `clean` scrubbed them). At the top
 * level every member keeps its name. The caller redacts the result like any other body, so
 * nothing here depends on text.
 */
export function shortened(value: unknown, budget: number, clean: (text: string) => string = (text) => text, top = true): unknown {
  if (typeof value === 'string') {
    const keep = Math.max(0, Math.min(SHORTENED_STRING, budget - 32));
    // Secrets are scrubbed before the cut, so no prefix of one is left behind.
    return value.length <= keep ? value : `${clean(value.slice(0, keep + SCRUB_WINDOW)).slice(0, keep)}… [${value.length} characters, cut]`;
  }
  if (value === null || typeof value !== 'object') return value;
  if (jsonSizeUpTo(value, budget) <= budget) return value;
  const note = (item: unknown) =>
    Array.isArray(item)
      ? `[a list of ${item.length} items, not kept]`
      : item !== null && typeof item === 'object'
        ? `[an object of ${Object.keys(item).length} members, not kept]`
        : '[not kept]';
  let room = budget - 2;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const size = jsonSizeUpTo(item, room);
      if (size + 1 <= room) {
        items.push(item);
        room -= size + 1;
      } else {
        if (room > SHORTENED_ROOM) items.push(shortened(item, room - 40, clean, false));
        break;
      }
    }
    if (items.length < value.length) items.push(`[${value.length - items.length} more items, not kept]`);
    return items;
  }
  // Members are kept whole smallest first (so `meta` and `links` survive a long `data`), shown in
  // their order; the room left opens up the others in turn.
  const all = Object.keys(value);
  const members = all.slice(0, SHORTENED_MEMBERS).map((key) => {
    const raw = (value as Record<string, unknown>)[key];
    // Logo contents become their size note here, where their length is still known.
    const item = key.toLowerCase() === 'contents' && typeof raw === 'string' ? contentsNote(raw) : raw;
    return { key, item, size: key.length + 4 + jsonSizeUpTo(item, budget) };
  });
  const whole = new Set<number>();
  for (const index of members.map((_, i) => i).sort((a, b) => members[a]!.size - members[b]!.size)) {
    if (members[index]!.size > room) break;
    whole.add(index);
    room -= members[index]!.size;
  }
  const entries: [string, unknown][] = [];
  let left = all.length - members.length;
  members.forEach(({ key, item }, index) => {
    if (whole.has(index)) {
      entries.push([key, item]);
    } else if (room - key.length - 4 > SHORTENED_ROOM) {
      const kept = shortened(item, room - key.length - 4, clean, false);
      entries.push([key, kept]);
      room -= key.length + 4 + jsonSizeUpTo(kept, room);
    } else if (top) {
      entries.push([key, note(item)]);
    } else {
      left += 1;
    }
  });
  if (left > 0) entries.push(['…', `[${left} more members, not kept]`]);
  // fromEntries defines members, so a `__proto__` key stays a member instead of becoming the prototype.
  return Object.fromEntries(entries);
}
