import { z } from 'zod';
import { countryCode } from './common.js';

export const packageTypes = ['parcel', 'letterbox', 'letter', 'unstamped', 'multi-colli'] as const;
export const handoverMethods = ['collection', 'drop-off'] as const;
export const deliveryMethods = ['pick-up', 'delivery'] as const;
export const weekDays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Where a service ships from or to: a country, optionally narrowed by subdivision and postal code pattern. */
const addressRule = z
  .object({
    country_code: countryCode,
    state_code: z.string().optional(),
    postal_code: z.string().optional().describe('regular expression an address postal code must match'),
  })
  .meta({ id: 'AddressRule' });
export type AddressRule = z.infer<typeof addressRule>;

/** Production's closed attribute set. */
export const serviceAttributes = z
  .strictObject({
    name: z.string(),
    code: z.string(),
    package_type: z.enum(packageTypes),
    handover_method: z.enum(handoverMethods),
    delivery_method: z.enum(deliveryMethods),
    uses_volumetric_weight: z.boolean(),
    delivery_days: z.array(z.enum(weekDays)),
    transit_time: z.object({ min: z.number().int(), max: z.number().int() }),
    regions_from: z.array(addressRule),
    regions_to: z.array(addressRule),
    volumetric_weight_divisor: z.number().positive().optional(),
    strict_consolidation: z.boolean().describe('Whether only shipments of this service may be consolidated together.'),
    is_label_in_the_box: z.boolean(),
    is_shipping_and_return: z.boolean(),
  })
  .meta({ id: 'ServiceAttributes' });

/** The flags production answers that the sandbox's services leave at their defaults (older data files lack them). */
type ServiceFlags = 'strict_consolidation' | 'is_label_in_the_box' | 'is_shipping_and_return';

export type ServiceRecord = Omit<z.infer<typeof serviceAttributes>, ServiceFlags> &
  Partial<Pick<z.infer<typeof serviceAttributes>, ServiceFlags>> & {
    id: string;
    carrier_id: string;
    region_from_id: string;
    region_to_id: string;
    /** The seeded zones of its route (data files written before zones existed have none). */
    zone_from_id?: string;
    zone_to_id?: string;
    /** The tenant (its organization) a service loaded with a pack belongs to; only that tenant sees it. Left out: everyone's. */
    organization_id?: string;
  };
