import type { Address } from '../../model/common.js';
import type { ManifestOwner, ManifestRecord } from '../../model/manifest.js';
import type { ShipmentRecord } from '../../model/shipment.js';
import type { Principal } from '../../model/tenancy.js';
import type { Tx } from '../../store/store.js';
import { DomainError, type Field, type Problem } from '../errors.js';
import { assertRoom } from '../quotas.js';
import type { Rules } from '../rules.js';
import { canSeeContract } from '../tenancy.js';
import { colliOf } from '../shipments/colli.js';
import { utcText } from '../../model/collection-calendar.js';
import { collectionStatus, handOver } from './lifecycle.js';

/*
 * Manifests list registered shipments (they need a tracking code to be listed) handed to one
 * carrier together. `meta.update_shipment_statuses` makes the manifest the hand-over itself: its
 * registered shipments become shipment-received-by-carrier at once. A manifest made for a
 * collection changes no status: the collection does that when the carrier comes.
 */

export interface ManifestRequest {
  name: string;
  address: Address;
  shipmentIds: readonly string[];
  owner?: { type: string; id: string };
  /** The deprecated `shop` relationship. */
  shopId?: string;
  contractId?: string;
  updateStatuses: boolean;
}

const listable = (shipment: ShipmentRecord) => shipment.tracking_code !== undefined && shipment.status_code !== 'shipment-voided';

/** Why a shipment cannot be listed, or `undefined` when it can. */
function unlisted(shipment: ShipmentRecord): string | undefined {
  if (shipment.status_code === 'shipment-voided') return `Shipment '${shipment.id}' is voided.`;
  if (!listable(shipment)) return `Shipment '${shipment.id}' is ${shipment.status_code}: only registered shipments (with a tracking code) go on a manifest.`;
  return undefined;
}

/** The owner a manifest gets: the one named, else the shop all its shipments share, else the organization. */
function ownerOf(tx: Tx, principal: Principal, request: ManifestRequest, shipments: ShipmentRecord[], problems: Problem[]): ManifestOwner {
  const own = (shopId: string) => tx.get('shops', shopId)?.organization_id === principal.organizationId;
  const { owner, shopId } = request;
  if (shopId !== undefined && !own(shopId)) problems.push({ detail: `No shop with id '${shopId}' is available to you.`, field: { relationship: 'shop.id' } });
  if (owner?.type === 'shops' || owner?.type === 'organizations') {
    const known = owner.type === 'shops' ? own(owner.id) : owner.id === principal.organizationId;
    if (!known)
      problems.push({
        detail: `No ${owner.type === 'shops' ? 'shop' : 'organization'} with id '${owner.id}' is available to you.`,
        field: { relationship: 'owner.id' },
      });
    else if (owner.type === 'shops' && shopId !== undefined && shopId !== owner.id) {
      problems.push({ detail: 'The shop relationship names another shop than the owner.', field: { relationship: 'shop.id' } });
    }
    return owner as ManifestOwner;
  }
  if (owner) {
    problems.push({
      detail: `A manifest's owner is a shop or your organization, not ${owner.type}.`,
      field: { relationship: 'owner.type' },
    });
  }
  if (shopId !== undefined) return { type: 'shops', id: shopId };
  const shops = new Set(shipments.map((shipment) => shipment.shop_id));
  return shops.size === 1 ? { type: 'shops', id: [...shops][0]! } : { type: 'organizations', id: principal.organizationId };
}

/** A shipment to list, and the index of the entry of `relationships.shipments` it came from. */
interface Listed {
  shipment: ShipmentRecord;
  index: number;
}

/**
 * The shipments of a POST /manifests request, each checked, with every problem and its field. A
 * multi-colli master named brings its colli (those not voided) after it: they are the parcels it
 * stands for, as on a collection's manifest. A collo named alone is listed alone.
 */
function listedShipments(tx: Tx, principal: Principal, request: ManifestRequest, problems: Problem[]): Listed[] {
  if (request.shipmentIds.length === 0) problems.push({ detail: 'A manifest lists at least one shipment.', field: { relationship: 'shipments' } });
  const seen = new Set<string>();
  const listed = new Map<string, Listed>();
  request.shipmentIds.forEach((id, index) => {
    const field: Field = { relationship: `shipments[${index}].id` };
    const shipment = tx.get('shipments', id);
    if (!shipment || shipment.organization_id !== principal.organizationId)
      problems.push({ detail: `No shipment with id '${id}' is available to you.`, field });
    else if (seen.has(id)) problems.push({ detail: `Shipment '${id}' is listed more than once.`, field });
    else {
      const why = unlisted(shipment);
      if (why) problems.push({ detail: why, field });
      else {
        // Named after its master, a collo is on the list already.
        if (!listed.has(id)) listed.set(id, { shipment, index });
        for (const collo of colliOf(tx, id)) if (listable(collo) && !listed.has(collo.id)) listed.set(collo.id, { shipment: collo, index });
      }
    }
    seen.add(id);
  });
  return [...listed.values()];
}

