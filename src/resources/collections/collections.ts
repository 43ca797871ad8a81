import { z } from 'zod';
import { parseMoment } from '../../domain/moments.js';
import { csvIds, csvOf, listHas } from '../../http/params.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import type { CollectionRecord } from '../../model/collection.js';
import { collectionKind, collectionStatusCodes, collectionVisible, type CollectionStatusCode } from './collection-kind.js';
import { readEndpoints } from '../read-endpoints.js';
import { collectionIncludes } from '../include-paths.js';

/* Production's scopes: collections are read with collections.manage or collections.view. Tenancy limits a client to its own shops' collections. */
const readScopes = { anyOf: ['collections.manage', 'collections.view'] } as const;

const schemas = resourceSchemas(collectionKind);

/** A `YYYY-MM-DD` that names a real calendar day (one error for a value that is not a date at all). */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date in the form YYYY-MM-DD', abort: true })
  .refine((raw) => parseMoment(raw) !== undefined, 'is not a calendar date');

const query = z.object({
  'filter[shop]': csvIds.optional().describe('Comma separated shop ids.'),
  'filter[status]': csvOf(collectionStatusCodes).optional().describe('Comma separated status codes, e.g. `collection-concept`.'),
  'filter[carrier]': csvIds.optional().describe('Comma separated carrier ids: collections whose contract is of one of these carriers.'),
  'filter[collection_date]': isoDate.optional().describe('YYYY-MM-DD: collections whose `collection_time.from` falls on this day (UTC).'),
});

/** The UTC day (`YYYY-MM-DD`) of a Unix time. */
const utcDay = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Collections in time order: the next pick-up first. */
const byTime = (a: CollectionRecord, b: CollectionRecord): number =>
  a.collection_time.from - b.collection_time.from || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const collectionEndpoints = [
  ...readEndpoints({
    kind: collectionKind,
    include: collectionIncludes,
    table: 'collections',
    tag: 'Collections',
    noun: 'collection',
    plural: 'collections',
    auth: readScopes,
    schemas,
    query,
    visible: collectionVisible,
    description: "Carrier pick-ups of the caller's organization's shops, ordered by `collection_time.from`.",
    filter: (ctx, rows, q) => {
      const { store } = ctx;
      const statusCode = (row: CollectionRecord) => store.get('statuses', row.status_id)?.code as CollectionStatusCode | undefined;
      const carrierOf = (row: CollectionRecord) => (row.contract_id ? store.get('contracts', row.contract_id)?.carrier_id : undefined);
      return rows
        .filter(
          (row) =>
            (!q['filter[shop]'] || listHas(q['filter[shop]'], row.shop_id)) &&
            (!q['filter[status]'] || listHas(q['filter[status]'], statusCode(row)!)) &&
            (!q['filter[carrier]'] || listHas(q['filter[carrier]'], carrierOf(row) ?? '')) &&
            (!q['filter[collection_date]'] || utcDay(row.collection_time.from) === q['filter[collection_date]']),
        )
        .sort(byTime);
    },
  }),
];
