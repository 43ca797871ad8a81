import type { Context, MiddlewareHandler } from 'hono';
import type { Principal } from '../auth/principal.js';
import { REQUEST_LOG_BODY_LIMIT, isUnlogged, type CapturedMessage, type RequestLog } from '../sandbox/request-log.js';
import { SecretSet, collectSecrets, redactHeaders, redactJson, redactPath } from '../sandbox/redact.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../services.js';
import { isJsonMediaType, mediaType } from './media.js';

export type AppEnv = { Variables: { principal?: Principal } };

/**
 * Logs one line per request: method, path, status, duration and client. Headers and bodies are
 * never logged, so tokens and credentials cannot leak into the log.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const url = new URL(c.req.url);
    logger.info(
      {
        method: c.req.method,
        path: url.pathname,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        client: c.get('principal')?.clientId,
      },
      `${c.req.method} ${url.pathname} ${c.res.status}`,
    );
  };
}

/** Bodies larger than this are not parsed for the log (only noted). */
const PARSE_LIMIT = 8 * 1024 * 1024;
/** How long the capture waits for a response body before giving up on it (never delays normal bodies). */
const READ_TIMEOUT_MS = 2000;

type Parsed = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'note'; note: string };

function isTextual(type: string): boolean {
  if (type === 'text/event-stream') return false;
  return (
    isJsonMediaType(type) ||
    type.startsWith('text/') ||
    type === 'application/x-www-form-urlencoded' ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/javascript'
  );
}

function sizeNote(type: string, length: string | null | undefined, why = 'not logged'): string {
  const size = length !== null && length !== undefined && /^\d+$/.test(length) ? `${length} bytes` : 'unknown size';
  return `${type || 'untyped'} body of ${size}, ${why}`;
}

/** Reads text as JSON when it is JSON (or untyped and looks like it), as a form, or as text. */
function parseText(text: string, type: string, form: boolean): Parsed {
  if (text === '') return { kind: 'none' };
  if (Buffer.byteLength(text) > PARSE_LIMIT) return { kind: 'note', note: sizeNote(type, String(Buffer.byteLength(text)), 'too large to log') };
  if (form) return { kind: 'json', value: Object.fromEntries(new URLSearchParams(text)) };
  if (type === '' || isJsonMediaType(type)) {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      // not JSON after all: keep it as text
    }
  }
  return { kind: 'text', value: text };
}

async function readRequest(c: Context): Promise<Parsed> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') {
    // Clients send `[]` as a GET body now and then; only look when one was announced.
    if (!c.req.header('content-length') && !c.req.header('transfer-encoding')) return { kind: 'none' };
  }
  const header = c.req.header('content-type');
  const type = header ? mediaType(header) : '';
  const length = c.req.header('content-length');
  if (type !== '' && !isTextual(type)) return { kind: 'note', note: sizeNote(type, length) };
  if (length !== undefined && Number(length) > PARSE_LIMIT) return { kind: 'note', note: sizeNote(type, length, 'too large to log') };
  try {
    // The handler has usually read the body already; Hono keeps it, so this reads no stream twice.
    const text = await c.req.text();
    return parseText(text, type, type === 'application/x-www-form-urlencoded');
  } catch {
    return { kind: 'note', note: sizeNote(type, length, 'unreadable') };
  }
}

/** `read` of a copy of the response, or `undefined` when it takes longer than the read timeout. */
async function withCopy<T>(response: Response, read: (copy: Response) => Promise<T>): Promise<T | undefined> {
  const copy = response.clone();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), READ_TIMEOUT_MS);
    timer.unref?.();
  });
  try {
    const result = await Promise.race([read(copy), timeout]);
    if (result === undefined) void copy.body?.cancel().catch(() => undefined);
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/** Counts the bytes of a body, dropping each chunk as it comes. */
async function countBytes(copy: Response): Promise<number> {
  let size = 0;
  const reader = copy.body!.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) size += chunk.value.byteLength;
  return size;
}

/**
 * Reads a copy of the response body; the response itself is left to stream to the client
 * untouched. Binary bodies are only measured, never kept.
 */
