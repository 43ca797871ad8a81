import { readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { encodeBatch, encodeReset, listSegments, parseSegment, replay, segmentPath, segmentsToReplay, truncateSegment, type Entry } from './journal.js';
import { injected, JournalSegments, type Faults } from './journal-segments.js';
import { DataFileError, DataWriteError, type Persistence, type WriteOp } from './persistence-api.js';
import { readSnapshot, syncDirectory, writeSnapshot } from './snapshot.js';
import type { StateData } from './tables.js';

export type { Faults } from './journal-segments.js';

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
  private readonly segments: JournalSegments;
  /** Size of the snapshot on disk, in bytes. */
  private snapshotBytes = 0;
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
    this.segments = new JournalSegments(location, this.faults);
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
    this.segments.resume(numbers, last);
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
    if (!this.segments.unsynced) return;
    // A compaction is decided before the sync, so the snapshot it writes holds exactly what the
    // covered segments hold, and it starts only once they are durable: nothing a failed sync takes
    // back can reach a snapshot.
    const compaction = this.compactionDue() ? this.beginCompaction(snapshot) : undefined;
    await this.segments.sync();
    if (compaction) this.startCompaction(compaction);
  }

  /** See `JournalSegments.revert`. */
  revert(): void {
    this.segments.revert();
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
    if (this.segments.live.length === 0 && this.appended === this.compacted) {
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
    const covered = this.segments.detach();
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
    const covered = this.segments.detach();
    this.segments.closeAll();
    if (behind || covered.length > 0) await this.compact(covered, behind ? this.state?.() : undefined, mark);
  }

  /**
   * Stops writing and closes the segment files, folding nothing in: the files stay as a killed
   * process leaves them. Tests that simulate a crash use it, so no file handle is left open.
   */
  async abandon(): Promise<void> {
    this.closed = true;
    await this.settle();
    this.segments.closeAll();
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

  private write({ text, lines }: { text: string; lines: number }): void {
    this.segments.append(text, lines);
    this.appended++;
  }

  private compactionDue(): boolean {
    const size = this.segments.size;
    if (this.compaction || !size) return false;
    return size.lines >= this.maxLines || size.bytes >= Math.max(this.minBytes, this.snapshotBytes);
  }

  /** Writes arriving from now on go to a new segment; the data as of now is what the snapshot will hold. */
  private beginCompaction(snapshot: () => StateData) {
    const mark = this.appended;
    this.segments.retire();
    return { covered: [...this.segments.live], data: snapshot(), mark };
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
      this.segments.forget(n);
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
