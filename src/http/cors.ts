import type { MiddlewareHandler } from 'hono';
import { CORS_HEADERS, knownResponse } from './response-text.js';

const ALLOW_METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Idempotency-Key';

/**
 * CORS open to every origin (the docs site's try-it-out calls the sandbox from the browser).
 * Headers are added to the response the handler made, after it is made: setting them earlier
 * would make Hono copy every response into a new one (and lose the server's fast path for
 * string bodies). Preflights are answered here without routing.
 */
export function openCors(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      const headers = new Headers({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': ALLOW_METHODS,
        'access-control-allow-headers': ALLOW_HEADERS,
        'access-control-max-age': '600',
        vary: 'Access-Control-Request-Headers',
      });
      return new Response(null, { status: 204, headers });
    }
    await next();
    // Responses made by textResponse carry the headers already.
    if (knownResponse(c.res)) return;
    for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
  };
}
