import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { collectionAttributes, type CollectionRecord } from '../../model/collection.js';

/** A client sees only the collections of its own organization; others answer 404 like missing ones. */
export const collectionVisible = (ctx: Ctx, row: CollectionRecord): boolean => row.organization_id === ctx.principal?.organizationId;

/** The status codes a collection can have (the `collection-*` rows of the statuses table). */
export const collectionStatusCodes = [
  'collection-concept',
  'collection-registered',
  'collection-registration-failed',
  'collection-collected',
  'collection-voided',
] as const;

export type CollectionStatusCode = (typeof collectionStatusCodes)[number];

export const collectionKind: Kind<CollectionRecord> = {
  type: 'collections',
  attributesSchema: collectionAttributes,
  attributes: (row) => ({
    name: row.name,
    description: row.description,
    address: row.address,
    collection_time: row.collection_time,
    register: row.register ?? false,
    tracking_code: row.tracking_code,
    created_at: row.created_at,
  }),
  relationships: {
    shop: { targets: ['shops'], data: (row) => linkTo('shops', row.shop_id) },
    contract: { targets: ['contracts'], optional: true, data: (row) => linkTo('contracts', row.contract_id) },
    status: { targets: ['statuses'], data: (row) => linkTo('statuses', row.status_id) },
    shipments: {
      targets: ['shipments'],
      many: true,
      data: (row, ctx) => ctx.store.find('shipments', 'collection_id', row.id).map((shipment) => ({ type: 'shipments', id: shipment.id })),
    },
    // The documents of the manifests made for it, and the latest of those manifests.
    files: {
      targets: ['files'],
      many: true,
      data: (row, ctx) => ctx.store.find('manifestFiles', 'collection_id', row.id).map((file) => ({ type: 'files', id: file.id })),
    },
    manifest: { targets: ['manifests'], optional: true, data: (row) => linkTo('manifests', row.manifest_id) },
  },
  self: (row) => `/collections/${row.id}`,
  load: (ctx, id) => ctx.store.get('collections', id),
};
