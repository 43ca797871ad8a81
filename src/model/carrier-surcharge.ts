import { z } from 'zod';
import { price, timestamp, type Price } from './common.js';

export const carrierSurchargeAttributes = z
  .object({
    name: z.string().max(255),
    description: z.string().max(255).optional(),
    fee: price,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'CarrierSurchargeAttributes' });

/**
 * A fee an organization adds to the shipments of one carrier (a peak season surcharge, a
 * handling fee): each shipment priced afterwards on a contract of that carrier, in the fee's
 * currency, carries it as one of its shipment surcharges.
 */
export type CarrierSurchargeRecord = {
  id: string;
  organization_id: string;
  carrier_id: string;
  name: string;
  description?: string;
  fee: Price;
  created_at: number;
  updated_at: number;
};
