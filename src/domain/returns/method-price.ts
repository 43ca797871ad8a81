import type { Price } from '../../model/common.js';
import type { ReturnMethodRecord } from '../../model/returns/config.js';
import { grams } from '../../model/returns/common.js';
import type { ReadView } from '../../store/store.js';
import { shipmentPrice } from '../shipments/pricing.js';

/** Grams a return of this method weighs when nothing else says: its default weight, else 1 kg. */
export const DEFAULT_RETURN_GRAMS = 1000;
const methodGrams = (method: ReturnMethodRecord, weight?: number): number =>
  weight ?? (method.default_weight ? grams(method.default_weight) : DEFAULT_RETURN_GRAMS);

/**
 * What the return label of a method costs the shop at a weight: the price its return shipment is
 * charged, the organization's carrier surcharges included (a portal may pass the price on to the
 * consumer, so it must be what the shop pays).
 */
export function methodPrice(store: ReadView, method: ReturnMethodRecord, weight?: number): Price | undefined {
  const service = method.service_id ? store.get('services', method.service_id) : undefined;
  const contract = method.contract_id ? store.get('contracts', method.contract_id) : undefined;
  const carrier = contract && store.get('carriers', contract.carrier_id);
  if (!service || !contract || !carrier) return undefined;
  const physical = { weight: methodGrams(method, weight) };
  const choice = { service, contract, physical, optionIds: method.service_option_ids, crossBorder: false, organizationId: method.organization_id };
  return shipmentPrice(store, choice, carrier.code);
}
