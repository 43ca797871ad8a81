import { isJsonMediaType } from '../http/media.js';
import type { CapturedMessage, KeptEntry, RawMessage, RequestLogEntry } from './entry.js';
import { REQUEST_LOG_BODY_LIMIT, REQUEST_LOG_RESPONSE_LIMIT } from './entry.js';
import { SecretSet, collectSecrets, jsonSizeUpTo, redactHeaders, redactJson, redactPath, shortened } from './redact.js';

/** Headers from what the log keeps: a flat list of names and values, or a plain object. */
function asHeaders(kept: string[] | Record<string, string>): Headers {
  const headers = new Headers();
  const add = (name: string, value: string) => {
    try {
      headers.append(name, value);
    } catch {
      // a header Node accepted but fetch's Headers refuses: leave it out of the log
    }
  };
  if (Array.isArray(kept)) for (let i = 0; i + 1 < kept.length; i += 2) add(kept[i]!, kept[i + 1]!);
  else for (const name in kept) add(name, kept[name]!);
  return headers;
}

type Parsed = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'note'; note: string };

/**
 * Reads a kept body: JSON when it is JSON (or untyped and parses), a form as an object, a body
 * kept cut down as the value it was cut down to. A request body that does not parse is not shown
 * at all: redaction works on parsed members only, so text it cannot parse could hide a secret
 * from it. Responses that are not JSON (pages, labels) are the sandbox's own text and are shown.
 */
function parse(message: RawMessage, side: 'request' | 'response'): Parsed {
  if (message.summary) return { kind: 'json', value: JSON.parse(message.text ?? 'null') };
  if (message.note) return { kind: 'note', note: message.note };
  const text = message.text ?? '';
  if (text === '') return { kind: 'none' };
  if (message.type === 'application/x-www-form-urlencoded') return { kind: 'json', value: Object.fromEntries(new URLSearchParams(text)) };
  const json = message.type === '' || isJsonMediaType(message.type);
  if (json && !message.truncated) {
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      // not JSON after all
    }
  }
  if (side === 'response') return { kind: 'text', value: text };
  const bytes = Buffer.byteLength(text);
  const why = json ? 'is not valid JSON' : 'is neither JSON nor a form';
  return {
    kind: 'note',
    note: `${message.type || 'untyped'} body of ${bytes} bytes, not shown: it ${why}, and the log shows only bodies it can parse (so no secret in them can be missed)`,
  };
}

function captured(message: RawMessage, headers: Record<string, string>, parsed: Parsed, secrets: SecretSet, limit: number): CapturedMessage {
  const out: CapturedMessage = { headers };
  if (parsed.kind === 'none') return out;
  if (parsed.kind === 'note') return { ...out, note: parsed.note };
  if (parsed.kind === 'text') {
    const text = secrets.scrub(parsed.value);
    return message.truncated ? { ...out, body: text, truncated: true } : { ...out, body: text };
  }
  const value = redactJson(parsed.value, secrets);
  if (message.summary)
    return {
      ...out,
      body: value,
      truncated: true,
      ...(message.size !== undefined ? { size: message.size } : {}),
      ...(message.note ? { note: message.note } : {}),
    };
  // Redaction can lengthen a body (a short secret becomes [REDACTED]): still within bounds, by structure.
  if (jsonSizeUpTo(value, limit) <= limit) return { ...out, body: value };
  return { ...out, body: shortened(value, limit), truncated: true };
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
  const request = parse(raw.request, 'request');
  const response = parse(raw.response, 'response');
  for (const parsed of [request, response]) if (parsed.kind === 'json') collectSecrets(parsed.value, secrets);
  for (const secret of [...(raw.request.secrets ?? []), ...(raw.response.secrets ?? [])]) secrets.add(secret);
  const url = new URL(raw.url);
  return {
    id: raw.id,
    time: raw.time,
    method: raw.method,
    path: redactPath(url.pathname + url.search, secrets),
    status: raw.status,
    duration_ms: raw.duration_ms,
    ...(raw.client_id !== undefined ? { client_id: raw.client_id } : {}),
    request: captured(raw.request, requestHeaders, request, secrets, REQUEST_LOG_BODY_LIMIT),
    response: captured(raw.response, responseHeaders, response, secrets, REQUEST_LOG_RESPONSE_LIMIT),
  };
}
