import { z } from 'zod';
import { organizationOf, ownOr404, ownShop } from '../../domain/returns/access.js';
import { createTag, deleteTag, updateTag } from '../../domain/returns/tags.js';
import { endpoint } from '../../http/endpoint.js';
import { csvIds } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef } from '../../jsonapi/request.js';
import { ApiError } from '../../jsonapi/errors.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { returnTagAttributes } from '../../model/returns/config.js';
import { returnTagIncludes } from '../include-paths.js';
import { readOnly, returnsScope, tagWrite } from './common.js';
import { returnTagKind, tagSchemas } from './config-kinds.js';

const TAG = 'Return tags';
const params = z.object({ return_tag_id: z.string() });
const { name, color } = returnTagAttributes.shape;

const createRequest = resourceRequest({
  id: 'ReturnTagCreateRequest',
  attributes: z.strictObject({ name, color, created_at: readOnly }),
  relationships: z.object({ shop: toOneRef }),
});
const updateRequest = resourceRequest({
  id: 'ReturnTagUpdateRequest',
  update: true,
  attributes: z.strictObject({ name: name.optional(), color: color.optional(), created_at: readOnly }).optional(),
  relationships: z.record(z.string(), z.unknown()).optional().describe('Read-only: a tag stays with its shop.'),
});

export const tagEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/tags',
    operationId: 'listReturnTags',
    summary: 'List return tags',
    description:
      "The tags of the caller's shops. A shop in `filter[shop]` that is not one of yours (unknown, or another organization's) is 404, as production documents.",
    tag: TAG,
    auth: returnsScope,
    query: z.object({ 'filter[shop]': csvIds.optional().describe('Comma separated shop ids.') }),
    include: returnTagIncludes,
    paginated: true,
    responses: {
      200: { description: 'The tags.', schema: tagSchemas.list },
      404: { description: 'A shop in `filter[shop]` that is not one of yours (10002).', schema: errorDocument },
    },
    handler: (ctx, { query, page, include }) => {
      const shops = query['filter[shop]'];
      const unknown = shops?.find((id) => !ownShop(ctx.store, organizationOf(ctx), id));
      if (unknown !== undefined)
        throw ApiError.of('resourceNotFound', `No shops resource with id '${unknown}' exists.`, { source: { parameter: 'filter[shop]' } });
      const rows = ctx.store.find('returnTags', 'organization_id', organizationOf(ctx)).filter((row) => !shops || shops.includes(row.shop_id));
      return jsonApi(collectionDocument(ctx, returnTagKind, rows, page, include));
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/tags',
    operationId: 'createReturnTag',
    summary: 'Create a return tag',
    description:
      "A label for sorting a shop's returns (`POST /returns/v1/returns/{return_id}/tag`). A return shipment carries the names of its return's tags as shipment tags, so a tag named like a sandbox trigger (`sandbox:registration-failed`) steers the return label too. Names are unique per shop.",
    tag: TAG,
    auth: tagWrite,
    body: createRequest,
    responses: {
      201: { description: 'The new tag.', schema: tagSchemas.document },
      409: { description: 'The body type is not return-tags (10007).', schema: errorDocument },
      404: { description: "A shop that is not one of yours, unknown or another organization's (10002), as production documents.", schema: errorDocument },
      422: { description: 'A name the shop uses already (10008).', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      checkIdentity(body.data, 'return-tags');
      const shopId = relatedId(body.data.relationships.shop, 'shop', ['shops'])!;
      const row = await ctx.store.transact((tx) => createTag(tx, ctx, { shopId, name: body.data.attributes.name, color: body.data.attributes.color }));
      return jsonApi(resourceDocument(ctx, returnTagKind, row), 201, { location: ctx.url(returnTagKind.self(row)) });
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/tags/{return_tag_id}',
    operationId: 'getReturnTag',
    summary: 'Get a return tag',
    description: '',
    tag: TAG,
    auth: returnsScope,
    params,
    responses: { 200: { description: 'The tag.', schema: tagSchemas.document } },
    handler: (ctx, { params: path }) => jsonApi(resourceDocument(ctx, returnTagKind, ownOr404(ctx, 'returnTags', 'return-tags', path.return_tag_id))),
  }),
  endpoint({
    method: 'patch',
    path: '/returns/v1/tags/{return_tag_id}',
    operationId: 'updateReturnTag',
    summary: 'Change a return tag',
    description: '',
    tag: TAG,
    auth: tagWrite,
    params,
    body: updateRequest,
    responses: {
      200: { description: 'The whole tag.', schema: tagSchemas.document },
      409: { description: 'The body type or id does not match (10007).', schema: errorDocument },
      422: { description: 'A name the shop uses already (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params: path, body }) => {
      const current = ownOr404(ctx, 'returnTags', 'return-tags', path.return_tag_id);
      checkIdentity(body.data, 'return-tags', path.return_tag_id);
      const { created_at: _ignored, ...changes } = body.data.attributes ?? {};
      const updated = await ctx.store.transact((tx) => updateTag(tx, current, changes));
      return jsonApi(resourceDocument(ctx, returnTagKind, updated));
    },
  }),
  endpoint({
    method: 'delete',
    path: '/returns/v1/tags/{return_tag_id}',
    operationId: 'deleteReturnTag',
    summary: 'Delete a return tag',
    description: 'Returns lose the tag.',
    tag: TAG,
    auth: returnsScope,
    params,
    responses: { 204: { description: 'Deleted.' } },
    handler: async (ctx, { params: path }) => {
      const tag = ownOr404(ctx, 'returnTags', 'return-tags', path.return_tag_id);
      await ctx.store.transact((tx) => deleteTag(tx, tag));
      return new Response(null, { status: 204 });
    },
  }),
];
