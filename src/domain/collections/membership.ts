import type { CollectionRecord } from '../../model/collection.js';
import type { ShipmentRecord } from '../../model/shipment.js';
import type { Principal } from '../../model/tenancy.js';
import type { ReadView, Tx } from '../../store/store.js';
import { DomainError, type Field, type Problem } from '../errors.js';
import { colliOf } from '../shipments/colli.js';
import { utcText } from '../../model/collection-calendar.js';
import { dropOffOf } from './handover.js';
import { collectionStatus, isOpen } from './lifecycle.js';

/*
 * Which shipments a collection takes: those of its shop and its contract (a collection without a
 * contract takes shipments without one), not yet with the carrier, that the carrier picks up
 * rather than the sender drops off (./handover.ts). Shared by
 * POST /add-shipments-to-collection, a shipment's `collection` relationship and
 * `meta.add_to_next_collection`, so the three cannot disagree.
 */

/** Statuses of shipments a collection can still take (a registered one only where the carrier allows). */
const JOINABLE = new Set(['shipment-concept', 'shipment-registration-failed', 'shipment-registered']);

function contractName(store: ReadView, contractId: string | undefined): string {
  if (!contractId) return 'no contract';
  const contract = store.get('contracts', contractId);
  return `contract '${contractId}'${contract ? ` (${contract.name})` : ''}`;
}

/**
 * A collection shipments may join: a stored one, or the one POST /collections is about to make,
 * which has no id yet (its shipments are checked before it is made, with the rest of the request).
 */
export type Joinable = Pick<CollectionRecord, 'shop_id' | 'contract_id'> & { id?: string };

const nameOf = (collection: Joinable) => (collection.id ? `Collection '${collection.id}'` : 'The collection');

/** Why a collection does not fit a shipment's shop and contract; `undefined` when it does. */
export function mismatch(store: ReadView, collection: Joinable, shopId: string, contractId: string | undefined): string | undefined {
  if (collection.shop_id !== shopId) return `${nameOf(collection)} is of another shop than the shipment.`;
  if ((collection.contract_id ?? undefined) !== (contractId ?? undefined)) {
    return `${nameOf(collection)} is for ${contractName(store, collection.contract_id)}; the shipment has ${contractName(store, contractId)}. A collection takes shipments of its own contract only.`;
  }
  return undefined;
}

/**
 * The open collection of a shop and contract whose window opens first after `now`; of several
 * opening at once, the one made first (the index answers in the order they were made and the sort
 * is stable: their ids are random to the caller).
 */
export function nextCollection(store: ReadView, shopId: string, contractId: string | undefined, now: number): CollectionRecord | undefined {
  return store
    .find('collections', 'shop_id', shopId)
    .filter((collection) => (collection.contract_id ?? undefined) === (contractId ?? undefined) && isOpen(store, collection, now))
    .sort((a, b) => a.collection_time.from - b.collection_time.from)[0];
}

/** Why a collection takes no shipments now, or `undefined` when it is open. */
function closedBecause(store: ReadView, collection: CollectionRecord, now: number): string | undefined {
  if (isOpen(store, collection, now)) return undefined;
  const status = collectionStatus(store, collection);
  if (status === 'collection-concept' || status === 'collection-registered') {
    return `The window of collection '${collection.id}' opened at ${utcText(collection.collection_time.from)}: it takes no more shipments.`;
  }
  return `Collection '${collection.id}' is ${status}: it takes no shipments.`;
}

/** Why this shipment cannot join the collection, or `undefined` when it can. */
function shipmentProblem(store: ReadView, collection: Joinable, shipment: ShipmentRecord): string | undefined {
  const fit = mismatch(store, collection, shipment.shop_id, shipment.contract_id);
  if (fit) return `Shipment '${shipment.id}': ${fit}`;
  if (shipment.status_code === 'shipment-voided') return `Shipment '${shipment.id}' is voided: there is nothing to collect.`;
  if (!JOINABLE.has(shipment.status_code)) return `Shipment '${shipment.id}' is ${shipment.status_code}: the carrier has it already.`;
  const dropped = dropOffOf(store, shipment.service_id, shipment.service_options, `Shipment '${shipment.id}'`);
  if (dropped) return dropped.detail;
  if (shipment.status_code === 'shipment-registered') {
    const carrier = collection.contract_id ? store.get('carriers', store.get('contracts', collection.contract_id)?.carrier_id ?? '') : undefined;
    if (carrier && !carrier.collections?.allows_adding_registered_shipments_to_collection) {
      return `Shipment '${shipment.id}' is registered already, and ${carrier.name} takes only shipments that are not registered yet into a collection (collections.allows_adding_registered_shipments_to_collection is false): add shipments before they are registered.`;
    }
  }
  const holder = bookedHolder(store, shipment.collection_id, collection.id);
  return holder && `Shipment '${shipment.id}' is in collection '${holder.id}', which is registered with the carrier: it stays there.`;
}

/**
 * The collection a shipment in `currentId` may not leave for `targetId` (another collection, or
 * none): one booked with the carrier keeps its shipments, whichever request would move them.
 */
