import type { CarrierRecord } from './carrier.js';

/*
 * When each carrier collects: its working days, the windows it offers on them and when bookings
 * for a window close. Times are UTC, as every time in the sandbox. The slots a carrier offers
 * follow from this table alone, so they are the same for every seed and every run.
 */

const DAY = 86400;
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export interface CollectionCalendar {
  /** Countries (ISO 3166-1 alpha-2) the carrier collects in. */
  countries: readonly string[];
  /** Working days: 0 is Sunday, 6 is Saturday. */
  days: readonly number[];
  /** The windows of a working day, in minutes after 00:00 UTC. */
  windows: readonly (readonly [number, number])[];
  /** Bookings close at `minute` (after 00:00 UTC) `daysBefore` calendar days before the window's day, or when the window opens if that is earlier. */
  cutoff: { daysBefore: number; minute: number };
}

const at = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const window = (from: string, to: string) => [at(from), at(to)] as const;
const WEEKDAYS = [1, 2, 3, 4, 5];

const CALENDARS: Readonly<Record<string, CollectionCalendar>> = {
  postnl: {
    countries: ['NL', 'BE'],
    days: WEEKDAYS,
    windows: [window('09:00', '12:00'), window('13:00', '17:00')],
    cutoff: { daysBefore: 1, minute: at('22:00') },
  },
  dpd: {
    countries: ['DE', 'NL', 'BE', 'FR', 'AT', 'LU'],
    days: WEEKDAYS,
    windows: [window('08:00', '12:00'), window('12:00', '17:00')],
    cutoff: { daysBefore: 0, minute: at('10:00') },
  },
  'dhl-express': {
    countries: ['NL', 'BE', 'DE', 'FR', 'GB'],
    days: WEEKDAYS,
    windows: [window('09:00', '13:00'), window('13:00', '18:00')],
    cutoff: { daysBefore: 0, minute: at('12:00') },
  },
  'royal-mail': {
    countries: ['GB'],
    days: [1, 2, 3, 4, 5, 6],
    windows: [window('10:00', '13:00'), window('14:00', '18:00')],
    cutoff: { daysBefore: 1, minute: at('23:00') },
  },
};

/** For a carrier that offers collections but has no entry above: office hours, booked the day before. */
const OFFICE_HOURS: CollectionCalendar = { countries: [], days: WEEKDAYS, windows: [window('09:00', '17:00')], cutoff: { daysBefore: 1, minute: at('18:00') } };

/** A window a carrier offers: Unix seconds, and until when it can be booked. */
export interface Slot {
  from: number;
  to: number;
  bookBefore: number;
}

/** The calendar of a carrier, or `undefined` when it offers no collections. */
export function calendarOf(carrier: CarrierRecord): CollectionCalendar | undefined {
  if (!carrier.collections?.offers_collections) return undefined;
  return CALENDARS[carrier.code] ?? OFFICE_HOURS;
}

/** Whether the carrier collects in a country; a carrier without a country list collects anywhere. */
export function collectsIn(calendar: CollectionCalendar, countryCode: string): boolean {
  return calendar.countries.length === 0 || calendar.countries.includes(countryCode);
}

/** Every slot whose window opens in [start, end), in time order; bookable or not. */
export function slotsBetween(calendar: CollectionCalendar, start: number, end: number): Slot[] {
  const slots: Slot[] = [];
  for (let day = Math.floor(start / DAY) * DAY; day < end; day += DAY) {
    if (!calendar.days.includes(new Date(day * 1000).getUTCDay())) continue;
    const closes = day - calendar.cutoff.daysBefore * DAY + calendar.cutoff.minute * 60;
    for (const [open, close] of calendar.windows) {
      const from = day + open * 60;
      if (from >= start && from < end) slots.push({ from, to: day + close * 60, bookBefore: Math.min(closes, from) });
    }
  }
  return slots;
}

/** The slot of the carrier's calendar that holds a window (from and to inside it), bookable or not. */
export function slotHolding(calendar: CollectionCalendar, window: { from: number; to: number }): Slot | undefined {
  return slotsBetween(calendar, window.from - DAY, window.from + 1).find((slot) => slot.from <= window.from && window.to <= slot.to);
}

/** "Monday to Friday, 09:00-12:00 and 13:00-17:00 UTC": the calendar in words, for error details. */
export function describeCalendar(calendar: CollectionCalendar): string {
  const days = calendar.days.map((day) => WEEKDAY_NAMES[day]!);
  const consecutive = calendar.days.every((day, index) => index === 0 || day === calendar.days[index - 1]! + 1);
  const dayText = consecutive && days.length > 2 ? `${days[0]} to ${days.at(-1)}` : days.join(', ');
  const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
  const windows = calendar.windows.map(([from, to]) => `${clock(from)}-${clock(to)}`);
  const cutoff = `${calendar.cutoff.daysBefore === 0 ? 'the same day' : calendar.cutoff.daysBefore === 1 ? 'the day before' : `${calendar.cutoff.daysBefore} days before`} at ${clock(calendar.cutoff.minute)}`;
  return `${dayText}, ${windows.join(' and ')} UTC, booked until ${cutoff}`;
}

/** "2026-01-12 13:00 UTC" */
export function utcText(seconds: number): string {
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
