import type { CollectionRecord } from '../../model/collection.js';
import { TOP_UP_SCHEDULE, weekdays, type CollectionScheduleRecord } from '../../model/collection-schedule.js';
import type { Tx } from '../../store/store.js';
import type { Rules } from '../rules.js';
import type { JobHandler } from '../scheduler.js';
import { statusByCode } from '../shipments/statuses.js';
import { calendarOf, slotHolding } from '../../model/collection-calendar.js';
import { registerCollection } from './lifecycle.js';

/*
 * A collection schedule books its collections ahead on the sandbox clock: when it is made and
 * then every day at 00:00 UTC, each occurrence of the next HORIZON_DAYS days that the carrier
 * still takes gets its collection. So a shop with a schedule always has an upcoming collection for
 * `meta.add_to_next_collection`. Each occurrence is booked once: a collection cancelled later is
 * not booked again.
 */

export { TOP_UP_SCHEDULE };
export const HORIZON_DAYS = 8;
const DAY = 86400;

/** Minutes east of UTC of a schedule time's zone (`Z`, `+02:00`, `-5`, none: 0). */
function offsetMinutes(time: string): number {
  const zone = time.slice(5);
  if (zone === '' || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const [hours = '', minutes = ''] = zone.slice(1).split(':');
  return sign * (Number(hours || 0) * 60 + Number(minutes || 0));
}

/** A schedule time as minutes after the local midnight, turned into minutes after UTC midnight of the same date. */
function utcMinutes(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) - offsetMinutes(time);
}

/** The window of a schedule on a local date (Unix seconds of that date's 00:00 UTC). */
export function windowOn(schedule: Pick<CollectionScheduleRecord, 'collection'>, day: number): { from: number; to: number } {
  return { from: day + utcMinutes(schedule.collection.time.from) * 60, to: day + utcMinutes(schedule.collection.time.to) * 60 };
}

/** The occurrences whose window opens in (`after`, `until`], in time order. */
function occurrences(schedule: Pick<CollectionScheduleRecord, 'days' | 'collection'>, after: number, until: number): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  for (let day = Math.floor(after / DAY) * DAY - DAY; day <= until + DAY; day += DAY) {
    // JavaScript counts days from Sunday; production names them from Monday.
    const name = weekdays[(new Date(day * 1000).getUTCDay() + 6) % 7]!;
    if (!schedule.days.includes(name)) continue;
    const window = windowOn(schedule, day);
    if (window.from > after && window.from <= until) out.push(window);
  }
  return out;
}

/** Books the occurrences of the horizon after `at` that are not booked yet, and plans the next top-up. */
export function topUp(tx: Tx, rules: Rules, schedule: CollectionScheduleRecord, at: number): void {
  const contract = schedule.contract_id ? tx.get('contracts', schedule.contract_id) : undefined;
  const carrier = contract ? tx.get('carriers', contract.carrier_id) : undefined;
  const calendar = carrier && calendarOf(carrier);
  // A top-up runs as of `at` (a midnight the clock passed), but books now: after a clock move it may
  // run hours past that midnight, when windows of the day have begun and cut-offs have passed.
  const now = Math.max(at, rules.clock.now());
  let bookedUntil = schedule.booked_until ?? at;
  for (const window of occurrences(schedule, Math.max(at, bookedUntil), at + HORIZON_DAYS * DAY)) {
    const slot = calendar ? slotHolding(calendar, window) : undefined;
    // The window began, or the carrier's cut-off passed (the schedule was made late, or the clock jumped): that day is missed.
    if (window.from <= now || (calendar && (!slot || slot.bookBefore <= now))) continue;
    const collection: CollectionRecord = tx.insert('collections', {
      id: tx.newId(),
      ...(schedule.collection.description !== undefined ? { description: schedule.collection.description } : {}),
      address: schedule.collection.address,
      collection_time: window,
      register: contract !== undefined,
      created_at: at,
      shop_id: schedule.shop_id,
      organization_id: schedule.organization_id,
      ...(contract ? { contract_id: contract.id } : {}),
      status_id: statusByCode(tx, contract && contract.status !== 'active' ? 'collection-registration-failed' : 'collection-concept').id,
      schedule_id: schedule.id,
    });
    if (contract?.status === 'active') registerCollection(tx, rules, collection);
    bookedUntil = window.from;
  }
  if (bookedUntil !== schedule.booked_until) tx.update('collectionSchedules', schedule.id, { booked_until: bookedUntil });
  rules.jobs.schedule(tx, { kind: TOP_UP_SCHEDULE, subject: schedule.id, dueMs: (Math.floor(at / DAY) + 1) * DAY * 1000 });
}

/**
 * The daily top-up runs as of the last midnight the clock passed, not of every midnight since it
 * was due: after a clock move of days, one top-up books up to HORIZON_DAYS past today, and the
 * occurrences the move left behind whose cut-off had passed by today are missed, as a day whose
 * cut-off passed always is. Replaying each midnight instead ran a job per day of the move: a move
 * of years booked ~100,000 collections and took seconds (fuzz.test.ts's clock moves, 4 and 3.5 s).
 */
export const topUpScheduleJob: JobHandler = {
  apply(tx, job, rules) {
    const schedule = tx.get('collectionSchedules', job.subject);
    const lastMidnight = Math.floor(rules.clock.now() / DAY) * DAY;
    if (schedule) topUp(tx, rules, schedule, Math.max(Math.floor(job.due_ms / 1000), lastMidnight));
  },
};

/** Removes a schedule and its pending top-up; the collections it booked stay. */
export function removeSchedule(tx: Tx, rules: Pick<Rules, 'jobs'>, scheduleId: string): void {
  rules.jobs.cancel(tx, TOP_UP_SCHEDULE, scheduleId);
  tx.remove('collectionSchedules', scheduleId);
}
