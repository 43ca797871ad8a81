/**
 * The newest records (byte strings) that fit, in one buffer outside the JavaScript heap.
 *
 * Why not an array of objects: every request's log entry lives for hundreds of requests, so the
 * garbage collector copies it out of the young generation and promotes it, and the old generation
 * then grows by the whole request stream (a create's entry is ~5 KB; at 1,500 creates a second
 * that is 7 MB/s of old-generation garbage). Bytes in one buffer are never scanned, copied or
 * promoted.
 *
 * Positions are virtual: they only grow, and a record's bytes sit at `start % capacity`. A record
 * never wraps around the end of the buffer; it starts at the next lap instead. A record is intact
 * while the write position is less than one capacity ahead of its start. The buffer starts small
 * and doubles (up to `maxBytes`) rather than drop records while fewer than `maxRecords` are held.
 */
export class ByteRing {
  private buffer: Buffer;
  /** Virtual start and length of each slot's record; slots form a ring of `maxRecords`. */
  private readonly starts: Float64Array;
  private readonly lengths: Uint32Array;
  private oldest = 0;
  private count = 0;
  /** Virtual position after the newest record. */
  private end = 0;

  constructor(
    readonly maxRecords: number,
    readonly maxBytes: number,
    private readonly initialBytes = Math.min(256 * 1024, maxBytes),
  ) {
    this.buffer = Buffer.allocUnsafeSlow(initialBytes);
    this.starts = new Float64Array(maxRecords);
    this.lengths = new Uint32Array(maxRecords);
  }

  get size(): number {
    return this.count;
  }

  /** Bytes the ring holds in memory now (its buffer). */
  get capacity(): number {
    return this.buffer.length;
  }

  /** Largest record `push` accepts: a quarter of the largest buffer, so one record never empties the ring. */
  get maxRecordBytes(): number {
    return Math.floor(this.maxBytes / 4);
  }

  /** Adds a copy of `bytes` as the newest record, dropping the oldest ones it needs room from. */
  push(bytes: Uint8Array): void {
    const length = bytes.length;
    if (length > this.maxRecordBytes) throw new RangeError(`a record of ${length} bytes is larger than ${this.maxRecordBytes}`);
    if (this.count === this.maxRecords) this.dropOldest();
    for (;;) {
      const capacity = this.buffer.length;
      if (length > capacity) {
        this.grow();
        continue;
      }
      const offset = this.end % capacity;
      const start = offset + length > capacity ? this.end + (capacity - offset) : this.end;
      const end = start + length;
      if (this.count > 0 && this.starts[this.oldest]! < end - capacity) {
        if (capacity < this.maxBytes) this.grow();
        else this.dropOldest();
        continue;
      }
      this.buffer.set(bytes, start % capacity);
      const slot = (this.oldest + this.count) % this.maxRecords;
      this.starts[slot] = start;
      this.lengths[slot] = length;
      this.count += 1;
      this.end = end;
      return;
    }
  }

  /** The records, newest first. Each view is valid until the next `push` or `clear`. */
  *newestFirst(): Generator<Uint8Array> {
    const capacity = this.buffer.length;
    for (let back = this.count - 1; back >= 0; back -= 1) {
      const slot = (this.oldest + back) % this.maxRecords;
      const offset = this.starts[slot]! % capacity;
      yield this.buffer.subarray(offset, offset + this.lengths[slot]!);
    }
  }

  /** Forgets every record and gives back the memory grown for them. */
  clear(): void {
    this.oldest = 0;
    this.count = 0;
    this.end = 0;
    if (this.buffer.length !== this.initialBytes) this.buffer = Buffer.allocUnsafeSlow(this.initialBytes);
  }

  private dropOldest(): void {
    this.oldest = (this.oldest + 1) % this.maxRecords;
    this.count -= 1;
  }

  /** Doubles the buffer and lays the records out again from its start, oldest first. */
  private grow(): void {
    const old = this.buffer;
    const next = Buffer.allocUnsafeSlow(Math.min(old.length * 2, this.maxBytes));
    let position = 0;
    for (let i = 0; i < this.count; i += 1) {
      const slot = (this.oldest + i) % this.maxRecords;
      const offset = this.starts[slot]! % old.length;
      const length = this.lengths[slot]!;
      old.copy(next, position, offset, offset + length);
      this.starts[slot] = position;
      position += length;
    }
    this.buffer = next;
    this.end = position;
  }
}
