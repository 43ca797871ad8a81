import { z } from 'zod';
import { canSeeContract } from '../../domain/tenancy.js';
import type { Ctx, Kind } from '../../http/context.js';
import { linkTo, type Linkage } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { price, type Price } from '../../model/common.js';
import { serviceRateAttributes, type RateOption, type ServiceRateRecord } from '../../model/service-rate.js';

/**
 * A stored rate as one response shows it: `bracket_price` is set by the list endpoint when a
 * weight selected the rate (it depends on the request, so it is never stored).
 */
export type RateRow = ServiceRateRecord & { bracket_price?: Price };

/** A rate is visible exactly when its contract is: other tenants' rates answer 404. */
export function rateVisible(ctx: Ctx, rate: ServiceRateRecord): boolean {
  const contract = ctx.store.get('contracts', rate.contract_id);
  return contract !== undefined && canSeeContract(ctx.store, ctx.principal, contract);
}

/** Each offered option carries its added price (when the rate gives one) and whether it is always included. */
function optionLinkage(option: RateOption): Linkage {
  const meta: Record<string, unknown> = option.price ? { price: option.price, included: option.included } : { included: option.included };
  return { type: 'service-options', id: option.service_option_id, meta };
}

export const serviceRateKind: Kind<RateRow> = {
  type: 'service-rates',
  attributesSchema: serviceRateAttributes,
  // Spelled out so that nothing outside the documented attribute set (ids, meta) leaks.
  attributes: (row) => ({
    weight_min: row.weight_min,
    weight_max: row.weight_max,
    weight_bracket: row.weight_bracket,
    length_max: row.length_max,
    width_max: row.width_max,
    height_max: row.height_max,
    volume_max: row.volume_max,
    is_dynamic: row.is_dynamic,
    price: row.price,
    fuel_surcharge: row.fuel_surcharge,
    oversize_surcharge: row.oversize_surcharge,
    includes_vat: row.includes_vat,
    step_price: row.step_price,
    step_size: row.step_size,
    purchase_price: row.purchase_price,
    oversize_purchase_price: row.oversize_purchase_price,
  }),
  relationships: {
    contract: { targets: ['contracts'], data: (row) => linkTo('contracts', row.contract_id) },
    service: { targets: ['services'], data: (row) => linkTo('services', row.service_id) },
    service_options: { targets: ['service-options'], many: true, data: (row) => row.service_options.map(optionLinkage) },
  },
  self: (row) => `/service-rates/${row.id}`,
  meta: (row) => (row.bracket_price ? { bracket_price: row.bracket_price } : undefined),
  // Loaded for `include` from other resources: never hand out another tenant's rate.
  load: (ctx, id) => {
    const rate = ctx.store.get('serviceRates', id);
    return rate && rateVisible(ctx, rate) ? rate : undefined;
  },
};

export const serviceRateSchemas = resourceSchemas(serviceRateKind, {
  meta: z.object({ bracket_price: price.optional().describe('Price of the weight bracket at the filtered weight.') }),
});
