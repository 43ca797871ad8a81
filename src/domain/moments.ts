import { DomainError, partsOf, type Field } from './errors.js';

const DAY = 86400;

/** The forms a moment is written in, for the messages that refuse one. */
const MOMENT_FORMS = 'Unix seconds, a date (YYYY-MM-DD) or an ISO-8601 date-time with a time zone';

const UNIX = /^\d{1,12}$/;

/**
 * A date-time whose offset's `+` came as a space: a `+` in a query string reads as a space, so
 * `...T10:00:00+01:00` sent unencoded arrives as `...T10:00:00 01:00`.
 */
const SPACED_OFFSET = /^\s*\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)? \d{2}:?\d{2}\s*$/;

/**
 * What a moment must be, said after its member's name ("'filter[date_from]' must be ..."), and the
 * likely cause when only the offset's `+` was lost: one wording wherever a moment is refused, by a
 * query's schema or by a rule.
 */
export function momentMust(raw: string): string {
  const must = `must be ${MOMENT_FORMS}`;
  return SPACED_OFFSET.test(raw) ? `${must}; its offset's '+' arrived as a space ('${raw}'), as a '+' in a query string does: send it as %2B` : must;
}

/** A moment: whole Unix seconds, `day` when it was a bare date, and the fraction of a second a date-time gave. */
export type Moment = { seconds: number; day: boolean; fraction?: number };
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/**
 * Unix seconds of a UTC date-time (month 1-12). Date.UTC reads a year from 0 to 99 as 1900-1999,
 * so `0050-01-01` would name 1950: the year is set again as written.
 */
function utcSeconds(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime() / 1000;
}

/** Whether the month of that year has that day: 2026-02-30 and 2026-13-01 have none (0000-02-29 has: year 0 is a leap year). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  // The day before the first of the next month, in that very year (not 1900 + year).
  return day <= new Date(utcSeconds(year, month + 1, 1) * 1000 - DAY * 1000).getUTCDate();
}

/**
 * The moment `raw` names: Unix seconds, a date (`2026-01-31`, the start of that day in UTC, with
 * `day` set) or an ISO-8601 date-time with a time zone (`Z` or an offset); a date-time's
 * fraction of a second is kept apart, so `seconds` is whole.
 * Undefined for anything else, and for a day the calendar does not have or an hour the clock does
 * not show (`2026-02-30`, `2026-01-01T25:00:00Z`): `Date.parse` would roll those over.
 */
export function parseMoment(raw: string): Moment | undefined {
  const text = raw.trim();
  if (UNIX.test(text)) return { seconds: Number(text), day: false };
  const date = DATE.exec(text);
  if (date) {
    const [year, month, day] = date.slice(1, 4).map(Number) as [number, number, number];
    return isCalendarDay(year, month, day) ? { seconds: utcSeconds(year, month, day), day: true } : undefined;
  }
  const at = DATE_TIME.exec(text);
  if (!at) return undefined;
  const part = (group: number) => Number(at[group] ?? 0);
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [part(1), part(2), part(3), part(4), part(5), part(6), part(10), part(11)];
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (at[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const seconds = utcSeconds(year, month, day, hour, minute, second) - offset * 60;
  const fraction = at[7] === undefined ? 0 : Number(`0.${at[7]}`);
  return fraction > 0 ? { seconds, day: false, fraction } : { seconds, day: false };
}

/**
 * Unix seconds of a range bound, with the fraction of a second it was given: a bare date as the
 * upper bound (`end`) means the last second of that day (UTC).
 */
function boundOf(moment: Moment, end: boolean): number {
  return moment.seconds + (moment.fraction ?? 0) + (end && moment.day ? DAY - 1 : 0);
}

/**
 * Unix seconds of a bound given as Unix seconds, a date (`2026-01-31`) or an ISO-8601 date-time
 * (`parseMoment`); a plain date as an upper bound means the end of that day (UTC). Anything else
 * is invalid at `field`.
 */
export function momentOf(raw: string | number, field: Field, end = false): number {
  if (typeof raw === 'number') return Math.floor(raw);
  const bound = rangeBoundOf(raw, end);
  if (bound === undefined) {
    // Named as a schema error names a member: a parameter whole, a body member by its last name.
    const [, path] = partsOf(field);
    const name = /^filter\[/.test(path) ? path : (path.split('.').pop() ?? path);
    throw DomainError.invalid(`'${name}' ${momentMust(raw)}.`, field);
  }
  // The whole seconds the bound covers: a lower one inside a second starts at the next.
  return end ? Math.floor(bound) : Math.ceil(bound);
}

/** Unix seconds with a fraction, as `Date.now() / 1000` writes them. */
const DECIMAL_SECONDS = /^\s*\d{1,12}\.\d+\s*$/;

/**
 * Unix seconds of a range bound written as text, exactly: a moment (`parseMoment`, a date-time
 * with its fraction of a second) or decimal Unix seconds (production types date range bounds as a
 * string or a number). Kept exact, a bound compares with whole-second timestamps as the whole
 * seconds it covers (a row of 1767225600 is after no lower bound of 1767225600.5), and a range
 * inside one second (from .3 to .8, Date.now() / 1000 twice) is in order, not swapped. Undefined
 * for anything else. Every range in a query (lists, analytics) and in a report's filters reads
 * its bounds here, so one bound selects the same seconds everywhere.
 */
export function rangeBoundOf(raw: string, end: boolean): number | undefined {
  if (DECIMAL_SECONDS.test(raw)) return Number(raw);
  const moment = parseMoment(raw);
  return moment && boundOf(moment, end);
}

/** The UTC day of a Unix time, `YYYY-MM-DD`. */
export const dayOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);
/** The UTC month of a Unix time, `YYYY-MM`. */
export const monthOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 7);
/** The furthest a Date reaches either side of 1970, in seconds (ECMAScript's time range: 100 million days). */
const DATE_RANGE = 8.64e12;

/**
 * An ISO-8601 date-time of a Unix time, for people reading a report or a message. A bound a body
 * gave as an integer may lie beyond any Date (Number.MAX_SAFE_INTEGER as "no end"), where
 * toISOString throws: it is written as the Unix seconds it was.
 */
export const isoOf = (seconds: number | undefined): string => {
  if (seconds === undefined) return '';
  if (Math.abs(seconds) > DATE_RANGE) return `Unix ${seconds}`;
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
};

export { DAY };
