/**
 * JSON text of a JSON value with the keys of every object sorted, so two documents that differ
 * only in key order or whitespace give the same text.
 *
 * Written straight into the text: the obvious version (sort the keys into new objects, then
 * JSON.stringify) allocates several arrays and an object per object of the input, which made the
 * request fingerprint one of the biggest allocators of `POST /shipments`. The text must stay
 * exactly what that version gives, because stored idempotency fingerprints are hashes of it:
 * JavaScript objects list integer-like keys first, in numeric order, so those keep that order and
 * only the other keys are sorted.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i > 0 ? ',' : '') + canonicalJson(value[i]);
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Object.keys already lists the integer-like keys first, ascending; sort only the rest.
  let first = 0;
  while (first < keys.length && isIndexKey(keys[first]!)) first++;
  const named = keys.slice(first).sort();
  let text = '{';
  let written = 0;
  const write = (key: string) => {
    const item = record[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') return;
    text += `${written++ > 0 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(item)}`;
  };
  for (let i = 0; i < first; i++) write(keys[i]!);
  for (const key of named) write(key);
  return `${text}}`;
}

/** A key JavaScript orders as an array index: a canonical integer below 2^32 - 1. */
function isIndexKey(key: string): boolean {
  const code = key.charCodeAt(0);
  if (code < 48 || code > 57) return false;
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}
