import type { KeptEntry, KeptMessage, RawEntry, RawMessage } from './entry.js';

/**
 * A request log entry as bytes, so the log can keep it outside the JavaScript heap (see
 * `ByteRing`). Numbers are little-endian doubles, strings a 32-bit byte length and UTF-8, an
 * absent string the length 0xffffffff. Headers are kept as a flat list of names and values,
 * whatever form they came in.
 */

const ABSENT = 0xffffffff;

/** Encodes into one scratch buffer that grows as needed and is reused for every entry. */
export class EntryWriter {
  private buffer = Buffer.allocUnsafeSlow(16 * 1024);
  private position = 0;

  /** The entry's bytes; valid until the next call. */
  encode(entry: RawEntry): Buffer {
    this.position = 0;
    this.number(entry.id);
    this.number(entry.time);
    this.number(entry.status);
    this.number(entry.duration_ms);
    this.string(entry.method);
    this.string(entry.url);
    this.string(entry.path);
    this.string(entry.client_id);
    this.message(entry.request);
    this.message(entry.response);
    return this.buffer.subarray(0, this.position);
  }

  private message(message: RawMessage): void {
    const headers = flatHeaders(message.headers);
    this.number(headers.length);
    for (const item of headers) this.string(item);
    this.string(message.type);
    this.string(message.text);
    this.number((message.truncated ? 1 : 0) | (message.summary ? 2 : 0));
    this.number(message.size ?? -1);
    this.number(message.secrets?.length ?? 0);
    for (const secret of message.secrets ?? []) this.string(secret);
    this.string(message.note);
  }

  private room(bytes: number): void {
    if (this.position + bytes <= this.buffer.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.position + bytes));
    this.buffer.copy(next, 0, 0, this.position);
    this.buffer = next;
  }

  private number(value: number): void {
    this.room(8);
    this.position = this.buffer.writeDoubleLE(value, this.position);
  }

  private string(value: string | undefined): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.room(4 + (value?.length ?? 0) * 3);
    if (value === undefined) {
      this.position = this.buffer.writeUInt32LE(ABSENT, this.position);
      return;
    }
    const written = value.length === 0 ? 0 : this.buffer.write(value, this.position + 4, 'utf8');
    this.buffer.writeUInt32LE(written, this.position);
    this.position += 4 + written;
  }
}

function flatHeaders(headers: RawMessage['headers']): string[] {
  if (Array.isArray(headers)) return headers;
  const flat: string[] = [];
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) flat.push(name, value);
  return flat;
}

/** The entry `EntryWriter.encode` wrote into these bytes. */
export function decodeEntry(bytes: Uint8Array): KeptEntry {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let position = 0;
  const number = (): number => {
    const value = buffer.readDoubleLE(position);
    position += 8;
    return value;
  };
  const string = (): string | undefined => {
    const length = buffer.readUInt32LE(position);
    position += 4;
    if (length === ABSENT) return undefined;
    const value = buffer.toString('utf8', position, position + length);
    position += length;
    return value;
  };
  const message = (): KeptMessage => {
    const headers: string[] = [];
    for (let count = number(); count > 0; count -= 1) headers.push(string()!);
    const out: KeptMessage = { headers, type: string()! };
    const text = string();
    if (text !== undefined) out.text = text;
    const flags = number();
    if (flags & 1) out.truncated = true;
    if (flags & 2) out.summary = true;
    const size = number();
    if (size >= 0) out.size = size;
    const secrets: string[] = [];
    for (let count = number(); count > 0; count -= 1) secrets.push(string()!);
    if (secrets.length > 0) out.secrets = secrets;
    const note = string();
    if (note !== undefined) out.note = note;
    return out;
  };
  const id = number();
  const time = number();
  const status = number();
  const duration = number();
  const method = string()!;
  const url = string()!;
  const path = string()!;
  const clientId = string();
  const request = message();
  const response = message();
  return {
    id,
    time,
    method,
    url,
    path,
    status,
    duration_ms: duration,
    ...(clientId !== undefined ? { client_id: clientId } : {}),
    request,
    response,
  };
}
