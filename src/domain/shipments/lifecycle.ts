import type { ShipmentRecord } from '../../model/shipment.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError } from '../errors.js';
import { assertRoom } from '../quotas.js';
import type { Acting, Rules } from '../rules.js';
import type { ShipmentDraft } from './draft.js';
import { shipmentFields } from './fields.js';
import { scheduleRegistration } from './registration.js';
import type { ResolvedShipment } from './resolve.js';
import { addStatus, EDITABLE_STATUSES, statusRowFor, type NewStatus } from './statuses.js';
import { checkManualFees, removeSurcharges, syncSurcharges } from './surcharges.js';

/**
 * A shipment may be changed only while it has not left the sandbox's hands (a concept, or one
 * whose registration failed, to be fixed and registered again), and deleted only as a concept:
 * production's documentation has DELETE "only possible for shipments with the status
 * shipment_concept".
 */
export function assertEditable(shipment: ShipmentRecord, action: 'changed' | 'deleted'): void {
  const code = shipment.status_code;
  if (action === 'deleted' ? code === 'shipment-concept' : EDITABLE_STATUSES.has(code)) return;
  if (action === 'deleted' && EDITABLE_STATUSES.has(code)) {
    throw DomainError.locked(
      `The shipment is ${code}: only a concept can be deleted. A PATCH with register_at null makes it a concept that is not registered.`,
    );
  }
  throw DomainError.locked(`The shipment is ${code} and can no longer be ${action}.`);
}

/** How a shipment starts when it does not start as a concept (a shipment tracked for an outside registration). */
export interface Start {
  /** Default: `shipment-concept` now. */
  status?: NewStatus;
  /** Fields the new row has from the start (its tracking code). */
  fields: Partial<ShipmentRecord>;
}

/**
 * Creates a shipment from a resolved draft, in the caller's transaction: its first status (a
 * concept, unless `start` says otherwise), its surcharges, the hooks that run on it, and its
 * registration when it is ready. Returns the shipment as the hooks left it.
 */
export function createShipment(tx: Tx, acting: Acting, draft: ShipmentDraft, resolved: ResolvedShipment, start?: Start): ShipmentRecord {
  const { rules, principal } = acting;
  if (!principal) throw DomainError.notAllowed('Shipments are created by a client.');
  assertRoom(rules, tx, resolved.shop.organization_id, 'shipments');
  const now = rules.clock.now();
  const id = tx.newId();
  // Inserted with its first status already set: every version of a stored row is a full copy.
  const first = statusRowFor(tx, { id, tracking_code: start?.fields.tracking_code }, start?.status ?? { code: 'shipment-concept', at: now });
  const inserted = tx.insert('shipments', {
    ...shipmentFields(draft, resolved),
    id,
    created_at: now,
    updated_at: now,
    shop_id: resolved.shop.id,
    organization_id: resolved.shop.organization_id,
    shipment_status_id: first.row.id,
    status_code: first.status.code,
    client_id: principal.clientId,
    ...start?.fields,
  } as ShipmentRecord);
  tx.insert('shipmentStatuses', first.row);
  syncSurcharges(tx, inserted, resolved.surcharges, now);
  const shipment = rules.events?.shipmentCreated(tx, inserted) ?? inserted;
  // After the shipment's hooks: a webhook on the first status that includes its shipment sends
  // the shipment those hooks made, as POST /shipments answers it.
  rules.events?.statusCreated(tx, shipment, first.row);
  scheduleRegistration(tx, rules, shipment);
  return shipment;
}

/**
 * Rules of a change that the draft alone cannot tell: a shipment is never consolidated into
 * itself, and, as `POST /consolidate-shipments` has it, consolidation is one level deep: a
 * shipment others are consolidated into is not consolidated itself (a chain could close a cycle).
 */
export function checkChange(store: ReadView, current: ShipmentRecord, draft: ShipmentDraft): void {
  if (!draft.consolidationShipmentId) return;
  const field = { relationship: 'consolidation_shipment.id' };
  if (draft.consolidationShipmentId === current.id) throw DomainError.unprocessable('A shipment cannot be consolidated into itself.', field);
  if (store.find('shipments', 'consolidation_shipment_id', current.id).length > 0) {
    throw DomainError.unprocessable('Other shipments are consolidated into this shipment; consolidation is one level deep.', field);
  }
}

/** Applies a resolved change: the shipment becomes a concept again and is registered anew when ready. */
export function changeShipment(tx: Tx, rules: Rules, current: ShipmentRecord, draft: ShipmentDraft, resolved: ResolvedShipment): ShipmentRecord {
  const now = rules.clock.now();
  checkManualFees(tx, current.id, resolved.price);
  let row = syncSurcharges(tx, tx.update('shipments', current.id, { ...shipmentFields(draft, resolved), updated_at: now }), resolved.surcharges, now);
  if (row.status_code !== 'shipment-concept') row = addStatus(tx, rules, row, { code: 'shipment-concept', at: now });
  scheduleRegistration(tx, rules, row);
  return row;
}

/**
 * Removes a shipment with its statuses, files, surcharges, hook logs and pending jobs, as a tenant
 * reset does: a hook log's resource is required, so none is left naming a shipment that is gone,
 * and neither is a webhook delivery still waiting about it or one of its statuses.
 */
export function deleteShipment(tx: Tx, shipment: ShipmentRecord, now: number): void {
  const gone = [shipment.id, ...tx.find('shipmentStatuses', 'shipment_id', shipment.id).map((status) => status.id)];
  for (const log of tx.find('hookLogs', 'shipment_id', shipment.id)) if (log.resource_type !== 'returns') tx.remove('hookLogs', log.id);
  // Work on the shipment has its id as subject; a webhook delivery `hook:resource:value` (hooks/webhooks.ts).
  const subjects = [...gone];
  for (const hook of tx.find('hooks', 'organization_id', shipment.organization_id)) {
    if (hook.action.action_type !== 'send-resource') continue;
    for (const id of gone) hook.action.values.forEach((_, index) => subjects.push(`${hook.id}:${id}:${index}`));
  }
  for (const subject of subjects) for (const job of tx.find('jobs', 'subject', subject)) tx.remove('jobs', job.id);
  for (const status of tx.find('shipmentStatuses', 'shipment_id', shipment.id)) tx.remove('shipmentStatuses', status.id);
  for (const file of tx.find('files', 'shipment_id', shipment.id)) tx.remove('files', file.id);
  removeSurcharges(tx, shipment.id);
  // Shipments consolidated into this one are no longer: they keep no link to a deleted shipment,
  // and their updated_at says they changed, as a shipment released from a deleted collection's does.
  for (const child of [...tx.find('shipments', 'consolidation_shipment_id', shipment.id)])
    tx.update('shipments', child.id, { consolidation_shipment_id: undefined, updated_at: Math.max(child.updated_at, now) });
  tx.remove('shipments', shipment.id);
}
