import type { ShipmentRecord } from '../../model/shipment.js';
import type { DraftAttributes, ShipmentDraft } from './draft.js';
import type { ResolvedShipment } from './resolve.js';

/** The stored fields a draft and its resolution give; `undefined` removes a field on update. */
export function shipmentFields(draft: ShipmentDraft, resolved: ResolvedShipment) {
  const a = draft.attributes;
  return {
    recipient_address: a.recipient_address,
    return_address: a.return_address,
    sender_address: a.sender_address,
    physical_properties: resolved.physical,
    pickup_location: a.pickup_location ?? undefined,
    description: a.description,
    items: a.items,
    customs: a.customs,
    sender_tax_identification_numbers: a.sender_tax_identification_numbers,
    recipient_tax_identification_numbers: a.recipient_tax_identification_numbers,
    customer_reference: a.customer_reference,
    channel: a.channel,
    total_value: resolved.totalValue,
    register_at: a.register_at ?? undefined,
    tags: a.tags,
    price: resolved.price,
    service_id: resolved.service?.id,
    contract_id: resolved.contract?.id,
    service_options: resolved.options,
    liability_coverage_id: resolved.coverage?.id,
    collection_id: resolved.collection?.id,
    label: resolved.label,
  };
}

/** The draft a stored shipment would be if it were sent again as it is. */
export function draftFromRecord(shipment: ShipmentRecord): ShipmentDraft {
  return {
    attributes: shipment as unknown as DraftAttributes,
    shopId: shipment.shop_id,
    serviceId: shipment.service_id,
    contractId: shipment.contract_id,
    options: shipment.service_options,
    coverageId: shipment.liability_coverage_id,
    collectionId: shipment.collection_id,
    label: shipment.label,
  };
}
