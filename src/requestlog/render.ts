import { isJsonMediaType } from '../http/media.js';
import type { CapturedMessage, KeptEntry, RawMessage, RequestLogEntry } from './entry.js';
import { REQUEST_LOG_BODY_LIMIT, REQUEST_LOG_RESPONSE_LIMIT } from './entry.js';
import { collectHeaderSecrets, jsonSizeUpTo, redactHeaders, redactJson, shortened } from './redact.js';
import { SecretSet, collectSecrets, collectTextSecrets } from './secrets.js';

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

/** A kept body as read: nothing, a value, a text (responses), or a note of why it is not shown (with its text when kept, to find its secrets). */
type Parsed = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; value: string } | { kind: 'note'; note: string; text?: string };

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
    text,
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
 * Every secret of a kept request, from wherever it was sent or answered: secret headers, secret
 * query parameters (and secrets written inside query values and other headers), members under
 * secret names on either side, and the secrets written in a request body the log cannot parse,
 * which an error may quote whole or in part.
 */
function secretsOf(raw: KeptEntry, url: URL, headers: Headers[], parsed: Parsed[]): SecretSet {
  const secrets = new SecretSet();
  for (const list of headers) collectHeaderSecrets(list, secrets);
  collectTextSecrets(url.search, secrets);
  for (const body of parsed) if (body.kind === 'json') collectSecrets(body.value, secrets);
  const [request] = parsed;
  const unparsed = request?.kind === 'note';
  if (unparsed && request.text !== undefined) collectTextSecrets(request.text, secrets, true);
  secrets.add(raw.request.secrets ?? [], unparsed);
  return secrets;
}

/**
 * A kept request as `GET /_sandbox/requests` shows it. Redaction happens here, when the log is
 * read, so serving requests pays only for keeping their text. Every secret of the request is
 * collected first (`secretsOf`), then everything shown is redacted with all of them: secret
 * headers keep only their scheme, secret members at any depth become `[REDACTED]`, and every
 * other text (the path, headers, member names, strings, text bodies) is scrubbed
 * (`SecretSet.scrub`), so a secret sent in one place does not show where it travelled: a link,
 * a Location, an error detail.
 */
export function renderEntry(raw: KeptEntry): RequestLogEntry {
  const headers = [asHeaders(raw.request.headers), asHeaders(raw.response.headers)] as const;
  const request = parse(raw.request, 'request');
  const response = parse(raw.response, 'response');
  const url = new URL(raw.url);
  const secrets = secretsOf(raw, url, [...headers], [request, response]);
  return {
    id: raw.id,
    time: raw.time,
    method: raw.method,
    path: secrets.scrub(url.pathname + url.search),
    status: raw.status,
    duration_ms: raw.duration_ms,
    ...(raw.client_id !== undefined ? { client_id: raw.client_id } : {}),
    ...(raw.deprecated ? { deprecated: raw.deprecated } : {}),
    request: captured(raw.request, redactHeaders(headers[0], secrets), request, secrets, REQUEST_LOG_BODY_LIMIT),
    response: captured(raw.response, redactHeaders(headers[1], secrets), response, secrets, REQUEST_LOG_RESPONSE_LIMIT),
  };
}
