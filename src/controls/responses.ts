import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';
import { errorDocument } from '../jsonapi/schemas.js';
import type { ResponseSpec } from '../http/endpoint.js';

/** An error response of a control endpoint, documented with the JSON:API errors document. */
export function errorResponse(description: string): ResponseSpec {
  return { description, schema: errorDocument, contentTypes: [JSONAPI_MEDIA_TYPE] };
}
