import { z } from 'zod';
import { coversAddress, type AddressQuery } from '../../domain/address-rules.js';
import { servicesWithActiveContract } from '../../domain/tenancy.js';
import { booleanParam, csvIds, csvOf, listHas } from '../../http/params.js';
import type { Ctx, Kind } from '../../http/context.js';
import { ApiError } from '../../jsonapi/errors.js';
import { linkTo, type Linkage } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { countryCode } from '../../model/common.js';
import { deliveryMethods, packageTypes, serviceAttributes, type ServiceRecord } from '../../model/service.js';
import { readEndpoints } from '../read-endpoints.js';
import { seesTenantRow } from '../../domain/tenant-lifetime.js';
import { serviceIncludes } from '../include-paths.js';
import { rateVisible } from './service-rate-kind.js';

export const serviceKind: Kind<ServiceRecord> = {
  type: 'services',
  attributesSchema: serviceAttributes,
  attributes: (row) => ({
    name: row.name,
    code: row.code,
    package_type: row.package_type,
    handover_method: row.handover_method,
    delivery_method: row.delivery_method,
    uses_volumetric_weight: row.uses_volumetric_weight,
    delivery_days: row.delivery_days,
    transit_time: row.transit_time,
    regions_from: row.regions_from,
    regions_to: row.regions_to,
    volumetric_weight_divisor: row.volumetric_weight_divisor,
    strict_consolidation: row.strict_consolidation ?? false,
    is_label_in_the_box: row.is_label_in_the_box ?? false,
    is_shipping_and_return: row.is_shipping_and_return ?? false,
  }),
  relationships: {
    carrier: { targets: ['carriers'], data: (row) => linkTo('carriers', row.carrier_id) },
    service_options: { targets: ['service-options'], many: true, data: (row, ctx) => offeredOptions(ctx, row.id) },
    // The seeded zones of the route; services of data files written before zones existed have none.
    zone_from: { targets: ['zones'], optional: true, data: (row) => linkTo('zones', row.zone_from_id) },
    zone_to: { targets: ['zones'], optional: true, data: (row) => linkTo('zones', row.zone_to_id) },
    region_from: { targets: ['regions'], optional: true, data: (row) => linkTo('regions', row.region_from_id) },
    region_to: { targets: ['regions'], optional: true, data: (row) => linkTo('regions', row.region_to_id) },
  },
  self: (row) => `/services/${row.id}`,
  // Loaded for `include` (a shipment's, a rate's, a template's service): never one a pack gave another tenant.
  load: (ctx, id) => {
    const row = ctx.store.get('services', id);
    return row && seesTenantRow(ctx.store, ctx.principal?.organizationId, row.organization_id) ? row : undefined;
  },
};

/**
 * The options any rate of the service the caller can see offers, each once, in catalogue order.
 * Rates of another organization's own contracts do not count: an option one tenant prices on its
 * contract would otherwise show up on the service for every tenant.
 */
function offeredOptions(ctx: Ctx, serviceId: string): Linkage[] {
  const rates = ctx.store.find('serviceRates', 'service_id', serviceId).filter((rate) => rateVisible(ctx, rate));
  const ids = new Set(rates.flatMap((rate) => rate.service_options.map((o) => o.service_option_id)));
  return [...ids].map((id) => ({ type: 'service-options', id }));
}

// Upper case, as production's pattern (^[A-Z\d]{1,3}$) has it and as filter[...][country_code] is: a lower-case code
// production refuses must not work here.
const stateCode = z
  .string()
  .regex(/^[A-Z0-9]{1,3}$/, 'must be a 1 to 3 character upper-case subdivision code')
  .optional();
const postalCode = z.string().min(1).max(20).optional();
// Production's public docs name the subdivision filter `region_code` (the address rules' old name
// for `state_code`): a client written from them sends that, so it filters as `state_code` does.
const regionCode = (side: string) =>
  stateCode.describe(`Deprecated: the name production's public docs give \`filter[${side}][state_code]\`, which it filters as.`);

