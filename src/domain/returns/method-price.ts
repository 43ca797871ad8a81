import type { Price } from '../../model/common.js';
import type { ReturnMethodRecord } from '../../model/returns/config.js';
import { grams } from '../../model/returns/common.js';
import type { ReadView } from '../../store/store.js';
import { priceBreakdown } from '../shipments/pricing.js';

/** Grams a return of this method weighs when nothing else says: its default weight, else 1 kg. */
export const DEFAULT_RETURN_GRAMS = 1000;
const methodGrams = (method: ReturnMethodRecord, weight?: number): number =>
  weight ?? (method.default_weight ? grams(method.default_weight) : DEFAULT_RETURN_GRAMS);

/** What the return label of a method costs the shop at a weight (the carrier rate, as for a shipment). */
export function methodPrice(store: ReadView, method: ReturnMethodRecord, weight?: number): Price | undefined {
  const service = method.service_id ? store.get('services', method.service_id) : undefined;
  const contract = method.contract_id ? store.get('contracts', method.contract_id) : undefined;
  const carrier = contract && store.get('carriers', contract.carrier_id);
  if (!service || !contract || !carrier) return undefined;
  const physical = { weight: methodGrams(method, weight) };
  return priceBreakdown(store, { service, contract, physical, optionIds: method.service_option_ids, crossBorder: false }, carrier.code)?.price;
}
