import type { z } from 'zod';
import type { predicate } from '../../model/hook.js';
import { valueAt } from './pointer.js';

type Predicate = z.infer<typeof predicate>;
type Scalar = string | number | boolean | null;

const asNumber = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return undefined;
};

/** Equality that lets `"1500"` equal `1500`, since predicate values arrive as strings or numbers. */
function equals(actual: unknown, expected: Scalar): boolean {
  if (actual === expected) return true;
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return a === b;
  return actual !== undefined && actual !== null && typeof actual !== 'object' && String(actual) === String(expected);
}

function compare(actual: unknown, expected: Scalar): number | undefined {
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return a - b;
  if (typeof actual === 'string' && typeof expected === 'string') return actual.localeCompare(expected);
  return undefined;
}

/** Whether one predicate holds for a resource document. A missing value only satisfies `!=`. */
export function holds(document: unknown, p: Predicate): boolean {
  const actual = valueAt(document, p.pointer);
  switch (p.operator) {
    case '==':
      return equals(actual, p.value);
    case '!=':
      return !equals(actual, p.value);
    case 'contains':
      if (Array.isArray(actual)) return actual.some((item) => equals(item, p.value));
      return typeof actual === 'string' && p.value !== null && actual.includes(String(p.value));
    default: {
      const order = compare(actual, p.value);
      if (order === undefined) return false;
      return p.operator === '>' ? order > 0 : p.operator === '<' ? order < 0 : p.operator === '>=' ? order >= 0 : order <= 0;
    }
  }
}

/** Every predicate must hold (an empty list always does). */
export function allHold(document: unknown, predicates: readonly Predicate[] | undefined): boolean {
  return (predicates ?? []).every((p) => holds(document, p));
}
