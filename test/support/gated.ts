import { memoryPersistence, type Persistence } from '../../src/store/persistence.js';

/** A persistence whose writes wait until `release()`: a request that writes stays "running". */
export function gatedPersistence() {
  const inner = memoryPersistence();
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  const persistence: Persistence = {
    location: 'gated memory',
    load: () => inner.load(),
    append: (ops) => inner.append(ops),
    flush: async (snapshot) => {
      await gate;
      await inner.flush(snapshot);
    },
    revert: () => inner.revert(),
    replace: (data) => inner.replace(data),
    close: () => inner.close(),
  };
  return {
    persistence,
    hold: () => {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
  };
}
