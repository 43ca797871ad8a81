import type { ShipmentRecord } from '../../model/shipment.js';
import type { ReadView, Tx } from '../../store/store.js';
import type { Field } from '../errors.js';
import type { Acting } from '../rules.js';
import { Problems } from './problems.js';
import { EDITABLE_STATUSES } from './statuses.js';

/** At most this many shipments are consolidated in one request. */
export const MAX_CONSOLIDATED = 100;

/**
 * The rules of `POST /consolidate-shipments`, all reported at once: every shipment is the
 * caller's, none is registered yet (the consolidation shipment neither), they share the
 * consolidation shipment's shop and contract (and its service, when that service consolidates
 * strictly), a shipment is named once and is not the consolidation shipment, and consolidation
 * is one level deep: a shipment others are consolidated into is not consolidated itself.
 */
function check(
  store: ReadView,
  organizationId: string | undefined,
  targetId: string,
  shipmentIds: readonly string[],
): { target: ShipmentRecord; shipments: ShipmentRecord[] } {
  const problems = new Problems();
  const mine = (id: string) => {
    const row = store.get('shipments', id);
    return row && row.organization_id === organizationId ? row : undefined;
  };
  const target = mine(targetId);
  const field: Field = { input: 'consolidation_shipment_id' };
  if (!target) {
    problems.add(`No shipment with id '${targetId}' is available to you.`, field);
    problems.throwIfAny();
  }
  if (!EDITABLE_STATUSES.has(target!.status_code))
    problems.add(`The consolidation shipment is ${target!.status_code}; shipments are consolidated before it is registered.`, field);
  if (target!.consolidation_shipment_id) problems.add('The consolidation shipment is itself consolidated into another shipment.', field);
  const service = target!.service_id ? store.get('services', target!.service_id) : undefined;
  const seen = new Set<string>();
  const shipments: ShipmentRecord[] = [];
  shipmentIds.forEach((id, index) => {
    const at: Field = { input: `shipment_ids[${index}]` };
    const shipment = mine(id);
    if (!shipment) return problems.add(`No shipment with id '${id}' is available to you.`, at);
    if (seen.has(id)) return problems.add(`Shipment '${id}' is named twice.`, at);
    seen.add(id);
    if (id === targetId) return problems.add('A shipment cannot be consolidated into itself.', at);
    if (!EDITABLE_STATUSES.has(shipment.status_code))
      problems.add(`Shipment '${id}' is ${shipment.status_code}; only shipments not registered yet can be consolidated.`, at);
    if (shipment.shop_id !== target!.shop_id) problems.add(`Shipment '${id}' belongs to another shop than the consolidation shipment.`, at);
    if (shipment.contract_id !== target!.contract_id) problems.add(`Shipment '${id}' has another contract than the consolidation shipment.`, at);
    if (service?.strict_consolidation && shipment.service_id !== service.id)
      problems.add(`Service '${service.code}' consolidates strictly: shipment '${id}' must have that service too.`, at);
    if (store.find('shipments', 'consolidation_shipment_id', id).length > 0)
      problems.add(`Other shipments are consolidated into shipment '${id}'; consolidation is one level deep.`, at);
    shipments.push(shipment);
  });
  problems.throwIfAny();
  return { target: target!, shipments };
}

/**
 * Consolidates shipments into a consolidation shipment (a shipment already consolidated
 * elsewhere moves), which becomes `is_consolidation`. Nothing changes unless every rule holds.
 */
export function consolidateShipments(tx: Tx, acting: Acting, targetId: string, shipmentIds: readonly string[]): void {
  const { target, shipments } = check(tx, acting.principal?.organizationId, targetId, shipmentIds);
  const now = acting.rules.clock.now();
  for (const shipment of shipments) tx.update('shipments', shipment.id, { consolidation_shipment_id: target.id, updated_at: now });
  if (!target.is_consolidation) tx.update('shipments', target.id, { is_consolidation: true, updated_at: now });
}