export function bookedHolder(store: ReadView, currentId: string | undefined, targetId: string | undefined): CollectionRecord | undefined {
  const current = currentId && currentId !== targetId ? store.get('collections', currentId) : undefined;
  return current && collectionStatus(store, current) === 'collection-registered' ? current : undefined;
}

/**
 * DELETE of a shipment: one in a collection booked with the carrier stays there, as a PATCH
 * cannot take it out; deleting it would silently shrink what the carrier was told to collect.
 */
export function assertNotInBookedCollection(store: ReadView, shipment: ShipmentRecord): void {
  const holder = bookedHolder(store, shipment.collection_id, undefined);
  if (!holder) return;
  throw DomainError.locked(
    `The shipment is in collection '${holder.id}', which is registered with the carrier: it stays there and cannot be deleted. Cancel the collection first (DELETE /collections/${holder.id}, where its carrier cancels bookings); that releases its shipments.`,
  );
}

/**
 * A shipment with the rest of its multi-colli shipment: the master and every collo not voided
 * (a voided collo is no parcel any more), the one named first. A single parcel is alone.
 */
function familyOf(store: ReadView, shipment: ShipmentRecord): ShipmentRecord[] {
  const masterId = shipment.multi_colli_shipment_id ?? shipment.id;
  const colli = colliOf(store, masterId);
  if (colli.length === 0) return [shipment];
  const master = store.get('shipments', masterId);
  const members = [...(master ? [master] : []), ...colli].filter((member) => member.id !== shipment.id && member.status_code !== 'shipment-voided');
  return [shipment, ...members];
}

/** Where a request names the collection and each shipment: POST /add-shipments-to-collection's members by default. */
export interface MembershipFields {
  collection: Field;
  shipment(index: number): Field;
}

const RPC_FIELDS: MembershipFields = { collection: { input: 'collection_id' }, shipment: (index) => ({ input: `shipment_ids[${index}]` }) };

/** A problem of one entry of the list of shipments a request names. */
export type EntryProblem = { index: number; problem: Problem };

/**
 * Checks the shipments a request names as joining `collection`, in the order named: unknown ones
 * and ones named twice always; with `fit`, also whether each (with its multi-colli shipment) may
 * join it. `fit` is false where the collection's shop or contract is itself at fault: every
 * shipment would be blamed for that. An `undefined` entry (not a shipment) is skipped, its index kept.
 * The shipments that join, by id, when there is no problem.
 */
export function joinProblems(
  store: ReadView,
  principal: Principal,
  collection: Joinable,
  shipmentIds: readonly (string | undefined)[],
  fields: MembershipFields,
  fit = true,
): { problems: EntryProblem[]; joining: Map<string, ShipmentRecord> } {
  const problems: EntryProblem[] = [];
  const seen = new Set<string>();
  // By id, so a request of many multi-colli shipments costs linear time.
  const joining = new Map<string, ShipmentRecord>();
  shipmentIds.forEach((id, index) => {
    if (id === undefined) return;
    const field = fields.shipment(index);
    const shipment = store.get('shipments', id);
    if (!shipment || shipment.organization_id !== principal.organizationId) {
      problems.push({ index, problem: { detail: `No shipment with id '${id}' is available to you.`, field } });
    } else if (seen.has(id)) {
      problems.push({ index, problem: { detail: `Shipment '${id}' is listed more than once.`, field } });
    } else if (fit) {
      // A multi-colli shipment is collected whole: its master and colli travel together.
      const family = familyOf(store, shipment).filter((member) => !joining.has(member.id));
      const problem = family.map((member) => shipmentProblem(store, collection, member)).find((why) => why !== undefined);
      if (problem) problems.push({ index, problem: { detail: problem, field } });
      else for (const member of family) joining.set(member.id, member);
    }
    seen.add(id);
  });
  return { problems, joining };
}

/**
 * POST /add-shipments-to-collection (and the shipments of POST /collections): every shipment
 * joins the collection, or (on any problem, each reported with the field at fault) none does.
 */
export function addShipments(
  tx: Tx,
  principal: Principal,
  request: { collectionId: string; shipmentIds: readonly string[]; now: number },
  fields: MembershipFields = RPC_FIELDS,
): void {
  const { collectionId, shipmentIds, now } = request;
  const collection = tx.get('collections', collectionId);
  if (!collection || collection.organization_id !== principal.organizationId) {
    throw DomainError.unprocessable(`No collection with id '${collectionId}' is available to you.`, fields.collection);
  }
  const closed = closedBecause(tx, collection, now);
  const checked = joinProblems(tx, principal, collection, shipmentIds, fields);
  const problems: Problem[] = [...(closed ? [{ detail: closed, field: fields.collection }] : []), ...checked.problems.map((entry) => entry.problem)];
  if (problems.length > 0) throw new DomainError('unprocessable', problems);
  for (const shipment of checked.joining.values()) {
    if (shipment.collection_id !== collection.id)
      tx.update('shipments', shipment.id, { collection_id: collection.id, updated_at: Math.max(shipment.updated_at, now) });
  }
}
