import { memoryPersistence, type Persistence, type WriteOp } from '../../src/store/persistence.js';
import type { Store } from '../../src/store/store.js';

/**
 * A memory persistence that also keeps the changes written since its last `mark`, so a test that
 * writes and then goes back thousands of times can take back the few rows a request changed
 * instead of reloading every row with `store.replace`. On the world a clock jump of years leaves
 * (~14,000 booked collections) a reload re-indexes every row: going back after the 68 writes of
 * each of the fuzz test's two clock sweeps took 3.6 s of CPU by reload, 1.6 s this way (the
 * rest is the reloads still needed, see `takeBack`); the 4,808 restores of the populated world in
 * the matrices and the fuzz test 3.9 s by reload, 1.1 s this way.
 */
export interface UndoJournal {
  readonly persistence: Persistence;
  /** Starts keeping what is written: `takeBack` with the mark returned returns to the data as it is now. */
  mark(): number;
  /**
   * Takes back every change since `mark`, newest first, as the store takes back a failed
   * transaction (the same frozen rows are put back). Answers false, changing nothing, when it
   * cannot give back the marked data exactly; the caller then reloads its snapshot (and marks
   * again): when another mark was made since, or after a `replace` (a sandbox reset). Removed and
   * changed rows go back to their places (every row keeps one, src/store/table.ts), so every row
   * ends with its marked value and place, in its table and in every index. (Before rows kept
   * places, a removal or a change of an indexed row forced the reload: checked against the
   * snapshot after every take-back of the matrices and the fuzz test, 1,045 tests, all exact.)
   */
  takeBack(store: Store, mark: number): boolean;
}

/** What the store does with a transaction it cannot keep; not part of its interface. */
type Undoing = { undo(ops: WriteOp[]): void };

/** An undo journal over a fresh memory persistence; it keeps nothing until the first mark. */
export function undoJournal(): UndoJournal {
  const inner = memoryPersistence();
  let written: WriteOp[][] | undefined;
  let current = 0;
  let exact = false;
  const persistence: Persistence = {
    location: inner.location,
    load: () => inner.load(),
    append: (ops) => {
      inner.append(ops);
      if (!written || !exact) return;
      written.push(ops);
    },
    flush: (snapshot) => inner.flush(snapshot),
    revert: () => inner.revert(),
    replace: (data) => {
      exact = false;
      return inner.replace(data);
    },
    close: () => inner.close(),
  };
  const mark = () => {
    written = [];
    exact = true;
    return ++current;
  };
  return {
    persistence,
    mark,
    takeBack(store, at) {
      if (at !== current || !exact || !written) return false;
      const undoing = store as unknown as Undoing;
      if (typeof undoing.undo !== 'function') throw new Error('the store no longer takes back transactions with undo(ops)');
      for (let i = written.length - 1; i >= 0; i--) undoing.undo(written[i]!);
      written = [];
      return true;
    },
  };
}
