import { z } from 'zod';
import { organizationOf, ownOr404 } from '../../domain/returns/access.js';
import { createReturn } from '../../domain/returns/create.js';
import { endpoint } from '../../http/endpoint.js';
import { booleanParam, csvIds, csvOf, dateFromParam, dateToParam, listHas, orderedRanges } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { checkIdentity, relatedId } from '../../jsonapi/request.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { returnStatusCodes, type ReturnRecord } from '../../model/returns/return.js';
import { shopLocales } from '../../model/shop.js';
import { returnIncludes, returnListIncludes } from '../include-paths.js';
import { acceptLanguage, languageHeader, returnsScope } from './common.js';
import { createReturnRequest } from './return-requests.js';
import { returnKind, returnListKind, returnListSchemas, returnSchemas } from './return-kinds.js';

const squash = (text: string | undefined) => (text ?? '').replace(/\s+/g, '').toUpperCase();

const query = z
  .object({
    'filter[email]': z.string().max(255).optional().describe("The consumer's e-mail address (any case)."),
    'filter[postal_code]': z.string().max(20).optional().describe("The consumer's postal code (any spacing)."),
    'filter[search]': z.string().max(255).optional().describe("Text in the order reference, the consumer's name or e-mail address, or an item's name or SKU."),
    // Checked against the codes a return can have: a misspelt one would match nothing and say nothing.
    'filter[status]': csvOf(returnStatusCodes).optional().describe('Comma separated return status codes (`return-pending`, `return-approved`, ...).'),
    'filter[shop]': csvIds.optional().describe('Comma separated shop ids.'),
    'filter[created_at][date_from]': dateFromParam.optional(),
    'filter[created_at][date_to]': dateToParam.optional(),
    'filter[tags]': csvIds.optional().describe('Comma separated return tag ids: returns with any of them.'),
    'filter[has_preferred_outcome_refund]': booleanParam.optional(),
    'filter[has_preferred_outcome_exchange]': booleanParam.optional(),
  })
  .superRefine(orderedRanges(['filter[created_at][date_from]', 'filter[created_at][date_to]']));

function matches(row: ReturnRecord, q: z.output<typeof query>, from?: number, to?: number): boolean {
  const search = q['filter[search]']?.toLowerCase();
  const consumer = row.consumer_address;
  // The whole name too, so a search for 'Sam Jansen' finds Sam Jansen's returns.
  const haystack = [
    row.order_reference,
    `${consumer.first_name} ${consumer.last_name}`,
    consumer.email,
    ...row.items.flatMap((i) => [i.name ?? '', i.sku ?? '']),
  ]
    .join('\n')
    .toLowerCase();
  return (
    (!q['filter[email]'] || consumer.email.toLowerCase() === q['filter[email]'].trim().toLowerCase()) &&
    (!q['filter[postal_code]'] || squash(consumer.postal_code) === squash(q['filter[postal_code]'])) &&
    (!search || haystack.includes(search)) &&
    (!q['filter[status]'] || listHas(q['filter[status]'], row.status_code)) &&
    (!q['filter[shop]'] || listHas(q['filter[shop]'], row.shop_id)) &&
    (from === undefined || row.created_at >= from) &&
    (to === undefined || row.created_at <= to) &&
    (!q['filter[tags]'] || row.tag_ids.some((id) => listHas(q['filter[tags]']!, id))) &&
    (q['filter[has_preferred_outcome_refund]'] === undefined ||
      row.items.some((i) => i.preferred_outcome === 'refund') === q['filter[has_preferred_outcome_refund]']) &&
    (q['filter[has_preferred_outcome_exchange]'] === undefined ||
      row.items.some((i) => i.preferred_outcome === 'exchange') === q['filter[has_preferred_outcome_exchange]'])
  );
}

export const returnEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/returns',
    operationId: 'listReturns',
    summary: 'List returns',
    description: "The returns of the caller's shops, newest first, without their items; `meta` shows the return shipment's tracking code and status.",
    tag: 'Returns',
    auth: returnsScope,
    query,
    include: returnListIncludes,
    paginated: true,
    responses: { 200: { description: 'The returns.', schema: returnListSchemas.list } },
    handler: (ctx, { query: q, page, include }) => {
      const from = q['filter[created_at][date_from]'];
      const to = q['filter[created_at][date_to]'];
      // Oldest first by creation, answered newest first. The index keeps the order rows were made
      // in and the sort is stable, so returns of one second stay in that order (their ids are not).
      const rows = ctx.store
        .find('returns', 'organization_id', organizationOf(ctx))
        .filter((row) => matches(row, q, from, to))
        .sort((a, b) => a.created_at - b.created_at);
      return jsonApi(collectionDocument(ctx, returnListKind, rows, page, include, true));
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/returns',
    operationId: 'createReturn',
    summary: 'Request a return',
    description:
      "A consumer returns items of an order of the shop: `order_reference` and `consumer_address.email` must match the order, each item names an order item (`id`) with a quantity no more than ordered minus what earlier returns claim, and the reason the shop offers with its rules (comment, photos as base64 jpg/png, answers to its required questions). The method must be the shop's and offered in the consumer's country. All problems are answered at once, with pointers; nothing is stored then. A new return is `return-pending`; the shop's hooks on `returns` run on it (approve, reject, request a payment, deadline passed).",
    tag: 'Returns',
    auth: returnsScope,
    body: createReturnRequest,
    responses: {
      201: { description: 'The new return.', schema: returnSchemas.document },
      409: { description: 'The body type is not returns (10007).', schema: errorDocument },
      422: { description: 'Every rule the return breaks (10008), each at its pointer.', schema: errorDocument },
    },
    headers: languageHeader,
    include: returnIncludes,
    handler: async (ctx, { body, headers, include }) => {
      checkIdentity(body.data, 'returns');
      const { attributes, relationships } = body.data;
      const asked = acceptLanguage(headers['Accept-Language']);
      const locale = attributes.locale ?? ((shopLocales as readonly string[]).includes(asked ?? '') ? (asked as (typeof shopLocales)[number]) : undefined);
      const input = {
        shopId: relatedId(relationships.shop, 'shop', ['shops'])!,
        methodId: relatedId(relationships.return_method, 'return_method', ['return-methods'])!,
        tagId: relatedId(relationships.tags, 'tags', ['return-tags'], false),
        order_reference: attributes.order_reference,
        consumer_address: attributes.consumer_address,
        items: attributes.items,
        locale,
      };
      // Rendered in the transaction: while the return waits to be durable, another request (a
      // DELETE of its tag) may change what the answer names and includes.
      const { row, document } = await ctx.store.transact((tx) => {
        const row = createReturn(tx, ctx, input);
        return { row, document: resourceDocument(ctx, returnKind(), row, include) };
      });
      return jsonApi(document, 201, { location: ctx.url(`/returns/v1/returns/${row.id}`) });
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/returns/{return_id}',
    operationId: 'getReturn',
    summary: 'Get a return',
    description:
      "With its items, the attempts to register its return shipment (`shipment_registrations`, read from the shipment's statuses) and its payment. Reason texts are in the language of `Accept-Language`, else the consumer's.",
    tag: 'Returns',
    auth: returnsScope,
    params: z.object({ return_id: z.string() }),
    include: returnIncludes,
    responses: { 200: { description: 'The return.', schema: returnSchemas.document } },
    headers: languageHeader,
    handler: (ctx, { params, include, headers }) =>
      jsonApi(resourceDocument(ctx, returnKind(acceptLanguage(headers['Accept-Language'])), ownOr404(ctx, 'returns', 'returns', params.return_id), include)),
  }),
];
