import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import type { predicate } from '../../model/hook.js';
import { before } from './durations.js';
import { valueAt } from './pointer.js';

type Predicate = z.infer<typeof predicate>;

/**
 * Decimal notation only (`1500`, ` -2.5 `, `1e3`): JavaScript's Number() also reads `0x10`, `0b11`
 * and `Infinity`, which are text to production (a postal code `0x10` must not equal `16`).
 */
const DECIMAL = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

const asNumber = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && DECIMAL.test(value)) return Number(value);
  return undefined;
};

/**
 * Equality that lets `"1500"` equal `1500`, since predicate values arrive as strings or numbers;
 * a list or an object equals only the same list or object.
 */
function equals(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (typeof expected === 'object' && expected !== null) return isDeepStrictEqual(actual, expected);
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return a === b;
  return actual !== undefined && actual !== null && typeof actual !== 'object' && String(actual) === String(expected);
}

function compare(actual: unknown, expected: unknown): number | undefined {
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return a - b;
  // Byte by byte, as PHP compares text: localeCompare's order depends on the host's locale (`ä`
  // sorts before `z` in English, after it in Swedish), so one hook would match differently per machine.
  if (typeof actual === 'string' && typeof expected === 'string') return Buffer.compare(Buffer.from(actual), Buffer.from(expected));
  return undefined;
}

/**
 * Whether one predicate holds for a resource document. A missing value only satisfies `!=`.
 * `older_than`/`newer_than` compare a Unix time with `now` (the sandbox clock): without it they do not hold.
 */
function holds(document: unknown, p: Predicate, now?: number): boolean {
  const actual = valueAt(document, p.pointer);
  switch (p.operator) {
    case 'older_than':
    case 'newer_than': {
      const at = asNumber(actual);
      const cutoff = now === undefined ? undefined : before(now, p.value);
      if (at === undefined || cutoff === undefined) return false;
      return p.operator === 'older_than' ? at < cutoff : at > cutoff;
    }
    case '==':
      return equals(actual, p.value);
    case '!=':
      return !equals(actual, p.value);
    case 'contains':
      if (Array.isArray(actual)) return actual.some((item) => equals(item, p.value));
      return typeof actual === 'string' && typeof p.value !== 'object' && actual.includes(String(p.value));
    case 'in':
      return Array.isArray(p.value) && p.value.some((item) => equals(actual, item));
    default: {
      const order = compare(actual, p.value);
      if (order === undefined) return false;
      return p.operator === '>' ? order > 0 : p.operator === '<' ? order < 0 : p.operator === '>=' ? order >= 0 : order <= 0;
    }
  }
}

/** Every predicate must hold (an empty list always does). */
export function allHold(document: unknown, predicates: readonly Predicate[] | undefined, now?: number): boolean {
  return (predicates ?? []).every((p) => holds(document, p, now));
}
