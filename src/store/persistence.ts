import { Low, Memory } from 'lowdb';
import { JournalPersistence } from './journal-persistence.js';
import type { Persistence, WriteOp } from './persistence-api.js';
import type { StateData } from './tables.js';

export { DataFileError, type Persistence, type WriteOp } from './persistence-api.js';

/** Keeps the whole data set in a lowdb document in memory. */
class MemoryPersistence implements Persistence {
  readonly location = 'memory';
  private readonly db = new Low<StateData | null>(new Memory<StateData | null>(), null);

  async load(): Promise<StateData | null> {
    await this.db.read();
    return this.db.data;
  }

  async write(_ops: WriteOp[], snapshot: () => StateData): Promise<void> {
    this.db.data = snapshot();
    await this.db.write();
  }

  async close(): Promise<void> {}
}

/**
 * Data that survives restarts: `file` is a lowdb JSON snapshot, and every write is appended to a
 * journal beside it (`<file>.journal-NNNNNN.jsonl`) that is folded back into the snapshot in the
 * background and on close. See `journal-persistence.ts`.
 */
export function filePersistence(file: string): Persistence {
  return new JournalPersistence(file);
}

/** Data that lives as long as the process: tests and `--memory`. */
export function memoryPersistence(): Persistence {
  return new MemoryPersistence();
}
