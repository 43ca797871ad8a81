import type { ShipmentRecord, ShipmentStatusRecord } from '../../model/shipment.js';
import { writableShipmentAttributes } from '../../model/shipment.js';
import type { ShipmentDraft } from '../shipments/draft.js';

/** A resource as hooks see it: the JSON:API shape without links, which pointers address. */
export type HookDocument = {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: unknown }>;
};

const link = (type: string, id: string | undefined) => ({ data: id ? { type, id } : null });

/**
 * The shipment as a document: its attributes and relationships, as a client would read them. The
 * ids the sandbox keeps beside the attributes (a collo's master, the manifest) are relationships
 * there, so a predicate reads `/relationships/multi_colli_shipment/data/id` as production has it.
 */
export function shipmentDocument(shipment: ShipmentRecord): HookDocument {
  const {
    id: _id,
    shop_id,
    organization_id: _o,
    service_id,
    contract_id,
    service_options,
    liability_coverage_id,
    collection_id,
    consolidation_shipment_id,
    multi_colli_shipment_id,
    manifest_id,
    shipment_status_id,
    status_code: _s,
    label: _l,
    client_id: _c,
    ...attributes
  } = shipment;
  return {
    type: 'shipments',
    id: shipment.id,
    // Production's shipments always answer sync_active false (see the shipment kind).
    attributes: { ...(structuredClone(attributes) as Record<string, unknown>), sync_active: false },
    relationships: {
      shop: link('shops', shop_id),
      service: link('services', service_id),
      contract: link('contracts', contract_id),
      liability_coverage: link('liability-coverages', liability_coverage_id),
      collection: link('collections', collection_id),
      consolidation_shipment: link('shipments', consolidation_shipment_id),
      service_options: { data: service_options.map((o) => ({ type: 'service-options', id: o.id, ...(o.values ? { meta: { values: o.values } } : {}) })) },
      shipment_status: link('shipment-statuses', shipment_status_id),
      multi_colli_shipment: link('shipments', multi_colli_shipment_id),
      manifest: link('manifests', manifest_id),
    },
  };
}

/** A shipment-status as a document, for hooks on new statuses. */
export function statusDocument(status: ShipmentStatusRecord): HookDocument {
  return {
    type: 'shipment-statuses',
    id: status.id,
    attributes: { carrier_statuses: status.carrier_statuses, errors: status.errors, created_at: status.created_at },
    relationships: { shipment: link('shipments', status.shipment_id), status: link('statuses', status.status_id) },
  };
}

const idOf = (document: HookDocument, name: string): string | undefined => {
  const data = document.relationships[name]?.data as { id?: string } | null | undefined;
  return data?.id || undefined;
};

/** The draft a (hook-changed) shipment document describes, for the same checks as a client's update. */
export function draftFromDocument(document: HookDocument, shipment: ShipmentRecord): ShipmentDraft {
  const attributes: Record<string, unknown> = {};
  for (const name of Object.keys(writableShipmentAttributes)) {
    if (document.attributes[name] !== undefined) attributes[name] = document.attributes[name];
  }
  const options = (document.relationships.service_options?.data ?? []) as { id: string; meta?: { values?: Record<string, unknown> } }[];
  return {
    attributes: attributes as unknown as ShipmentDraft['attributes'],
    shopId: shipment.shop_id,
    serviceId: idOf(document, 'service'),
    contractId: idOf(document, 'contract'),
    options: options.map((o) => (o.meta?.values ? { id: o.id, values: o.meta.values } : { id: o.id })),
    coverageId: idOf(document, 'liability_coverage'),
    collectionId: idOf(document, 'collection'),
    currentCollectionId: shipment.collection_id,
    consolidationShipmentId: idOf(document, 'consolidation_shipment'),
    label: shipment.label,
  };
}

/** What a hook changed: the attributes and relationships whose value differs. */
export function diff(before: HookDocument, after: HookDocument): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const part of ['attributes', 'relationships'] as const) {
    for (const key of new Set([...Object.keys(before[part]), ...Object.keys(after[part])])) {
      if (JSON.stringify(before[part][key]) !== JSON.stringify(after[part][key])) (out[part] ??= {})[key] = after[part][key] ?? null;
    }
  }
  return out;
}
