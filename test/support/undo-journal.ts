import { memoryPersistence, type Persistence, type WriteOp } from '../../src/store/persistence.js';
import type { Store } from '../../src/store/store.js';

/**
 * A memory persistence that also keeps the changes written since its last `mark`, so a test that
 * writes and then goes back thousands of times can take back the few rows a request changed
 * instead of reloading every row with `store.replace`. On the world a clock jump of years leaves
 * (~14,000 booked collections) a reload re-indexes every row: going back after the 68 writes of
 * each of the fuzz test's two clock sweeps took 3.6 s of CPU by reload, 1.1 s this way (the
 * rest is the reloads still needed after a removal).
 */
export interface UndoJournal {
  readonly persistence: Persistence;
  /** Forgets what was written so far: `takeBack` returns to the data as it is now. */
  mark(): void;
  /**
   * Takes back every change since `mark`, newest first, as the store takes back a failed
   * transaction (the same frozen rows are put back). Answers false, changing nothing, when it
   * cannot give back the marked data exactly: after a `replace` (a sandbox reset), or when a row
   * was removed (put back, it would come last in its table's order): then reload the snapshot.
   * Every row then has its marked value and place in its table; an index lists a changed row
   * last among the rows of its value, as after any write of that row.
   */
  takeBack(store: Store): boolean;
}

/** What the store does with a transaction it cannot keep; not part of its interface. */
type Undoing = { undo(ops: WriteOp[]): void };

/** An undo journal over a fresh memory persistence; pass `persistence` to `testSandbox`. */
export function undoJournal(): UndoJournal {
  const inner = memoryPersistence();
  let written: WriteOp[][] = [];
  let exact = true;
  const persistence: Persistence = {
    location: inner.location,
    load: () => inner.load(),
    append: (ops) => {
      inner.append(ops);
      written.push(ops);
      if (ops.some((op) => op.before !== undefined && op.after === undefined)) exact = false;
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
  };
  return {
    persistence,
    mark,
    takeBack(store) {
      if (!exact) return false;
      const undoing = store as unknown as Undoing;
      if (typeof undoing.undo !== 'function') throw new Error('the store no longer takes back transactions with undo(ops)');
      for (let i = written.length - 1; i >= 0; i--) undoing.undo(written[i]!);
      mark();
      return true;
    },
  };
}