const query = z.object({
  'filter[package_type]': csvOf(packageTypes).optional(),
  'filter[carrier]': csvIds.optional(),
  'filter[address_from][country_code]': countryCode.optional(),
  'filter[address_from][state_code]': stateCode,
  'filter[address_from][region_code]': regionCode('address_from'),
  'filter[address_from][postal_code]': postalCode,
  'filter[address_to][country_code]': countryCode.optional(),
  'filter[address_to][state_code]': stateCode,
  'filter[address_to][region_code]': regionCode('address_to'),
  'filter[address_to][postal_code]': postalCode,
  'filter[has_active_contract]': booleanParam.optional(),
  'filter[delivery_method]': z.enum(deliveryMethods).optional(),
  'filter[code]': z.string().min(1).optional(),
  'filter[strict_consolidation]': booleanParam.optional(),
  'filter[region_from]': csvIds.optional().describe('Deprecated: comma separated region ids.'),
  'filter[region_to]': csvIds.optional().describe('Deprecated: comma separated region ids.'),
});
type Query = z.output<typeof query>;

/** The subdivision a side's filter names, under either name; two different ones are a 400. */
function stateCodeOf(q: Query, side: 'address_from' | 'address_to'): string | undefined {
  const state = q[`filter[${side}][state_code]`];
  const region = q[`filter[${side}][region_code]`];
  if (state !== undefined && region !== undefined && state.toUpperCase() !== region.toUpperCase()) {
    const parameter = `filter[${side}][region_code]`;
    throw ApiError.of('invalidSchema', `'${parameter}' is the old name of 'filter[${side}][state_code]', which names another subdivision: send one of them.`, {
      source: { parameter },
    });
  }
  return state ?? region;
}

function addressOf(q: Query, side: 'address_from' | 'address_to'): AddressQuery | undefined {
  const address: AddressQuery = {
    country_code: q[`filter[${side}][country_code]`],
    state_code: stateCodeOf(q, side),
    postal_code: q[`filter[${side}][postal_code]`],
  };
  return Object.values(address).some((value) => value !== undefined) ? address : undefined;
}

export const serviceEndpoints = readEndpoints({
  kind: serviceKind,
  include: serviceIncludes,
  table: 'services',
  tag: 'Services',
  noun: 'service',
  plural: 'services',
  auth: 'token',
  schemas: resourceSchemas(serviceKind),
  query,
  visible: (ctx, row) => seesTenantRow(ctx.store, ctx.principal?.organizationId, row.organization_id),
  description: '`filter[has_active_contract]` counts active contracts the caller can see. A service a pack gave a tenant is seen by that tenant only.',
  filter: (ctx, rows, q) => {
    const from = addressOf(q, 'address_from');
    const to = addressOf(q, 'address_to');
    const active = q['filter[has_active_contract]'] === undefined ? undefined : servicesWithActiveContract(ctx.store, ctx.principal);
    return rows.filter(
      (row) =>
        (!q['filter[package_type]'] || listHas(q['filter[package_type]'], row.package_type)) &&
        (!q['filter[carrier]'] || listHas(q['filter[carrier]'], row.carrier_id)) &&
        (!from || coversAddress(row.regions_from, from)) &&
        (!to || coversAddress(row.regions_to, to)) &&
        (!active || active.has(row.id) === q['filter[has_active_contract]']) &&
        (!q['filter[delivery_method]'] || row.delivery_method === q['filter[delivery_method]']) &&
        (!q['filter[code]'] || row.code === q['filter[code]']) &&
        (q['filter[strict_consolidation]'] === undefined || (row.strict_consolidation ?? false) === q['filter[strict_consolidation]']) &&
        (!q['filter[region_from]'] || listHas(q['filter[region_from]'], row.region_from_id)) &&
        (!q['filter[region_to]'] || listHas(q['filter[region_to]'], row.region_to_id)),
    );
  },
});
