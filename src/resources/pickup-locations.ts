import { z } from 'zod';
import { locationCategories, locationFeatures, locationTypes, weekdays, type PickupLocation } from '../domain/pickup-location-types.js';
import { endpoint } from '../http/endpoint.js';
import { csvOf } from '../http/params.js';
import { collectionDocument, jsonApi } from '../jsonapi/document.js';
import { linkTo, type ResourceKind } from '../jsonapi/resource.js';
import { resourceSchemas } from '../jsonapi/schemas.js';
import { countryCode, uuid } from '../model/common.js';
import { findOr404 } from './lookup.js';

/** A generated location as the resource layer sees it: with the carrier and the search it answered. */
export type PickupLocationRow = PickupLocation & {
  id: string;
  carrier_id: string;
  search: { country_code: string; postal_code: string };
};

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

const searchPath = (carrierId: string, country: string, postalCode: string): string =>
  `/carriers/${carrierId}/pickup-dropoff-locations/${country}/${encodeURIComponent(postalCode)}`;

/**
 * Locations have no URL of their own in the sandbox (production's by-id endpoint has a response
 * schema nothing can satisfy, so it is not served): `links.self` is the search that lists them.
 * Nothing else points at a location, so `load` finds none and they cannot be included.
 */
export const pickupLocationKind: ResourceKind<PickupLocationRow> = {
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
  self: (row) => searchPath(row.carrier_id, row.search.country_code, row.search.postal_code),
  meta: (row) => ({ distance: row.distance }),
  load: () => undefined,
};

const schemas = resourceSchemas(pickupLocationKind, { meta: locationMeta });

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

const query = z.object({
  'filter[categories]': csvOf(locationCategories).optional().describe('Comma separated; a location must offer every category listed.'),
  'filter[features]': csvOf(locationFeatures).optional().describe('Comma separated; a location must offer every feature listed.'),
  'filter[location_type]': csvOf(locationTypes).optional().describe('Comma separated; a location must be of one of these types.'),
  street: z.string().trim().min(1).max(255).optional().describe('Street of the search address; the nearest location is placed on it.'),
  street_number: z
    .string()
    .regex(/^\s*[1-9]\d{0,8}\s*$/, 'must be a positive integer')
    .transform(Number)
    .optional()
    .describe('House number of the search address (with `street`).'),
  city: z.string().trim().min(1).max(255).optional().describe('City of the search address; the locations take its name.'),
  contract: uuid
    .optional()
    .describe('Accepted as in production (the contract whose credentials would ask the carrier); the sandbox answers the same locations for any contract.'),
});

export const pickupLocationEndpoints = [
  endpoint({
    method: 'get',
    path: '/carriers/{carrier_id}/pickup-dropoff-locations/{country_code}/{postal_code}',
    operationId: 'listPickupDropoffLocations',
    summary: "List a carrier's pick-up/drop-off locations near a postal code",
    description:
      'Generated, realistic locations: the same carrier, country and postal code always give the same 5 to 10 locations, nearest first (`meta.distance` in metres). ' +
      'Countries the sandbox has no map for give an empty list. An unknown carrier, or a country code that is not ISO 3166-1 alpha-2, is 404. Any valid token may call it.',
    tag: 'Pickup-dropoff locations',
    auth: 'token',
    params,
    query,
    paginated: true,
    responses: { 200: { description: 'The locations, nearest first.', schema: schemas.list } },
    handler: async (ctx, { params: path, query: q, page, include }) => {
      const carrier = findOr404(ctx, 'carriers', 'carriers', path.carrier_id);
      // The generator brings faker and its locales: loaded on first use, not at start-up.
      const { filterLocations, pickupLocations } = await import('../domain/pickup-locations.js');
      const near = { street: q.street, street_number: q.street_number, city: q.city };
      const locations = filterLocations(pickupLocations(carrier.code, path.country_code, path.postal_code, near), {
        categories: q['filter[categories]'],
        features: q['filter[features]'],
        location_types: q['filter[location_type]'],
      });
      const search = { country_code: path.country_code, postal_code: path.postal_code };
      const rows: PickupLocationRow[] = locations.map((location) => Object.assign({}, location, { id: location.code, carrier_id: carrier.id, search }));
      return jsonApi(collectionDocument(ctx, pickupLocationKind, rows, page, include));
    },
  }),
];
