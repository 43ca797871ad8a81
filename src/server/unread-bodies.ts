import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { BodyLimits } from '../http/body-limits.js';

/*
 * What the server does with a request body the app did not read to its end (refused on its
 * Content-Length, or halfway for its size or shape, or answered without it): it makes sure the
 * client reads the answer, at a bounded cost.
 */

/**
 * An answer sent before its request's body was read is ended only after the server has read and
 * thrown away the rest of the body, for at most this long: time for a client that is still
 * sending to read the answer, as nginx's lingering close gives it. Closing at once (Node does when
 * the client said `Connection: close`) made Node's fetch fail with EPIPE and curl see only
 * `100 Continue`; @hono/node-server's own drain (500 ms) closed under senders of 16 bodies of 5 MB.
 */
const LINGER_MS = 2000;

/**
 * ... reading at most this many bytes of it: past them the server stops reading (the client's
 * sending stalls) and waits out LINGER_MS for the client to read the answer and go; fetch, curl
 * and browsers stop sending once they have it. Closing at once past them reset fetch, which had
 * not yet read an answer sent a few milliseconds earlier (8 MiB arrive in that time on loopback).
 * Reading 1 MiB rather than 8 of each refused 5 MB body took the hostile bench's `/health` p99
 * from 37-39 ms to 19-28 ms with anonymous senders only (and 44-49 ms with all of them).
 */
const LINGER_BYTES = 1024 * 1024;

/** Requests answered without 100 Continue: their body is not coming. */
const uninvited = new WeakSet<IncomingMessage>();

/**
 * Reads and throws away the rest of `request`'s body, up to LINGER_BYTES, then calls `done(true)`
 * when it ended or the client went, `done(false)` after LINGER_MS. Whatever was reading the body
 * (the app's stream of it) has given up, so its listener goes, as in Node's own dump of an unread
 * body.
 */
function drain(request: IncomingMessage, done: (ended: boolean) => void): void {
  let bytes = 0;
  const finish = (ended: boolean) => {
    clearTimeout(timer);
    request.off('data', count);
    request.off('end', onEnd);
    request.off('close', onEnd);
    request.off('error', onEnd);
    done(ended);
  };
  const onEnd = () => finish(true);
  const count = (piece: Buffer) => {
    bytes += piece.length;
    if (bytes > LINGER_BYTES) request.pause();
  };
  const timer = setTimeout(() => finish(false), LINGER_MS);
  request.removeAllListeners('data');
  request.on('data', count);
  request.once('end', onEnd);
  request.once('close', onEnd);
  request.once('error', onEnd);
  request.resume();
}

/**
 * A response that, sent while its request's body is still arriving, goes out at once but is
 * ended only once the rest of the body was thrown away (`drain`), so that Node closes the
 * connection (`Connection: close`) or reuses it only when the client has stopped sending; past
 * the bounds the connection is closed. Passed to the server as its `ServerResponse` class.
 */
export class LingeringResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    const request = this.req;
    if (request.complete || request.destroyed || uninvited.has(request) || this.writableEnded) {
      return super.end(chunk as string, encoding as BufferEncoding, callback as () => void);
    }
    if (typeof chunk === 'function') [callback, chunk] = [chunk, undefined];
    if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
    if (chunk !== undefined && chunk !== null) this.write(chunk as string, encoding as BufferEncoding);
    drain(request, (ended) => {
      super.end(callback as () => void);
      if (!ended) request.socket?.destroy();
    });
    return this;
  }
}

/**
 * Whether the app wants the body of this request: an endpoint serves it, the request carries the
 * token the endpoint needs (without one the answer is a 401, whatever the body), and its
 * Content-Length (when it has one) is within that endpoint's limit.
 */
function wantsBody(request: IncomingMessage, limits: BodyLimits): boolean {
  const path = (request.url ?? '/').split('?', 1)[0]!;
  const found = limits.of(request.method ?? 'GET', path);
  if (!found) return false;
  // Endpoints that take the admin token also take no token on a sandbox without one: only those
  // that never do are told here.
  const { auth } = found.endpoint;
  const needsToken = auth === 'token' || (typeof auth === 'object' && auth.admin !== true);
  if (needsToken && !request.headers.authorization?.trim()) return false;
  const length = request.headers['content-length'];
  return length === undefined || request.headers['transfer-encoding'] !== undefined || !/^\d+$/.test(length) || Number(length) <= found.limit;
}

/**
 * Answers `Expect: 100-continue` the way the endpoint would: 100 Continue only when it wants the
 * body; otherwise the app answers at once (413 on the Content-Length, 404, 405) without the 100,
 * with `Connection: close`, so the client reads the refusal and never sends the body (Node's
 * default sends 100 to everyone, and curl then pushed megabytes at a refusal).
 */
export function answerExpectContinue(server: Server, limits: BodyLimits): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (wantsBody(request, limits)) {
      response.writeContinue();
    } else {
      uninvited.add(request);
      response.setHeader('connection', 'close');
    }
    server.emit('request', request, response);
  });
}
