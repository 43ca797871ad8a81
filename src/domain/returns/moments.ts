import { DomainError, type Field } from '../errors.js';

const DAY = 86400;

/**
 * Unix seconds of a bound given as Unix seconds, a date (`2026-01-31`) or an ISO-8601 date-time.
 * A plain date as an upper bound means the end of that day (UTC).
 */
export function momentOf(raw: string | number, field: Field, end = false): number {
  if (typeof raw === 'number') return Math.floor(raw);
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    const day = Date.parse(`${raw}T00:00:00Z`);
    if (!Number.isNaN(day) && new Date(day).toISOString().startsWith(raw)) return day / 1000 + (end ? DAY - 1 : 0);
  } else {
    const at = Date.parse(raw);
    if (!Number.isNaN(at) && /T|\s/.test(raw)) return Math.floor(at / 1000);
  }
  throw DomainError.invalid(`'${raw}' is not Unix seconds, a date (YYYY-MM-DD) or an ISO-8601 date-time.`, field);
}

/** The UTC day of a Unix time, `YYYY-MM-DD`. */
export const dayOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);
/** The UTC month of a Unix time, `YYYY-MM`. */
export const monthOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 7);
/** An ISO-8601 date-time of a Unix time, for people reading a report. */
export const isoOf = (seconds: number | undefined): string => (seconds === undefined ? '' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'));

export { DAY };
