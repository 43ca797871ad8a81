import { z } from 'zod';
import { collectionStarted, removeCollection } from '../domain/removals.js';
import type { Ctx } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import { resourceDocument } from '../jsonapi/document.js';
import { jsonApi } from '../http/respond.js';
import { ApiError } from '../jsonapi/errors.js';
import { checkIdentity, resourceRequest } from '../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../jsonapi/schemas.js';
import { collectionAttributes, type CollectionRecord } from '../model/collection.js';
import { collectionKind, collectionVisible } from './collection-kind.js';
import { findOr404 } from './lookup.js';

/*
 * PATCH and DELETE of a collection. What a PATCH may change is what production's collection
 * request leaves writable: `description` and `register` (address, collection_time, tracking_code
 * and created_at are read-only there, and relationships too). Scopes: any valid token, like the
 * collections' other endpoints (production's collections.* scopes do not exist in this API).
 */

const schemas = resourceSchemas(collectionKind);
const params = z.object({ collection_id: z.string() });

// Clients send whole resources back, so read-only attributes are accepted and ignored.
const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');

/** Closed, as on POST: an unknown attribute is a 400. `null` removes the description. */
const updateAttributes = z
  .strictObject({
    name: collectionAttributes.shape.name.unwrap().nullable().optional(),
    description: collectionAttributes.shape.description.unwrap().nullable().optional(),
    register: z.boolean().optional().describe('The sandbox does not register collections with carriers: only `false` is accepted.'),
    address: readOnly,
    collection_time: readOnly,
    tracking_code: readOnly,
    created_at: readOnly,
  })
  .meta({ id: 'CollectionUpdateAttributes' });

const updateRequest = resourceRequest({
  id: 'CollectionUpdateRequest',
  update: true,
  attributes: updateAttributes.optional(),
  relationships: z.record(z.string(), z.unknown()).optional().describe('Read-only: ignored when sent.'),
});

/** 423/10005 once the collection window has begun on the sandbox clock. */
function assertNotStarted(ctx: Ctx, collection: CollectionRecord, action: string): void {
  const now = ctx.services.clock.now();
  if (!collectionStarted(collection, now)) return;
  throw ApiError.of(
    'cannotModify',
    `The collection window began at ${collection.collection_time.from} (it is now ${now}): the carrier may be on its way, so the collection can no longer be ${action}.`,
  );
}

export const collectionWriteEndpoints = [
  endpoint({
    method: 'patch',
    path: '/collections/{collection_id}',
    operationId: 'updateCollection',
    summary: 'Change a collection',
    description:
      'Changes `description` (`null` removes it). As in production, address, collection_time, tracking_code, created_at and relationships are read-only and ignored when sent; ' +
      '`register: true` is refused, since the sandbox does not register collections. Once the collection window has begun (`collection_time.from` on the sandbox clock) the collection answers 423.',
    tag: 'Collections',
    auth: 'token',
    params,
    body: updateRequest,
    responses: {
      200: { description: 'The whole collection.', schema: schemas.document },
      409: { description: 'The body `type` is not `collections` or its `id` is not the one in the URL (10007).', schema: errorDocument },
      422: { description: '`register: true` (10008).', schema: errorDocument },
      423: { description: 'The collection window has begun (10005).', schema: errorDocument },
    },
    handler: async (ctx, { params: path, body }) => {
      const current = findOr404(ctx, 'collections', 'collections', path.collection_id, (row) => collectionVisible(ctx, row));
      checkIdentity(body.data, 'collections', current.id);
      assertNotStarted(ctx, current, 'changed');
      const attributes = body.data.attributes ?? {};
      if (attributes.register === true) {
        throw ApiError.unprocessable('The sandbox does not register collections with carriers; leave `register` out or send false.', '/data/attributes/register');
      }
      // `null` removes; a member left out stays as it was.
      const changes: Partial<CollectionRecord> = {};
      if ('name' in attributes) changes.name = attributes.name ?? undefined;
      if ('description' in attributes) changes.description = attributes.description ?? undefined;
      const row = await ctx.services.store.transact((tx) => tx.update('collections', current.id, changes));
      return jsonApi(resourceDocument(ctx, collectionKind, row));
    },
  }),
  endpoint({
    method: 'delete',
    path: '/collections/{collection_id}',
    operationId: 'deleteCollection',
    summary: 'Cancel a collection',
    description:
      'The shipments in it stay, without their `collection` relationship. Once the collection window has begun (`collection_time.from` on the sandbox clock) the collection answers 423.',
    tag: 'Collections',
    auth: 'token',
    params,
    responses: {
      204: { description: 'Deleted; its shipments no longer point at it.' },
      423: { description: 'The collection window has begun (10005).', schema: errorDocument },
    },
    handler: async (ctx, { params: path }) => {
      const current = findOr404(ctx, 'collections', 'collections', path.collection_id, (row) => collectionVisible(ctx, row));
      assertNotStarted(ctx, current, 'deleted');
      await ctx.services.store.transact((tx) => removeCollection(tx, current.id, ctx.services.clock.now()));
      return new Response(null, { status: 204 });
    },
  }),
];
