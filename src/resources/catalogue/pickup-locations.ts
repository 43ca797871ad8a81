import { z } from 'zod';
import {
  locationCategories,
  locationFeatures,
  locationTypes,
  parseCoordinates,
  parsePickupLocationId,
  pickupLocationId,
  pointLocationId,
  weekdays,
  type PickupLocation,
} from '../../domain/pickup/location-types.js';
import { canSeeContract } from '../../domain/tenancy.js';
import type { Ctx, Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { csvOf, integerParam } from '../../http/params.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { ApiError } from '../../jsonapi/errors.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import type { CarrierRecord } from '../../model/carrier.js';
import { countryCode, uuid } from '../../model/common.js';
import { findOr404 } from '../lookup.js';
import { carrierVisible } from './carriers.js';

/** A generated location as the resource layer sees it: with its id (which names its search) and carrier. */
export type PickupLocationRow = PickupLocation & { id: string; carrier_id: string };

const text = z.string().max(255);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM');

const pickupLocationAttributes = z
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
    position: z
      .object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) })
      .meta({ id: 'Position' })
      .optional(),
  })
  .meta({ id: 'PickupDropoffLocationAttributes' });

const locationMeta = z
  .object({ distance: z.number().int().nonnegative().describe('Metres from the searched postal code or coordinates.') })
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

/**
 * Production documents two searches on the same path shape, `{country_code}/{postal_code}` and
 * `{latitude}/{longitude}`; one declaration serves both (OpenAPI allows no two paths that differ
 * only in their parameter names), and `searchOf` tells them apart.
 */
const params = z.object({
  carrier_id: z.string(),
  country_code: z
    .string()
    .describe(
      'An ISO 3166-1 alpha-2 country code (lower case is read as upper case), or the latitude of a search around coordinates: decimal degrees, -90 to 90.',
    ),
  postal_code: z
    .string()
    .describe('A postal code in any notation (`1012AB`, `1012 ab`), or the longitude of a search around coordinates: decimal degrees, -180 to 180.'),
});

const postalSearch = z.object({
  country_code: z
    .string()
    .transform((raw) => raw.toUpperCase())
    .pipe(countryCode),
  postal_code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,19}$/, 'must be a postal code'),
});

type Search = { kind: 'postal'; countryCode: string; postalCode: string } | { kind: 'point'; latitude: number; longitude: number };

/**
 * The search two path segments name: coordinates when both are decimal degrees in range (the
 * patterns production documents), else a country code and postal code. Anything else names no
 * resource and is answered like an unknown id, 404/10002, as every path parameter that fails its
 * schema is throughout the sandbox (and production routes such a path to neither search); the
 * detail says what was expected.
 */
function searchOf(first: string, second: string): Search {
  const point = parseCoordinates(first, second);
  if (point) return { kind: 'point', ...point };
  const postal = postalSearch.safeParse({ country_code: first, postal_code: second });
  if (postal.success) return { kind: 'postal', countryCode: postal.data.country_code, postalCode: postal.data.postal_code };
  throw ApiError.of(
    'resourceNotFound',
    `No pickup-dropoff location search at '${first}/${second}': expected an ISO 3166-1 alpha-2 country code and a postal code, ` +
      'or a latitude (-90 to 90) and a longitude (-180 to 180) in decimal degrees.',
  );
}

/** Query parameters production lists for one of the two searches only; the other answers 400 to them. */
const onlyFor: Record<Search['kind'], readonly string[]> = { postal: ['street', 'street_number', 'city'], point: ['filter[radius]'] };

function refuseOtherSearchParams(search: Search, query: Record<string, unknown>): void {
  const other = search.kind === 'postal' ? 'point' : 'postal';
  const name = onlyFor[other].find((key) => query[key] !== undefined);
  if (name === undefined) return;
  const detail =
    search.kind === 'postal'
      ? `'${name}' applies to a search around coordinates only; a search by country and postal code takes street, street_number, city, contract and the category, feature and location type filters.`
      : `'${name}' applies to a search by country and postal code only; a search around coordinates takes filter[radius], contract and the category, feature and location type filters.`;
  throw ApiError.of('invalidSchema', detail, { source: { parameter: name } });
}

