/*
 * How rows are stored: frozen, without `undefined` members, empty arrays shared, and built as
 * key-by-key copies. The copies are the one performance trick of the store (see `freezeRow`);
 * everything about V8's object shapes lives here and nowhere else.
 */

/** One frozen empty array serves every row: most shipments and statuses have a few of them. */
const NO_ITEMS: readonly never[] = Object.freeze([]);

/**
 * The row as it is stored: without its `undefined` fields (copied only when it has some) and with
 * its empty arrays replaced by one shared frozen array. Built afresh rather than by deleting keys:
 * `delete` turns a V8 object into a hash table, which costs a stored shipment about 1.5 KB more
 * memory and slower field access for as long as it is kept.
 */
export function storable<T extends object>(row: T): T {
  const fields = row as Record<string, unknown>;
  // Rows handed over are fresh and may be changed in place; a frozen one (re-inserted) may not.
  const mutable = !Object.isFrozen(fields);
  let clean = true;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) clean = false;
    else if (mutable && Array.isArray(value) && value.length === 0) fields[key] = NO_ITEMS;
  }
  return clean ? row : (plainCopy(fields, same) as T);
}

const same = (value: unknown) => value;

/**
 * Up to this many members a copy is built key by key, the cheapest way. V8 turns an object that
 * is filled by computed keys into a hash table past about 19 members (the stored shipment then
 * took 1.6 KB more); larger copies go through `Object.fromEntries`, which V8 keeps a normal object.
 */
const KEYED_COPY_LIMIT = 16;

/** A copy of a plain object without its `undefined` members, with `map` applied to the others. */
function plainCopy(fields: Record<string, unknown>, map: (value: unknown) => unknown): Record<string, unknown> {
  let count = 0;
  // An own `__proto__` member (JSON.parse makes one) would set the copy's prototype if assigned.
  let protoKey = false;
  for (const key in fields) {
    if (fields[key] !== undefined) count += 1;
    if (key === '__proto__') protoKey = true;
  }
  if (count <= KEYED_COPY_LIMIT && !protoKey) {
    const copy: Record<string, unknown> = {};
    for (const key in fields) if (fields[key] !== undefined) copy[key] = map(fields[key]);
    return copy;
  }
  const entries: [string, unknown][] = [];
  for (const key in fields) if (fields[key] !== undefined) entries.push([key, map(fields[key])]);
  return Object.fromEntries(entries);
}

/** Freezes a row and everything in it. Loops rather than Object.values: this runs on every write. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  } else {
    const fields = value as Record<string, unknown>;
    for (const key in fields) deepFreeze(fields[key]);
  }
  return value;
}

/**
 * Freezes a row built by the sandbox's code, with plain objects inside it frozen as copies.
 *
 * Why copies: V8 (Node 20) clones the object of a spread (`{ ...fresh }`) with a hidden class of
 * its own that is outside V8's transition tree. Freezing such a clone, or adding a property to it
 * (`{ ...fresh, id }`), then makes yet another hidden class for that one object: a map and a
 * descriptor array of a few hundred bytes, allocated in the old generation, and every read of the
 * object misses V8's inline caches. 10,000 shipments carried 10,000 hidden classes of
 * `physical_properties`, and building each new shipment row left ~5 KB of them as garbage. A copy
 * built key by key shares one hidden class per set of keys, so the row and the plain objects in it
 * are stored as such copies (8,000 creates: RSS 183 instead of 150 MB without them), and the code
 * that builds rows may use spreads like any other code. Rows parsed from the data file do not
 * need copies; they go through `deepFreeze`.
 *
 * This is the one place that knows about V8's hidden classes: the figure it buys is the bench's
 * RSS after the run (target: under 150 MB).
 */
export function freezeRow<T extends object>(row: T): T {
  if (Object.isFrozen(row)) return row;
  return Object.freeze(plainCopy(row as Record<string, unknown>, frozenValue)) as T;
}

function frozenValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = frozenValue(value[i]);
    return Object.freeze(value);
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return deepFreeze(value);
  return Object.freeze(plainCopy(value as Record<string, unknown>, frozenValue));
}
