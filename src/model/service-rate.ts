import { z } from 'zod';
import { price, type Price } from './common.js';

export const weightBracket = z
  .object({
    start: z.number().int().nonnegative(),
    start_amount: z.number().int().nonnegative(),
    size: z.number().int().positive(),
    size_amount: z.number().int().nonnegative(),
  })
  .meta({ id: 'WeightBracket' });
export type WeightBracket = z.infer<typeof weightBracket>;

export const serviceRateAttributes = z
  .object({
    weight_min: z.number().int().nonnegative(),
    weight_max: z.number().int().positive(),
    weight_bracket: weightBracket.optional(),
    length_max: z.number().int().positive().optional(),
    width_max: z.number().int().positive().optional(),
    height_max: z.number().int().positive().optional(),
    volume_max: z.number().positive().optional(),
    is_dynamic: z.boolean(),
    price: price.optional(),
    fuel_surcharge: price.optional(),
    oversize_surcharge: price.optional(),
    includes_vat: z.boolean(),
    step_price: price.optional(),
    step_size: z.number().int().positive().optional(),
    // What the rate costs its contract's owner, as that owner set it on a rate of its own contract.
    purchase_price: price.optional(),
    oversize_purchase_price: price.optional(),
  })
  .meta({ id: 'ServiceRateAttributes' });

/** A service option offered by a rate, with its added price. */
export type RateOption = { service_option_id: string; price?: Price; included: boolean };

export type ServiceRateRecord = z.infer<typeof serviceRateAttributes> & {
  id: string;
  contract_id: string;
  service_id: string;
  service_options: RateOption[];
};
