import { z } from 'zod';
import { endpoint } from '../http/endpoint.js';
import { integerParam } from '../http/params.js';
import { ByteRing } from './byte-ring.js';
import { renderEntry } from './request-log-render.js';
import { EntryWriter, decodeEntry } from './request-log-codec.js';
import { plainJson } from '../http/respond.js';
import { clientsOf } from './tenants.js';

/** What the log keeps of a request or response body (after redaction). */
export interface CapturedMessage {
  headers: Record<string, string>;
  /** The body: parsed JSON (or a form, as an object), redacted; text only for responses that are not JSON. */
  body?: unknown;
  /** The body was larger than the log keeps: `body` shows it cut down by its structure (a non-JSON response: its first part). */
  truncated?: true;
  /** The size of a body larger than the log keeps, in bytes. */
  size?: number;
  /** Why the body is not shown, or shown cut down, with its type and size. */
  note?: string;
}

/** One captured request and its response. Secrets, credentials and tokens are redacted. */
export interface RequestLogEntry {
  /** Sequence number in this sandbox process; higher is newer. */
  id: number;
  /** Sandbox clock (Unix seconds) when the request arrived. */
  time: number;
  method: string;
  /** Path with query string. */
  path: string;
  status: number;
  duration_ms: number;
  /** The authenticated client, when the request carried a valid token (or got one). */
  client_id?: string;
  request: CapturedMessage;
  response: CapturedMessage;
}

/** A body as kept while serving: its text (cut at the limit) or a note; parsed only when read. */
export interface RawMessage {
  /** The headers as they came: a Headers object, a plain object, or Node's flat raw list (name, value, ...). */
  headers: Headers | Record<string, string> | string[];
  /** Bare media type of the body ('' when none was given). */
  type: string;
  text?: string;
  /** `text` is the first part of a longer text (responses that are not JSON). */
  truncated?: true;
  /** `text` is the JSON of the body cut down by its structure (`shortened`); the body had `size` bytes. */
  summary?: true;
  size?: number;
  /** Secret values found anywhere in a cut-down body, to scrub them wherever else they show up. */
  secrets?: string[];
  note?: string;
}

/** A message as the log gives it back: its headers always a flat list of names and values. */
export type KeptMessage = RawMessage & { headers: string[] };

/** An entry as the log gives it back (see `decodeEntry`), before parsing and redaction. */
export type KeptEntry = Omit<RawEntry, 'request' | 'response'> & { request: KeptMessage; response: KeptMessage };

/** A request as kept while serving, before parsing and redaction. */
export interface RawEntry {
  id: number;
  time: number;
  method: string;
  /** The full request URL. */
  url: string;
  /** Path with query, for the path filter. */
  path: string;
  status: number;
  duration_ms: number;
  client_id?: string;
  request: RawMessage;
  response: RawMessage;
}

export interface RequestLogQuery {
  clientId?: string;
  /** Only requests of these clients (a tenant reading its own requests). */
  clientIds?: ReadonlySet<string>;
  /** Prefix of the path (with query). */
  path?: string;
  limit: number;
}

export const REQUEST_LOG_CAPACITY = 500;
export const REQUEST_LOG_DEFAULT_LIMIT = 50;
/** Request bodies are kept up to this many bytes; larger ones are kept cut down by their structure. */
export const REQUEST_LOG_BODY_LIMIT = 16 * 1024;
/**
 * Response bodies are kept up to this many characters. Less than requests: the client already has
 * the whole response, and a log full of list pages then holds ~2 MiB instead of ~8.
 */
export const REQUEST_LOG_RESPONSE_LIMIT = 4 * 1024;

/** The bytes the log may keep in all; past this, fewer than `REQUEST_LOG_CAPACITY` requests are kept. */
export const REQUEST_LOG_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The last `capacity` requests of one sandbox, in memory; never persisted. Entries are kept as
 * bytes in one buffer (`ByteRing`), not as objects: each entry outlives hundreds of requests, and
 * as objects every one of them was promoted to the old generation and grew the heap under load.
 */
export class RequestLog {
  private readonly ring: ByteRing;
  private readonly writer = new EntryWriter();
  private sequence = 0;

  constructor(readonly capacity = REQUEST_LOG_CAPACITY, maxBytes = REQUEST_LOG_MAX_BYTES) {
    this.ring = new ByteRing(capacity, maxBytes);
  }

  nextId(): number {
    this.sequence += 1;
    return this.sequence;
  }

  add(entry: RawEntry): void {
    let bytes = this.writer.encode(entry);
    if (bytes.length > this.ring.maxRecordBytes) {
      // Only headers can make it this large (bodies are cut): keep the entry, without them.
      const left = (message: RawMessage): RawMessage => ({ headers: [], type: message.type, note: 'headers and body too large to keep' });
      bytes = this.writer.encode({ ...entry, request: left(entry.request), response: left(entry.response) });
    }
    this.ring.push(bytes);
  }

