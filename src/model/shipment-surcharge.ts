import { z } from 'zod';
import { price, timestamp, type Price } from './common.js';

export const shipmentSurchargeAttributes = z
  .object({
    name: z.string().max(255),
    description: z.string().max(255).optional(),
    fee: price,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'ShipmentSurchargeAttributes' });

/**
 * One part of a shipment's price on top of the base rate (fuel, oversize, a priced service
 * option, liability coverage). The base rate plus the fees of a shipment's surcharges is its
 * `price.amount`; the rows are rewritten whenever the price is computed.
 */
export type ShipmentSurchargeRecord = {
  id: string;
  shipment_id: string;
  /** Denormalized from the shipment, so listing a tenant's surcharges needs no join. */
  organization_id: string;
  /** What the surcharge is for (`fuel`, `oversize`, `option:<id>`, `coverage:<id>`): a recomputed price keeps the row of the same source. */
  source: string;
  name: string;
  description?: string;
  fee: Price;
  created_at: number;
  updated_at: number;
};
