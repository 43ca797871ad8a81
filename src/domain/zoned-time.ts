/*
 * Wall-clock time in a time zone, with Intl (Node's ICU carries the zone rules): what a local
 * date and hour are in Unix time, and how a moment is written with its local offset.
 */

/** A calendar day; `month` 1 to 12. */
export interface Day {
  year: number;
  month: number;
  day: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function partsAt(zone: string, ms: number): Record<string, number> {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(ms))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return parts;
}

/** Minutes the zone is ahead of UTC at a moment. */
function offsetMinutes(zone: string, ms: number): number {
  const p = partsAt(zone, ms);
  return Math.round((Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000) / 60000);
}

/** The moment a local day and hour (and minute) begin in the zone. */
export function zonedMs(zone: string, day: Day, hour: number, minute = 0): number {
  const wall = Date.UTC(day.year, day.month - 1, day.day, hour, minute);
  // Twice: the offset of the first guess may be the one on the other side of a DST change.
  const first = wall - offsetMinutes(zone, wall) * 60000;
  return wall - offsetMinutes(zone, first) * 60000;
}

/** The local day and hour of a moment. */
export function localAt(zone: string, ms: number): { day: Day; hour: number } {
  const p = partsAt(zone, ms);
  return { day: { year: p.year!, month: p.month!, day: p.day! }, hour: p.hour! };
}

/** The day `count` days after `day` (before, when negative). */
export function addDays(day: Day, count: number): Day {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + count));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** 0 = Sunday ... 6 = Saturday. */
export const weekday = (day: Day): number => new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** ISO 8601 with the zone's offset at that moment, to the second: `2026-01-13T09:00:00+01:00`. */
export function isoInZone(zone: string, ms: number): string {
  const p = partsAt(zone, ms);
  const offset = offsetMinutes(zone, ms);
  const sign = offset < 0 ? '-' : '+';
  return `${p.year}-${pad(p.month!)}-${pad(p.day!)}T${pad(p.hour!)}:${pad(p.minute!)}:${pad(p.second!)}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}
