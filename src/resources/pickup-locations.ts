import { z } from 'zod';
import {
  locationCategories,
  locationFeatures,
  locationTypes,
  parsePickupLocationId,
  pickupLocationId,
  weekdays,
  type PickupLocation,
} from '../domain/pickup-location-types.js';
import { canSeeContract } from '../domain/tenancy.js';
import type { Ctx, Kind } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import { csvOf } from '../http/params.js';
import { collectionDocument, resourceDocument } from '../jsonapi/document.js';
import { jsonApi } from '../http/respond.js';
import { ApiError } from '../jsonapi/errors.js';
import { linkTo} from '../jsonapi/resource.js';
import { resourceSchemas } from '../jsonapi/schemas.js';
import type { CarrierRecord } from '../model/carrier.js';
import { countryCode, uuid } from '../model/common.js';
import { findOr404 } from './lookup.js';

/** A generated location as the resource layer sees it: with its id (which names its search) and carrier. */
export type PickupLocationRow = PickupLocation & { id: string; carrier_id: string };

const text = z.string().max(255);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM');

export const pickupLocationAttributes = z
  .object({
    code: z.string().describe("The carrier's code of the location; send it as a shipment's `pickup_location.code`."),
    address: z
      .object({
        company: text,
        street_1: text,
        street_number: z.number().int().min(1).optional(),
        postal_code: z.string().max(20).optional(),
        city: text,
        country_code: z.string().regex(/^[A-Z]{2}$/),
      })
      .meta({ id: 'PickupDropoffLocationAddress' }),
    location_type: z.enum(locationTypes),
    categories: z.array(z.enum(locationCategories)).describe('`pick-up`: parcels can be collected here; `drop-off`: senders can hand parcels in here.'),
    features: z.array(z.enum(locationFeatures)).optional(),
    opening_hours: z
      .array(z.object({ day: z.enum(weekdays), open: hhmm, closed: hhmm }).meta({ id: 'OpeningHours' }))
      .optional()
      .describe('Local times; a day may appear twice (lunch break) or not at all (closed). Lockers are open 00:00-23:59 every day.'),
    position: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).meta({ id: 'Position' }).optional(),
  })
  .meta({ id: 'PickupDropoffLocationAttributes' });

const locationMeta = z
  .object({ distance: z.number().int().nonnegative().describe('Metres from the searched postal code.') })
  .meta({ id: 'PickupDropoffLocationMeta' });

const locationPath = (carrierId: string, id: string): string => `/carriers/${carrierId}/pickup-dropoff-locations/${encodeURIComponent(id)}`;

/**
 * Locations are generated, not stored: a location's id names the search that found it (see
 * `pickupLocationId`), so its URL finds it again. Nothing else points at a location, so `load`
 * finds none and they cannot be included.
 */
export const pickupLocationKind: Kind<PickupLocationRow> = {
  type: 'pickup-dropoff-locations',
  attributesSchema: pickupLocationAttributes,
  attributes: (row) => ({
    code: row.code,
    address: row.address,
    location_type: row.location_type,
    categories: row.categories,
    features: row.features,
    opening_hours: row.opening_hours,
    position: row.position,
  }),
  relationships: {
    carrier: { targets: ['carriers'], data: (row) => linkTo('carriers', row.carrier_id) },
  },
  self: (row) => locationPath(row.carrier_id, row.id),
  meta: (row) => ({ distance: row.distance }),
  load: () => undefined,
};

const schemas = resourceSchemas(pickupLocationKind, { meta: locationMeta });

/** Production requires `meta` and `links` beside `data` in the answer for one location. */
const oneLocation = z
  .object({
    data: schemas.resource,
    meta: z.object({}).describe('Nothing yet; present because production requires it.'),
    links: z.object({ self: z.url() }),
  })
  .meta({ id: 'PickupDropoffLocationByIdDocument' });

const params = z.object({
  carrier_id: z.string(),
  // A path segment that is no ISO 3166-1 alpha-2 country names no resource, so it is answered
  // like an unknown id: 404/10002 (path parameters that fail their schema are 404 throughout the
  // sandbox, never 400). Lower case is accepted and read as upper case.
  country_code: z
    .string()
    .transform((raw) => raw.toUpperCase())
    .pipe(countryCode),
  postal_code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,19}$/, 'must be a postal code'),
});

const contractParam = uuid
  .optional()
  .describe(
    'The contract whose credentials ask the carrier, as in production: one of yours or your broker\'s, of this carrier and active (else 422). The sandbox answers the same locations for any such contract.',
  );

