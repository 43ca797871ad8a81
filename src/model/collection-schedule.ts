import { z } from 'zod';
import { address } from './common.js';

/** The job that books a schedule's collections ahead (domain/collections/schedules.ts), daily and when it is made. */
export const TOP_UP_SCHEDULE = 'top-up-collection-schedule';

export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** Production's pattern of a schedule time: `HH:MM`, optionally with a zone (`Z`, `+02:00`, `-5`). */
const SCHEDULE_TIME_PATTERN = /^([0-1]\d|2[0-3]):[0-5]\d(Z|(\+|-)\d?\d?(:\d\d)?)?$/;

const scheduleTime = z.string().regex(SCHEDULE_TIME_PATTERN, 'must be HH:MM, optionally with a zone: Z, +02:00 or -05:00 (without one: UTC)');

export const collectionScheduleTime = z.object({ from: scheduleTime, to: scheduleTime }).meta({ id: 'CollectionScheduleTime' });

const scheduleCollection = z
  .object({
    description: z.string().max(255).optional().describe('Given to every collection the schedule books.'),
    time: collectionScheduleTime,
    address,
  })
  .meta({ id: 'CollectionScheduleCollection' });

export const collectionScheduleAttributes = z
  .object({
    days: z
      .array(z.enum(weekdays))
      .min(1)
      .max(7)
      .refine((days) => new Set(days).size === days.length, 'names each day once'),
    collection: scheduleCollection,
  })
  .meta({ id: 'CollectionScheduleAttributes' });

/** A recurring booking: on each of `days`, a collection in the window `collection.time` at `collection.address`. */
export type CollectionScheduleRecord = z.infer<typeof collectionScheduleAttributes> & {
  id: string;
  organization_id: string;
  shop_id: string;
  contract_id?: string;
  created_at: number;
  /** `collection_time.from` of the latest collection it booked: occurrences up to here are done. */
  booked_until?: number;
};
