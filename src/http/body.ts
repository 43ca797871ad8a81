import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError, toPointer } from '../jsonapi/errors.js';
import { validated } from '../jsonapi/validation.js';
import { sizeText } from './body-limits.js';
import type { BodyFormat } from './endpoint.js';
import { JsonDepthScanner, MAX_DEPTH, MAX_ELEMENTS } from './json-depth.js';
import { jsonSyntaxDetail } from './json-syntax.js';
import { dropAddressNulls } from './address-nulls.js';
import { isControlPath } from './control-access.js';
import { isJsonMediaType, mediaType } from './media.js';
import type { AppEnv } from './env.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Bodies with a Content-Length up to this are read at once and then scanned (the path of nearly
 * every request); larger or chunked ones are scanned as they arrive, and reading stops at the
 * first byte that breaks a limit.
 */
const WHOLE_READ_BYTES = 64 * 1024;

/**
 * A body being read gives way to other requests after every this many bytes. Chunks that have
 * already arrived are read back to back without returning to the event loop, so 16 bodies of
 * 5 MB kept it busy for up to 80 ms at a time and `/health` waited as long: giving way took the
 * hostile bench's `/health` p99 from 105-115 ms to 64-77 ms on a busy 2-core machine.
 */
const YIELD_BYTES = 256 * 1024;

/**
 * The event loop's own setImmediate, taken when this module loads: a test suite that embeds the
 * sandbox (createSandbox) and fakes its timers afterwards (vi.useFakeTimers(), jest's modern fake
 * timers) replaces the global one with one that runs only when the test advances it, and every
 * body past YIELD_BYTES waited for it forever.
 */
const realSetImmediate = setImmediate;

/** Lets the event loop run what is waiting (I/O, timers) before going on. */
const giveWay = () => new Promise<void>((resume) => realSetImmediate(resume));

/** An endpoint as a 413 names it: `POST /shops`. */
export interface Named {
  method: string;
  path: string;
}

/** 413: the body is over the endpoint's limit, which the detail and `meta.max_bytes` give. */
export function tooLarge(limit: number, endpoint: Named): ApiError {
  return ApiError.of('tooLarge', `The request body is larger than ${sizeText(limit)}, the most ${endpoint.method.toUpperCase()} ${endpoint.path} takes.`, {
    source: { header: 'Content-Length' },
    meta: { max_bytes: limit },
  });
}

/** 400 for a JSON body refused before it was parsed: too deep, or too many values. */
function misshapen(scanner: JsonDepthScanner): ApiError {
  return ApiError.invalid(
    scanner.broke === 'depth'
      ? `The request body nests deeper than ${MAX_DEPTH} levels.`
      : `The request body holds more than ${MAX_ELEMENTS.toLocaleString('en')} values (members and items); no request of this API holds that many.`,
    '',
  );
}

/**
 * Bodies are decoded as strict UTF-8. JSON is UTF-8 (RFC 8259) and a form's bytes are ASCII;
 * decoding a byte that is not UTF-8 into U+FFFD would store a name the client never sent.
 * Decoding without `stream` keeps no state, so one decoder serves every whole body.
 */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** 400 for a body that is not UTF-8; `at` is how many bytes of it decoded cleanly, when known. */
function notUtf8(at: number | undefined, json: boolean): ApiError {
  const where = `The request body is not valid UTF-8${at === undefined ? '' : ` (after byte ${at})`}`;
  // A form is not JSON: its sender is told what a form's bytes must be, under a title that does not call it JSON.
  if (!json) return ApiError.invalid(`${where}; percent-encode the form's names and values as UTF-8.`, '');
  return ApiError.of('notJson', `${where}; send JSON encoded as UTF-8.`, { source: { pointer: '' } });
}

/**
 * Where a buffer's UTF-8 breaks: the length of its longest prefix that decodes as the start of a
 * stream. A stream decoder holds back a character cut at the end instead of refusing it, so a
 * prefix that decodes only has longer ones that do up to the broken byte, and a binary search
 * finds it (on a refused body of at most WHOLE_READ_BYTES, 17 decodes at most).
 */
function validUtf8Prefix(bytes: Uint8Array): number {
  let good = 0;
  let bad = bytes.length;
  while (good < bad) {
    const middle = Math.ceil((good + bad) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, middle), { stream: true });
      good = middle;
    } catch {
      bad = middle - 1;
    }
  }
  return good;
}

/** The whole body, read at once, decoded as strict UTF-8 (see `strictUtf8`); what was read stays in Hono's body cache as text. */
async function wholeText(c: Context<AppEnv>, json: boolean): Promise<string> {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  try {
    const text = strictUtf8.decode(bytes);
    bodyCache(c).text = Promise.resolve(text);
    return text;
  } catch {
    // The request log shows what arrived, the broken bytes as U+FFFD.
    bodyCache(c).text = Promise.resolve(new TextDecoder().decode(bytes));
    throw refuseBody(c, notUtf8(validUtf8Prefix(bytes), json), 'not UTF-8');
  }
}

