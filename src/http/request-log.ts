import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';
import type { Clock } from '../clock.js';
import type { TenantClocks } from '../store/tenant-clocks.js';
import type { ReadView } from '../store/store.js';
import { answeredCaller } from './answered-caller.js';
import { isUnlogged, type RawMessage, type RequestLog } from '../requestlog/log.js';
import { REQUEST_LOG_RESPONSE_LIMIT } from '../requestlog/entry.js';
import { keptMessage } from '../requestlog/keep.js';
import type { Logger } from './services.js';
import { UNREAD_BODY_LOG_BYTES, bodyWasRead, declaredLength } from './body.js';
import { CLIENT_CLOSED_REQUEST, clientClosed, loggedStatus } from './client-closed.js';
import { isJsonMediaType, mediaType } from './media.js';
import { knownResponse } from './response-text.js';
import { collectHeaderSecrets } from '../requestlog/redact.js';
import { SecretSet, collectSecrets, collectTextSecrets } from '../requestlog/secrets.js';

/** What the access line says about a failed request: its first error. */
export interface LoggedError {
  code?: string;
  title?: string;
  detail?: string;
  /** Where in the request: one of these, as the error's `source` has it. */
  pointer?: string;
  parameter?: string;
  header?: string;
  /** How many more errors the answer lists. */
  more?: number;
}

/** The longest detail the access line keeps of an error; the request log has it whole. */
const LOGGED_DETAIL_CHARS = 300;

/**
 * The first error of a failed answer, for the access line: read from the value the sandbox made
 * the answer from (no body is parsed), and scrubbed of the secrets the request carried (its
 * headers, query and parsed body), as the request log scrubs them.
 */