const query = z.object({
  'filter[categories]': csvOf(locationCategories).optional().describe('Comma separated; a location must offer every category listed.'),
  'filter[features]': csvOf(locationFeatures).optional().describe('Comma separated; a location must offer every feature listed.'),
  'filter[location_type]': csvOf(locationTypes).optional().describe('Comma separated; a location must be of one of these types.'),
  street: z.string().trim().min(1).max(255).optional().describe('Street of the search address; the nearest location is placed on it.'),
  street_number: z
    .string()
    .regex(/^\s*[1-9]\d{0,8}(\s*[-/ ]?\s*[A-Za-z0-9]{1,10})?\s*$/, 'must be a house number, optionally with a suffix (221B, 12-14)')
    .transform((raw) => Number(/\d+/.exec(raw)![0]))
    .optional()
    .describe('House number of the search address (with `street`), a string as in production: `221B` is number 221 with suffix B; the nearest location is placed a few doors away.'),
  city: z.string().trim().min(1).max(255).optional().describe('City of the search address; the locations take its name.'),
  contract: contractParam,
});

/** 422 on `contract` unless it names an active contract of this carrier the caller may use; another tenant's answers as an unknown one. */
function checkContract(ctx: Ctx, carrier: CarrierRecord, contractId: string | undefined): void {
  if (contractId === undefined) return;
  const contract = ctx.services.store.get('contracts', contractId);
  const refuse = (detail: string) => ApiError.of('unprocessable', detail, { source: { parameter: 'contract' } });
  if (!contract || !canSeeContract(ctx.principal, contract)) throw refuse(`No contract with id '${contractId}' is available to you.`);
  if (contract.carrier_id !== carrier.id) throw refuse(`Contract '${contractId}' is not a contract of carrier ${carrier.code}.`);
  if (contract.status !== 'active') throw refuse(`Contract '${contractId}' is ${contract.status}; only an active contract can ask the carrier for locations.`);
}

// The generator brings faker and its locales: loaded on first use, not at start-up.
const generator = () => import('../domain/pickup-locations.js');

export const pickupLocationEndpoints = [
  endpoint({
    method: 'get',
    path: '/carriers/{carrier_id}/pickup-dropoff-locations/{country_code}/{postal_code}',
    operationId: 'listPickupDropoffLocations',
    summary: "List a carrier's pick-up/drop-off locations near a postal code",
    description:
      'Generated, realistic locations: the same carrier, country and postal code always give the same 5 to 10 locations, nearest first (`meta.distance` in metres). ' +
      'Countries the sandbox has no map for give an empty list. An unknown carrier, or a country code that is not ISO 3166-1 alpha-2, is 404. ' +
      'Every query parameter production documents is honoured; any other is a 400 naming it. Any valid token may call it.',
    tag: 'Pickup-dropoff locations',
    auth: 'token',
    params,
    query,
    strictQuery: true,
    paginated: true,
    responses: { 200: { description: 'The locations, nearest first.', schema: schemas.list } },
    handler: async (ctx, { params: path, query: q, page, include }) => {
      const carrier = findOr404(ctx, 'carriers', 'carriers', path.carrier_id);
      checkContract(ctx, carrier, q.contract);
      const { filterLocations, pickupLocations } = await generator();
      const near = { street: q.street, street_number: q.street_number, city: q.city };
      const locations = filterLocations(pickupLocations(carrier.code, path.country_code, path.postal_code, near), {
        categories: q['filter[categories]'],
        features: q['filter[features]'],
        location_types: q['filter[location_type]'],
      });
      const rows: PickupLocationRow[] = locations.map((location) =>
        Object.assign({}, location, { id: pickupLocationId(path.country_code, path.postal_code, location.code), carrier_id: carrier.id }),
      );
      return jsonApi(collectionDocument(ctx, pickupLocationKind, rows, page, include));
    },
  }),
  endpoint({
    method: 'get',
    path: '/carriers/{carrier_id}/pickup-dropoff-locations/{pudo_id}',
    operationId: 'getPickupDropoffLocation',
    summary: 'Get one pick-up/drop-off location',
    description:
      'The location with an `id` a search answered (ids name their search: `NL-1012AB-205604`), as that search without `street`, `street_number` and `city` showed it. ' +
      "Anything else, or a location of another carrier, is 404. `contract` is checked as in the search. Any valid token may call it.",
    tag: 'Pickup-dropoff locations',
    auth: 'token',
    params: z.object({ carrier_id: z.string(), pudo_id: z.string() }),
    query: z.object({ contract: contractParam }),
    strictQuery: true,
    responses: { 200: { description: 'The location.', schema: oneLocation } },
    handler: async (ctx, { params: path, query: q }) => {
      const carrier = findOr404(ctx, 'carriers', 'carriers', path.carrier_id);
      checkContract(ctx, carrier, q.contract);
      const search = parsePickupLocationId(path.pudo_id);
      const location = search && (await generator()).findPickupLocation(carrier.code, search.countryCode, search.postalCode, search.code);
      if (!location) throw ApiError.notFound('pickup-dropoff-locations', path.pudo_id);
      const row: PickupLocationRow = Object.assign({}, location, { id: path.pudo_id, carrier_id: carrier.id });
      return jsonApi({ ...resourceDocument(ctx, pickupLocationKind, row), meta: {}, links: { self: ctx.url(pickupLocationKind.self(row)) } });
    },
  }),
];