  /** Newest first, filtered, redacted. */
  list(query: RequestLogQuery): RequestLogEntry[] {
    const out: KeptEntry[] = [];
    for (const bytes of this.ring.newestFirst()) {
      if (out.length >= query.limit) break;
      const entry = decodeEntry(bytes);
      if (query.clientId !== undefined && entry.client_id !== query.clientId) continue;
      if (query.clientIds !== undefined && (entry.client_id === undefined || !query.clientIds.has(entry.client_id))) continue;
      if (query.path !== undefined && !entry.path.startsWith(query.path)) continue;
      out.push(entry);
    }
    // Entries are added when their response is complete; order by arrival (id), newest first.
    return out.sort((a, b) => b.id - a.id).map(renderEntry);
  }

  clear(): void {
    this.ring.clear();
  }

  get size(): number {
    return this.ring.size;
  }

}

const capturedMessage = z
  .object({
    headers: z.record(z.string(), z.string()),
    body: z.unknown().optional().describe('Parsed JSON when the body is JSON, else text; secrets redacted.'),
    truncated: z.literal(true).optional().describe('The body was larger than the log keeps and is shown cut down.'),
    size: z.number().int().optional().describe('Size in bytes of a body larger than the log keeps.'),
    note: z.string().optional().describe('Why the body is not shown, or shown cut down, with its type and size.'),
  })
  .meta({ id: 'SandboxCapturedMessage' });

const requestLogEntry = z
  .object({
    id: z.number().int(),
    time: z.number().int().describe('Sandbox time the request arrived, Unix seconds'),
    method: z.string(),
    path: z.string().describe('Path with query string'),
    status: z.number().int(),
    duration_ms: z.number(),
    client_id: z.string().optional(),
    request: capturedMessage,
    response: capturedMessage,
  })
  .meta({ id: 'SandboxRequestLogEntry' });

const requestLogList = z.object({ data: z.array(requestLogEntry) }).meta({ id: 'SandboxRequestLog' });

const json = ['application/json'] as const;

/** Paths whose requests the log does not keep: reading the log, and health checks (Docker polls /health). */
export function isUnlogged(pathname: string): boolean {
  return pathname === '/_sandbox/requests' || pathname === '/health';
}

export const requestLogEndpoints = [
  endpoint({
    method: 'get',
    path: '/_sandbox/requests',
    operationId: 'listSandboxRequests',
    summary: 'Read the request log',
    description: `The last ${REQUEST_LOG_CAPACITY} requests and their responses, newest first (in memory, per sandbox process; fewer when what is kept of them passes ${REQUEST_LOG_MAX_BYTES / 1024 / 1024} MiB). Secrets are redacted on the parsed body, never on its text, at any depth and whatever its size: authorization and cookie headers, and members (or query parameters) named like a secret: client secrets, tokens, credentials, passwords, API keys (\`api_key\`, \`apiKey\`, \`dhl_api_secret\`, also written with escapes). Logo contents are replaced by their size. Request bodies over ${REQUEST_LOG_BODY_LIMIT / 1024} KiB and JSON responses over ${REQUEST_LOG_RESPONSE_LIMIT / 1024} Ki characters are shown cut down by their structure (every top-level member named, what does not fit noted) with their size and \`truncated\`; request bodies the log cannot parse (not JSON, not a form) are not shown, only noted; binary bodies are noted by type and size. Reading the log and /health are not logged. With a tenant\'s access token only requests of that tenant\'s clients are listed.`,
    tag: 'Sandbox',
    auth: 'control',
    query: z.object({
      client_id: z.string().optional().describe('Only requests of this client'),
      path: z.string().optional().describe('Only requests whose path (with query) starts with this'),
      limit: integerParam.optional().describe(`How many entries (default ${REQUEST_LOG_DEFAULT_LIMIT}, at most ${REQUEST_LOG_CAPACITY})`),
    }),
    produces: json,
    responses: { 200: { description: 'The matching requests, newest first.', schema: requestLogList, contentTypes: json } },
    handler: (ctx, { query }) => {
      const limit = Math.min(query.limit || REQUEST_LOG_DEFAULT_LIMIT, REQUEST_LOG_CAPACITY);
      const tenant = ctx.principal;
      const data = ctx.services.requestLog.list({
        limit,
        ...(tenant ? { clientIds: clientsOf(ctx.services, tenant.organizationId) } : {}),
        ...(query.client_id ? { clientId: query.client_id } : {}),
        ...(query.path ? { path: query.path } : {}),
      });
      return plainJson({ data });
    },
  }),
];
