import { z } from 'zod';
import { organizationOf, ownOr404 } from '../../domain/returns/access.js';
import { allowReissue, createDemoOrder, lookUpOrder, shopOrderOr404 } from '../../domain/returns/orders.js';
import { endpoint } from '../../http/endpoint.js';
import { csvIds } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef } from '../../jsonapi/request.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { emailAddress, uuid } from '../../model/common.js';
import { orderItemInput } from '../../model/returns/common.js';
import { orderRecipient } from '../../model/returns/order.js';
import { demoOrderIncludes } from '../include-paths.js';
import { readOnly, returnsScope } from './common.js';
import { demoOrderKind, demoOrderSchemas, orderKind, orderSchemas } from './order-kinds.js';

const createRequest = resourceRequest({
  id: 'DemoOrderCreateRequest',
  attributes: z.strictObject({
    recipient_address: orderRecipient,
    // An item's `id` is answered (`{order}-{n}`) and may be sent back; the order numbers its items anew.
    items: z
      .array(orderItemInput.extend({ id: readOnly }))
      .min(1)
      .max(100),
    outbound_shipment_identifier: z.string().max(255).nullable().optional(),
    is_third_party: z.boolean().optional(),
    created_at: readOnly,
  }),
  relationships: z.object({ shop: toOneRef }),
});

const reissueRequest = z
  .strictObject({ data: z.strictObject({ shop_id: uuid, order_reference: z.string().min(1).max(255) }) })
  .meta({ id: 'AllowReissueRequest' });

const LOOKUP =
  "The order must be one of the shop's demo orders (its reference is its id) and the consumer must prove it with the order's e-mail address (any case) or postal code (any spacing); a shop, order or proof that does not match is the same 404. `meta.return_exists` says whether it has returns; 409 when everything in it was returned already and no reissue is allowed.";

export const orderEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/demo-orders',
    operationId: 'listDemoOrders',
    summary: 'List demo orders',
    description: "Orders of the caller's shops for trying out returns (each seeded shop has a few).",
    tag: 'Returns',
    auth: returnsScope,
    query: z.object({ 'filter[shop]': csvIds.optional().describe('Comma separated shop ids.') }),
    include: demoOrderIncludes,
    paginated: true,
    responses: { 200: { description: 'The demo orders.', schema: demoOrderSchemas.list } },
    handler: (ctx, { query, page, include }) => {
      const shops = query['filter[shop]'];
      const rows = ctx.store.find('demoOrders', 'organization_id', organizationOf(ctx)).filter((row) => !shops || shops.includes(row.shop_id));
      return jsonApi(collectionDocument(ctx, demoOrderKind, rows, page, include));
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/demo-orders',
    operationId: 'createDemoOrder',
    summary: 'Create a demo order',
    description:
      'An order to return: its id, a whole number, is also its order reference; each item gets an id (`{order id}-{n}`) that returns name. The recipient must have a name and an e-mail address.',
    tag: 'Returns',
    auth: returnsScope,
    body: createRequest,
    responses: {
      201: { description: 'The new demo order.', schema: demoOrderSchemas.document },
      409: { description: 'The body type is not demo-orders (10007).', schema: errorDocument },
      422: { description: "A shop other than the caller's (10008).", schema: errorDocument },
    },
    include: demoOrderIncludes,
    handler: async (ctx, { body, include }) => {
      checkIdentity(body.data, 'demo-orders');
      const { recipient_address, items, outbound_shipment_identifier, is_third_party } = body.data.attributes;
      const shopId = relatedId(body.data.relationships.shop, 'shop', ['shops'])!;
      const input = { shopId, recipient_address, items, outbound_shipment_identifier, is_third_party };
      // Rendered in the transaction: while the order waits to be durable, another request (a
      // DELETE of its shop) may remove what the answer includes.
      const { row, document } = await ctx.store.transact((tx) => {
        const row = createDemoOrder(tx, ctx, input);
        return { row, document: resourceDocument(ctx, demoOrderKind, row, include) };
      });
      return jsonApi(document, 201, { location: ctx.url(demoOrderKind.self(row)) });
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/demo-orders/{demo_order_id}',
    operationId: 'getDemoOrder',
    summary: 'Get a demo order',
    description: '',
    tag: 'Returns',
    auth: returnsScope,
    params: z.object({ demo_order_id: z.string().describe('A whole number.') }),
    include: demoOrderIncludes,
    responses: { 200: { description: 'The demo order.', schema: demoOrderSchemas.document } },
    handler: (ctx, { params, include }) =>
      jsonApi(resourceDocument(ctx, demoOrderKind, ownOr404(ctx, 'demoOrders', 'demo-orders', params.demo_order_id), include)),
  }),
  endpoint({
    method: 'get',
    path: '/orders/v1/orders/{reference}',
    operationId: 'getOrder',
    summary: 'Look up an order',
    description: `${LOOKUP}`,
    tag: 'Orders',
    auth: returnsScope,
    params: z.object({ reference: z.string() }),
    query: z.object({
      shop_id: uuid.describe('The shop the order was placed in.'),
      email: emailAddress().optional().describe("The order's e-mail address."),
      postal_code: z.string().max(20).optional().describe("The order's postal code, when no e-mail address is sent."),
    }),
    responses: {
      200: { description: 'The order.', schema: orderSchemas.document },
      409: { description: 'Everything in the order was returned already (10007).', schema: errorDocument },
    },
    handler: (ctx, { params, query }) =>
      jsonApi(
        resourceDocument(
          ctx,
          orderKind,
          lookUpOrder(ctx, { shopId: query.shop_id, reference: params.reference, email: query.email, postal_code: query.postal_code }),
        ),
      ),
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/shops/{shop_id}/orders/{reference}/{email}',
    operationId: 'getShopOrder',
    summary: 'Look up an order (deprecated form)',
    description: `Production deprecates this form for \`GET /orders/v1/orders/{reference}\`. ${LOOKUP}`,
    tag: 'Returns',
    auth: returnsScope,
    params: z.object({ shop_id: z.string(), reference: z.string(), email: z.string() }),
    responses: {
      200: { description: 'The order.', schema: orderSchemas.document },
      409: { description: 'Everything in the order was returned already (10007).', schema: errorDocument },
    },
    handler: (ctx, { params }) =>
      jsonApi(resourceDocument(ctx, orderKind, lookUpOrder(ctx, { shopId: params.shop_id, reference: params.reference, email: params.email }))),
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/allow-reissue',
    operationId: 'allowReturnReissue',
    summary: 'Let an order be returned again',
    description:
      'For a consumer who needs a new return (a lost label, a second try): the next return of the order may return every item again, and the returns it replaces become `return-reissued`. 422 when the order has no open return, 409 when a reissue is allowed already and not yet used, as production documents.',
    tag: 'Returns',
    auth: returnsScope,
    body: reissueRequest,
    responses: {
      201: { description: 'Allowed; the order answers `meta.reissue_allowed: true` until its next return.' },
      404: { description: 'No order of one of your shops has that reference (10002).', schema: errorDocument },
      409: { description: 'A reissue is allowed already and not yet used (10007).', schema: errorDocument },
      422: { description: 'The order has no open return (10008).', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      const order = shopOrderOr404(ctx, body.data.shop_id, body.data.order_reference);
      await ctx.store.transact((tx) => allowReissue(tx, order));
      return new Response(null, { status: 201 });
    },
  }),
];