/** POST /manifests: the manifest of the shipments named, or (on any problem) nothing at all. */
export function createManifest(tx: Tx, rules: Rules, principal: Principal, request: ManifestRequest, now: number): ManifestRecord {
  const problems: Problem[] = [];
  const listed = listedShipments(tx, principal, request, problems);
  const shipments = listed.map((entry) => entry.shipment);
  let contractId = request.contractId;
  if (contractId !== undefined) {
    const contract = tx.get('contracts', contractId);
    if (!contract || !canSeeContract(tx, principal, contract)) {
      problems.push({ detail: `No contract with id '${contractId}' is available to you.`, field: { relationship: 'contract.id' } });
    }
  }
  contractId ??= shipments[0]?.contract_id;
  const owner = ownerOf(tx, principal, request, shipments, problems);
  for (const { shipment, index } of listed) {
    const field: Field = { relationship: `shipments[${index}].id` };
    if (shipment.contract_id !== contractId) {
      problems.push({
        detail: `Shipment '${shipment.id}' has another contract than the manifest ('${contractId}'): a manifest is for one carrier contract.`,
        field,
      });
    }
    if (owner.type === 'shops' && shipment.shop_id !== owner.id)
      problems.push({ detail: `Shipment '${shipment.id}' is of another shop than the manifest's.`, field });
  }
  if (problems.length > 0) throw new DomainError('unprocessable', problems);
  const manifest = insertManifest(tx, rules, {
    name: request.name,
    address: request.address,
    owner,
    ...(request.shopId !== undefined ? { shopId: request.shopId } : {}),
    contractId,
    shipments,
    organizationId: principal.organizationId,
    now,
  });
  if (request.updateStatuses) {
    for (const shipment of shipments) {
      const current = tx.get('shipments', shipment.id)!;
      if (current.status_code === 'shipment-registered') {
        handOver(tx, rules, current, now, { code: 'MANIFESTED', description: `Handed over with manifest '${manifest.name}'`, category: 'default' });
      }
    }
  }
  return manifest;
}

/** POST /create-manifest-for-collection: a manifest of the collection's registered shipments; the others are named in its `meta.errors`. */
export function createCollectionManifest(tx: Tx, rules: Rules, principal: Principal, collectionId: string, now: number): ManifestRecord {
  const field: Field = { input: 'collection_id' };
  const collection = tx.get('collections', collectionId);
  if (!collection || collection.organization_id !== principal.organizationId) {
    throw DomainError.unprocessable(`No collection with id '${collectionId}' is available to you.`, field);
  }
  const status = collectionStatus(tx, collection);
  if (status === 'collection-voided' || status === 'collection-registration-failed') {
    throw DomainError.unprocessable(`Collection '${collection.id}' is ${status}: the carrier will not come, so it gets no manifest.`, field);
  }
  // In the order they were made, which is the order the index answers in (the table's, whatever
  // order they joined in): a multi-colli master is made before its colli, and those by number. The
  // sort is stable, so shipments of one second keep that order; their ids, random, do not.
  const all = [...tx.find('shipments', 'collection_id', collection.id)].sort((a, b) => a.created_at - b.created_at);
  if (all.length === 0) {
    throw DomainError.unprocessable(
      `Collection '${collection.id}' has no shipments: add them (POST /add-shipments-to-collection) before making its manifest.`,
      field,
    );
  }
  const shipments = all.filter(listable);
  const errors = all.filter((shipment) => !listable(shipment)).map((shipment) => unlisted(shipment)!);
  if (shipments.length === 0)
    throw new DomainError(
      'unprocessable',
      errors.map((detail) => ({ detail, field })),
    );
  const contract = collection.contract_id ? tx.get('contracts', collection.contract_id) : undefined;
  const carrier = contract ? tx.get('carriers', contract.carrier_id) : undefined;
  const name = `${collection.description ?? `${carrier?.name ?? 'Collection'} pick-up`} ${utcText(collection.collection_time.from)}`.slice(0, 255);
  const manifest = insertManifest(tx, rules, {
    name,
    address: collection.address,
    owner: { type: 'shops', id: collection.shop_id },
    contractId: collection.contract_id,
    shipments,
    organizationId: principal.organizationId,
    now,
    collectionId: collection.id,
    errors,
  });
  tx.update('collections', collection.id, { manifest_id: manifest.id });
  return manifest;
}

interface NewManifest {
  name: string;
  address: Address;
  owner: ManifestOwner;
  /** The deprecated `shop` relationship as sent, kept beside an organization owner. */
  shopId?: string;
  contractId?: string;
  shipments: ShipmentRecord[];
  organizationId: string;
  now: number;
  collectionId?: string;
  errors?: string[];
}

function insertManifest(tx: Tx, rules: Rules, m: NewManifest): ManifestRecord {
  assertRoom(rules, tx, m.organizationId, 'files');
  const manifest = tx.insert('manifests', {
    id: tx.newId(),
    name: m.name,
    address: m.address,
    created_at: m.now,
    organization_id: m.organizationId,
    owner: m.owner,
    ...(m.owner.type === 'shops' ? { shop_id: m.owner.id } : m.shopId !== undefined ? { shop_id: m.shopId } : {}),
    ...(m.contractId ? { contract_id: m.contractId } : {}),
    shipment_ids: m.shipments.map((shipment) => shipment.id),
    ...(m.collectionId ? { collection_id: m.collectionId } : {}),
    ...(m.errors && m.errors.length > 0 ? { errors: m.errors } : {}),
  });
  tx.insert('manifestFiles', {
    id: tx.newId(),
    manifest_id: manifest.id,
    ...(m.collectionId ? { collection_id: m.collectionId } : {}),
    organization_id: m.organizationId,
    document_type: 'manifest',
    formats: [
      { extension: 'pdf', mime_type: 'application/pdf' },
      { extension: 'csv', mime_type: 'text/csv' },
    ],
    created_at: m.now,
  });
  for (const shipment of m.shipments) tx.update('shipments', shipment.id, { manifest_id: manifest.id });
  return manifest;
}