function firstError(c: Context<AppEnv>): LoggedError | undefined {
  const errors = (knownResponse(c.res)?.value as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const first = errors[0] as { code?: unknown; title?: unknown; detail?: unknown; source?: Record<string, unknown> };
  const secrets = new SecretSet();
  collectHeaderSecrets(c.req.raw.headers, secrets);
  const mark = c.req.url.indexOf('?');
  if (mark >= 0) collectTextSecrets(c.req.url.slice(mark), secrets);
  const parsed = c.get('bodyParsed');
  if (parsed && 'value' in parsed) collectSecrets(parsed.value, secrets);
  const text = (value: unknown, most = LOGGED_DETAIL_CHARS) => {
    if (typeof value !== 'string') return undefined;
    const clean = secrets.scrub(value);
    return clean.length > most ? `${clean.slice(0, most)}...` : clean;
  };
  const error: LoggedError = { code: text(first.code), title: text(first.title), detail: text(first.detail) };
  for (const where of ['pointer', 'parameter', 'header'] as const) {
    const at = text(first.source?.[where]);
    if (at !== undefined) {
      error[where] = at;
      break;
    }
  }
  if (errors.length > 1) error.more = errors.length - 1;
  return error;
}

/** The client a token was just granted to (a token request has no principal): from Basic credentials or the body the endpoint parsed. */
function grantedClient(c: Context<AppEnv>, status: number): string | undefined {
  if (status !== 200 || c.req.path !== '/access-token') return undefined;
  const basic = /^\s*Basic\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (basic) {
    const pair = Buffer.from(basic[1]!, 'base64').toString('utf8');
    if (!pair.includes(':')) return undefined;
    try {
      return decodeURIComponent(pair.slice(0, pair.indexOf(':')));
    } catch {
      return undefined;
    }
  }
  const parsed = c.get('bodyParsed');
  const id = parsed && 'value' in parsed ? (parsed.value as { client_id?: unknown } | null)?.client_id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Whether `requestLog` writes anything with this logger (info is on); src/app.ts leaves it out of the chain otherwise. */
export function logsRequests(logger: Logger): boolean {
  return !logger.isLevelEnabled || logger.isLevelEnabled('info');
}

/**
 * Logs one line per request: method, path, status (499 when the client closed the connection
 * before the answer), duration and client, and for an answer of 400 or more the first error's
 * code, title, detail and where (`error`), so the console says why. Headers, bodies and the query
 * are never logged, and an error's text is scrubbed of the request's secrets, so tokens and
 * credentials cannot leak into the log.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  // Building the line costs more than the level check, so skip it when info is off.
  if (!logsRequests(logger)) return (_c, next) => next();
  return async (c, next) => {
    const started = performance.now();
    await next();
    const path = c.req.path;
    const status = loggedStatus(c);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const client = c.get('principal')?.clientId ?? grantedClient(c, status);
    // A success costs the line nothing more than it did; only a failure looks for its error.
    const error = status >= 400 && status !== CLIENT_CLOSED_REQUEST ? firstError(c) : undefined;
    logger.info(
      error ? { method: c.req.method, path, status, ms, client, error } : { method: c.req.method, path, status, ms, client },
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

/** The raw header list the log kept last, in one sandbox's capture. */
interface LastHeaders {
  list: string[] | undefined;
}

/**
 * The raw header list to keep: the one kept last when this request's names and values are the
 * same, else this one with each string equal to the last list's at the same place replaced by
 * that one. A client sends the same headers with every request (its token, host, user agent),
 * and each arrives as fresh strings, the token ~430 characters: the log's 500 entries held a copy
 * each, and every copy lived long enough to be promoted to the old generation. Equal strings are
 * interchangeable and kept lists are only read, so nothing anyone reads changes.
 * GET /shipments/{id} on the compiled server, one token, 60,000 requests at 10 connections
 * (`--trace-gc-nvp`, three runs each in turns): promoted 1,516-1,526 -> 302-327 bytes a
 * request, full collections 10 -> 4, GC pauses 3.8-4.7 -> 2.6-2.9 us a request, server CPU
 * 64-77 -> 62-64 us a request.
 */
function sharedHeaders(raw: string[], last: LastHeaders): string[] {
  const previous = last.list;
  if (previous !== undefined) {
    let same = previous.length === raw.length;
    for (let at = 0; at < raw.length && at < previous.length; at++) {
      if (raw[at] === previous[at]) raw[at] = previous[at]!;
      else same = false;
    }
    if (same) return previous;
  }
  last.list = raw;
  return raw;
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
  if (made) {
    const type = mediaType(made.headers['content-type'] ?? '');
    const value = made.value;
    if (typeof value !== 'object' || value === null || made.text.length <= REQUEST_LOG_RESPONSE_LIMIT) {
      return keptMessage(made.headers, type, made.text, 'response', value === undefined ? undefined : { value });
    }
    // A large answer is kept cut down member by member; a cached document (render-cache.ts) is
    // answered again and again from one value, so it is cut down once. A cached 30-shipment page:
    // ~120 us of CPU per request less (npm run bench:attribution).
    const known = keptLarge.get(value);
    if (known !== undefined && known.text === made.text && known.type === type) return { ...known.kept, headers: made.headers };
    const kept = keptMessage(made.headers, type, made.text, 'response', { value });
    keptLarge.set(value, { text: made.text, type, kept });
    return kept;
  }
  const type = mediaType(response.headers.get('content-type') ?? '');
  const length = response.headers.get('content-length');
  if (response.status === 204 || response.status === 304 || length === '0') return { headers: response.headers, type };
  return { headers: response.headers, type, note: note(type, length) };
}

/** Large answers as kept, by the document they were made from (its fields are strings: nothing shared is ever changed). */
const keptLarge = new WeakMap<object, { text: string; type: string; kept: RawMessage }>();

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
export function captureRequests(services: {
  requestLog: RequestLog;
  clock: Clock;
  clocks: TenantClocks;
  store: ReadView;
  logger?: Logger;
}): MiddlewareHandler<AppEnv> {
  const lastHeaders: LastHeaders = { list: undefined };
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
      if (Array.isArray(request.headers)) request.headers = sharedHeaders(request.headers, lastHeaders);
      const url = c.req.url;
      const principal = answeredCaller(c, services.store);
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
        // One shape for every entry: members left undefined (the log's readers take that as absent), no throwaway objects spread in.
        client_id: clientId,
        deprecated: deprecated?.map(({ id, where, instead }) => ({ id, where, instead })),
        request,
        response: closed ? unsentResponse(c.res) : keepResponse(c.res),
      });
    } catch (error) {
      services.logger?.warn({ err: error, method: c.req.method, path: c.req.path }, 'request log capture failed');
    }
  };
}
