import type { StateData, TableName } from './tables.js';

/** One change handed to the persistence: a row put or deleted, or the whole data replaced. */
export type WriteOp =
  { kind: 'row'; table: TableName; id: string; before: { id: string } | undefined; after: { id: string } | undefined } | { kind: 'replace' };

/** Where the store keeps its data between runs. */
export interface Persistence {
  readonly location: string;
  /** The stored data, or `null` when nothing is stored yet. Throws `DataFileError` when unreadable. */
  load(): Promise<StateData | null>;
  /** Makes `ops` durable; `snapshot` gives the whole current data for strategies that rewrite it. */
  write(ops: WriteOp[], snapshot: () => StateData): Promise<void>;
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
