import type { Address } from '../../model/common.js';
import type { ShopRecord } from '../../model/shop.js';
import type { ShipmentDraft } from './draft.js';
import type { ResolvedShipment } from './resolve.js';

/** The stored fields a draft and its resolution give; `undefined` removes a field on update. */
export function shipmentFields(draft: ShipmentDraft, resolved: ResolvedShipment) {
  const a = draft.attributes;
  return {
    recipient_address: a.recipient_address,
    return_address: shopAddressIfSame(a.return_address, resolved.shop),
    sender_address: shopAddressIfSame(a.sender_address, resolved.shop),
    physical_properties: resolved.physical,
    pickup_location: a.pickup_location ?? undefined,
    drop_off_location: a.drop_off_location,
    description: a.description,
    items: a.items,
    customs: a.customs,
    sender_tax_identification_numbers: a.sender_tax_identification_numbers,
    recipient_tax_identification_numbers: a.recipient_tax_identification_numbers,
    sender_tax_number: a.sender_tax_number,
    recipient_tax_number: a.recipient_tax_number,
    is_consolidation: a.is_consolidation,
    customer_reference: a.customer_reference,
    channel: a.channel,
    total_value: resolved.totalValue,
    register_at: a.register_at ?? undefined,
    // Stored as strings, as production answers them: filters, hook predicates, the registration
    // triggers and every answer then see one form, whether the client sent 5 or "5".
    tags: a.tags?.map(String),
    price: resolved.price,
    service_id: resolved.service?.id,
    contract_id: resolved.contract?.id,
    service_options: resolved.options,
    liability_coverage_id: resolved.coverage?.id,
    collection_id: resolved.collection?.id,
    consolidation_shipment_id: resolved.consolidationShipment?.id,
    label: resolved.label,
  };
}

/**
 * The shop's own stored address when `address` has the same fields in the same order, else
 * `address`. Integrations send the shop's address with every shipment; storing a reference to
 * the shop's (frozen) object instead of a copy saves every shipment about a kilobyte, and the
 * shipment renders exactly the same.
 */
function shopAddressIfSame(address: Address, shop: ShopRecord): Address {
  for (const known of [shop.sender_address, shop.return_address]) if (known && sameFields(address, known)) return known;
  return address;
}

function sameFields(a: Address, b: Address): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  return keys.every((key, i) => key === other[i] && a[key as keyof Address] === b[key as keyof Address]);
}
