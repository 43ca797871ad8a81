import { MAX_DEPTH, nestsDeeperThan } from '../http/json-depth.js';
import { isJsonMediaType } from '../http/media.js';
import { shortened } from './redact.js';
import { SecretSet, collectSecrets, collectTextSecrets } from './secrets.js';
import { REQUEST_LOG_BODY_LIMIT, REQUEST_LOG_RESPONSE_LIMIT, type RawMessage } from './entry.js';

const FORM = 'application/x-www-form-urlencoded';

/** Why a body over the limit that the log cannot parse is not kept. */
type Unparsed = { why: string };

/** A body over the limit as a value: JSON (not too deep) or a form; else why not. */
function parsedForLog(type: string, text: string, value: unknown): { value: unknown } | Unparsed {
  if (value !== undefined) return { value };
  if (type === FORM) return { value: Object.fromEntries(new URLSearchParams(text)) };
  if (type !== '' && !isJsonMediaType(type)) return { why: 'not kept: only JSON and form bodies are kept, and this one is too large to show whole' };
  if (nestsDeeperThan(text, MAX_DEPTH)) return { why: `not kept: it nests deeper than ${MAX_DEPTH} levels` };
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { why: 'not kept: it is not valid JSON' };
  }
}

/** UTF-8 length of a text, worked out only when the character count leaves a doubt. */
function byteLength(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : Buffer.byteLength(text);
}

/**
 * What the request log keeps of a body while serving. A body within the limit is kept as its
 * text (parsed and redacted when the log is read). A larger one is parsed now, when it is JSON or
 * a form, and kept cut down by its structure (`shortened`), never by its text, with its size; the
 * secret values found anywhere in a request body are kept beside it, so they can be scrubbed
 * wherever they turn up again. A large response that is not JSON (a page, a label) keeps its
 * first part as text: the sandbox wrote it. A response's `value` spares parsing its text.
 */
export function keptMessage(headers: RawMessage['headers'], type: string, text: string, side: 'request' | 'response', value?: unknown): RawMessage {
  if (text === '') return { headers, type };
  const limit = side === 'request' ? REQUEST_LOG_BODY_LIMIT : REQUEST_LOG_RESPONSE_LIMIT;
  const size = byteLength(text, limit);
  if (size <= limit) return { headers, type, text };
  const bytes = Buffer.byteLength(text);
  if (side === 'response' && type !== '' && !isJsonMediaType(type)) return { headers, type, text: text.slice(0, limit), truncated: true };
  const parsed = parsedForLog(type, text, value);
  const secrets = new SecretSet();
  if ('why' in parsed) {
    // Not shown, but an error may quote part of it: its secrets are kept to be scrubbed from the answer.
    if (side === 'request') collectTextSecrets(text, secrets);
    return { headers, type, note: `${type || 'untyped'} body of ${bytes} bytes, ${parsed.why}`, ...(side === 'request' ? { secrets: secrets.list() } : {}) };
  }
  if (side === 'request') collectSecrets(parsed.value, secrets);
  const short = shortened(parsed.value, limit, (item) => secrets.scrub(item));
  return {
    headers,
    type,
    text: JSON.stringify(short),
    summary: true,
    size: bytes,
    ...(side === 'request' ? { secrets: secrets.list() } : {}),
    note: `${type || 'untyped'} body of ${bytes} bytes, more than the ${limit / 1024} KiB kept: shown cut down, member by member`,
  };
}
