import type { LabelData } from '../labels/types.js';
import type { ShipmentRecord } from '../../model/shipment.js';
import type { ReadView } from '../../store/store.js';
import { colliOf } from './colli.js';
import { REGISTERED_STATUSES } from './statuses.js';

/** What a label of a multi-colli shipment adds: which collo it is, or, on the master's, the colli. */
function multiColli(store: ReadView, shipment: ShipmentRecord): Pick<LabelData, 'collo' | 'colli'> {
  if (shipment.multi_colli_shipment_id) {
    const master = store.get('shipments', shipment.multi_colli_shipment_id);
    const of = colliOf(store, shipment.multi_colli_shipment_id).length;
    return { collo: { number: shipment.collo_number ?? 0, of, master: master?.tracking_code ?? master?.id ?? '' } };
  }
  const colli = colliOf(store, shipment.id);
  return colli.length > 0 ? { colli: colli.map((collo) => collo.tracking_code ?? collo.id) } : {};
}

/** What the documents of a registered shipment print, gathered from the store. */
export function labelData(store: ReadView, shipment: ShipmentRecord): LabelData {
  const service = shipment.service_id ? store.get('services', shipment.service_id) : undefined;
  const carrier = service ? store.get('carriers', service.carrier_id) : undefined;
  const registered = store
    .find('shipmentStatuses', 'shipment_id', shipment.id)
    .find((status) => REGISTERED_STATUSES.has(store.get('statuses', status.status_id)?.code ?? ''));
  return {
    shipmentId: shipment.id,
    trackingCode: shipment.tracking_code ?? '',
    barcode: shipment.barcode ?? shipment.tracking_code ?? '',
    carrier: { name: carrier?.name ?? 'Carrier', code: carrier?.code ?? 'carrier' },
    service: { name: service?.name ?? 'Service', code: service?.code ?? 'service' },
    sender: shipment.sender_address,
    recipient: shipment.recipient_address,
    returnAddress: shipment.return_address,
    weight: shipment.physical_properties.weight,
    registeredAt: registered?.created_at ?? shipment.updated_at,
    description: shipment.description,
    pickupLocation: shipment.pickup_location ?? undefined,
    options: shipment.service_options.map((option) => store.get('serviceOptions', option.id)?.name ?? option.id),
    items: shipment.items,
    customs: shipment.customs,
    totalValue: shipment.total_value,
    senderTaxNumbers: shipment.sender_tax_identification_numbers,
    recipientTaxNumbers: shipment.recipient_tax_identification_numbers,
    ...multiColli(store, shipment),
  };
}
