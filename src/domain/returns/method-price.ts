import type { Price } from '../../model/common.js';
import type { ReturnMethodRecord } from '../../model/returns/config.js';
import { grams } from '../../model/returns/common.js';
import type { ReadView } from '../../store/store.js';
import { shipmentPrice } from '../shipments/pricing.js';
import { returnAddressOf } from './addresses.js';

/** Grams a return of this method weighs when nothing else says: its default weight, else 1 kg. */
export const DEFAULT_RETURN_GRAMS = 1000;
const methodGrams = (method: ReturnMethodRecord, weight?: number): number =>
  weight ?? (method.default_weight ? grams(method.default_weight) : DEFAULT_RETURN_GRAMS);

/**
 * Whether a method's return shipments cross a border (a carrier may price those by route): from
 * the consumer's country where it is known, else when every country the method is offered in
 * lies across the border from where its returns go (a method offered anywhere counts as domestic).
 */
function crossesBorder(store: ReadView, method: ReturnMethodRecord, from: string | undefined): boolean {
  const shop = store.get('shops', method.shop_id);
  if (!shop) return false;
  const to = returnAddressOf(shop, method.address).country_code;
  if (from !== undefined) return from !== to;
  const countries = method.country_codes ?? [];
  return countries.length > 0 && countries.every((country) => country !== to);
}

/**
 * What the return label of a method costs the shop at a weight, for a consumer in `from` where
 * known: the price its return shipment is charged, across a border and with the organization's
 * carrier surcharges (a portal may pass the price on to the consumer, so it must be what the shop pays).
 */
export function methodPrice(store: ReadView, method: ReturnMethodRecord, at: { weight?: number; from?: string } = {}): Price | undefined {
  const service = method.service_id ? store.get('services', method.service_id) : undefined;
  const contract = method.contract_id ? store.get('contracts', method.contract_id) : undefined;
  const carrier = contract && store.get('carriers', contract.carrier_id);
  if (!service || !contract || !carrier) return undefined;
  const physical = { weight: methodGrams(method, at.weight) };
  const crossBorder = crossesBorder(store, method, at.from);
  const choice = { service, contract, physical, optionIds: method.service_option_ids, crossBorder, organizationId: method.organization_id };
  return shipmentPrice(store, choice, carrier.code);
}
