/**
 * Redaction of secrets, credentials and tokens in what the request log keeps. Applied to a copy;
 * the request and response themselves are never changed.
 */
import { MAX_DEPTH } from '../http/json-depth.js';
import { REDACTED, isSecretHeader, isSecretValue } from './secret-names.js';
import { collectTextSecrets, type SecretSet } from './secrets.js';

/** Authentication schemes (IANA's registry, and the common `Token` and `ApiKey`), which an authorization header keeps in the log. */
const SCHEMES = new Set(['basic', 'bearer', 'digest', 'dpop', 'hoba', 'mutual', 'negotiate', 'ntlm', 'privatetoken', 'vapid', 'hawk', 'token', 'apikey']);

/** A secret header's value hidden: an authorization header keeps a known scheme (`Bearer [REDACTED]`); any other word could be the secret. */
function redactHeaderValue(name: string, value: string): string {
  const scheme = /^\s*([\w-]+)\s+\S/.exec(value)?.[1];
  const authorization = name === 'authorization' || name === 'proxy-authorization';
  return authorization && scheme && SCHEMES.has(scheme.toLowerCase()) ? `${scheme} ${REDACTED}` : REDACTED;
}

/** Collects the secrets of headers: the values of secret ones (also after their scheme, a Basic password, each cookie) and those written in the others (a Referer's query). */
export function collectHeaderSecrets(headers: Headers, secrets: SecretSet): void {
  headers.forEach((value, name) => {
    if (!isSecretHeader(name.toLowerCase())) {
      collectTextSecrets(value, secrets);
      return;
    }
    secrets.add(value);
    const credentials = /^\s*(\w+)\s+(\S+)/.exec(value);
    if (credentials) secrets.add(credentials[2]);
    if (credentials?.[1]!.toLowerCase() === 'basic') {
      const pair = Buffer.from(credentials[2]!, 'base64').toString('utf8');
      if (pair.includes(':')) secrets.add(pair.slice(pair.indexOf(':') + 1));
    }
    for (const cookie of value.split(';')) if (cookie.includes('=')) secrets.add(cookie.slice(cookie.indexOf('=') + 1).trim());
  });
}

/** Headers as a plain object: secret ones keep only their scheme, the others are scrubbed of the request's secrets. */
export function redactHeaders(headers: Headers, secrets: SecretSet): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const key = name.toLowerCase();
    out[key] = isSecretHeader(key) ? redactHeaderValue(key, value) : secrets.scrub(value);
  });
  return out;
}

const CONTENTS_NOTE = /^\[\d+ bytes of base64 contents, not logged\]$/;

/** A size note for base64 contents, instead of the bytes (a note already made stays as it is). */
function contentsNote(base64: string): string {
  if (CONTENTS_NOTE.test(base64)) return base64;
  const bytes = Math.floor((base64.replace(/\s|=+$/g, '').length * 3) / 4);
  return `[${bytes} bytes of base64 contents, not logged]`;
}

/** A high surrogate not followed by a low one, or a low one not after a high one (String.prototype.toWellFormed is ES2024). */
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A string with each lone UTF-16 surrogate replaced by U+FFFD. The API refuses such a string (it
 * is not Unicode), but the log shows the refused request; written as the escape `\ud800` it would
 * make the whole page of entries unreadable to strict parsers such as jq.
 */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * A deep copy of a JSON value with every secret removed: values of secret keys become
 * `[REDACTED]` (whole objects too, e.g. `credentials`), base64 `contents` (logos) become a size
 * note, and every string and member name is scrubbed (`SecretSet.scrub`).
 */
export function redactJson(value: unknown, secrets: SecretSet, depth = 0): unknown {
  if (typeof value === 'string') return wellFormed(secrets.scrub(value));
  // The log shows what the API would read; deeper documents are refused by it anyway.
  if (depth > MAX_DEPTH) return `[nested deeper than ${MAX_DEPTH} levels, not logged]`;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secrets, depth + 1));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, inner]): [string, unknown] => {
      // A name can carry a secret too (JSON sent as a form is one form key).
      const name = wellFormed(secrets.scrub(key));
      if (isSecretValue(key, inner)) return [name, inner === null || inner === undefined || inner === '' ? inner : REDACTED];
      if (key.toLowerCase() === 'contents' && typeof inner === 'string') return [name, contentsNote(inner)];
      return [name, redactJson(inner, secrets, depth + 1)];
    });
    // fromEntries defines members, so a `__proto__` key stays a member instead of becoming the prototype.
    return Object.fromEntries(entries);
  }
  return value;
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
