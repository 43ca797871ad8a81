import type { ShipmentRecord } from '../../model/shipment.js';
import type { ReadView } from '../../store/store.js';

/** The colli of a multi-colli shipment's master, by collo number. */
export function colliOf(store: ReadView, masterId: string): ShipmentRecord[] {
  return [...store.find('shipments', 'multi_colli_shipment_id', masterId)].sort((a, b) => (a.collo_number ?? 0) - (b.collo_number ?? 0));
}
