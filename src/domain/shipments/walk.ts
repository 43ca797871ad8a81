import type { ShipmentRecord } from '../../model/shipment.js';
import type { Rules } from '../rules.js';
import type { Tx } from '../../store/store.js';
import type { JobHandler } from '../scheduler.js';
import { addStatus } from './statuses.js';

export const WALK_SHIPMENT = 'walk-shipment';

/**
 * The carrier statuses of the `sandbox:auto-deliver` trigger, each with its delay after the
 * previous one on the sandbox clock: handed over after an hour, sorted, out with the courier the
 * next morning, delivered at noon.
 */
const WALK = [
  { code: 'shipment-received-by-carrier', after: 3600, carrier: { code: 'A01', description: 'Parcel received by the carrier' } },
  { code: 'shipment-at-sorting', after: 3 * 3600, carrier: { code: 'B01', description: 'Parcel is being sorted' } },
  { code: 'shipment-with-courier', after: 12 * 3600, carrier: { code: 'C01', description: 'Parcel is out for delivery' } },
  { code: 'shipment-delivered', after: 4 * 3600, carrier: { code: 'D01', description: 'Parcel delivered' } },
] as const;

/**
 * The walk of a shipment on a service that delivers to a pick-up point: no courier comes to the
 * recipient; the parcel waits at the point the next morning and is collected there at noon, so
 * an integration can see the point's `shipment-at-parcel-shop` ("ready for pick-up") as it would
 * in production.
 */
const PICKUP_WALK = [
  WALK[0],
  WALK[1],
  { code: 'shipment-at-parcel-shop', after: 12 * 3600, carrier: { code: 'C02', description: 'Parcel is ready for pick-up at the pick-up point' } },
  { code: 'shipment-delivered', after: 4 * 3600, carrier: { code: 'D02', description: 'Parcel picked up by the recipient' } },
] as const;

/** The walk of a shipment: the pick-up point's for a service that delivers to one, else the courier's. */
function walkOf(tx: Tx, shipment: ShipmentRecord): typeof WALK | typeof PICKUP_WALK {
  const service = shipment.service_id ? tx.get('services', shipment.service_id) : undefined;
  return service?.delivery_method === 'pick-up' ? PICKUP_WALK : WALK;
}

/** Queues step `step` of the shipment's walk, its `after` seconds after `from`. */
export function scheduleWalk(tx: Tx, rules: Rules, shipment: ShipmentRecord, step: number, from: number): void {
  const next = walkOf(tx, shipment)[step];
  if (!next) return;
  rules.jobs.schedule(tx, { kind: WALK_SHIPMENT, subject: shipment.id, dueMs: (from + next.after) * 1000, payload: { step } });
}

/** A shipment in a booked collection is handed over when the carrier collects it, not by the walk. */
function awaitsCollection(tx: Tx, shipment: ShipmentRecord): boolean {
  const collection = shipment.collection_id ? tx.get('collections', shipment.collection_id) : undefined;
  return collection !== undefined && tx.get('statuses', collection.status_id)?.code === 'collection-registered';
}

/**
 * Takes the next step of the walk, unless the shipment left the walk meanwhile (voided, or a
 * status set by hand through POST /update-shipment-status) or waits for its collection, which
 * goes on with the walk once it has the shipment.
 */
export const walkShipmentJob: JobHandler = {
  apply(tx, job, rules) {
    const step = Number(job.payload?.step ?? 0);
    const shipment = tx.get('shipments', job.subject);
    if (!shipment) return;
    const walk = walkOf(tx, shipment);
    const expected = step === 0 ? 'shipment-registered' : walk[step - 1]?.code;
    if (shipment.status_code !== expected || !walk[step]) return;
    if (step === 0 && awaitsCollection(tx, shipment)) return;
    const at = Math.floor(job.due_ms / 1000);
    const updated = addStatus(tx, rules, shipment, { code: walk[step].code, at, carrier: { ...walk[step].carrier } });
    scheduleWalk(tx, rules, updated, step + 1, at);
  },
};
