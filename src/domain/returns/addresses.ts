import type { Address } from '../../model/common.js';
import type { ShopRecord } from '../../model/shop.js';

export type ReturnToAddress = Address & { first_name: string; last_name: string };

/**
 * Where a return goes: the method's address, else the shop's return address (or its sender
 * address). Production names a person there; a shop address without one is addressed to the
 * shop's returns desk.
 */
export function returnAddressOf(shop: ShopRecord, methodAddress?: ReturnToAddress): ReturnToAddress {
  if (methodAddress) return methodAddress;
  const base: Address = shop.return_address ?? shop.sender_address ?? { street_1: 'Unknown', city: 'Unknown', country_code: 'NL' };
  return { ...base, first_name: base.first_name ?? 'Returns', last_name: base.last_name ?? shop.name };
}
