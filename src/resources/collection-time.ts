import { z } from 'zod';
import { parseMoment } from '../domain/moments.js';
import { timestamp } from '../model/common.js';

/**
 * Production's CollectionTime date-time: at most six decimals of a second (a seventh is refused
 * there), and a time zone of `Z` or an offset, with or without its colon (`+0100`).
 */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:?\d{2})$/;

/** Unix seconds, or an ISO-8601 date-time with a zone (`Z`, `+02:00`, `+0200`), turned into Unix seconds. */
const unixOrIso = z.union([
  timestamp,
  z
    .string()
    .regex(ISO_WITH_ZONE, 'must be Unix seconds or an ISO-8601 date-time with a time zone')
    .refine((raw) => parseMoment(raw) !== undefined, 'must be a date and time the calendar has')
    .transform((raw) => parseMoment(raw)!.seconds),
]);

/**
 * A `collection_time` as a request gives it: production's CollectionTime takes each bound as Unix
 * seconds or a date-time, on POST /collections and in POST /registered-shipments' `meta.collection`
 * alike. Open, as production's: a member it does not know is dropped.
 */
export const collectionTimeInput = z
  .object({ from: unixOrIso, to: unixOrIso })
  .describe('Unix seconds or ISO-8601 date-times; answered as Unix seconds.')
  .meta({ id: 'CollectionTimeInput' });
