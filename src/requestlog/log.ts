import { ByteRing } from './byte-ring.js';
import { renderEntry } from './render.js';
import { EntryWriter, decodeEntry } from './codec.js';
import type { KeptEntry, RawEntry, RawMessage, RequestLogEntry, RequestLogQuery } from './entry.js';
import { REQUEST_LOG_CAPACITY, REQUEST_LOG_MAX_BYTES } from './entry.js';

export * from './entry.js';

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

/** Paths whose requests the log does not keep: reading the log, and health checks (Docker polls /health). */
export function isUnlogged(pathname: string): boolean {
  return pathname === '/_sandbox/requests' || pathname === '/health';
}
