import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { manifestAttributes, type ManifestFileRecord, type ManifestRecord } from '../../model/manifest.js';
import type { FileRecord } from '../../model/shipment.js';
import { fileKind } from '../shipments/shipment-kinds.js';

/** A client sees the manifests of its own organization only; others answer 404 like missing ones. */
export const manifestVisible = (ctx: Ctx, row: { organization_id: string }): boolean => row.organization_id === ctx.principal?.organizationId;

export const manifestKind: Kind<ManifestRecord> = {
  type: 'manifests',
  attributesSchema: manifestAttributes,
  attributes: (row) => ({ name: row.name, address: row.address, created_at: row.created_at }),
  relationships: {
    files: {
      targets: ['files'],
      many: true,
      data: (row, ctx) => ctx.store.find('manifestFiles', 'manifest_id', row.id).map((file) => ({ type: 'files', id: file.id })),
    },
    owner: { targets: ['shops', 'organizations', 'brokers'], data: (row) => ({ type: row.owner.type, id: row.owner.id }) },
    shipments: { targets: ['shipments'], many: true, data: (row) => row.shipment_ids.map((id) => ({ type: 'shipments', id })) },
    // Deprecated in production in favour of `owner`: the owner shop, or the shop sent beside an organization owner.
    shop: { targets: ['shops'], optional: true, data: (row) => linkTo('shops', row.shop_id) },
    contract: { targets: ['contracts'], optional: true, data: (row) => linkTo('contracts', row.contract_id) },
  },
  self: (row) => `/manifests/${row.id}`,
  meta: (row) => (row.errors ? { errors: row.errors } : undefined),
  load: (ctx, id) => {
    const row = ctx.store.get('manifests', id);
    return row && manifestVisible(ctx, row) ? row : undefined;
  },
};

/**
 * The `files` resources of the API: a shipment's documents (labels, customs forms) and a
 * manifest's. Shipment files are `fileKind`'s; a manifest's document is downloaded under its
 * manifest, so that is its link.
 */
export const documentFileKind: Kind<FileRecord | ManifestFileRecord> = {
  type: 'files',
  attributesSchema: fileKind.attributesSchema,
  attributes: ({ document_type, formats, created_at }) => ({ document_type, formats, created_at }),
  relationships: {},
  self: (row) => ('manifest_id' in row ? `/manifests/${row.manifest_id}/files/${row.id}` : fileKind.self(row)),
  load: (ctx, id) => {
    const shipmentFile = fileKind.load(ctx, id);
    if (shipmentFile) return shipmentFile;
    const row = ctx.store.get('manifestFiles', id);
    return row && manifestVisible(ctx, row) ? row : undefined;
  },
};
