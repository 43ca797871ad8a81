import { createHash } from 'node:crypto';
import type { CollectionRecord } from '../../model/collection.js';
import type { ShipmentRecord } from '../../model/shipment.js';
import type { ReadView, Tx } from '../../store/store.js';
import type { Rules } from '../rules.js';
import { DomainError } from '../errors.js';
import type { JobHandler } from '../scheduler.js';
import { hasTag, TRIGGERS } from '../shipments/registration.js';
import { addStatus, statusByCode } from '../shipments/statuses.js';
import { scheduleWalk, WALK_SHIPMENT } from '../shipments/walk.js';

/*
 * The life of a collection on the sandbox clock:
 *   collection-concept     planned; changed, deleted and filled freely until its window opens;
 *   collection-registered  booked with the carrier (`register: true`, or made by a schedule with a
 *                          contract): a tracking code, no more changes; shipments may still join;
 *   collection-collected   at `collection_time.from` the carrier comes: registered shipments in it
 *                          become shipment-received-by-carrier, the others (not labelled) stay behind;
 *   collection-voided      a registered collection cancelled, where the carrier allows that;
 *                          (a user may also mark a collection collected by hand, `markCollected`);
 *   collection-registration-failed  a schedule could not book it (its contract is no longer active).
 * A concept collection is a plan the carrier never heard of: when its window comes, nothing happens.
 */

export const COLLECT_COLLECTION = 'collect-collection';

export type CollectionStatusCode =
  'collection-concept' | 'collection-registered' | 'collection-registration-failed' | 'collection-collected' | 'collection-voided';

export function collectionStatus(store: ReadView, collection: CollectionRecord): CollectionStatusCode {
  return store.get('statuses', collection.status_id)?.code as CollectionStatusCode;
}

/** Open for shipments: planned or booked, and the carrier has not come yet. */
export function isOpen(store: ReadView, collection: CollectionRecord, now: number): boolean {
  const status = collectionStatus(store, collection);
  return (status === 'collection-concept' || status === 'collection-registered') && collection.collection_time.from > now;
}

/** The carrier's reference of a booked collection, the same for the same collection. */
function collectionReference(carrierCode: string, collectionId: string): string {
  const hex = createHash('sha256').update(`collection:${collectionId}`).digest('hex');
  const digits = [...hex.slice(0, 20)].map((char) => (parseInt(char, 16) % 10).toString()).join('');
  return `${carrierCode
    .replace(/[^a-z]/g, '')
    .slice(0, 3)
    .toUpperCase()}-COL-${digits.slice(0, 10)}`;
}

/** Books a collection with its carrier: registered, with a reference, collected when its window opens. */
export function registerCollection(tx: Tx, rules: Rules, collection: CollectionRecord): CollectionRecord {
  const contract = collection.contract_id ? tx.get('contracts', collection.contract_id) : undefined;
  const carrier = contract && tx.get('carriers', contract.carrier_id);
  if (!carrier) throw new Error(`collection ${collection.id} has no carrier to register with`);
  const updated = tx.update('collections', collection.id, {
    status_id: statusByCode(tx, 'collection-registered').id,
    register: true,
    tracking_code: collectionReference(carrier.code, collection.id),
  });
  rules.jobs.schedule(tx, { kind: COLLECT_COLLECTION, subject: collection.id, dueMs: collection.collection_time.from * 1000 });
  return updated;
}

/** The shipment leaves its collection (it was not taken, or the collection is gone). */
function release(tx: Tx, shipment: ShipmentRecord, at: number): void {
  tx.update('shipments', shipment.id, { collection_id: undefined, updated_at: Math.max(shipment.updated_at, at) });
}

/**
 * The carrier has the parcel. A shipment on the `sandbox:auto-deliver` walk goes on from here
 * (sorting, courier, delivered) instead of being handed over a second time by the walk.
 */
export function handOver(
  tx: Tx,
  rules: Rules,
  shipment: ShipmentRecord,
  at: number,
  carrier: { code: string; description: string; category?: string },
): ShipmentRecord {
  rules.jobs.cancel(tx, WALK_SHIPMENT, shipment.id);
  const updated = addStatus(tx, rules, shipment, { code: 'shipment-received-by-carrier', at, carrier });
  if (hasTag(updated, TRIGGERS.autoDeliver)) scheduleWalk(tx, rules, updated, 1, at);
  return updated;
}

/**
 * Cancels a booked collection: voided, its shipments free to join another one. A labelled
 * `sandbox:auto-deliver` shipment that waited for it starts its walk from now instead.
 */
export function voidCollection(tx: Tx, rules: Rules, collection: CollectionRecord, at: number): CollectionRecord {
  rules.jobs.cancel(tx, COLLECT_COLLECTION, collection.id);
  for (const shipment of tx.find('shipments', 'collection_id', collection.id)) {
    release(tx, shipment, at);
    if (shipment.status_code === 'shipment-registered' && hasTag(shipment, TRIGGERS.autoDeliver)) scheduleWalk(tx, rules, shipment, 0, at);
  }
  return tx.update('collections', collection.id, { status_id: statusByCode(tx, 'collection-voided').id });
}

/**
 * The carrier has been: the collection is collected, its registered shipments are received by the
 * carrier and the ones without a (valid) label stay behind, leaving it for another collection.
 */
function collectCollection(tx: Tx, rules: Rules, collection: CollectionRecord, at: number): CollectionRecord {
  const contract = collection.contract_id ? tx.get('contracts', collection.contract_id) : undefined;
  const carrierName = (contract && tx.get('carriers', contract.carrier_id)?.name) ?? 'The carrier';
  const updated = tx.update('collections', collection.id, { status_id: statusByCode(tx, 'collection-collected').id });
  for (const shipment of tx.find('shipments', 'collection_id', collection.id)) {
    if (shipment.status_code === 'shipment-registered') {
      handOver(tx, rules, shipment, at, {
        code: 'COLLECTED',
        description: `Collected by ${carrierName} (collection ${collection.tracking_code ?? collection.id})`,
        category: 'successful-collection',
      });
    } else if ((!shipment.tracking_code && shipment.status_code !== 'shipment-created-without-tracking') || shipment.status_code === 'shipment-voided') {
      // Without a (valid) label the driver does not take it: it waits for another collection. An
      // untracked letter has its label without a tracking code: it goes, and no carrier status follows.
      release(tx, shipment, at);
    }
  }
  return updated;
}

/**
 * The one status a user may give a collection by hand (production's PATCH takes the `status`
 * relationship): collected, from any state but voided. Already collected, it stays as it is.
 */
export function markCollected(tx: Tx, rules: Rules, collection: CollectionRecord, at: number): CollectionRecord {
  const status = collectionStatus(tx, collection);
  if (status === 'collection-collected') return collection;
  if (status === 'collection-voided') {
    throw DomainError.locked(`Collection '${collection.id}' is voided: it was cancelled, so it cannot have been collected.`, {
      relationship: 'status',
    });
  }
  // A booked collection's carrier visit is no longer to come.
  rules.jobs.cancel(tx, COLLECT_COLLECTION, collection.id);
  return collectCollection(tx, rules, collection, at);
}

/** The carrier comes at the opening of the window of a registered collection. */
export const collectCollectionJob: JobHandler = {
  apply(tx, job, rules) {
    const collection = tx.get('collections', job.subject);
    if (!collection || collectionStatus(tx, collection) !== 'collection-registered') return;
    collectCollection(tx, rules, collection, Math.floor(job.due_ms / 1000));
  },
};