const contractParam = uuid
  .optional()
  .describe(
    "The contract whose credentials ask the carrier, as in production: one of yours or your broker's, of this carrier and active (else 422). The sandbox answers the same locations for any such contract.",
  );

/**
 * `street`, `street_number` and `city`: hints of the search address, any string as in production.
 * An empty or blank one (a form's empty field) is taken as left out.
 */
const hint = z
  .string()
  .transform((raw) => raw.trim() || undefined)
  .optional();

const query = z.object({
  'filter[categories]': csvOf(locationCategories).optional().describe('Comma separated; a location must offer every category listed.'),
  'filter[features]': csvOf(locationFeatures).optional().describe('Comma separated; a location must offer every feature listed.'),
  'filter[location_type]': csvOf(locationTypes).optional().describe('Comma separated; a location must be of one of these types.'),
  'filter[radius]': integerParam
    .optional()
    .describe(
      'Metres: only locations at most this far from the coordinates. Searches around coordinates only, as in production (400 on a search by postal code).',
    ),
  street: hint
    .pipe(z.string().max(255).optional())
    .describe('Street of the search address; the nearest location is placed on it. Searches by postal code only.'),
  street_number: hint
    .transform((raw) => {
      const number = raw === undefined ? undefined : /^[1-9]\d{0,8}/.exec(raw)?.[0];
      return number === undefined ? undefined : Number(number);
    })
    .describe(
      'House number of the search address (with `street`), a string as in production: `221B` is number 221 with suffix B; the nearest location is placed a few doors away. A value that does not begin with a house number places no number. Searches by postal code only.',
    ),
  city: hint.pipe(z.string().max(255).optional()).describe('City of the search address; the locations take its name. Searches by postal code only.'),
  contract: contractParam,
});

/** 422 on `contract` unless it names an active contract of this carrier the caller may use; another tenant's answers as an unknown one. */
function checkContract(ctx: Ctx, carrier: CarrierRecord, contractId: string | undefined): void {
  if (contractId === undefined) return;
  const contract = ctx.store.get('contracts', contractId);
  const refuse = (detail: string) => ApiError.of('unprocessable', detail, { source: { parameter: 'contract' } });
  if (!contract || !canSeeContract(ctx.store, ctx.principal, contract)) throw refuse(`No contract with id '${contractId}' is available to you.`);
  if (contract.carrier_id !== carrier.id) throw refuse(`Contract '${contractId}' is not a contract of carrier ${carrier.code}.`);
  if (contract.status !== 'active') throw refuse(`Contract '${contractId}' is ${contract.status}; only an active contract can ask the carrier for locations.`);
}

// The generator brings faker and its locales: loaded on first use, not at start-up.
const generator = () => import('../../domain/pickup/locations.js');

