import type { ShipmentRecord } from '../../model/shipment.js';
import type { Tx } from '../../store/store.js';
import type { Rules } from '../rules.js';
import { colliOf } from './colli.js';
import { addStatus } from './statuses.js';
import { WALK_SHIPMENT } from './walk.js';

function voidOne(tx: Tx, rules: Rules, shipment: ShipmentRecord, at: number): void {
  for (const file of tx.find('files', 'shipment_id', shipment.id)) if (file.document_type === 'label') tx.remove('files', file.id);
  rules.jobs.cancel(tx, WALK_SHIPMENT, shipment.id);
  addStatus(tx, rules, shipment, { code: 'shipment-voided', at, carrier: { code: 'VOID', description: 'Shipment voided' } });
}

/**
 * Voids a registered shipment: its label is gone and the carrier statuses stop. Voiding the
 * master of a multi-colli shipment voids its colli that are still only registered too (colli
 * the carrier has handled go on).
 */
export function voidShipment(tx: Tx, rules: Rules, shipment: ShipmentRecord): void {
  const at = rules.clock.now();
  voidOne(tx, rules, shipment, at);
  for (const collo of colliOf(tx, shipment.id)) if (collo.status_code === 'shipment-registered') voidOne(tx, rules, collo, at);
}
