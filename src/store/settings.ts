import type { ReadView, Tx } from './store.js';

/** Reads a named setting. */
export function getSetting<T>(store: ReadView, id: string): T | undefined {
  return store.get('settings', id)?.value as T | undefined;
}

/** Writes a named setting inside a transaction. */
export function putSetting(tx: Tx, id: string, value: unknown): void {
  if (tx.get('settings', id)) tx.update('settings', id, { value });
  else tx.insert('settings', { id, value });
}

export { CLOCK_OFFSET, ID_COUNTER, WORLD_KEYS } from './tables.js';
