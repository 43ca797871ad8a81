import { Low, Memory, type Adapter } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { StateData, TableName } from './tables.js';

/** One change handed to the persistence: a row put or deleted, or the whole data replaced. */
export type WriteOp =
  | { kind: 'row'; table: TableName; id: string; before: { id: string } | undefined; after: { id: string } | undefined }
  | { kind: 'replace' };

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

/**
 * Keeps the whole data set in a lowdb JSON document. With a file adapter every write replaces the
 * file atomically (lowdb writes a temporary file and renames it over the old one).
 */
class LowdbPersistence implements Persistence {
  private readonly db: Low<StateData | null>;

  constructor(
    adapter: Adapter<StateData | null>,
    readonly location: string,
  ) {
    this.db = new Low(adapter, null);
  }

  async load(): Promise<StateData | null> {
    try {
      await this.db.read();
    } catch (error) {
      throw new DataFileError(this.location, `it is not valid JSON (${(error as Error).message})`);
    }
    const data = this.db.data;
    if (data === null) return null;
    if (typeof data !== 'object' || data.format !== 'parcel-sandbox' || typeof data.tables !== 'object') {
      throw new DataFileError(this.location, 'it is not a parcel-sandbox data file');
    }
    return data;
  }

  async write(_ops: WriteOp[], snapshot: () => StateData): Promise<void> {
    this.db.data = snapshot();
    await this.db.write();
  }

  async close(): Promise<void> {}
}

/** Data in a JSON file that survives restarts. */
export function filePersistence(file: string): Persistence {
  return new LowdbPersistence(new JSONFile<StateData | null>(file), file);
}

/** Data that lives as long as the process: tests and `--memory`. */
export function memoryPersistence(): Persistence {
  return new LowdbPersistence(new Memory<StateData | null>(), 'memory');
}
