import { z } from 'zod';
import { organizationOf, ownOr404, ownShop } from '../../domain/returns/access.js';
import { createTag, deleteTag, updateTag } from '../../domain/returns/tags.js';
import { endpoint } from '../../http/endpoint.js';
import { writeEndpoints } from '../write-endpoints.js';
import { csvIds } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { relatedId, resourceRequest, toOneRef } from '../../jsonapi/request.js';
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
  ...writeEndpoints({
    kind: returnTagKind,
    table: 'returnTags',
    tag: TAG,
    noun: 'return tag',
    path: '/returns/v1/tags',
    auth: tagWrite,
    schemas: tagSchemas,
    own: (ctx, id) => ownOr404(ctx, 'returnTags', 'return-tags', id),
    create: {
      summary: 'Create a return tag',
      description:
        "A label for sorting a shop's returns (`POST /returns/v1/returns/{return_id}/tag`). A return shipment carries the names of its return's tags as shipment tags, so a tag named like a sandbox trigger (`sandbox:registration-failed`) steers the return label too. Names are unique per shop.",
      body: createRequest,
      answer: 'The new tag.',
      errors: {
        404: "A shop that is not one of yours, unknown or another organization's (10002), as production documents.",
        409: 'The body type is not return-tags (10007).',
        422: 'A name the shop uses already (10008).',
      },
      insert: (tx, ctx, { attributes, relationships }) => {
        const shopId = relatedId(relationships.shop, 'shop', ['shops'])!;
        return createTag(tx, ctx, { shopId, name: attributes.name, color: attributes.color });
      },
    },
    update: {
      summary: 'Change a return tag',
      description: '',
      body: updateRequest,
      answer: 'The whole tag.',
      errors: { 409: 'The body type or id does not match (10007).', 422: 'A name the shop uses already (10008).' },
      change: (tx, _ctx, current, { attributes }) => {
        const { created_at: _ignored, ...changes } = attributes ?? {};
        return updateTag(tx, current, changes);
      },
    },
    delete: {
      summary: 'Delete a return tag',
      description: 'Returns lose the tag.',
      auth: returnsScope,
      answer: 'Deleted.',
      remove: (tx, _ctx, tag) => deleteTag(tx, tag),
    },
  }),
];
