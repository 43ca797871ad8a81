import type { ManifestRecord } from '../../model/manifest.js';
import type { ReadView } from '../../store/store.js';
import type { ManifestData } from '../labels/manifest-pdf.js';
import { personName } from '../labels/text.js';
import { colliOf } from '../shipments/colli.js';

/** What a manifest's document prints, gathered from the store (shipments in the manifest's order). */
export function manifestData(store: ReadView, manifest: ManifestRecord): ManifestData {
  const contract = manifest.contract_id ? store.get('contracts', manifest.contract_id) : undefined;
  const carrier = contract ? store.get('carriers', contract.carrier_id) : undefined;
  const collection = manifest.collection_id ? store.get('collections', manifest.collection_id) : undefined;
  const listed = new Set(manifest.shipment_ids);
  const rows = manifest.shipment_ids.flatMap((id) => {
    const shipment = store.get('shipments', id);
    if (!shipment) return [];
    // The parcels of a multi-colli shipment are its colli, each with its own label and weight: its
    // master, which weighs them all, is no parcel of its own once they are listed (a collection's
    // manifest lists both), or the count and total weight would take them twice.
    if (colliOf(store, id).some((collo) => listed.has(collo.id))) return [];
    const service = shipment.service_id ? store.get('services', shipment.service_id) : undefined;
    const recipient = shipment.recipient_address;
    return [
      {
        trackingCode: shipment.tracking_code ?? '',
        barcode: shipment.barcode ?? shipment.tracking_code ?? shipment.id,
        recipient: personName(recipient) || recipient.company || '',
        destination: [recipient.postal_code, recipient.city, recipient.country_code].filter(Boolean).join(' '),
        service: service?.name ?? '',
        weight: shipment.physical_properties.weight,
      },
    ];
  });
  return {
    manifestId: manifest.id,
    name: manifest.name,
    createdAt: manifest.created_at,
    address: manifest.address,
    ...(carrier ? { carrier: carrier.name } : {}),
    ...(contract ? { contract: contract.name } : {}),
    ...(collection ? { collection: { from: collection.collection_time.from, to: collection.collection_time.to, reference: collection.tracking_code } } : {}),
    rows,
  };
}
