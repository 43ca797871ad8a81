import { z } from 'zod';
import { holdsShipmentAddress } from '../../domain/address-rules.js';
import { dynamicPrice } from '../../domain/dynamic-rates.js';
import { bracketPrice, parcelChargeableWeight, rateCoversWeight, selectionWeight, type WeightQuery } from '../../domain/rates.js';
import { parcelSizeExcesses } from '../../domain/rate-size.js';
import { canSeeContract } from '../../domain/tenancy.js';
import { seesTenantRow } from '../../domain/tenant-lifetime.js';
import { principalOf, type Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { booleanParam, csvIds, integerParam, listHas, numberParam } from '../../http/params.js';
import { plainJson } from '../../http/respond.js';
import { ApiError } from '../../jsonapi/errors.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { checkIdentity, relatedId, unknownRelated, type ToOneRef } from '../../jsonapi/request.js';
import { toResourceObject } from '../../jsonapi/resource.js';
import { address, orNull, personAddress, withoutNulls, type Address } from '../../model/common.js';
import type { ContractRecord } from '../../model/contract.js';
import type { ServiceRateRecord } from '../../model/service-rate.js';
import type { ServiceRecord } from '../../model/service.js';
import { rateVisible, serviceRateKind, serviceRateSchemas, type RateRow } from './service-rate-kind.js';
import { readEndpoints } from '../read-endpoints.js';
import { serviceRateIncludes } from '../include-paths.js';
import { createAttributes, createRelationships } from '../shipments/shipment-requests.js';

const query = z.object({
  'filter[has_active_contract]': booleanParam
    .optional()
    .describe('true: rates whose contract is active; false: rates of pending, inactive or invalid contracts; omitted: all.'),
  // Production types it a number: a weight worked out from kilograms (1.2345 kg is 1234.5 g) is taken as it is.
  'filter[weight]': numberParam
    .optional()
    .describe('Grams, a decimal allowed; rates with weight_min <= weight <= weight_max. Bracket rates get meta.bracket_price.'),
  'filter[volume]': numberParam
    .optional()
    .describe("Litres; turned into a volumetric weight with the service's divisor times the contract factor. Only volumetric services."),
  'filter[volumetric_weight]': integerParam.optional().describe('Grams; for volumetric services the higher of this and filter[weight] selects the range.'),
  'filter[service]': csvIds.optional().describe('Comma separated service ids.'),
  'filter[contract]': csvIds.optional().describe('Comma separated contract ids.'),
  'filter[organization]': csvIds
    .optional()
    .describe(
      "Comma separated organization ids: the rates of contracts these organizations can use (their own and their broker's). A client sees only its own organization: another id keeps no rate.",
    ),
});
type Query = z.output<typeof query>;

/**
 * The contract owners whose rates `filter[organization]` keeps: the caller's organization, when
 * the filter names it, and its broker. The caller sees no other organization, so any other id,
 * another tenant's organization included, is looked up no more than an unknown id and keeps no
 * rate: looking up its broker (the sandbox broker, whose shared contracts the caller sees) would
 * answer as if no filter were given and so tell that the organization exists.
 */
function ownersOf(ctx: Ctx, organizationIds: readonly string[] | undefined): Set<string> | undefined {
  if (!organizationIds) return undefined;
  const own = ctx.principal?.organizationId;
  const owners = new Set<string>();
  if (own === undefined || !organizationIds.includes(own)) return owners;
  owners.add(own);
  const broker = ctx.store.get('organizations', own)?.broker_id;
  if (broker) owners.add(broker);
  return owners;
}

/** Whether a rate passes the filters that do not depend on weight. */
function matchesIds(rate: ServiceRateRecord, contract: ContractRecord, active: boolean, q: Query, owners: Set<string> | undefined): boolean {
  return (
    (q['filter[has_active_contract]'] === undefined || q['filter[has_active_contract]'] === active) &&
    (!q['filter[service]'] || listHas(q['filter[service]'], rate.service_id)) &&
    (!q['filter[contract]'] || listHas(q['filter[contract]'], rate.contract_id)) &&
    (!owners || owners.has(contract.owner.id))
  );
}

/**
 * The weight filters. Each rate is judged by the weight that selects its range on its own
 * service and contract (`selectionWeight`): for volumetric services the highest of
 * `filter[weight]`, `filter[volumetric_weight]` and the volumetric weight of `filter[volume]`;
 * for other services `filter[weight]` alone. A rate the filters say nothing about (say, only
 * `filter[volume]` on a non-volumetric service) is kept unfiltered. Bracket rates that a weight
 * selected get `meta.bracket_price` for that (chargeable) weight, in the contract currency.
 */
function filterRates(ctx: Ctx, rows: readonly ServiceRateRecord[], q: Query): RateRow[] {
  const { store } = ctx;
  const weights: WeightQuery = { weight: q['filter[weight]'], volume: q['filter[volume]'], volumetricWeight: q['filter[volumetric_weight]'] };
  const owners = ownersOf(ctx, q['filter[organization]']);
  const out: RateRow[] = [];
  for (const rate of rows) {
    const contract = store.get('contracts', rate.contract_id);
    const service = store.get('services', rate.service_id);
    if (!contract || !service || !matchesIds(rate, contract, contract.status === 'active', q, owners)) continue;
    const weight = selectionWeight(service, contract, weights);
    if (weight === undefined || !rate.weight_bracket) {
      if (weight === undefined || rateCoversWeight(rate, weight)) out.push(rate);
    } else if (rateCoversWeight(rate, weight)) {
      out.push({ ...rate, bracket_price: { amount: bracketPrice(rate.weight_bracket, weight), currency: contract.currency } });
    }
  }
  return out;
}

// Production's bounds: at most 2147483647 (a 32-bit integer), a volume of at least 0.01 litre.
const INT32_MAX = 2147483647;
const millimetres = z.number().int().min(1).max(INT32_MAX).optional().describe('Millimetres.');

/**
 * A parcel's size as production takes it here: the dimensions may be `null`, as if left out. Closed,
 * as production's physical properties are; the volume and the read-only volumetric weight are
 * taken and not used (the dimensions decide).
 */
const physicalProperties = z.strictObject({
  weight: z.number().int().min(1).max(INT32_MAX).describe('Grams.'),
  length: orNull(millimetres),
  width: orNull(millimetres),
  height: orNull(millimetres),
  volume: orNull(z.number().min(0.01, 'must be at least 0.01 litre').max(INT32_MAX).optional()).describe('Litres; not used.'),
  volumetric_weight: z.unknown().optional().describe('Read-only: ignored when sent.'),
});

/**
 * The attributes of production's shipment that do not change a dynamic rate: checked as a shipment's
 * are (production validates this body against its shipment schema), then ignored. The attributes
 * are closed, as that schema has them, so a name a shipment does not have (a misspelt one), or an
 * unknown member of one of them, is a 400 rather than dropped.
 */
const ignoredShipmentAttributes = Object.fromEntries(
  Object.entries(createAttributes).map(([name, schema]) => [name, (schema as z.ZodType).optional()]),
) as Record<string, z.ZodOptional>;

type Parcel = { weight: number; length?: number; width?: number; height?: number };

/** A shipment-like body; every other attribute a shipment may carry is accepted and ignored. */
const dynamicRatesRequest = z
  .object({
    data: z.object({
      // A free string, so that another type is answered 409 (10007) as on every other write, not as a schema violation.
      type: z.string(),
      attributes: z.strictObject({
        ...ignoredShipmentAttributes,
        sender_address: address,
        // A person, as on a shipment: production checks this body against its shipment schema, whose recipient has a first and last name.
        recipient_address: personAddress,
        physical_properties: physicalProperties,
      }),
      // Production requires the shop the shipment would be sent from (its PHP SDK always adds the
      // default shop); it lets contract and service be null themselves, as if left out. The
      // shipment's other relationships (service options, coverage...) are checked as a shipment's
      // are, as production checks this body against its shipment schema, and then ignored.
      relationships: createRelationships,
    }),
    // The parcels of a multi-colli shipment: the shipment's own physical_properties (their total)
    // decide the price, and each collo must fit the rate's size limits, as on the shipment itself.
    // Production's meta requires them: a meta without colli is a 400 there, so it is here.
    meta: z.object({ colli: z.array(z.object({ physical_properties: physicalProperties })) }).optional(),
  })
  .meta({ id: 'DynamicServiceRatesRequest' });
type DynamicRequest = z.output<typeof dynamicRatesRequest>;

const dynamicRatesResponse = z
  .object({ data: z.array(serviceRateSchemas.resource), meta: z.object({}), links: z.object({}) })
  .meta({ id: 'DynamicServiceRatesResponse' });

/** The contract and service a dynamic-rates request names, if any. */
type Wanted = { contractId?: string; serviceId?: string };

const matchesWanted = (rate: ServiceRateRecord, wanted: Wanted) =>
  (!wanted.contractId || rate.contract_id === wanted.contractId) && (!wanted.serviceId || rate.service_id === wanted.serviceId);

const refIdOf = (ref: ToOneRef | null | undefined, name: string, type: string) => relatedId(ref ?? undefined, name, [type], false);

/**
 * The contract and service the caller narrowed the request to. Unknown or invisible ids are
 * 422/10008 pointing at the id; so is a contract that is not active, since only active
 * contracts can be used (a silent empty answer would hide the reason).
 */
function requestedIds(ctx: Ctx, relationships: DynamicRequest['data']['relationships']): Wanted {
  const { store } = ctx;
  const principal = principalOf(ctx);
  const contractId = refIdOf(relationships.contract, 'contract', 'contracts');
  if (contractId !== undefined) {
    const contract = store.get('contracts', contractId);
    if (!contract || !canSeeContract(store, principal, contract)) throw unknownRelated('contract', 'contracts', contractId);
    if (contract.status !== 'active') {
      throw ApiError.unprocessable(
        `The contract '${contractId}' is ${contract.status}; only active contracts can be used.`,
        '/data/relationships/contract/data/id',
      );
    }
  }
  const serviceId = refIdOf(relationships.service, 'service', 'services');
  const service = serviceId === undefined ? undefined : store.get('services', serviceId);
  // A service a pack gave another tenant is answered as an unknown one.
  if (serviceId !== undefined && !(service && seesTenantRow(store, principal.organizationId, service.organization_id)))
    throw unknownRelated('service', 'services', serviceId);
  const shopId = refIdOf(relationships.shop, 'shop', 'shops');
  if (shopId !== undefined && store.get('shops', shopId)?.organization_id !== principal.organizationId) throw unknownRelated('shop', 'shops', shopId);
  return { contractId, serviceId };
}

/**
 * The dynamic rates for a shipment: visible `is_dynamic` rates on active contracts whose service
 * covers the route, whose range covers the chargeable weight and whose size limits the parcel (and
 * each collo of `meta.colli`) keeps within, each priced by the carrier formula.
 */
function dynamicRates(ctx: Ctx, body: DynamicRequest): RateRow[] {
  const { store } = ctx;
  const { sender_address: from, recipient_address: to } = body.data.attributes;
  const parcel = withoutNulls(body.data.attributes.physical_properties) as Parcel;
  const colli = (body.meta?.colli ?? []).map((collo) => withoutNulls(collo.physical_properties) as Parcel);
  const wanted = requestedIds(ctx, body.data.relationships);
  const out: RateRow[] = [];
  for (const rate of store.all('serviceRates')) {
    if (!rate.is_dynamic || !matchesWanted(rate, wanted)) continue;
    const contract = store.get('contracts', rate.contract_id);
    const service = store.get('services', rate.service_id);
    if (!contract || !service || contract.status !== 'active' || !canSeeContract(store, ctx.principal, contract)) continue;
    if (!coversRoute(service, from, to)) continue;
    const weight = parcelChargeableWeight(service, contract, parcel);
    // A rate the parcel (or a collo) is too large for cannot carry it, as one whose weight range it misses.
    if (!rateCoversWeight(rate, weight) || [parcel, ...colli].some((one) => parcelSizeExcesses(rate, one).length > 0)) continue;
    const carrierCode = store.get('carriers', service.carrier_id)?.code ?? service.carrier_id;
    const crossBorder = from.country_code !== to.country_code;
    out.push({ ...rate, price: dynamicPrice({ carrierCode, weight, crossBorder, currency: contract.currency }) });
  }
  return out;
}

/** Whether a service ships from the sender's and to the recipient's address, as a shipment's create decides it. */
function coversRoute(service: ServiceRecord, from: Address, to: Address): boolean {
  return holdsShipmentAddress(service.regions_from, from) && holdsShipmentAddress(service.regions_to, to);
}

const dynamicRatesEndpoint = endpoint({
  method: 'post',
  path: '/get-dynamic-service-rates',
  operationId: 'getDynamicServiceRates',
  summary: 'Get dynamic service rates for a shipment',
  description:
    'Prices the `is_dynamic` rates of active contracts for a shipment-like body, with a deterministic sandbox formula ' +
    'from the carrier, the chargeable weight and whether the route is domestic or cross-border. As production, it needs ' +
    '`data.type` and the `shop` relationship; `contract` and `service` (each may be null) narrow the rates to theirs.',
  tag: 'Service rates',
  auth: { anyOf: ['organizations.manage', 'shipments.manage'] },
  body: dynamicRatesRequest,
  bodyFormat: 'json',
  // An RPC endpoint: production answers it as plain JSON (with a JSON:API-like body).
  produces: ['application/json'],
  responses: {
    200: {
      description: 'The dynamic rates that fit the shipment, each with its computed price.',
      schema: dynamicRatesResponse,
      contentTypes: ['application/json'],
    },
    409: { description: 'A `data.type` other than `shipments` (10007).', schema: errorDocument },
    422: { description: 'A relationship names an unknown, invisible or inactive resource (10008).', schema: errorDocument },
  },
  handler: (ctx, { body }) => {
    checkIdentity({ type: body.data.type }, 'shipments');
    return plainJson({ data: dynamicRates(ctx, body).map((row) => toResourceObject(serviceRateKind, row, ctx)), meta: {}, links: {} });
  },
});

export const serviceRateEndpoints = [
  ...readEndpoints({
    kind: serviceRateKind,
    include: serviceRateIncludes,
    table: 'serviceRates',
    tag: 'Service rates',
    noun: 'service rate',
    plural: 'service rates',
    auth: { anyOf: ['organizations.manage', 'shipments.manage'] },
    getAuth: { anyOf: ['organizations.manage'] },
    schemas: serviceRateSchemas,
    visible: rateVisible,
    query,
    description:
      'Rates of the contracts the caller can see. Without `filter[weight]`, `filter[volume]` or `filter[volumetric_weight]` ' +
      'no range is selected; `filter[volume]` or `filter[volumetric_weight]` alone select the range of volumetric services ' +
      'only and leave other services unfiltered.',
    filter: filterRates,
  }),
  dynamicRatesEndpoint,
];