async function readResponse(response: Response): Promise<Parsed> {
  if (!response.body) return { kind: 'none' };
  const header = response.headers.get('content-type');
  const type = header ? mediaType(header) : '';
  const length = response.headers.get('content-length');
  try {
    if (!isTextual(type)) {
      if (length !== null || type === 'text/event-stream') return { kind: 'note', note: sizeNote(type, length) };
      const size = await withCopy(response, countBytes);
      return { kind: 'note', note: sizeNote(type, size === undefined ? null : String(size)) };
    }
    const text = await withCopy(response, (copy) => copy.text());
    if (text === undefined) return { kind: 'note', note: sizeNote(type, length, 'still streaming; not logged') };
    return parseText(text, type, type === 'application/x-www-form-urlencoded');
  } catch {
    return { kind: 'note', note: sizeNote(type, length, 'unreadable') };
  }
}

/** The body as the log keeps it: redacted, and cut at the capture limit. */
function captured(headers: Record<string, string>, parsed: Parsed, secrets: SecretSet): CapturedMessage {
  const message: CapturedMessage = { headers };
  if (parsed.kind === 'none') return message;
  if (parsed.kind === 'note') return { ...message, note: parsed.note };
  const value = parsed.kind === 'json' ? redactJson(parsed.value, secrets) : secrets.scrub(parsed.value);
  const text = parsed.kind === 'json' ? JSON.stringify(value) : (value as string);
  if (Buffer.byteLength(text) <= REQUEST_LOG_BODY_LIMIT) return { ...message, body: value };
  return { ...message, body: Buffer.from(text).subarray(0, REQUEST_LOG_BODY_LIMIT).toString('utf8'), truncated: true };
}

/** The client a successful token request was for (it has no principal yet). */
function tokenClient(c: Context, status: number, body: Parsed): string | undefined {
  if (status !== 200 || new URL(c.req.url).pathname !== '/access-token') return undefined;
  const basic = /^\s*Basic\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      try {
        return decodeURIComponent(decoded.slice(0, colon));
      } catch {
        return undefined;
      }
    }
  }
  if (body.kind === 'json' && body.value && typeof body.value === 'object') {
    const id = (body.value as Record<string, unknown>).client_id;
    if (typeof id === 'string') return id;
  }
  return undefined;
}

/**
 * Keeps every request and its response in the sandbox's request log (`GET /_sandbox/requests`),
 * with secrets redacted. Never changes the response: bodies are read from a clone, binary bodies
 * are only noted, and a failure to capture is logged and otherwise ignored.
 */
export function captureRequests(services: { requestLog: RequestLog; clock: Clock; logger?: Logger }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (isUnlogged(url.pathname)) return next();
    const log = services.requestLog;
    const id = log.nextId();
    const time = services.clock.now();
    const started = performance.now();
    await next();
    const duration = Math.round((performance.now() - started) * 10) / 10;
    try {
      const response = c.res;
      const secrets = new SecretSet();
      const requestHeaders = redactHeaders(c.req.raw.headers, secrets);
      const responseHeaders = redactHeaders(response.headers, secrets);
      const requestBody = await readRequest(c);
      const responseBody = await readResponse(response);
      // Secrets of either side are scrubbed from both (a returned client_secret, an echoed token).
      for (const parsed of [requestBody, responseBody]) if (parsed.kind === 'json') collectSecrets(parsed.value, secrets);
      const clientId = c.get('principal')?.clientId ?? tokenClient(c, response.status, requestBody);
      log.add({
        id,
        time,
        method: c.req.method,
        path: redactPath(url.pathname + url.search, secrets),
        status: response.status,
        duration_ms: duration,
        ...(clientId !== undefined ? { client_id: clientId } : {}),
        request: captured(requestHeaders, requestBody, secrets),
        response: captured(responseHeaders, responseBody, secrets),
      });
    } catch (error) {
      services.logger?.warn({ err: error, method: c.req.method, path: url.pathname }, 'request log capture failed');
    }
  };
}
