import { z } from 'zod';
import { uuid } from '../model/common.js';

/** A comma separated list of values from `values`. */
export function csvOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .string()
    .transform((raw) =>
      raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values, { error: () => `must be a comma separated list of: ${values.join(', ')}` })));
}

/** A comma separated list of lower-case UUIDs. */
export const csvIds = z
  .string()
  .transform((raw) =>
    raw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(z.array(uuid));

/** A comma separated list of free strings. */
export const csvStrings = z.string().transform((raw) =>
  raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean),
);

/** `true` or `false`. */
export const booleanParam = z.enum(['true', 'false', '1', '0'], { error: () => 'must be true or false' }).transform((raw) => raw === 'true' || raw === '1');

/** A non-negative integer. */
export const integerParam = z
  .string()
  .regex(/^\s*\d+\s*$/, 'must be a non-negative integer')
  .transform(Number);

/** A non-negative decimal number. */
export const numberParam = z
  .string()
  .regex(/^\s*\d+(\.\d+)?\s*$/, 'must be a non-negative number')
  .transform(Number);
