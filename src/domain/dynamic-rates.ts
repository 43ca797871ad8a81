import type { Price } from '../model/common.js';

/**
 * The sandbox's stand-in for a carrier's live price calculation (`POST /get-dynamic-service-rates`).
 * It is deterministic on purpose: the same carrier, weight and route always give the same price,
 * so tests and demos can rely on it.
 *
 *   amount = round((base + per_kg x ceil(chargeable grams / 1000)) x carrier_factor)
 *
 * - domestic routes (sender and recipient in the same country): base 695, per_kg 95;
 * - cross-border routes: base 1495, per_kg 185;
 * - carrier_factor = (80 + fnv1a(carrier code) mod 61) / 100, a fixed 0.80 to 1.40 per carrier,
 *   so carriers differ without a table to keep in step with the catalogue.
 *
 * Amounts are cents of the contract currency.
 */
const DYNAMIC_TARIFFS = {
  domestic: { base: 695, perKg: 95 },
  crossBorder: { base: 1495, perKg: 185 },
} as const;

export interface DynamicPriceInput {
  carrierCode: string;
  /** Chargeable weight in grams (volumetric weight already taken into account). */
  weight: number;
  /** Whether sender and recipient are in different countries. */
  crossBorder: boolean;
  currency: string;
}

/** FNV-1a, 32 bit: a tiny stable hash, so a carrier's factor never changes between runs. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The fixed price factor of a carrier, in percent (80 to 140). */
export function carrierFactorPercent(carrierCode: string): number {
  return 80 + (fnv1a(carrierCode) % 61);
}

/** The "carrier" price of one shipment; see the formula above. */
export function dynamicPrice(input: DynamicPriceInput): Price {
  const tariff = input.crossBorder ? DYNAMIC_TARIFFS.crossBorder : DYNAMIC_TARIFFS.domestic;
  const kilograms = Math.max(1, Math.ceil(input.weight / 1000));
  const amount = Math.round(((tariff.base + tariff.perKg * kilograms) * carrierFactorPercent(input.carrierCode)) / 100);
  return { amount, currency: input.currency };
}
