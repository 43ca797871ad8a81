import { isJsonMediaType } from '../http/media.js';
import type { CapturedMessage, KeptEntry, RawMessage, RequestLogEntry } from './request-log.js';
import { REQUEST_LOG_BODY_LIMIT } from './request-log.js';
import { SecretSet, collectSecrets, redactHeaders, redactJson, redactPath, redactSecretMembers } from './redact.js';

/** Headers from the flat list of names and values the log keeps. */
function asHeaders(kept: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < kept.length; i += 2) {
    try {
      headers.append(kept[i]!, kept[i + 1]!);
    } catch {
      // a header Node accepted but fetch's Headers refuses: leave it out of the log
    }
  }
  return headers;
}

type Parsed = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'note'; note: string };

/** Reads a kept body as JSON when it is JSON (or untyped and looks like it), as a form, or as text. */
function parse(message: RawMessage): Parsed {
  if (message.note) return { kind: 'note', note: message.note };
  const text = message.text ?? '';
  if (text === '') return { kind: 'none' };
  if (message.type === 'application/x-www-form-urlencoded') return { kind: 'json', value: Object.fromEntries(new URLSearchParams(text)) };
  if (!message.truncated && (message.type === '' || isJsonMediaType(message.type))) {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      // not JSON after all: keep it as text
    }
  }
  return { kind: 'text', value: text };
}

function captured(message: RawMessage, headers: Record<string, string>, parsed: Parsed, secrets: SecretSet): CapturedMessage {
  const out: CapturedMessage = { headers };
  if (parsed.kind === 'none') return out;
  if (parsed.kind === 'note') return { ...out, note: parsed.note };
  const value = parsed.kind === 'json' ? redactJson(parsed.value, secrets) : secrets.scrub(message.truncated ? redactSecretMembers(parsed.value) : parsed.value);
  const text = parsed.kind === 'json' ? JSON.stringify(value) : (value as string);
  if (!message.truncated && Buffer.byteLength(text) <= REQUEST_LOG_BODY_LIMIT) return { ...out, body: value };
  return { ...out, body: Buffer.from(text).subarray(0, REQUEST_LOG_BODY_LIMIT).toString('utf8'), truncated: true };
}

/**
 * A kept request as `GET /_sandbox/requests` shows it. Redaction happens here, when the log is
 * read, so serving requests pays only for keeping their text: secret headers keep only their
 * scheme, secret members at any depth become `[REDACTED]`, and every secret seen on either side
 * (a returned client_secret, an echoed token) is scrubbed from both.
 */
export function renderEntry(raw: KeptEntry): RequestLogEntry {
  const secrets = new SecretSet();
  const requestHeaders = redactHeaders(asHeaders(raw.request.headers), secrets);
  const responseHeaders = redactHeaders(asHeaders(raw.response.headers), secrets);
  const request = parse(raw.request);
  const response = parse(raw.response);
  for (const parsed of [request, response]) if (parsed.kind === 'json') collectSecrets(parsed.value, secrets);
  const url = new URL(raw.url);
  return {
    id: raw.id,
    time: raw.time,
    method: raw.method,
    path: redactPath(url.pathname + url.search, secrets),
    status: raw.status,
    duration_ms: raw.duration_ms,
    ...(raw.client_id !== undefined ? { client_id: raw.client_id } : {}),
    request: captured(raw.request, requestHeaders, request, secrets),
    response: captured(raw.response, responseHeaders, response, secrets),
  };
}
