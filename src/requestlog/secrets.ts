/**
 * The secrets of one logged request, found wherever they are (headers, query, bodies, text the
 * log cannot parse), and scrubbed out of every text the log shows: a value can travel from where
 * it was sent into a link, a Location, an error detail or a member name.
 */
import { REDACTED, isSecretKey, isSecretValue } from './secret-names.js';

/** Secret values shorter than this are scrubbed from free text only where they stand whole (quoted, or the whole text): a short one would mangle it. */
const MIN_SCRUB_LENGTH = 8;

/** A secret quoted from a body the log cannot parse may be cut anywhere: every run of this many of its characters is scrubbed. */
const FRAGMENT = 8;

/** At most this many fragments are kept for one request, so a large body cannot make reading the log slow. */
const MAX_FRAGMENTS = 65_536;

/** Something shaped like a JWT (three base64url parts, the first a JSON header). */
const JWT = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/** A `name=value` pair of a query or form, wherever it stands in a text: a path, a link, a Location, a form key. */
const PAIR = /(^|[?&;])([^=&;?#\s"'<>]+)=([^&;#\s"'<>]*)/g;

/** A JSON member in a text (an error quoting a body, JSON sent under a form type): its quoted name and a string or bare value. */
const MEMBER = /"((?:[^"\\]|\\.){1,256})"(\s*:\s*)("(?:[^"\\]|\\.)*(?:"|$)|[^\s,{}[\]"]+)/g;

/** How deep a value decoded from a query value (a URL, JSON) is looked into again. */
const MAX_NESTING = 2;

const IN_URL = encodeURIComponent(REDACTED);

/** A query or form name or value as it reads (`+` a space), or as written when it does not decode. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A JSON string's content with its escapes read, or as written when it does not read. */
function unescaped(content: string): string {
  try {
    return JSON.parse(`"${content}"`) as string;
  } catch {
    return content;
  }
}

/** The pieces of JSON text, valid or not: a string (its closing quote may be missing), a punctuation mark, a bare word. */
const TOKEN = /"((?:[^"\\]|\\.)*)"?|[{}[\]:,]|[^\s,:{}[\]"]+/g;

/**
 * The values under secret names in a JSON text that may not parse (cut short, a bare word where
 * a string belongs, a stray character), in one pass over its pieces: a string is a name when a
 * colon follows it, a value otherwise; everything inside an object or list under a secret name is
 * secret.
 */
function collectJsonish(text: string, add: (value: unknown) => void): void {
  const outer: boolean[] = [];
  let inSecret = false;
  let nextIsSecret = false;
  let held: { content: string; secret: boolean } | undefined;
  const settle = () => {
    if (held?.secret) add([held.content, unescaped(held.content)]);
    held = undefined;
  };
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    if (match[1] !== undefined) {
      settle();
      held = { content: match[1], secret: inSecret || nextIsSecret };
    } else if (token === ':') {
      nextIsSecret = held !== undefined && isSecretKey(unescaped(held.content));
      held = undefined;
      continue;
    } else {
      settle();
      if (token === '{' || token === '[') {
        outer.push(inSecret);
        inSecret ||= nextIsSecret;
      } else if (token === '}' || token === ']') {
        inSecret = outer.pop() ?? false;
      } else if (token !== ',' && (inSecret || nextIsSecret)) {
        add(token);
      }
    }
    nextIsSecret = false;
  }
  settle();
}

/**
 * The secrets of one request: values under secret names, collected before anything is shown, so
 * they can be scrubbed wherever they turn up again outside a secret name.
 */
export class SecretSet {
  /** Every secret value, whatever its length: a text that is wholly one of them is scrubbed. */
  private readonly exact = new Set<string>();
  /** Secret values long enough to be scrubbed wherever they occur in a text, longest first once sorted. */
  private long: string[] = [];
  private longSorted = true;
  /** Shorter secret values: scrubbed where a text quotes them whole. */
  private readonly short = new Set<string>();
  /** Runs of FRAGMENT characters of secrets that may show up cut (quoted from a body the log cannot parse). */
  private readonly fragments = new Set<string>();

  /**
   * `most` and `longest` bound what a set collects (the request log's capture of a large body:
   * scrubbing costs each secret a search of each string, so a body of thousands of secret members
   * must not make it thousands of searches); by default, none.
   */
  constructor(private readonly bounds: { most: number; longest: number } = { most: Number.POSITIVE_INFINITY, longest: Number.POSITIVE_INFINITY }) {}

  /** Adds a secret value: a string, a number, or every value inside an object or list. `cut`: it may show up cut short elsewhere. */
  add(value: unknown, cut = false): void {
    if (typeof value === 'string') {
      if (value === '' || value === REDACTED || value.length > this.bounds.longest || this.exact.size >= this.bounds.most) return;
      if (cut) this.addFragments(value);
      if (this.exact.has(value)) return;
      this.exact.add(value);
      if (value.length < MIN_SCRUB_LENGTH) this.short.add(value);
      else {
        this.long.push(value);
        this.longSorted = false;
      }
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      this.add(String(value), cut);
    } else if (Array.isArray(value)) {
      for (const item of value) this.add(item, cut);
    } else if (value && typeof value === 'object') {
      for (const item of Object.values(value)) this.add(item, cut);
    }
  }

