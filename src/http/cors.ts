import type { MiddlewareHandler } from 'hono';
import { jsonApi } from './respond.js';
import { errorObject } from '../jsonapi/errors.js';
import { isControlPath } from './control-access.js';
import { CORS_HEADERS, endingWithNewline, knownResponse } from './response-text.js';

const ALLOW_METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';
/** A method as HTTP spells one (a token); the Fetch standard refuses a preflight allowing anything else. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}$/;

/**
 * The methods a preflight allows: the API's, and the one the page asks for. A page that sends a
 * method the API does not take (PUT where JSON:API says PATCH) reads the 405 that names the
 * methods the path takes; with the preflight refused it saw only "Failed to fetch". Allowing the
 * method opens nothing: routing answers it with that 405.
 */
function allowedMethods(requested: string): string {
  const method = requested.trim();
  if (!METHOD.test(method) || ALLOW_METHODS.split(', ').includes(method)) return ALLOW_METHODS;
  return `${ALLOW_METHODS}, ${method}`;
}
/**
 * The request headers a page of another origin may send: those the API reference declares, and
 * X-Requested-With, which Swagger UI sends with its token request (Authorize, OAuth2 client
 * credentials): without it, Swagger UI on another origin (the Swagger Editor, a team's own copy)
 * loading /openapi.json had its preflight refused and never got a token.
 */
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Accept-Language, Idempotency-Key, If-None-Match, X-Requested-With';

/** Takes the CORS headers off a response, and off the copy a `textResponse` keeps for the request log. */
function withoutCors(response: Response): void {
  const made = knownResponse(response);
  for (const name of Object.keys(CORS_HEADERS)) {
    response.headers.delete(name);
    if (made) delete made.headers[name];
  }
}

/**
 * CORS open to every origin for the emulated API (the docs site's try-it-out calls the sandbox
 * from the browser), and closed for the sandbox controls (`/_sandbox/`): their preflights are
 * refused and their answers carry no `Access-Control-Allow-Origin`, so no page of another origin
 * can send them a JSON body or read what they answer.
 *
 * Headers are added to the response the handler made, after it is made: setting them earlier, as
 * hono's `cors()` does, makes Hono copy every response into a new one (and lose the server's fast
 * path for string bodies). `node bench/cors-middleware.mjs` measures both: hono's `cors()` served
 * a third of the requests per second this way does, which would take GET /shipments/{id} under its
 * bench target. Preflights are answered here without routing.
 */
export function openCors(): MiddlewareHandler {
  return async (c, next) => {
    const control = isControlPath(c.req.path);
    const requestedMethod = c.req.method === 'OPTIONS' ? c.req.header('access-control-request-method') : undefined;
    if (requestedMethod) {
      if (control) {
        const refusal = errorObject('actionNotAllowed', 'The sandbox controls (/_sandbox/) are not open to web pages of other origins.', {
          source: { header: 'Origin' },
        });
        const response = jsonApi({ errors: [refusal] }, 403);
        withoutCors(response);
        // Answered here, before the controls' own middleware that ends their answers with a line break.
        return endingWithNewline(response);
      }
      const headers = new Headers({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': allowedMethods(requestedMethod),
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '600',
        vary: 'Access-Control-Request-Method, Access-Control-Request-Headers',
      });
      return new Response(null, { status: 204, headers });
    }
    await next();
    if (control) return withoutCors(c.res);
    // Responses made by textResponse carry the headers already.
    if (knownResponse(c.res)) return;
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
  };
}
