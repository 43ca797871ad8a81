import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { manifestAttributes, type ManifestRecord } from '../../model/manifest.js';

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
