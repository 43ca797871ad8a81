import { z } from 'zod';
import { calendarOf, collectsIn, slotsBetween } from '../../model/collection-calendar.js';
import type { Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { momentParam } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument } from '../../jsonapi/document.js';
import { ApiError } from '../../jsonapi/errors.js';
import { linkTo } from '../../jsonapi/resource.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { countryCode, timestamp } from '../../model/common.js';
import { seesTenantRow } from '../../domain/tenant-lifetime.js';
import { collectsService } from '../../domain/collections/handover.js';
import { rateVisible } from '../catalogue/service-rate-kind.js';
import { isoOf } from '../../domain/moments.js';
import { findOr404 } from '../lookup.js';

/*
 * GET /carriers/{carrier_id}/collection-time-slots: the windows a carrier collects in at an
 * address, from its calendar (src/model/collection-calendar.ts): working days, windows and the
 * booking cut-off, all UTC. Only slots that can still be booked on the sandbox clock are listed;
 * POST /collections with a contract of the carrier takes a window inside one of them.
 */

const DAY = 86400;
const MAX_RANGE_DAYS = 31;

type SlotRow = { id: string; carrier_id: string; from: number; to: number; search: string };

export const collectionTimeSlotKind: Kind<SlotRow> = {
  type: 'collection-time-slots',
  attributesSchema: z
    .object({ from: timestamp.describe('Unix seconds: the window opens.'), to: timestamp.describe('Unix seconds: the window closes.') })
    .meta({ id: 'CollectionTimeSlotAttributes' }),
  attributes: (row) => ({ from: row.from, to: row.to }),
  relationships: { carrier: { targets: ['carriers'], data: (row) => linkTo('carriers', row.carrier_id) } },
  // Slots have no URL of their own (the search of exactly this window finds the slot again), so they carry no links.
  self: (row) => `/carriers/${row.carrier_id}/collection-time-slots?${row.search}&date_from=${row.from}&date_to=${row.from + 1}`,
  unlinked: true,
  load: () => undefined,
};

const schemas = resourceSchemas(collectionTimeSlotKind);

const query = z
  .object({
    country_code: countryCode.describe('Country of the collection address.'),
    postal_code: z.string().trim().min(1).max(20).describe('Postal code of the collection address.'),
    date_from: momentParam.describe('Unix seconds, YYYY-MM-DD or an ISO-8601 date-time: slots that open from here on.'),
    date_to: momentParam.describe(
      `Unix seconds, YYYY-MM-DD (that whole day included) or an ISO-8601 date-time: slots that open before it; at most ${MAX_RANGE_DAYS} days after date_from.`,
    ),
    service_code: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .describe(
        "A service of this carrier that is handed over by collection, or by drop-off where one of the caller's contracts offers it with the service option handover-method:collection; checked, the slots are the same for every such service.",
      ),
  })
  .superRefine((q, context) => {
    // Query parameter problems, 400 at date_to as a swapped range is on every endpoint with one (http/params.ts: orderedRanges).
    const { start, end } = rangeOf(q);
    if (end <= start) {
      context.addIssue({
        code: 'custom',
        path: ['date_to'],
        message: `must lie after 'date_from': the search would take slots opening from ${isoOf(start)} and before ${isoOf(end)}, which are none (were the two swapped?)`,
      });
    } else if (end - start > MAX_RANGE_DAYS * DAY) {
      context.addIssue({ code: 'custom', path: ['date_to'], message: `must lie at most ${MAX_RANGE_DAYS} days after 'date_from': ask for less at a time` });
    }
  });

/** The seconds a search covers: from date_from up to date_to, a bare date_to taking in that whole day. */
function rangeOf(q: { date_from: { seconds: number }; date_to: { seconds: number; day: boolean } }): { start: number; end: number } {
  return { start: q.date_from.seconds, end: q.date_to.day ? q.date_to.seconds + DAY : q.date_to.seconds };
}

export const collectionSlotEndpoints = [
  endpoint({
    method: 'get',
    path: '/carriers/{carrier_id}/collection-time-slots',
    operationId: 'listCollectionTimeSlots',
    summary: 'List the collection slots a carrier offers',
    description:
      "The windows in which the carrier collects at an address between date_from and date_to that can still be booked on the sandbox clock, in time order. They follow the carrier's " +
      'working days, windows and booking cut-off (UTC; e.g. PostNL: Monday to Friday, 09:00-12:00 and 13:00-17:00, booked until 22:00 the day before), the same for every seed. ' +
      'A collection with a contract of this carrier must lie inside one of them.',
    tag: 'Carriers',
    auth: 'token',
    params: z.object({ carrier_id: z.string() }),
    query,
    strictQuery: true,
    paginated: true,
    responses: {
      200: { description: 'The bookable slots.', schema: schemas.list },
      400: {
        description: `A missing or malformed parameter, or a range that ends before it starts or spans more than ${MAX_RANGE_DAYS} days (10003, at date_to).`,
        schema: errorDocument,
      },
      422: {
        description:
          'A carrier that offers no collections, a country it does not collect in, or a service it does not collect for: a drop-off service none of your contracts offers with handover-method:collection (10008).',
        schema: errorDocument,
      },
    },
    handler: (ctx, { params, query: q, page }) => {
      const carrier = findOr404(ctx, 'carriers', 'carriers', params.carrier_id, (row) =>
        seesTenantRow(ctx.store, ctx.principal?.organizationId, row.organization_id),
      );
      const refuse = (detail: string, parameter: string) => ApiError.of('unprocessable', detail, { source: { parameter } });
      const calendar = calendarOf(carrier);
      // The carrier is a path segment, which source.parameter (a query parameter in JSON:API) cannot name: the detail does.
      if (!calendar) {
        throw ApiError.of(
          'unprocessable',
          `${carrier.name} (carrier ${carrier.id} in the path) does not collect (its collections.offers_collections is false).`,
        );
      }
      if (!collectsIn(calendar, q.country_code))
        throw refuse(`${carrier.name} does not collect in ${q.country_code}; it collects in ${calendar.countries.join(', ')}.`, 'country_code');
      if (q.service_code !== undefined) {
        const services = ctx.store.find('services', 'carrier_id', carrier.id).filter((service) => service.code === q.service_code);
        if (services.length === 0) throw refuse(`${carrier.name} has no service '${q.service_code}'.`, 'service_code');
        // A drop-off service is collected too where a rate the caller may use offers handover-method:collection.
        if (!services.some((service) => collectsService(ctx.store, service, (rate) => rateVisible(ctx, rate)))) {
          throw refuse(
            `'${q.service_code}' is handed over at a drop-off point, and none of your contracts offers it with the service option 'handover-method:collection': there is nothing to collect.`,
            'service_code',
          );
        }
      }
      const { start, end } = rangeOf(q);
      const now = ctx.clock.now();
      const search = `country_code=${q.country_code}&postal_code=${encodeURIComponent(q.postal_code)}`;
      const rows = slotsBetween(calendar, start, end)
        .filter((slot) => slot.bookBefore > now)
        .map((slot) => ({ id: `${carrier.code}-${slot.from}-${slot.to}`, carrier_id: carrier.id, from: slot.from, to: slot.to, search }));
      return jsonApi(collectionDocument(ctx, collectionTimeSlotKind, rows, page));
    },
  }),
];
