import { memoryPersistence, type Persistence } from '../../src/store/persistence.js';

/** A persistence whose writes wait until `release()`: a request that writes stays "running". */
export function gatedPersistence() {
  const inner = memoryPersistence();
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  const persistence: Persistence = {
    location: 'gated memory',
    load: () => inner.load(),
    write: async (ops, snapshot) => {
      await gate;
      await inner.write(ops, snapshot);
    },
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
