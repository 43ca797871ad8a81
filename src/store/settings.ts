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

export const CLOCK_OFFSET = 'clock_offset_ms';
export const ID_COUNTER = 'id_counter';
