import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../jsonapi/errors.js';
import { validated } from '../jsonapi/validation.js';
import type { BodyFormat } from './endpoint.js';
import { isJsonMediaType, mediaType } from './media.js';

const FORM = 'application/x-www-form-urlencoded';

/** No request of this API nests deeper; deeper documents are refused before anything recurses into them. */
export const MAX_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `max` levels (checked without recursion). */
function tooDeep(value: unknown, max: number): boolean {
  // Two parallel stacks rather than a [value, depth] pair per value: this runs on every body.
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > max) return true;
    const children = current as Record<string, unknown>;
    for (const key in children) {
      const child = children[key];
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * Reads and validates a request body. Liberal in what it accepts: no Content-Type, or any JSON
 * type, is read as JSON; only an explicit other type is refused (415).
 */
export async function readBody<T>(c: Context, schema: z.ZodType<T>, format: BodyFormat, optional = false): Promise<T | undefined> {
  const contentType = c.req.header('content-type');
  const type = contentType ? mediaType(contentType) : undefined;
  const isForm = type === FORM && format === 'json-or-form';
  if (type !== undefined && type !== '' && !isJsonMediaType(type) && !isForm) {
    throw ApiError.of('invalidHeader', `Content-Type '${type}' is not accepted; send JSON (application/vnd.api+json or application/json).`, {
      status: 415,
      source: { header: 'Content-Type' },
    });
  }
  const text = await c.req.text();
  if (optional && ['', '{}', '[]', 'null'].includes(text.trim())) return undefined;
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
  if (tooDeep(parsed, MAX_DEPTH)) throw ApiError.invalid(`The request body nests deeper than ${MAX_DEPTH} levels.`, '');
  return validated(schema, parsed, 'pointer');
}
