import { memoryPersistence, type Persistence } from '../../src/store/persistence.js';

/**
 * A persistence whose writes wait until `release()`: a request that writes stays "running".
 * `reached()` resolves once a write is waiting at the gate, so a test knows the request got
 * that far without sleeping.
 */
export function gatedPersistence() {
  const inner = memoryPersistence();
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  let arrived = () => {};
  let waiting: Promise<void> = Promise.resolve();
  let appendWaiters: (() => void)[] = [];
  const persistence: Persistence = {
    location: 'gated memory',
    load: () => inner.load(),
    append: (ops) => {
      inner.append(ops);
      const waiters = appendWaiters;
      appendWaiters = [];
      for (const resolve of waiters) resolve();
    },
    flush: async (snapshot) => {
      arrived();
      await gate;
      await inner.flush(snapshot);
    },
    revert: () => inner.revert(),
    replace: (data) => inner.replace(data),
    close: () => inner.close(),
  };
  const hold = () => {
    gate = new Promise((resolve) => (open = resolve));
    waiting = new Promise((resolve) => (arrived = resolve));
  };
  const nextAppend = () => new Promise<void>((resolve) => appendWaiters.push(resolve));
  return {
    persistence,
    hold,
    /** Resolves once a write is held at the gate (after `hold()`). */
    reached: () => waiting,
    /**
     * Resolves once the next transaction has applied its changes (they are in the data and the
     * journal, waiting for the held write), so a test knows a second request got that far.
     */
    nextAppend,
    release: () => open(),
    /**
     * Runs `write` held at the disk and `other` once `write` waits there; releases the disk once
     * `other` has applied its change, and answers both: `write`'s answer shows whether it was made
     * from its own change or from the data `other` left.
     */
    race: async <A, B>(write: () => Promise<A>, other: () => Promise<B>): Promise<[A, B]> => {
      hold();
      const writing = write();
      await waiting;
      const applied = nextAppend();
      const running = other();
      await applied;
      open();
      return Promise.all([writing, running]);
    },
  };
}

/**
 * A persistence whose whole-data replace (a sandbox reset) waits until `release()`, so requests
 * can be sent while the reset runs. `reached()` resolves once the reset waits at the gate.
 */
export function gatedReplace() {
  const inner = memoryPersistence();
  let open = () => {};
  let arrived = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const waiting = new Promise<void>((resolve) => (arrived = resolve));
  let held = false;
  const persistence: Persistence = {
    location: 'gated memory',
    load: () => inner.load(),
    append: (ops) => inner.append(ops),
    flush: (snapshot) => inner.flush(snapshot),
    revert: () => inner.revert(),
    replace: async (data) => {
      // The first replace seeds the store when it opens; the gate holds the one after it.
      if (held) {
        arrived();
        await gate;
      }
      held = true;
      await inner.replace(data);
    },
    close: () => inner.close(),
  };
  return { persistence, reached: () => waiting, release: () => open() };
}
