import { checkoutPath } from '../../domain/returns/payments.js';
import { registrationsOf } from '../../domain/returns/shipment.js';
import { answeredItem, orderMeta, simpleAttributes as simple } from '../../domain/returns/answered.js';
import type { Ctx, Kind } from '../../http/context.js';
import { linkTo, type RelationshipDef } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { returnAttributes, returnMeta, returnSimpleAttributes, returnSimpleMeta, type ReturnRecord } from '../../model/returns/return.js';

const returnVisible = (ctx: Ctx, row: ReturnRecord): boolean => row.organization_id === ctx.principal?.organizationId;

const relationships: Record<string, RelationshipDef<ReturnRecord, Ctx>> = {
  return_method: {
    targets: ['return-methods'],
    data: (row) => linkTo('return-methods', row.return_method_id),
    // A deleted method stays the return's (included), but GET of it is 404: no link to follow then.
    related: (row, ctx) =>
      ctx.store.get('returnMethods', row.return_method_id)?.deleted_at === undefined ? `/returns/v1/return-methods/${row.return_method_id}` : undefined,
  },
  shop: { targets: ['shops'], data: (row) => linkTo('shops', row.shop_id) },
  // A to-one in production's schema, although a return can carry several tags: the first is shown.
  tags: {
    targets: ['return-tags'],
    optional: true,
    data: (row) => linkTo('return-tags', row.tag_ids[0]),
    related: (row) => `/returns/v1/tags/${row.tag_ids[0]}`,
  },
  status: { targets: ['statuses'], data: (row) => linkTo('statuses', row.status_id) },
  shipment: { targets: ['shipments'], optional: true, data: (row) => linkTo('shipments', row.shipment_id) },
};

/** A return as `GET /returns/v1/returns/{id}` answers it, texts in `locale` (default the consumer's). */
export function returnKind(locale?: string): Kind<ReturnRecord> {
  return {
    type: 'returns',
    attributesSchema: returnAttributes,
    attributes: (row, ctx) => {
      const { store } = ctx;
      const payment = row.payment_id ? store.get('returnPayments', row.payment_id) : undefined;
      const registrations = registrationsOf(store, row);
      return {
        ...simple(row),
        items: row.items.map((entry) => answeredItem(entry, locale && locale !== '*' ? locale : row.locale)),
        shipment_registrations: registrations.length > 0 ? registrations : undefined,
        payment: payment && {
          created_at: payment.created_at,
          paid_at: payment.paid_at,
          amount: payment.amount,
          currency: payment.currency,
          external_payment_id: payment.external_payment_id,
          checkout_url: ctx.url(checkoutPath(row.id, payment.id)),
          failures: payment.failures.length > 0 ? payment.failures : undefined,
        },
      };
    },
    relationships,
    self: (row) => `/returns/v1/returns/${row.id}`,
    meta: (row, ctx) => orderMeta(ctx.store, row),
    load: (ctx, id) => {
      const row = ctx.store.get('returns', id);
      return row && returnVisible(ctx, row) ? row : undefined;
    },
  };
}

/** A return in a list (production's ReturnSimpleResponse): no items, with its shipment's state in meta. */
export const returnListKind: Kind<ReturnRecord> = {
  ...returnKind(),
  attributesSchema: returnSimpleAttributes,
  attributes: simple,
  meta: (row, ctx) => {
    const { store } = ctx;
    const shipment = row.shipment_id ? store.get('shipments', row.shipment_id) : undefined;
    const status = shipment ? store.find('statuses', 'code', shipment.status_code)[0] : undefined;
    const { allows_reissue: _reissue, ...order } = orderMeta(store, row);
    return {
      ...order,
      shipment_tracking_code: shipment?.tracking_code,
      shipment_status_code: status?.code,
      shipment_status_level: status?.level,
      shipment_status_name: status?.name,
    };
  },
};

export const returnSchemas = resourceSchemas(returnKind(), { meta: returnMeta });
export const returnListSchemas = resourceSchemas(returnListKind, { meta: returnSimpleMeta, name: 'ReturnSimple' });
