import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';
import type { Clock } from '../clock.js';
import type { TenantClocks } from '../store/tenant-clocks.js';
import { isUnlogged, type RawMessage, type RequestLog } from '../requestlog/log.js';
import { keptMessage } from '../requestlog/keep.js';
import type { Logger } from '../services.js';
import { UNREAD_BODY_LOG_BYTES, bodyWasRead, declaredLength } from './body.js';
import { CLIENT_CLOSED_REQUEST, clientClosed, loggedStatus } from './client-closed.js';
import { isJsonMediaType, mediaType } from './media.js';
import { knownResponse } from './response-text.js';

/**
 * Logs one line per request: method, path, status (499 when the client closed the connection
 * before the answer), duration and client. Headers, bodies and the query are never logged, so
 * tokens and credentials cannot leak into the log.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  // Building the line costs more than the level check, so skip it when info is off.
  if (logger.isLevelEnabled && !logger.isLevelEnabled('info')) return (_c, next) => next();
  return async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    const status = loggedStatus(c);
    logger.info(
      { method: c.req.method, path, status, ms: Math.round((performance.now() - started) * 10) / 10, client: c.get('principal')?.clientId },
      `${c.req.method} ${path} ${status}`,
    );
  };
}

function isTextual(type: string): boolean {
  return (
    isJsonMediaType(type) || type.startsWith('text/') || type === 'application/x-www-form-urlencoded' || type.endsWith('+xml') || type === 'application/xml'
  );
}

function note(type: string, length: string | null | undefined, why = 'not logged'): string {
  const size = length && /^\d+$/.test(length) ? `${length} bytes` : 'unknown size';
  return `${type || 'untyped'} body of ${size}, ${why}`;
}

/** The request headers as cheaply as they come: Node's raw list when served by Node. */
function requestHeaders(c: Context): Headers | string[] {
  const incoming = (c.env as { incoming?: { rawHeaders?: string[] } } | undefined)?.incoming;
  // The log encodes the list before the request ends, so it needs no copy.
  return incoming?.rawHeaders ?? c.req.raw.headers;
}

/** The request as kept, when that needs no body read: most GETs. Spares them an await. */
function keepBodilessRequest(c: Context): RawMessage | undefined {
  // A GET body is only looked at when announced (clients send `[]` with a GET now and then).
  const bodiless = c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS';
  if (!bodiless || c.req.header('content-length') || c.req.header('transfer-encoding')) return undefined;
  return { headers: requestHeaders(c), type: mediaType(c.req.header('content-type') ?? '') };
}

async function keepRequest(c: Context<AppEnv>): Promise<RawMessage> {
  const headers = requestHeaders(c);
  const type = mediaType(c.req.header('content-type') ?? '');
  const length = c.req.header('content-length');
  if (type !== '' && !isTextual(type)) return { headers, type, note: note(type, length) };
  const refused = c.get('bodyRefused');
  if (refused !== undefined) return { headers, type, note: note(type, length, refused.note) };
  if (!bodyWasRead(c)) {
    // Answered without its body (404, 405, 401, 413 on the Content-Length): the log reads a small
    // one, never a large one, so a refusal costs no more than the bytes it needed.
    const known = declaredLength(c);
    if (known === undefined || known > UNREAD_BODY_LOG_BYTES)
      return { headers, type, note: note(type, length, 'not read: the request was answered without it') };
  }
  try {
    // The handler has usually read the body already; Hono keeps it, so no stream is read twice.
    return keptMessage(headers, type, await c.req.text(), 'request', c.get('bodyParsed'));
  } catch {
    return { headers, type, note: note(type, length, 'unreadable') };
  }
}

/**
 * The response body as the log keeps it: the text of responses the sandbox built from a string
 * (no stream is read), a note for anything else. The response itself is never touched.
 */
function keepResponse(response: Response): RawMessage {
  const made = knownResponse(response);
  if (made)
    return keptMessage(
      made.headers,
      mediaType(made.headers['content-type'] ?? ''),
      made.text,
      'response',
      made.value === undefined ? undefined : { value: made.value },
    );
  const type = mediaType(response.headers.get('content-type') ?? '');
  const length = response.headers.get('content-length');
  if (response.status === 204 || response.status === 304 || length === '0') return { headers: response.headers, type };
  return { headers: response.headers, type, note: note(type, length) };
}

/** What the log keeps of an answer the client never got: why, the headers made, and the status it would have had (unless the failure was the closing itself). */
function unsentResponse(response: Response): RawMessage {
  const made = response.status < 500 ? ` (the sandbox's answer would have been ${response.status})` : '';
  return { headers: response.headers, type: '', note: `not sent: the client closed the connection before the answer${made}` };
}

/** The client a successful token request was for (it has no principal yet). */
function tokenClient(c: Context, status: number, request: RawMessage): string | undefined {
  if (status !== 200 || c.req.path !== '/access-token') return undefined;
  const basic = /^\s*Basic\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  const decoded = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8') : undefined;
  if (decoded?.includes(':')) {
    try {
      return decodeURIComponent(decoded.slice(0, decoded.indexOf(':')));
    } catch {
      return undefined;
    }
  }
  try {
    const body = request.type === 'application/x-www-form-urlencoded' ? Object.fromEntries(new URLSearchParams(request.text)) : JSON.parse(request.text ?? '');
    return typeof body?.client_id === 'string' ? body.client_id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps every request and its response for the sandbox's request log (`GET /_sandbox/requests`).
 * Only text is kept here; parsing and redaction wait until the log is read, so this costs
 * little on every request. A failure to capture is logged and otherwise ignored.
 */
export function captureRequests(services: { requestLog: RequestLog; clock: Clock; clocks: TenantClocks; logger?: Logger }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (isUnlogged(c.req.path)) return next();
    const log = services.requestLog;
    const id = log.nextId();
    c.set('requestId', id);
    const arrivedMs = services.clock.nowMs();
    const started = performance.now();
    await next();
    const duration = Math.round((performance.now() - started) * 10) / 10;
    try {
      const request = keepBodilessRequest(c) ?? (await keepRequest(c));
      const url = c.req.url;
      const principal = c.get('principal');
      const clientId = principal?.clientId ?? tokenClient(c, c.res.status, request);
      const closed = clientClosed(c);
      const deprecated = c.get('deprecated');
      // A tenant's request is dated on its clock (as far ahead of the global clock as it is now).
      const aheadMs = principal ? services.clocks.of(principal.organizationId).nowMs() - services.clock.nowMs() : 0;
      const time = Math.floor((arrivedMs + aheadMs) / 1000);
      log.add({
        id,
        time,
        method: c.req.method,
        url,
        path: url.slice(url.indexOf('/', url.indexOf('//') + 2)),
        status: closed ? CLIENT_CLOSED_REQUEST : c.res.status,
        duration_ms: duration,
        ...(clientId !== undefined ? { client_id: clientId } : {}),
        ...(deprecated ? { deprecated: deprecated.map(({ id, where, instead }) => ({ id, where, instead })) } : {}),
        request,
        response: closed ? unsentResponse(c.res) : keepResponse(c.res),
      });
    } catch (error) {
      services.logger?.warn({ err: error, method: c.req.method, path: c.req.path }, 'request log capture failed');
    }
  };
}
