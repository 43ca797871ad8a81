import { returnsOf } from '../../domain/returns/orders.js';
import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { demoOrderAttributes, orderAttributes, orderMeta, type DemoOrderRecord } from '../../model/returns/order.js';

const mine = (ctx: Ctx, row: DemoOrderRecord | undefined) => (row && row.organization_id === ctx.principal?.organizationId ? row : undefined);

export const demoOrderKind: Kind<DemoOrderRecord> = {
  type: 'demo-orders',
  attributesSchema: demoOrderAttributes,
  attributes: (row) => ({
    created_at: row.created_at,
    recipient_address: row.recipient_address,
    items: row.items,
    outbound_shipment_identifier: row.outbound_shipment_identifier,
    is_third_party: row.is_third_party ?? false,
  }),
  relationships: { shop: { targets: ['shops'], data: (row) => linkTo('shops', row.shop_id) } },
  self: (row) => `/returns/v1/demo-orders/${row.id}`,
  load: (ctx, id) => mine(ctx, ctx.store.get('demoOrders', id)),
};

/** A demo order as the order look-up of a return portal answers it: id = the order reference. */
export const orderKind: Kind<DemoOrderRecord> = {
  type: 'orders',
  attributesSchema: orderAttributes,
  attributes: (row) => ({ created_at: row.created_at, recipient_address: row.recipient_address, items: row.items }),
  relationships: { shop: { targets: ['shops'], data: (row) => linkTo('shops', row.shop_id) } },
  // The look-up needs the shop and a proof the consumer knows the order: the link carries the
  // order's own e-mail address, which the document it links from shows already, so following it
  // answers the same order (without it, it answered 400 naming `email`).
  self: (row) => `/orders/v1/orders/${row.id}?shop_id=${row.shop_id}&email=${encodeURIComponent(row.recipient_address.email)}`,
  // The sandbox sells parcels only, shipped without a return label in the box.
  meta: (row, ctx) => {
    return {
      shipping_and_return: false,
      label_in_the_box: false,
      package_type: 'parcel',
      return_exists: returnsOf(ctx.store, row).length > 0,
      reissue_allowed: row.reissue_allowed === true,
    };
  },
  load: (ctx, id) => mine(ctx, ctx.store.get('demoOrders', id)),
};

export const demoOrderSchemas = resourceSchemas(demoOrderKind);
export const orderSchemas = resourceSchemas(orderKind, { meta: orderMeta });
