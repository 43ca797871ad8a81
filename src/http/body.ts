import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../jsonapi/errors.js';
import { validated } from '../jsonapi/validation.js';
import type { BodyFormat } from './endpoint.js';
import { JsonDepthScanner, MAX_DEPTH, nestsDeeperThan } from './json-depth.js';
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
 * Headers of a refusal sent before the body was read to its end: the connection is closed after
 * the answer, so the rest of the body is not received only to be thrown away.
 */
export const UNREAD_BODY_HEADERS = { connection: 'close' } as const;

function tooLarge(maxBytes: number): ApiError {
  return ApiError.of('tooLarge', `The request body is larger than ${maxBytes} bytes, the most this endpoint takes.`, {
    source: { header: 'Content-Length' },
    headers: { ...UNREAD_BODY_HEADERS },
  });
}

function tooDeep(unread = false): ApiError {
  const message = `The request body nests deeper than ${MAX_DEPTH} levels.`;
  return unread ? ApiError.of('invalidSchema', message, { source: { pointer: '' }, headers: { ...UNREAD_BODY_HEADERS } }) : ApiError.invalid(message, '');
}

/** The body's length when its Content-Length gives it (and no Transfer-Encoding overrides that). */
export function declaredLength(c: Context): number | undefined {
  const length = c.req.header('content-length');
  return length !== undefined && /^\d+$/.test(length) && !c.req.header('transfer-encoding') ? Number(length) : undefined;
}

/** Whether a body of this Content-Type is read as JSON (none, or a JSON type). */
export function readsAsJson(contentType: string | undefined): boolean {
  const type = contentType === undefined ? '' : mediaType(contentType);
  return type === '' || isJsonMediaType(type);
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
 * Reads the body stream as text, counting bytes and (for JSON) nesting as the pieces arrive, and
 * stops at the first byte that breaks a limit. Past `maxBytes` it throws `tooLargeError()`. Past
 * `MAX_DEPTH` it remembers the refusal (400) for whoever parses the body: an answer that does not
 * need the body (404, 405) is not changed by it. What was read stays in Hono's body cache, so the
 * request log does not read the stream again, and notes a body refused halfway as such.
 */
export async function streamBody(c: Context<AppEnv>, maxBytes: number, json: boolean, tooLargeError: () => ApiError): Promise<void> {
  const body = c.req.raw.body;
  if (!body) return;
  const scanner = json ? new JsonDepthScanner(MAX_DEPTH) : undefined;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let size = 0;
  const stop = async (error: ApiError, why: string) => {
    await reader.cancel().catch(() => undefined);
    bodyCache(c).text = Promise.resolve(parts.join(''));
    c.set('bodyRefused', { note: `refused after ${size} bytes: ${why}`, error });
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      const error = tooLargeError();
      await stop(error, `larger than ${maxBytes} bytes`);
      throw error;
    }
    const piece = decoder.decode(value, { stream: true });
    parts.push(piece);
    if (scanner && !scanner.feed(piece)) return stop(tooDeep(true), `nests deeper than ${MAX_DEPTH} levels`);
  }
  parts.push(decoder.decode());
  bodyCache(c).text = Promise.resolve(parts.join(''));
  if (json) c.set('bodyScanned', true);
}

/**
 * The body as text, refused (413) past `maxBytes` and (400) past `MAX_DEPTH` levels of JSON
 * nesting before anything parses it. A small body of known length is read at once and then
 * scanned (the path of nearly every request); a larger one is scanned as it is read.
 */
async function readText(c: Context<AppEnv>, json: boolean, maxBytes: number | undefined): Promise<string> {
  const known = declaredLength(c);
  if (maxBytes !== undefined && known !== undefined && known > maxBytes) throw tooLarge(maxBytes);
  const cache = bodyCache(c);
  if (cache.text === undefined && cache.arrayBuffer === undefined && (known === undefined || known > WHOLE_READ_BYTES)) {
    await streamBody(c, maxBytes ?? Number.POSITIVE_INFINITY, json, () => tooLarge(maxBytes!));
  }
  const refused = c.get('bodyRefused');
  if (refused) throw refused.error;
  const text = await c.req.text();
  if (maxBytes !== undefined && Buffer.byteLength(text) > maxBytes) throw tooLarge(maxBytes);
  if (json && !c.get('bodyScanned') && nestsDeeperThan(text, MAX_DEPTH)) throw tooDeep();
  return text;
}

/**
 * Reads and validates a request body. Liberal in what it accepts: no Content-Type, or any JSON
 * type, is read as JSON; only an explicit other type is refused (415). Size and nesting are
 * checked while the body is read, before it is parsed. Gives the validated body and the body as
 * it was sent (parsed, with members the schema does not know).
 */
export async function readBody<T>(
  c: Context<AppEnv>,
  schema: z.ZodType<T>,
  format: BodyFormat,
  optional = false,
  maxBytes?: number,
): Promise<{ body: T | undefined; raw: unknown }> {
  const contentType = c.req.header('content-type');
  const type = contentType ? mediaType(contentType) : undefined;
  const isForm = type === FORM && format === 'json-or-form';
  if (type !== undefined && type !== '' && !isJsonMediaType(type) && !isForm) {
    throw ApiError.of('invalidHeader', `Content-Type '${type}' is not accepted; send JSON (application/vnd.api+json or application/json).`, {
      status: 415,
      source: { header: 'Content-Type' },
    });
  }
  const text = await readText(c, !isForm, maxBytes);
  if (optional && ['', '{}', '[]', 'null'].includes(text.trim())) return { body: undefined, raw: undefined };
  let parsed: unknown;
  if (isForm) {
    parsed = Object.fromEntries(new URLSearchParams(text));
  } else {
    if (text.trim() === '') throw ApiError.invalid('The request body is empty; a JSON document is required.', '');
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw ApiError.invalid(`The request body is not valid JSON: ${(error as Error).message}.`, '');
    }
  }
  return { body: validated(schema, parsed, 'pointer'), raw: parsed };
}
