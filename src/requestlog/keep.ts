import { JsonDepthScanner, MAX_DEPTH, MAX_ELEMENTS } from '../http/json-depth.js';
import { isJsonMediaType } from '../http/media.js';
import { SCRUB_WINDOW, shortened } from './redact.js';
import { SecretSet, collectSecrets, collectTextSecrets } from './secrets.js';
import { REQUEST_LOG_BODY_LIMIT, REQUEST_LOG_RESPONSE_LIMIT, type RawMessage } from './entry.js';

const FORM = 'application/x-www-form-urlencoded';

/** A body as a value, or why the log does not keep it. */
export type ParsedBody = { value: unknown } | { why: string };

/**
 * A request body the endpoint did not parse is parsed for the log only up to this size (a body
 * refused before it was parsed, e.g. by a 401): the log never spends more on a body than this.
 */
const LOG_PARSE_BYTES = 64 * 1024;

/**
 * A body over the limit as a value: as the endpoint parsed it when it did (never parsed twice),
 * else JSON (not too deep) or a form when small enough; else why not.
 */
function parsedForLog(type: string, text: string, bytes: number, side: 'request' | 'response', parsed?: ParsedBody): ParsedBody {
  if (parsed !== undefined) return parsed;
  if (type !== '' && type !== FORM && !isJsonMediaType(type))
    return { why: 'not kept: only JSON and form bodies are kept, and this one is too large to show whole' };
  if (side === 'request' && bytes > LOG_PARSE_BYTES) return { why: 'not kept: it was answered without being parsed, and is too large to parse for the log' };
  if (type === FORM) return { value: Object.fromEntries(new URLSearchParams(text)) };
  const scanner = new JsonDepthScanner(MAX_DEPTH, MAX_ELEMENTS);
  if (!scanner.feed(text))
    return { why: scanner.broke === 'depth' ? `not kept: it nests deeper than ${MAX_DEPTH} levels` : `not kept: it holds more than ${MAX_ELEMENTS} values` };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { why: 'not kept: it is not valid JSON' };
  }
}

/** A request carries a handful of secrets (a client secret, a carrier's password); a body with more keeps the first this many. */
const MAX_SECRETS = 64;

/** UTF-8 length of a text, worked out only when the character count leaves a doubt. */
function byteLength(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : Buffer.byteLength(text);
}

/**
 * The secrets kept beside a cut-down body, in the order found, up to `budget` characters in all:
 * a body of thousands of secret members keeps no more than a body's worth of them.
 */
function keptSecrets(secrets: SecretSet, budget: number): string[] {
  const kept: string[] = [];
  let room = budget;
  for (const secret of secrets.list()) {
    if (secret.length > room) continue;
    kept.push(secret);
    room -= secret.length;
  }
  return kept;
}

/**
 * What the request log keeps of a body while serving. A body within the limit is kept as its
 * text (parsed and redacted when the log is read). A larger one is kept cut down by its structure
 * (`shortened`), never by its text, with its size: from the value the endpoint parsed (`parsed`),
 * or, when none did, parsed here if it is JSON or a form of at most LOG_PARSE_BYTES. The secret
 * values found anywhere in a request body are kept beside it (up to a body's worth), so they can
 * be scrubbed wherever they turn up again. A large response that is not JSON (a page, a label)
 * keeps its first part as text: the sandbox wrote it.
 */
export function keptMessage(headers: RawMessage['headers'], type: string, text: string, side: 'request' | 'response', parsed?: ParsedBody): RawMessage {
  if (text === '') return { headers, type };
  const limit = side === 'request' ? REQUEST_LOG_BODY_LIMIT : REQUEST_LOG_RESPONSE_LIMIT;
  const size = byteLength(text, limit);
  if (size <= limit) return { headers, type, text };
  const bytes = Buffer.byteLength(text);
  if (side === 'response' && type !== '' && !isJsonMediaType(type)) return { headers, type, text: text.slice(0, limit), truncated: true };
  const body = parsedForLog(type, text, bytes, side, parsed);
  // A large body is scrubbed of at most MAX_SECRETS of its secret values, each at most
  // SCRUB_WINDOW long; their members are redacted by name wherever they are anyway.
  const secrets = new SecretSet({ most: MAX_SECRETS, longest: SCRUB_WINDOW });
  if ('why' in body) {
    // Not shown, but an error may quote part of it: the secrets written in its first part (as
    // much as the log would parse) are kept to be scrubbed from the answer.
    if (side === 'request') collectTextSecrets(text.slice(0, LOG_PARSE_BYTES), secrets);
    return {
      headers,
      type,
      note: `${type || 'untyped'} body of ${bytes} bytes, ${body.why}`,
      ...(side === 'request' ? { secrets: keptSecrets(secrets, limit) } : {}),
    };
  }
  if (side === 'request') collectSecrets(body.value, secrets);
  const short = shortened(body.value, limit, (item) => secrets.scrub(item));
  return {
    headers,
    type,
    text: JSON.stringify(short),
    summary: true,
    size: bytes,
    ...(side === 'request' ? { secrets: keptSecrets(secrets, limit) } : {}),
    note: `${type || 'untyped'} body of ${bytes} bytes, more than the ${limit / 1024} KiB kept: shown cut down, member by member`,
  };
}
