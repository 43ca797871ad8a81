import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';
import { textResponse } from './response-text.js';

/** A JSON:API response. */
export function jsonApi(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return textResponse(JSON.stringify(body), { status, headers: { 'content-type': JSONAPI_MEDIA_TYPE, ...headers }, value: body });
}

/** A plain JSON response (auth server, sandbox controls, RPC endpoints). */
export function plainJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return textResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers }, value: body });
}