  private addFragments(secret: string): void {
    for (let at = 0; at + FRAGMENT <= secret.length && this.fragments.size < MAX_FRAGMENTS; at++) this.fragments.add(secret.slice(at, at + FRAGMENT));
  }

  /** The secrets collected, to keep with a body that is not kept whole. */
  list(): string[] {
    return [...this.exact];
  }

  /**
   * A text with every secret it may carry replaced: anything shaped like a JWT, the values of
   * secret-named query pairs and JSON members written in it, the secrets of this request (whole
   * when long, where quoted when short, in part when they may be cut), and the whole text when it
   * is one of them.
   */
  scrub(text: string): string {
    if (this.exact.has(text)) return REDACTED;
    let out = scrubNamed(text, IN_URL);
    if (!this.longSorted) {
      // Longest first, so a secret that contains another is replaced whole.
      this.long.sort((a, b) => b.length - a.length);
      this.longSorted = true;
    }
    for (const secret of this.long) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    for (const secret of this.short) {
      if (!out.includes(secret)) continue;
      for (const quote of ["'", '"', '`']) out = out.split(`${quote}${secret}${quote}`).join(`${quote}${REDACTED}${quote}`);
    }
    return this.fragments.size > 0 ? this.scrubFragments(out) : out;
  }

  /** Every run of the text made of fragments of a cut secret, replaced. */
  private scrubFragments(text: string): string {
    const runs: [number, number][] = [];
    for (let at = 0; at + FRAGMENT <= text.length; at++) {
      if (!this.fragments.has(text.slice(at, at + FRAGMENT))) continue;
      const last = runs.at(-1);
      if (last && at <= last[1]) last[1] = at + FRAGMENT;
      else runs.push([at, at + FRAGMENT]);
    }
    let out = '';
    let kept = 0;
    for (const [start, end] of runs) {
      out += text.slice(kept, start) + REDACTED;
      kept = end;
    }
    return out + text.slice(kept);
  }
}

/**
 * A text with what names itself secret replaced, known values or not: JWTs, the values of
 * secret-named `name=value` pairs (`marker` in their place: encoded in a URL), and the values of
 * secret-named JSON members. A pair's value that decodes to a URL or JSON is looked into too.
 */
export function scrubNamed(text: string, marker = IN_URL, nesting = 0): string {
  let out = text.includes('eyJ') ? text.replace(JWT, REDACTED) : text;
  if (out.includes('=')) {
    out = out.replace(PAIR, (match, lead: string, name: string, value: string) => {
      if (value === '' || value === marker) return match;
      if (isSecretKey(decoded(name))) return `${lead}${name}=${marker}`;
      const inner = decoded(value);
      if (nesting >= MAX_NESTING || !/[=":]/.test(inner)) return match;
      const clean = scrubNamed(inner, REDACTED, nesting + 1);
      return clean === inner ? match : `${lead}${name}=${encodeURIComponent(clean)}`;
    });
  }
  if (out.includes('"')) {
    out = out.replace(MEMBER, (match, name: string, colon: string, value: string) => {
      if (value === `"${REDACTED}"` || value === 'null' || !isSecretKey(unescaped(name))) return match;
      return `"${name}"${colon}"${REDACTED}"`;
    });
  }
  return out;
}

/**
 * Collects the secrets written in a text the log may not parse (a body that is not valid JSON,
 * a form key that is JSON, a query value): values of secret-named JSON members (strings, whole
 * objects, values cut short) and of secret-named `name=value` pairs. `cut`: they may show up
 * elsewhere cut short.
 */
export function collectTextSecrets(text: string, secrets: SecretSet, cut = false, nesting = 0): void {
  const add = (value: unknown) => secrets.add(value, cut);
  if (text.includes('"')) collectJsonish(text, add);
  if (text.includes('=')) {
    for (const match of text.matchAll(PAIR)) {
      const value = decoded(match[3]!);
      if (isSecretKey(decoded(match[2]!))) add([match[3], value]);
      else if (nesting < MAX_NESTING && value !== match[3] && /[=":]/.test(value)) collectTextSecrets(value, secrets, cut, nesting + 1);
    }
  }
}

/** Whether a text may carry a secret written in it (a JSON member or a `name=value` pair), worth a lenient look. */
const mayCarry = (text: string): boolean => text.includes('"') || text.includes('=');

/** Collects the values under secret names of a JSON value, at any depth, and the secrets written inside its names and strings. */
export function collectSecrets(value: unknown, secrets: SecretSet): void {
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, secrets);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (mayCarry(key)) collectTextSecrets(key, secrets);
      if (isSecretValue(key, inner)) secrets.add(inner);
      else collectSecrets(inner, secrets);
    }
  } else if (typeof value === 'string' && mayCarry(value)) {
    collectTextSecrets(value, secrets);
  }
}
