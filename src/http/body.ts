import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from '../jsonapi/errors.js';
import { schemaErrors } from '../jsonapi/validation.js';
import type { BodyFormat } from './endpoint.js';
import { isJsonMediaType, mediaType } from './media.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Reads and validates a request body. Liberal in what it accepts: no Content-Type, or any JSON
 * type, is read as JSON; only an explicit other type is refused (415).
 */
export async function readBody<T>(c: Context, schema: z.ZodType<T>, format: BodyFormat): Promise<T> {
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
  const result = schema.safeParse(parsed);
  if (!result.success) throw new ApiError(schemaErrors(result.error, 'pointer'));
  return result.data;
}