export const pickupLocationEndpoints = [
  endpoint({
    method: 'get',
    path: '/carriers/{carrier_id}/pickup-dropoff-locations/{country_code}/{postal_code}',
    operationId: 'listPickupDropoffLocations',
    summary: "List a carrier's pick-up/drop-off locations near a postal code or coordinates",
    description:
      "Serves both of production's searches, `{country_code}/{postal_code}` and `{latitude}/{longitude}`: two decimal numbers in range (`52.3728/4.8936`) are coordinates. " +
      'Generated, realistic locations: the same carrier and country and postal code, or the same carrier and coordinates (rounded to 4 decimals), always give the same 5 to 10 locations, nearest first (`meta.distance` in metres). ' +
      'Around coordinates they are placed around the point, in the country and city of the nearest city the sandbox knows; a point more than 50 km from every such city (the sea) gives an empty list, ' +
      'as does a country the sandbox has no map for. An unknown carrier, or segments that are neither a country code (ISO 3166-1 alpha-2) and postal code nor coordinates, is 404. ' +
      'Every query parameter production documents for the search is honoured (`street`, `street_number` and `city` by postal code, `filter[radius]` around coordinates); any other is a 400 naming it.',
    tag: 'Pickup-dropoff locations',
    auth: 'token',
    params,
    query,
    strictQuery: true,
    paginated: true,
    responses: { 200: { description: 'The locations, nearest first.', schema: schemas.list } },
    handler: async (ctx, { params: path, query: q, page, include }) => {
      const search = searchOf(path.country_code, path.postal_code);
      refuseOtherSearchParams(search, q);
      // A carrier a pack gave another tenant is unknown here, as on GET /carriers/{id}.
      const carrier = findOr404(ctx, 'carriers', 'carriers', path.carrier_id, (row) => carrierVisible(ctx, row));
      checkContract(ctx, carrier, q.contract);
      const { filterLocations, pickupLocations, pointLocations } = await generator();
      const near = { street: q.street, street_number: q.street_number, city: q.city };
      const found =
        search.kind === 'postal'
          ? pickupLocations(carrier.code, search.countryCode, search.postalCode, near)
          : pointLocations(carrier.code, search.latitude, search.longitude);
      const locations = filterLocations(found, {
        categories: q['filter[categories]'],
        features: q['filter[features]'],
        location_types: q['filter[location_type]'],
        radius: q['filter[radius]'],
      });
      const idOf = (code: string): string =>
        search.kind === 'postal' ? pickupLocationId(search.countryCode, search.postalCode, code) : pointLocationId(search.latitude, search.longitude, code);
      const rows: PickupLocationRow[] = locations.map((location) => ({ ...location, id: idOf(location.code), carrier_id: carrier.id }));
      return jsonApi(collectionDocument(ctx, pickupLocationKind, rows, page, include));
    },
  }),
  endpoint({
    method: 'get',
    path: '/carriers/{carrier_id}/pickup-dropoff-locations/{pudo_id}',
    operationId: 'getPickupDropoffLocation',
    summary: 'Get one pick-up/drop-off location',
    description:
      'The location with an `id` a search answered (ids name their search: `NL-1012AB-205604` by postal code, `N52.3728-E4.8936-205604` around coordinates), as that search without `street`, `street_number` and `city` showed it. ' +
      'Anything else, or a location of another carrier, is 404, as is every id for a carrier whose `pudo.can_get_pudo_by_id` is false. `contract` is checked as in the search.',
    tag: 'Pickup-dropoff locations',
    auth: 'token',
    params: z.object({ carrier_id: z.string(), pudo_id: z.string() }),
    query: z.object({ contract: contractParam }),
    strictQuery: true,
    responses: { 200: { description: 'The location.', schema: oneLocation } },
    handler: async (ctx, { params: path, query: q }) => {
      const carrier = findOr404(ctx, 'carriers', 'carriers', path.carrier_id, (row) => carrierVisible(ctx, row));
      checkContract(ctx, carrier, q.contract);
      // A carrier that cannot look a location up by id (as GET /carriers answers it: a carrier stored
      // without the flag cannot) is refused here as production's carrier would, not served from the
      // sandbox's map: code that re-reads a chosen location must search again for such a carrier.
      // The carrier is a path segment, which JSON:API's source.parameter (a query parameter) cannot
      // name: the detail names it, as every 404 of a path id does.
      if (!carrier.pudo?.can_get_pudo_by_id) {
        throw ApiError.of(
          'resourceNotFound',
          `${carrier.name} (carrier ${carrier.id} in the path) cannot look up a pick-up/drop-off location by id (its pudo.can_get_pudo_by_id is false): search by postal code or coordinates instead.`,
        );
      }
      const search = parsePickupLocationId(path.pudo_id);
      const { findPickupLocation, findPointLocation } = await generator();
      const location =
        search?.kind === 'postal'
          ? findPickupLocation(carrier.code, search.countryCode, search.postalCode, search.code)
          : search && findPointLocation(carrier.code, search.latitude, search.longitude, search.code);
      if (!location) throw ApiError.notFound('pickup-dropoff-locations', path.pudo_id);
      const row: PickupLocationRow = { ...location, id: path.pudo_id, carrier_id: carrier.id };
      return jsonApi({ ...resourceDocument(ctx, pickupLocationKind, row), meta: {}, links: { self: ctx.url(pickupLocationKind.self(row)) } });
    },
  }),
];
