import { open, readFile, rm, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { encodeBatch, encodeReset, listSegments, parseSegment, replay, segmentPath, segmentsToReplay, truncateSegment, type Entry } from './journal.js';
import { DataFileError, type Persistence, type WriteOp } from './persistence-api.js';
import { readSnapshot, syncDirectory, writeSnapshot } from './snapshot.js';
import type { StateData } from './tables.js';

export interface JournalOptions {
  /** Compact once the segment being appended to holds this many lines (tests use it)... */
  maxLines?: number;
  /**
   * ...or this many bytes, or as many bytes as the snapshot when that is more. Growing with the
   * snapshot keeps the cost of compaction per write constant however big the data gets: a
   * snapshot twice as big is rewritten half as often.
   */
  minBytes?: number;
}

/**
 * The data as a lowdb JSON snapshot plus an append-only journal beside it. A write appends its
 * changes and fdatasyncs once, so its cost does not depend on the size of the data; the snapshot
 * is rewritten in the background once the journal grows (see `startCompaction`), on a reset and
 * on close.
 */
export class JournalPersistence implements Persistence {
  private readonly maxLines: number;
  private readonly minBytes: number;
  /** Size of the snapshot on disk, in bytes. */
  private snapshotBytes = 0;
  /** Segments on disk, ascending: the snapshot plus these, replayed in order, is the data. */
  private live: number[] = [];
  private next = 1;
  /** The segment appends go to, opened on the first append; `undefined`: start a new one. */
  private current: number | undefined;
  private handle: FileHandle | undefined;
  private lines = 0;
  private bytes = 0;
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
    this.current = numbers.at(-1);
    this.lines = last?.lines ?? 0;
    this.bytes = last?.committedBytes ?? 0;
    this.appended = numbers.length > 0 ? 1 : 0;
    const data = replay(snapshot, segments);
    this.state = () => data;
    return data;
  }

  async write(ops: WriteOp[], snapshot: () => StateData): Promise<void> {
    if (this.closed) throw new Error(`the data file ${this.location} is closed`);
    this.state = snapshot;
    if (ops.some((op) => op.kind === 'replace')) return this.reset(snapshot());
    await this.append(encodeBatch(ops));
    const maxBytes = Math.max(this.minBytes, this.snapshotBytes);
    if (!this.compaction && (this.lines >= this.maxLines || this.bytes >= maxBytes)) await this.startCompaction();
  }

  /** Leaves just the snapshot: waits for a running compaction, then folds in the rest. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.settle();
    const mark = this.appended;
    const behind = mark > this.compacted;
    const covered = await this.detach();
    if (behind || covered.length > 0) await this.compact(covered, behind ? this.state?.() : undefined, mark);
  }

  /**
   * Stops writing and closes the segment being appended to, folding nothing in: the files stay as
   * a killed process leaves them. Tests that simulate a crash use it, so no file handle is left
   * open for the garbage collector to close (Node warns, and will throw, when it has to).
   */
  async abandon(): Promise<void> {
    this.closed = true;
    await this.settle();
    await this.detach();
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

  private async append({ text, lines }: { text: string; lines: number }): Promise<void> {
    const handle = await this.openCurrent();
    try {
      await handle.appendFile(text);
      await handle.datasync();
    } catch (error) {
      // Whatever reached the file has no commit line, so replay skips it; later writes go to a
      // fresh segment so they never follow a half-written line.
      await handle.truncate(this.bytes).catch(() => undefined);
      await this.detach().catch(() => undefined);
      throw error;
    }
    this.lines += lines;
    this.bytes += Buffer.byteLength(text);
    this.appended++;
  }

  private async openCurrent(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    const created = this.current === undefined;
    const n = (this.current ??= this.next++);
    if (created) this.live.push(n);
    this.handle = await open(segmentPath(this.location, n), 'a');
    // fdatasync makes a new segment's content durable but not its name in the directory.
    if (created) await syncDirectory(dirname(this.location));
    return this.handle;
  }

  /** Stops appending to the current segment; returns the segments a snapshot taken now covers. */
  private async detach(): Promise<number[]> {
    const handle = this.handle;
    this.handle = undefined;
    this.current = undefined;
    this.lines = 0;
    this.bytes = 0;
    await handle?.close();
    return [...this.live];
  }

  /**
   * Writes arriving from now on go to a new segment while the snapshot is written in the
   * background; the old segments are deleted only once the snapshot is on disk.
   */
  private async startCompaction(): Promise<void> {
    const mark = this.appended;
    const covered = await this.detach();
    const data = this.state!();
    this.compaction = this.compact(covered, data, mark)
      .catch((error: unknown) => {
        // Nothing is lost: the journal still holds every write. Retried once the next segment fills.
        process.emitWarning(`compacting the journal of ${this.location} failed: ${(error as Error).message}`);
      })
      .finally(() => (this.compaction = undefined));
  }

  /**
   * A reset must not meet old journal lines on replay. With none on disk the new snapshot simply
   * replaces the old; otherwise the reset goes into the journal first (that is its commit point)
   * and is then compacted, so a crash anywhere in between replays to either the old or new data.
   */
  private async reset(data: StateData): Promise<void> {
    await this.settle();
    if (this.appended === this.compacted) {
      this.snapshotBytes = await writeSnapshot(this.location, data);
      return;
    }
    await this.append(encodeReset(data));
    const mark = this.appended;
    await this.compact(await this.detach(), data, mark);
  }

  /** Writes `data` as the snapshot, then deletes the covered segments, oldest first. */
  private async compact(covered: number[], data: StateData | undefined, mark: number): Promise<void> {
    if (data) this.snapshotBytes = await writeSnapshot(this.location, data);
    for (const n of covered) {
      await rm(segmentPath(this.location, n), { force: true });
      this.live = this.live.filter((live) => live !== n);
    }
    await syncDirectory(dirname(this.location));
    this.compacted = Math.max(this.compacted, mark);
  }
}
