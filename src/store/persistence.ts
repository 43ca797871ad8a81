import { JournalPersistence } from './journal-persistence.js';
import type { Persistence, WriteOp } from './persistence-api.js';
import type { StateData } from './tables.js';

export { DataFileError, DataWriteError, type Persistence, type WriteOp } from './persistence-api.js';

/**
 * No persistence at all: the store's own tables are the only copy. (Keeping a second copy,
 * as lowdb's memory adapter would, costs a full copy of the data on every write.)
 */
class MemoryPersistence implements Persistence {
  readonly location = 'memory';

  async load(): Promise<StateData | null> {
    return null;
  }

  append(_ops: WriteOp[]): void {}

  async flush(_snapshot: () => StateData): Promise<void> {}

  revert(): void {}

  async replace(_data: StateData): Promise<void> {}

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