/** Why the scanner stopped, as the request log notes it. */
const brokenLimit = (scanner: JsonDepthScanner) =>
  scanner.broke === 'depth' ? `nests deeper than ${MAX_DEPTH} levels` : `holds more than ${MAX_ELEMENTS} values`;

/** The body's length when its Content-Length gives it (and no Transfer-Encoding overrides that). */
export function declaredLength(c: Context): number | undefined {
  const length = c.req.header('content-length');
  return length !== undefined && /^\d+$/.test(length) && !c.req.header('transfer-encoding') ? Number(length) : undefined;
}

/** Hono keeps the promise of each reading of the body here (its type says otherwise). */
function bodyCache(c: Context): Record<string, Promise<unknown> | undefined> {
  return c.req.bodyCache as Record<string, Promise<unknown> | undefined>;
}

/** Whether the body was read (and Hono keeps it), so reading it again costs nothing. */
export function bodyWasRead(c: Context): boolean {
  const cache = bodyCache(c);
  return cache.text !== undefined || cache.arrayBuffer !== undefined;
}

/** Bodies no handler read are read for the request log only up to this size: a refusal stays cheap. */
export const UNREAD_BODY_LOG_BYTES = WHOLE_READ_BYTES;

/**
 * Notes for the request log that the body was refused after `size` bytes (it does not read the
 * rest), and gives the error to throw. What was read stays in Hono's body cache.
 */
export function refuseBody(c: Context<AppEnv>, error: ApiError, why: string, size?: number): ApiError {
  c.set('bodyRefused', { note: size === undefined ? `refused unread: ${why}` : `refused after ${size} bytes: ${why}`, error });
  return error;
}

/**
 * Reads the body stream as text, counting bytes and (for JSON) nesting and values as the pieces
 * arrive, and stops at the first byte that breaks a limit: past `maxBytes` with `tooLargeError()`,
 * past the scanner's limits with a 400. What was read stays in Hono's body cache. The rest of a
 * refused body is left to the server, which reads and throws away a bounded amount of it so the
 * client, still sending, reads the answer (see server/unread-bodies.ts).
 */
async function streamBody(c: Context<AppEnv>, maxBytes: number, scanner: JsonDepthScanner | undefined, tooLargeError: () => ApiError): Promise<string> {
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  let size = 0;
  let unyielded = 0;
  const stop = (error: ApiError, why: string) => {
    // Not cancelled: on Node that would destroy the request and reset the connection before the
    // answer is read. The server throws away the rest (server/unread-bodies.ts).
    reader.releaseLock();
    bodyCache(c).text = Promise.resolve(parts.join(''));
    return refuseBody(c, error, why, size);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) throw stop(tooLargeError(), `larger than ${maxBytes} bytes`);
    let piece: string;
    try {
      piece = decoder.decode(value, { stream: true });
    } catch {
      throw stop(notUtf8(undefined, scanner !== undefined), 'not UTF-8');
    }
    parts.push(piece);
    if (scanner && !scanner.feed(piece)) throw stop(misshapen(scanner), brokenLimit(scanner));
    unyielded += value.byteLength;
    if (unyielded >= YIELD_BYTES) {
      unyielded = 0;
      await giveWay();
    }
  }
  try {
    // A body that ends inside a character.
    parts.push(decoder.decode());
  } catch {
    throw stop(notUtf8(size, scanner !== undefined), 'not UTF-8');
  }
  const text = parts.join('');
  bodyCache(c).text = Promise.resolve(text);
  return text;
}

/**
 * The body as text, refused (413) past `maxBytes` and (400) past `MAX_DEPTH` levels of JSON
 * nesting or `MAX_ELEMENTS` values before anything parses it. A small body of known length is
 * read at once and then scanned (the path of nearly every request); a larger one is scanned as
 * it is read. Every character is scanned once.
 */
async function readText(c: Context<AppEnv>, json: boolean, maxBytes: number, endpoint: Named): Promise<string> {
  const known = declaredLength(c);
  if (known !== undefined && known > maxBytes) throw refuseBody(c, tooLarge(maxBytes, endpoint), `larger than ${maxBytes} bytes`);
  const scanner = json ? new JsonDepthScanner(MAX_DEPTH, MAX_ELEMENTS) : undefined;
  if (bodyWasRead(c) || (known !== undefined && known <= WHOLE_READ_BYTES)) {
    const text = bodyWasRead(c) ? await c.req.text() : await wholeText(c, json);
    if (scanner && !scanner.feed(text)) throw refuseBody(c, misshapen(scanner), brokenLimit(scanner));
    return text;
  }
  return streamBody(c, maxBytes, scanner, () => tooLarge(maxBytes, endpoint));
}

/**
 * Whether an optional body is absent. The API takes `[]` and `null` as no body too (clients send
 * them for "nothing", and the API always took them so); a sandbox control does not: what it does
 * without a body can be drastic (`POST /_sandbox/reset` resets the whole sandbox), so a body that
 * is not an object, such as a script's `null` for a variable it failed to fill, is refused rather
 * than taken as none.
 */
function isNoBody(text: string, endpoint: Named): boolean {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '{}') return true;
  return (trimmed === '[]' || trimmed === 'null') && !isControlPath(endpoint.path);
}

