import { closeSync, fdatasync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { segmentPath } from './journal.js';
import { DataWriteError } from './persistence-api.js';
import { syncDirectory } from './snapshot.js';

const datasync = promisify(fdatasync);

/** Failures to inject (tests): each is asked at the real operation and names the system error code to fail with. */
export interface Faults {
  /** Before appending `bytes` bytes to the journal: how many of them to write before failing, and how. */
  append?: (bytes: number) => { written: number; code: string } | undefined;
  /** After an fdatasync of a journal segment (as a disk reports a failed write-back: once it is done). */
  sync?: () => string | undefined;
  /** Before writing a new snapshot (a compaction or a reset). */
  snapshot?: () => string | undefined;
}

/** An error as the system would throw it, for an injected fault. */
export const injected = (code: string) => Object.assign(new Error(`${code} (injected)`), { code });

/** One journal segment this process appends to (or appended to, until what it wrote is durable). */
interface Segment {
  n: number;
  /** Opened on the first append. */
  fd: number | undefined;
  /** Bytes up to the end of the last commit line written; what a failed append is cut back to. */
  bytes: number;
  /** Bytes known to be durable; what a failed fdatasync is cut back to. */
  synced: number;
  lines: number;
  /** Created by this process, its name in the directory not yet synced. */
  fresh: boolean;
  /** A failed fdatasync left lines beyond `synced` that could not be cut off: no append until they are. */
  damaged?: boolean;
}

/**
 * The journal segment files of one data file as this process writes them: the numbers on disk,
 * the segment appends go to, and the retired ones whose file stays open until what was written
 * to it is durable (or cut back). Appends are synchronous `write` calls; `sync` is one fdatasync
 * per segment written to since the last.
 */
export class JournalSegments {
  /** Segments on disk, ascending: the snapshot plus these, replayed in order, is the data. */
  live: number[] = [];
  private next = 1;
  /** The segment appends go to; `undefined`: the next append starts a new one. */
  private current: Segment | undefined;
  private retired: Segment[] = [];

  constructor(
    private readonly location: string,
    private readonly faults: Faults,
  ) {}

  /** Takes over the segments found on disk; appends go on in the last, after its last commit. */
  resume(numbers: number[], last: { lines: number; committedBytes: number } | undefined): void {
    this.live = numbers;
    this.next = (numbers.at(-1) ?? 0) + 1;
    const n = numbers.at(-1);
    const bytes = last?.committedBytes ?? 0;
    this.current = n === undefined ? undefined : { n, fd: undefined, bytes, synced: bytes, lines: last?.lines ?? 0, fresh: false };
  }

  /** How much the segment appends go to holds, if there is one. */
  get size(): { lines: number; bytes: number } | undefined {
    return this.current && { lines: this.current.lines, bytes: this.current.bytes };
  }

  /** Whether anything written is not durable yet. */
  get unsynced(): boolean {
    return this.open().some((segment) => !segment.damaged && (segment.bytes > segment.synced || segment.fresh));
  }

  /** Appends `text` (whole lines) in one `write` call, or throws `DataWriteError` with nothing of it left to replay. */
  append(text: string, lines: number): void {
    this.repair();
    const segment = this.openCurrent();
    const buffer = Buffer.from(text);
    try {
      const fault = this.faults.append?.(buffer.length);
      if (fault) {
        writeAll(segment.fd!, buffer.subarray(0, fault.written));
        throw injected(fault.code);
      }
      writeAll(segment.fd!, buffer);
    } catch (error) {
      // What reached the file has no commit line, so replay would skip it anyway; it is cut off so
      // the next append starts on a line of its own. When even that fails (it rarely does: it
      // frees space), later appends go to a fresh segment instead.
      try {
        ftruncateSync(segment.fd!, segment.bytes);
      } catch {
        this.retire();
      }
      throw new DataWriteError(this.location, error);
    }
    segment.bytes += buffer.length;
    segment.lines += lines;
  }

  /** Makes everything appended so far durable, or throws `DataWriteError` (then `revert` cuts it back). */
  async sync(): Promise<void> {
    const marks = this.open()
      .filter((segment) => !segment.damaged && (segment.bytes > segment.synced || segment.fresh))
      .map((segment) => ({ segment, bytes: segment.bytes, fresh: segment.fresh }));
    try {
      for (const { segment } of marks) {
        await datasync(segment.fd!);
        const fault = this.faults.sync?.();
        if (fault) throw injected(fault);
      }
      // fdatasync makes a new segment's content durable but not its name in the directory.
      if (marks.some((mark) => mark.fresh)) await syncDirectory(dirname(this.location));
    } catch (error) {
      throw new DataWriteError(this.location, error);
    }
    for (const { segment, bytes, fresh } of marks) {
      segment.synced = bytes;
      if (fresh) segment.fresh = false;
    }
    this.closeRetired();
  }

  /**
   * After a failed fdatasync nothing beyond the last durable byte can be trusted, and the store
   * takes those transactions back: the segments are cut back to match. A segment that cannot be
   * cut back blocks appends until it can (see `repair`), so no later write follows lines the
   * store has taken back.
   */
  revert(): void {
    for (const segment of this.open()) {
      if (segment.bytes === segment.synced) continue;
      try {
        ftruncateSync(segment.fd!, segment.synced);
        segment.bytes = segment.synced;
      } catch {
        if (segment === this.current) this.retire();
        segment.damaged = true;
      }
    }
  }

  /** Stops appending to the current segment; it stays open until what was written to it is durable. */
  retire(): void {
    if (this.current?.fd !== undefined) this.retired.push(this.current);
    this.current = undefined;
  }

  /** Stops appending to the current segment; returns the segments a snapshot taken now covers. */
  detach(): number[] {
    this.retire();
    this.closeRetired();
    return [...this.live];
  }

  /** A compaction deleted segment `n`. */
  forget(n: number): void {
    this.live = this.live.filter((live) => live !== n);
  }

  /** Closes every file still open (on close, or when a test abandons the journal). */
  closeAll(): void {
    this.retire();
    for (const segment of this.retired) closeSync(segment.fd!);
    this.retired = [];
  }

  private openCurrent(): Segment {
    const segment = this.current;
    if (segment?.fd !== undefined) return segment;
    // A segment's number is taken only once its file exists: a gap in the numbers on disk means
    // "compacted", so a number skipped by a failed open would hide the segments before it.
    const n = segment?.n ?? this.next;
    let fd: number;
    try {
      fd = openSync(segmentPath(this.location, n), 'a');
    } catch (error) {
      throw new DataWriteError(this.location, error);
    }
    if (segment) {
      segment.fd = fd;
      return segment;
    }
    this.next = n + 1;
    this.live.push(n);
    return (this.current = { n, fd, bytes: 0, synced: 0, lines: 0, fresh: true });
  }

  /** Cuts back the segments `revert` could not, or throws `DataWriteError` while that still fails. */
  private repair(): void {
    for (const segment of this.retired) {
      if (!segment.damaged) continue;
      try {
        ftruncateSync(segment.fd!, segment.synced);
      } catch (error) {
        throw new DataWriteError(this.location, error);
      }
      segment.bytes = segment.synced;
      segment.damaged = false;
    }
  }

  /** The segments with an open file: the retired ones and the current one. */
  private open(): Segment[] {
    const current = this.current;
    return current?.fd !== undefined ? [...this.retired, current] : this.retired;
  }

  /** Closes the retired segments whose content is durable. */
  private closeRetired(): void {
    this.retired = this.retired.filter((segment) => {
      if (segment.bytes > segment.synced || segment.fresh || segment.damaged) return true;
      closeSync(segment.fd!);
      return false;
    });
  }
}

/** `write` until every byte is written: a write to a file may take fewer bytes than it was given (ENOSPC says so on the next). */
function writeAll(fd: number, buffer: Buffer): void {
  for (let done = 0; done < buffer.length;) done += writeSync(fd, buffer, done, buffer.length - done);
}
