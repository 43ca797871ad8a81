import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { BodyLimits } from '../http/body-limits.js';

/**
 * Whether the app wants the body of this request: an endpoint serves it, and its Content-Length
 * (when it has one) is within that endpoint's limit.
 */
function wantsBody(request: IncomingMessage, limits: BodyLimits): boolean {
  const path = (request.url ?? '/').split('?', 1)[0]!;
  const found = limits.of(request.method ?? 'GET', path);
  if (!found) return false;
  const length = request.headers['content-length'];
  return length === undefined || request.headers['transfer-encoding'] !== undefined || !/^\d+$/.test(length) || Number(length) <= found.limit;
}

/**
 * Answers `Expect: 100-continue` the way the endpoint would: 100 Continue only when it wants the
 * body; otherwise the app answers at once (413 on the Content-Length, 404, 405) without the 100,
 * with `Connection: close`, so the client reads the refusal and never sends the body (Node's
 * default sends 100 to everyone, and curl then pushed megabytes at a refusal it never read).
 *
 * A refusal that comes while the client is still sending (no Expect, or a body of unknown length)
 * is left to @hono/node-server: after the answer it reads and throws away what is left of the
 * body, for at most 500 ms or 64 MB, before closing the connection, as nginx's lingering close
 * does, so fetch, curl and browsers read the answer instead of a reset.
 */
export function answerExpectContinue(server: Server, limits: BodyLimits): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (wantsBody(request, limits)) response.writeContinue();
    else response.setHeader('connection', 'close');
    server.emit('request', request, response);
  });
}
