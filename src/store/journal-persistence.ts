import { closeSync, fdatasync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { encodeBatch, encodeReset, listSegments, parseSegment, replay, segmentPath, segmentsToReplay, truncateSegment, type Entry } from './journal.js';
import { DataFileError, DataWriteError, type Persistence, type WriteOp } from './persistence-api.js';
import { readSnapshot, syncDirectory, writeSnapshot } from './snapshot.js';
import type { StateData } from './tables.js';

const datasync = promisify(fdatasync);

/** Failures to inject (tests): each is asked before the real operation and names the system error code to fail with. */
export interface Faults {
  /** Before appending `bytes` bytes to the journal: how many of them to write before failing, and how. */
  append?: (bytes: number) => { written: number; code: string } | undefined;
  /** After an fdatasync of a journal segment (as a disk reports a failed write-back: once it is done). */
  sync?: () => string | undefined;
  /** Before writing a new snapshot (a compaction or a reset). */
  snapshot?: () => string | undefined;
}

export interface JournalOptions {
  /** Compact once the segment being appended to holds this many lines (tests use it)... */
  maxLines?: number;
  /**
   * ...or this many bytes, or as many bytes as the snapshot when that is more. Growing with the
   * snapshot keeps the cost of compaction per write constant however big the data gets: a
   * snapshot twice as big is rewritten half as often.
   */
  minBytes?: number;
  faults?: Faults;
}

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

const injected = (code: string) => Object.assign(new Error(`${code} (injected)`), { code });

/**
 * The data as a lowdb JSON snapshot plus an append-only journal beside it. A write appends its
 * lines synchronously (one `write` call), and the store makes its change visible in that same
 * turn of the event loop, so nothing is ever visible that is not in the journal; then one
 * fdatasync per flush makes the appends of every transaction that arrived meanwhile durable
 * before any of them is acknowledged. The cost of a write does not depend on the size of the
 * data; the snapshot is rewritten in the background once the journal grows (see `flush`), on a
 * reset and on close.
 */
export class JournalPersistence implements Persistence {
  private readonly maxLines: number;
  private readonly minBytes: number;
  private readonly faults: Faults;
  /** Size of the snapshot on disk, in bytes. */
  private snapshotBytes = 0;
  /** Segments on disk, ascending: the snapshot plus these, replayed in order, is the data. */
  private live: number[] = [];
  private next = 1;
  /** The segment appends go to; `undefined`: the next append starts a new one. */
  private current: Segment | undefined;
  /** Segments no longer appended to whose file is still open: to be synced, or cut back. */
  private retired: Segment[] = [];
  /** Appends made, and how many of them the snapshot on disk covers (their segments deleted). */
  private appended = 0;
  private compacted = 0;
  private compaction: Promise<void> | undefined;
  private state: (() => StateData) | undefined;
  private closed = false;

  constructor(
    readonly location: string,
    options: JournalOptions = {},
  ) {
    this.maxLines = options.maxLines ?? Infinity;
    this.minBytes = options.minBytes ?? 16 * 1024 * 1024;
    this.faults = options.faults ?? {};
  }

  async load(): Promise<StateData | null> {
    const snapshot = await readSnapshot(this.location);
    const numbers = await listSegments(this.location);
    if (!snapshot) {
      if (numbers.length === 0) return null;
      const journal = segmentPath(this.location, numbers[0]!);
      throw new DataFileError(this.location, `it is missing but its journal ${journal} exists; restore the file, or delete the journal to start afresh`);
    }
    this.snapshotBytes = (await stat(this.location)).size;
    const { segments, last } = await this.readJournal(segmentsToReplay(numbers));
    this.live = numbers;
    this.next = (numbers.at(-1) ?? 0) + 1;
    const n = numbers.at(-1);
    const bytes = last?.committedBytes ?? 0;
    this.current = n === undefined ? undefined : { n, fd: undefined, bytes, synced: bytes, lines: last?.lines ?? 0, fresh: false };
    this.appended = numbers.length > 0 ? 1 : 0;
    const data = replay(snapshot, segments);
    this.state = () => data;
    return data;
  }

  append(ops: WriteOp[]): void {
    if (this.closed) throw new Error(`the data file ${this.location} is closed`);
    this.write(encodeBatch(ops));
  }

  async flush(snapshot: () => StateData): Promise<void> {
    this.state = snapshot;
    const pending = this.open().filter((segment) => !segment.damaged && (segment.bytes > segment.synced || segment.fresh));
    if (pending.length === 0) return;
    // A compaction is decided before the sync, so the snapshot it writes holds exactly what the
    // covered segments hold, and it starts only once they are durable: nothing a failed sync takes
    // back can reach a snapshot.
    const compaction = this.compactionDue() ? this.beginCompaction(snapshot) : undefined;
    const marks = pending.map((segment) => ({ segment, bytes: segment.bytes, fresh: segment.fresh }));
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
    if (compaction) this.startCompaction(compaction);
  }

  /**
   * A reset must not meet old journal lines on replay. With none on disk the new snapshot simply
   * replaces the old; otherwise the reset goes into the journal first (that is its commit point)
   * and is then compacted, so a crash anywhere in between replays to either the old or new data.
   * The store appends nothing while a reset runs.
   */
  async replace(data: StateData): Promise<void> {
    if (this.closed) throw new Error(`the data file ${this.location} is closed`);
    await this.settle();
    if (this.live.length === 0 && this.appended === this.compacted) {
      this.snapshotBytes = await this.writeSnapshot(data);
      this.state = () => data;
      return;
    }
    this.write(encodeReset(data));
    try {
      await this.flush(() => data);
    } catch (error) {
      this.revert();
      throw error;
    }
    await this.settle();
    const mark = this.appended;
    const covered = this.detach();
    // The reset is durable in the journal now; a snapshot that cannot be written only postpones the compaction.
    await this.compact(covered, data, mark).catch((error: unknown) => this.warnCompaction(error));
  }

  /** Leaves just the snapshot: waits for a running compaction, then folds in the rest. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.settle();
    const mark = this.appended;
    const behind = mark > this.compacted;
    const covered = this.detach();
    this.closeAll();
    if (behind || covered.length > 0) await this.compact(covered, behind ? this.state?.() : undefined, mark);
  }

  /**
   * Stops writing and closes the segment files, folding nothing in: the files stay as a killed
   * process leaves them. Tests that simulate a crash use it, so no file handle is left open.
   */
  async abandon(): Promise<void> {
    this.closed = true;
    await this.settle();
    this.detach();
    this.closeAll();
  }

  /** Resolves when no compaction runs in the background (tests use it). */
  async settle(): Promise<void> {
    while (this.compaction) await this.compaction;
  }

  /** Parses every segment before changing any, so a damaged journal is refused untouched. */
  private async readJournal(numbers: number[]) {
    const parsed = [];
    for (const n of numbers) {
      const path = segmentPath(this.location, n);
      const buffer = await readFile(path);
      parsed.push({ path, size: buffer.length, ...parseSegment(buffer, path) });
    }
    for (const segment of parsed) if (segment.committedBytes < segment.size) await truncateSegment(segment.path, segment.committedBytes);
    // A segment created by a process that died before syncing the directory may not be durable yet.
    if (numbers.length > 0) await syncDirectory(dirname(this.location));
    return { segments: parsed.map((segment): Entry[] => segment.entries), last: parsed.at(-1) };
  }

  /** Appends the lines of one write in one `write` call, or throws `DataWriteError` with nothing of them left to replay. */
  private write({ text, lines }: { text: string; lines: number }): void {
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
    this.appended++;
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

  /** Cuts back the segments `cutBackUnsynced` could not, or throws `DataWriteError` while that still fails. */
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

  /** Stops appending to the current segment; it stays open until what was written to it is durable. */
  private retire(): void {
    if (this.current?.fd !== undefined) this.retired.push(this.current);
    this.current = undefined;
  }

  /** Closes the retired segments whose content is durable. */
  private closeRetired(): void {
    this.retired = this.retired.filter((segment) => {
      if (segment.bytes > segment.synced || segment.fresh || segment.damaged) return true;
      closeSync(segment.fd!);
      return false;
    });
  }

  private closeAll(): void {
    for (const segment of this.retired) closeSync(segment.fd!);
    this.retired = [];
  }

  /** Stops appending to the current segment; returns the segments a snapshot taken now covers. */
  private detach(): number[] {
    this.retire();
    this.closeRetired();
    return [...this.live];
  }

  private compactionDue(): boolean {
    const segment = this.current;
    if (this.compaction || !segment) return false;
    return segment.lines >= this.maxLines || segment.bytes >= Math.max(this.minBytes, this.snapshotBytes);
  }

  /** Writes arriving from now on go to a new segment; the data as of now is what the snapshot will hold. */
  private beginCompaction(snapshot: () => StateData) {
    const mark = this.appended;
    this.retire();
    return { covered: [...this.live], data: snapshot(), mark };
  }

  /** Writes the snapshot in the background; the old segments are deleted only once it is on disk. */
  private startCompaction({ covered, data, mark }: { covered: number[]; data: StateData; mark: number }): void {
    this.compaction = this.compact(covered, data, mark)
      // Nothing is lost: the journal still holds every write. Retried once the next segment fills.
      .catch((error: unknown) => this.warnCompaction(error))
      .finally(() => (this.compaction = undefined));
  }

  private warnCompaction(error: unknown): void {
    process.emitWarning(`compacting the journal of ${this.location} failed: ${(error as Error).message}`);
  }

  /** Writes `data` as the snapshot, then deletes the covered segments, oldest first. */
  private async compact(covered: number[], data: StateData | undefined, mark: number): Promise<void> {
    if (data) this.snapshotBytes = await this.writeSnapshot(data);
    for (const n of covered) {
      await rm(segmentPath(this.location, n), { force: true });
      this.live = this.live.filter((live) => live !== n);
    }
    await syncDirectory(dirname(this.location));
    this.compacted = Math.max(this.compacted, mark);
  }

  private async writeSnapshot(data: StateData): Promise<number> {
    try {
      const fault = this.faults.snapshot?.();
      if (fault) throw injected(fault);
      return await writeSnapshot(this.location, data);
    } catch (error) {
      throw new DataWriteError(this.location, error);
    }
  }
}

/** `write` until every byte is written: a write to a file may take fewer bytes than it was given (ENOSPC says so on the next). */
function writeAll(fd: number, buffer: Buffer): void {
  for (let done = 0; done < buffer.length;) done += writeSync(fd, buffer, done, buffer.length - done);
}
