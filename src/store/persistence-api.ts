import type { StateData, TableName } from './tables.js';

/** One change handed to the persistence: a row put or deleted (`before` is what the store restores on a rollback). */
export type WriteOp = { kind: 'row'; table: TableName; id: string; before: { id: string } | undefined; after: { id: string } | undefined };

/**
 * Where the store keeps its data between runs. A write has two steps: `append` puts a
 * transaction's changes where the next start reads them, synchronously, in the same turn of the
 * event loop that makes them visible in memory; `flush` then makes every append so far durable,
 * once for all the transactions that arrived meanwhile (group commit).
 */
export interface Persistence {
  readonly location: string;
  /** The stored data, or `null` when nothing is stored yet. Throws `DataFileError` when unreadable. */
  load(): Promise<StateData | null>;
  /** Writes `ops` or throws `DataWriteError`, leaving nothing of them that a later start would read. */
  append(ops: WriteOp[]): void;
  /**
   * Resolves once every append so far is durable; rejects with `DataWriteError` when it cannot
   * say so, and then the store calls `revert`. `snapshot` gives the data as appended so far, for
   * rewriting the whole file now and then.
   */
  flush(snapshot: () => StateData): Promise<void>;
  /**
   * Drops every append since the last flush that resolved, after one rejected. The store calls it
   * in the same turn as it takes those changes back, so no append slips in between.
   */
  revert(): void;
  /** Replaces all data (a sandbox reset) durably, or throws `DataWriteError` having changed nothing. */
  replace(data: StateData): Promise<void>;
  close(): Promise<void>;
}

/** The data file exists but cannot be used; the sandbox refuses to start rather than overwrite it. */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot use data file ${file}: ${reason}`);
  }
}

/** Plain words for the system errors a write to the data file meets (a full disk, a read-only mount, ...). */
const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an input/output error',
  EFBIG: 'the file is too large',
};

/** Why a system error happened, in words, without the path (the answer to a client names no file). */
function errorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && REASONS[code]) return `${REASONS[code]} (${code})`;
  if (code) return code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A change could not be written to the data file. Nothing of it was kept: the store has taken it
 * back, and the same write may succeed later (once the disk has room again).
 */
export class DataWriteError extends Error {
  readonly reason: string;

  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    const reason = errorReason(cause);
    super(`could not write to the data file ${file}: ${reason}`, { cause });
    this.reason = reason;
  }
}
