import { z } from 'zod';
import { shopOr404 } from '../../domain/returns/access.js';
import { addShopReasons, offeredReasons, removeShopReason, shopReasonOr404, updateShopReason } from '../../domain/returns/shop-reasons.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument } from '../../jsonapi/document.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { uuid } from '../../model/common.js';
import { shopReasonQuestion, usage } from '../../model/returns/config.js';
import { DEFAULT_LOCALE } from '../../model/shop.js';
import { acceptLanguage, languageHeader, returnsScope } from './common.js';
import { shopReasonKind, shopReasonSchemas } from './config-kinds.js';

const TAG = 'Return reasons';
const shopParams = z.object({ shop_id: z.string() });
const linkParams = z.object({ shop_id: z.string(), return_reason_id: z.string() });

const addRequest = z.strictObject({ data: z.strictObject({ return_reason_ids: z.array(uuid).max(100) }) }).meta({ id: 'ShopReturnReasonsAddRequest' });

const updateRequest = z
  .strictObject({
    data: z.object({
      attachments: usage.nullable().optional().describe("Photos: `disabled`, `optional` or `required`; `null` goes back to the reason's own rule."),
      comment: usage.nullable().optional().describe("A comment: `disabled`, `optional` or `required`; `null` goes back to the reason's own rule."),
      questions: z.array(shopReasonQuestion).max(20).nullable().optional().describe('The questions asked with this reason, by code; replaces the list.'),
    }),
  })
  .meta({ id: 'ShopReturnReasonUpdateRequest' });

export const shopReasonEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/shops/{shop_id}/reasons',
    operationId: 'listShopReturnReasons',
    summary: 'The reasons a shop offers',
    description:
      "What a return portal shows: the reasons the shop offers, with the shop's rules for comments and photos and the questions it asks, in the language of `Accept-Language` (default the shop's locale).",
    tag: TAG,
    auth: returnsScope,
    params: shopParams,
    paginated: true,
    responses: { 200: { description: 'The reasons, in the order the shop added them.', schema: shopReasonSchemas.list } },
    headers: languageHeader,
    handler: (ctx, { params, page, headers }) => {
      const shop = shopOr404(ctx, params.shop_id);
      const asked = acceptLanguage(headers['Accept-Language']);
      const locale = asked && asked !== '*' ? asked : (shop.locale ?? DEFAULT_LOCALE);
      const rows = offeredReasons(ctx.store, shop.id).map((offered) => ({ ...offered, id: offered.reason.id }));
      return jsonApi(collectionDocument(ctx, shopReasonKind(locale), rows, page));
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/shops/{shop_id}/reasons',
    operationId: 'addShopReturnReasons',
    summary: 'Offer reasons in a shop',
    description: "Adds reasons of the organization's catalogue to the shop; ones it offers already stay as they are.",
    tag: TAG,
    auth: returnsScope,
    params: shopParams,
    body: addRequest,
    bodyOptional: true,
    responses: {
      204: { description: 'Added.' },
      422: { description: "A reason that is not in the organization's catalogue (10008), pointing at its entry.", schema: errorDocument },
    },
    handler: async (ctx, { params, body }) => {
      const shop = shopOr404(ctx, params.shop_id);
      await ctx.store.transact((tx) => addShopReasons(tx, ctx, shop, body?.data.return_reason_ids ?? []));
      return new Response(null, { status: 204 });
    },
  }),
  endpoint({
    method: 'patch',
    path: '/returns/v1/shops/{shop_id}/reasons/{return_reason_id}',
    operationId: 'updateShopReturnReason',
    summary: 'How a shop offers a reason',
    description:
      'Whether consumers may or must add a comment or photos with this reason in this shop, and which questions they answer. Send only what changes.',
    tag: TAG,
    auth: returnsScope,
    params: linkParams,
    body: updateRequest,
    responses: {
      204: { description: 'Changed.' },
      422: { description: 'A question code the organization does not have (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params, body }) => {
      const link = shopReasonOr404(ctx, params.shop_id, params.return_reason_id);
      await ctx.store.transact((tx) => updateShopReason(tx, link, body.data));
      return new Response(null, { status: 204 });
    },
  }),
  endpoint({
    method: 'delete',
    path: '/returns/v1/shops/{shop_id}/reasons/{return_reason_id}',
    operationId: 'removeShopReturnReason',
    summary: 'Stop offering a reason in a shop',
    description: '',
    tag: TAG,
    auth: returnsScope,
    params: linkParams,
    responses: { 204: { description: 'The shop no longer offers the reason.' } },
    handler: async (ctx, { params }) => {
      const link = shopReasonOr404(ctx, params.shop_id, params.return_reason_id);
      await ctx.store.transact((tx) => removeShopReason(tx, link));
      return new Response(null, { status: 204 });
    },
  }),
];