/**
 * The fields of a form body. A field sent twice is refused, as OAuth 2.0 asks of its parameters
 * (RFC 6749, 3.1): taking one of the two would grant what the client may not have meant.
 */
function formFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name)) {
      throw ApiError.invalid(`'${name}' is given more than once; send each field once.`, toPointer([name]));
    }
    fields[name] = value;
  }
  return fields;
}

/**
 * Refuses a JSON body holding a string that is not Unicode: an escaped UTF-16 surrogate without its
 * pair (`"\ud800"`). JSON.parse takes it, but it cannot be stored as UTF-8, strict parsers (jq)
 * refuse the answer that echoes it, and PHP's json_decode, as production reads bodies, fails on it.
 * Such a string can only arrive escaped, so a body without `\u` costs one search.
 */
function refuseUnpairedSurrogates(text: string, parsed: unknown): void {
  if (!text.includes('\\u')) return;
  const path = unpairedSurrogate(parsed, []);
  if (path) {
    throw ApiError.invalid(
      'This string holds an unpaired UTF-16 surrogate (an escape such as \\ud800 without its pair), which is not Unicode; send valid Unicode text.',
      toPointer(path),
    );
  }
}

/** A high surrogate not followed by a low one, or a low one not after a high one (String.prototype.isWellFormed is ES2024). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path of the first string or member name that is not well-formed Unicode. Bodies are depth-bounded before they are parsed. */
function unpairedSurrogate(value: unknown, path: (string | number)[]): (string | number)[] | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unpairedSurrogate(value[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return [...path, key];
      const found = unpairedSurrogate(member, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** The compressions of the HTTP content coding registry (and their old `x-` names). */
const COMPRESSIONS = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'compress', 'x-compress', 'zstd', 'dcb', 'dcz']);

/**
 * 415 for a body sent compressed (`Content-Encoding: gzip`, `br`, `deflate`): the API reads the
 * bytes as they arrive, and read as JSON a gzip stream was refused as "not valid UTF-8 (after byte
 * 1)", which sent its sender looking for a wrong character. The answer names the header and, as
 * RFC 9110 (section 12.5.3) asks of a refused content coding, says in `Accept-Encoding` what the
 * API takes: the body as it is. Not decompressed here: production documents no compressed
 * request bodies, and what works against the sandbox must work against production. A value that
 * names no compression (`identity`, or `utf-8` sent by a client that meant the charset) is read
 * past as before: the body is as it was sent, and production reads it so too.
 */
function refuseContentCoding(header: string | undefined): void {
  if (header === undefined) return;
  const compressed = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => COMPRESSIONS.has(coding));
  if (compressed.length === 0) return;
  throw ApiError.of(
    'invalidHeader',
    `Content-Encoding '${compressed.join(', ')}' is not accepted: the API reads request bodies uncompressed. Send the body as it is, without Content-Encoding.`,
    { status: 415, source: { header: 'Content-Encoding' }, headers: { 'accept-encoding': 'identity' } },
  );
}

/**
 * Reads and validates a request body. Liberal in what it accepts: no Content-Type, or any JSON
 * type, is read as JSON; only an explicit other type is refused (415). Size, nesting and the
 * number of values are checked while the body is read, before it is parsed. Gives the validated
 * body and the body as it was sent (parsed, with members the schema does not know).
 */
export async function readBody<T>(
  c: Context<AppEnv>,
  schema: z.ZodType<T>,
  format: BodyFormat,
  optional: boolean | undefined,
  maxBytes: number,
  endpoint: Named,
): Promise<{ body: T | undefined; raw: unknown }> {
  const contentType = c.req.header('content-type');
  const type = contentType ? mediaType(contentType) : undefined;
  const isForm = type === FORM && format === 'json-or-form';
  if (type !== undefined && type !== '' && !isJsonMediaType(type) && !isForm) {
    const formToo = format === 'json-or-form' ? ` or a form (${FORM})` : '';
    throw ApiError.of('invalidHeader', `Content-Type '${type}' is not accepted; send JSON (application/vnd.api+json or application/json)${formToo}.`, {
      status: 415,
      source: { header: 'Content-Type' },
    });
  }
  refuseContentCoding(c.req.header('content-encoding'));
  const text = await readText(c, !isForm, maxBytes, endpoint);
  if (optional && isNoBody(text, endpoint)) return { body: undefined, raw: undefined };
  let parsed: unknown;
  if (isForm) {
    parsed = formFields(text);
  } else {
    if (text.trim() === '') throw ApiError.of('notJson', 'The request body is empty; a JSON document is required.', { source: { pointer: '' } });
    try {
      parsed = JSON.parse(text);
    } catch {
      c.set('bodyParsed', { why: 'not kept: it is not valid JSON' });
      throw ApiError.of('notJson', jsonSyntaxDetail(text), { source: { pointer: '' } });
    }
  }
  if (!isForm) refuseUnpairedSurrogates(text, parsed);
  c.set('bodyParsed', { value: parsed });
  return { body: validated(schema, isForm ? parsed : dropAddressNulls(parsed, endpoint.method.toLowerCase() === 'post'), 'pointer'), raw: parsed };
}
