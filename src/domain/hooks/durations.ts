/**
 * The durations `older_than` and `newer_than` predicates take: seconds (a number, or decimal
 * text), or text such as `30 days`, `12 hours` or `1 month`. Months and years are calendar ones,
 * counted back from the moment on the UTC calendar (as PHP's `-1 month` counts): a fixed number
 * of seconds would put "1 month" before a 31-day month's last day.
 */

const FIXED_SECONDS: Record<string, number> = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800 };
const CALENDAR_MONTHS: Record<string, number> = { month: 1, year: 12 };

const TEXT = /^\s*(\d{1,9})\s*(second|minute|hour|day|week|month|year)s?\s*$/i;
const SECONDS = /^\s*\d{1,15}(\.\d+)?\s*$/;

/** A duration read from a predicate's value, or `undefined` when the value is none. */
type Duration = { seconds: number } | { months: number };

function durationOf(value: unknown): Duration | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? { seconds: value } : undefined;
  if (typeof value !== 'string') return undefined;
  if (SECONDS.test(value)) return { seconds: Number(value) };
  const match = TEXT.exec(value);
  if (!match) return undefined;
  const count = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  return unit in CALENDAR_MONTHS ? { months: count * CALENDAR_MONTHS[unit]! } : { seconds: count * FIXED_SECONDS[unit]! };
}

/** Whether a predicate value is a duration these operators can read. */
export const isDuration = (value: unknown): boolean => durationOf(value) !== undefined;

/** What a duration value must look like, for the error that refuses another. */
export const DURATION_FORMAT =
  "must be a duration: seconds (a number), or a count and a unit such as '30 days' (second, minute, hour, day, week, month or year)";

/** The Unix time `value` before `now`, or `undefined` when the value is no duration. */
export function before(now: number, value: unknown): number | undefined {
  const duration = durationOf(value);
  if (duration === undefined) return undefined;
  if ('seconds' in duration) return now - duration.seconds;
  const at = new Date(now * 1000);
  at.setUTCMonth(at.getUTCMonth() - duration.months);
  return Math.floor(at.getTime() / 1000);
}
