import { renderEntry } from './render.js';
import type { KeptEntry, KeptMessage, RawEntry, RawMessage, RequestLogEntry, RequestLogQuery } from './entry.js';
import { REQUEST_LOG_CAPACITY } from './entry.js';

export * from './entry.js';

/** A message as kept: as it came, unless its headers are a Headers object (made a flat list). */
function kept(message: RawMessage): KeptMessage {
  const { headers } = message;
  if (!(headers instanceof Headers)) return message as KeptMessage;
  const flat: string[] = [];
  for (const [name, value] of headers.entries()) flat.push(name, value);
  return { ...message, headers: flat };
}

/**
 * The last `capacity` requests of one sandbox, in memory, never persisted: a ring of entries.
 * Bodies are already cut to the log's limits when they are kept, so the ring stays small
 * (at most 500 entries of 16 KiB requests and 4 KiB responses).
 */
export class RequestLog {
  private readonly entries: (KeptEntry | undefined)[];
  /** Where the next entry goes; the oldest entry sits there once the ring is full. */
  private next = 0;
  private count = 0;
  private sequence = 0;
  /** Paths as shown, for the path filter (`shownPath`); they go with their entries. */
  private readonly shownPaths = new WeakMap<KeptEntry, string>();

  constructor(readonly capacity = REQUEST_LOG_CAPACITY) {
    this.entries = new Array(capacity);
  }

  nextId(): number {
    this.sequence += 1;
    return this.sequence;
  }

  /** Keeps `entry` itself (the caller hands it over), not a copy: one object per request the ring holds. */
  add(entry: RawEntry): void {
    const request = kept(entry.request);
    const response = kept(entry.response);
    this.entries[this.next] = request === entry.request && response === entry.response ? (entry as KeptEntry) : { ...entry, request, response };
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** Newest first, filtered, redacted. */
  list(query: RequestLogQuery): RequestLogEntry[] {
    const out: KeptEntry[] = [];
    for (let back = 1; back <= this.count && out.length < query.limit; back++) {
      const entry = this.entries[(this.next - back + this.capacity) % this.capacity];
      if (entry === undefined) continue;
      if (query.clientId !== undefined && entry.client_id !== query.clientId) continue;
      if (query.clientIds !== undefined && (entry.client_id === undefined || !query.clientIds.has(entry.client_id))) continue;
      if (query.path !== undefined && !this.shownPath(entry).startsWith(query.path)) continue;
      out.push(entry);
    }
    // Entries are added when their response is complete; order by arrival (id), newest first.
    return out.sort((a, b) => b.id - a.id).map(renderEntry);
  }

  /**
   * The path of an entry as the log shows it (secrets redacted), made once per entry. The path
   * filter matches this, never the path as sent: matching the raw path would tell a reader, one
   * prefix at a time, a secret it does not show.
   */
  private shownPath(entry: KeptEntry): string {
    let path = this.shownPaths.get(entry);
    if (path === undefined) {
      path = renderEntry(entry).path;
      this.shownPaths.set(entry, path);
    }
    return path;
  }

  /** How many entries the log holds now, of these clients only when given (the report says how many of its requests the log no longer shows). */
  held(clientIds?: ReadonlySet<string>): number {
    let held = 0;
    for (const entry of this.entries) {
      if (entry === undefined) continue;
      if (clientIds === undefined || (entry.client_id !== undefined && clientIds.has(entry.client_id))) held += 1;
    }
    return held;
  }

  /** Drops the entries of these clients (removed with their tenant); their places stay empty until the ring comes round. */
  forget(clientIds: ReadonlySet<string>): void {
    for (let at = 0; at < this.capacity; at++) {
      const entry = this.entries[at];
      if (entry?.client_id !== undefined && clientIds.has(entry.client_id)) this.entries[at] = undefined;
    }
  }

  clear(): void {
    this.entries.fill(undefined);
    this.next = 0;
    this.count = 0;
  }

  get size(): number {
    return this.count;
  }
}

/** Paths whose requests the log does not keep (nor the report count): reading the log or the report, and health checks (Docker polls /health). */
export function isUnlogged(pathname: string): boolean {
  return pathname === '/_sandbox/requests' || pathname === '/_sandbox/report' || pathname === '/health';
}
