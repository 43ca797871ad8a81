import { z } from 'zod';
import { countryCode, uuid } from '../model/common.js';
import { isoOf, momentMust, parseMoment, rangeBoundOf } from '../domain/moments.js';

/**
 * A comma separated list of free strings. Empty entries are dropped (`a,,b`), but a list of commas
 * alone names nothing, as an empty filter does (mount.ts: refuseBlankFilter), and is refused.
 */
export const csvStrings = z
  .string()
  .transform((raw) =>
    raw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .refine((list) => list.length > 0, 'names no value (only commas): give at least one, or leave the parameter out');

const listSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * Whether a list parameter (one of the lists above, as parsed for one request) holds `value`, in
 * one lookup: the list's set is made on its first use and kept while the list lives. A filter
 * asks this for every row, so with `includes` it cost the rows times the values: a tenant's
 * thousands of rows against the thousands of values a query string holds.
 */
export function listHas(list: readonly string[], value: string): boolean {
  let set = listSets.get(list);
  if (!set) listSets.set(list, (set = new Set(list)));
  return set.has(value);
}

/** A comma separated list of values from `values`. */
export function csvOf<const T extends readonly [string, ...string[]]>(values: T) {
  return csvStrings.pipe(z.array(z.enum(values, { error: () => `must be a comma separated list of: ${values.join(', ')}` })));
}

/** A comma separated list of lower-case UUIDs. */
export const csvIds = csvStrings.pipe(z.array(uuid));

/**
 * A comma separated list of ISO 3166-1 country codes, each checked as a single code is elsewhere:
 * `nl` or `XX` would match nothing and so read as an empty answer instead of a mistake.
 */
export const csvCountryCodes = csvStrings.pipe(z.array(countryCode));

/** `true` or `false`. */
export const booleanParam = z.enum(['true', 'false', '1', '0'], { error: () => 'must be true or false' }).transform((raw) => raw === 'true' || raw === '1');

/** A non-negative integer. */
export const integerParam = z
  .string()
  .regex(/^\s*\d+\s*$/, 'must be a non-negative integer')
  .transform(Number);

/**
 * A non-negative decimal number, with an exponent if it likes: PHP writes a small float such as
 * 0.000064 as `6.4E-5` (production's PHP SDK sends `filter[volume]` so), and production reads it.
 */
export const numberParam = z
  .string()
  .regex(/^\s*\d+(\.\d+)?([eE][+-]?\d+)?\s*$/, 'must be a non-negative number')
  .transform(Number)
  .refine(Number.isFinite, 'must be a non-negative number');

/**
 * A moment (`parseMoment`): Unix seconds, a date (`YYYY-MM-DD`) or an ISO-8601 date-time with a
 * time zone; a day the calendar does not have is refused. What it names, and whether it was a bare date.
 */
export const momentParam = z
  .string()
  .transform((raw, context) => {
    const moment = parseMoment(raw);
    if (moment) return moment;
    context.addIssue({ code: 'custom', message: momentMust(raw) });
    return z.NEVER;
  })
  .describe('Unix seconds, a date (YYYY-MM-DD) or an ISO-8601 date-time with a time zone.');

/** A bound of a date range filter, as exact Unix seconds (`rangeBoundOf`: a moment or decimal Unix seconds). */
function rangeBound(end: boolean) {
  return z.string().transform((raw, context) => {
    const bound = rangeBoundOf(raw, end);
    if (bound !== undefined) return bound;
    context.addIssue({ code: 'custom', message: momentMust(raw) });
    return z.NEVER;
  });
}

/** The lower bound of a date range filter, as Unix seconds: a bare date is the start of that day (UTC). */
export const dateFromParam = rangeBound(false).describe(momentParam.description + ' Inclusive.');

/** The upper bound of a date range filter, as Unix seconds: a bare date takes in that whole day (UTC). */
export const dateToParam = rangeBound(true).describe(momentParam.description + ' Inclusive; a bare date takes in that whole day (UTC).');

/**
 * Refuses a range whose upper bound lies before its lower one, 400 at the upper bound's name, for
 * each pair `[from, to]` of query parameters given both: such a range holds nothing, and an empty
 * list would hide the swapped bounds. Every endpoint that takes a range refuses one so.
 */
export function orderedRanges(...pairs: readonly (readonly [from: string, to: string])[]) {
  return (query: Record<string, unknown>, context: z.core.$RefinementCtx) => {
    for (const [fromName, toName] of pairs) {
      const from = query[fromName];
      const to = query[toName];
      if (typeof from !== 'number' || typeof to !== 'number' || to >= from) continue;
      context.addIssue({
        code: 'custom',
        path: [toName],
        message: `must not lie before '${fromName}': the range would start at ${isoOf(from)} and end at ${isoOf(to)}, holding nothing (were the two swapped?)`,
      });
    }
  };
}
