import { z } from 'zod';
import { bookingProblems } from '../../domain/collections/booking.js';
import { collectionStatus, markCollected, registerCollection, voidCollection } from '../../domain/collections/lifecycle.js';
import { DomainError, type Field } from '../../domain/errors.js';
import { collectionStarted, removeCollection } from '../../domain/removals.js';
import type { Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, resourceRequest } from '../../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { collectionAttributes, type CollectionRecord } from '../../model/collection.js';
import { collectionKind, collectionVisible } from './collection-kind.js';
import { collectionIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';

/*
 * PATCH and DELETE of a collection. What a PATCH may change is what production's collection
 * request leaves writable: `description` and `register` (address, collection_time, tracking_code
 * and created_at are read-only there), and only while it is a concept: once booked with the
 * carrier it no longer changes. The `status` relationship marks it collected by hand, the one
 * status production lets a user give (its PHP SDK sends it); other relationships are ignored. DELETE removes a concept; a booked
 * collection is voided where its carrier cancels bookings (`voids_registered_collections`).
 * Production's scopes: collections.manage to change one, shipments.manage to delete one.
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
    register: z.boolean().optional().describe('`true` books the collection with the carrier of its contract (collection-registered); `false` changes nothing.'),
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
  relationships: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('`status` naming the collection-collected status marks the collection collected; any other relationship, or status, is ignored.'),
});

/** Whether the body's `status` relationship names collection-collected. */
function asksCollected(ctx: Ctx, relationships: Record<string, unknown> | undefined): boolean {
  const linkage = (relationships?.status as { data?: { type?: unknown; id?: unknown } } | undefined)?.data;
  if (linkage?.type !== 'statuses' || typeof linkage.id !== 'string') return false;
  return ctx.store.get('statuses', linkage.id)?.code === 'collection-collected';
}

type UpdateAttributes = z.output<typeof updateAttributes>;

/**
 * The first attribute of a PATCH that would change the collection; `undefined` when it changes
 * nothing: a retried `register: true` of a booked collection, or the resource sent back as it is.
 */
function firstChange(ctx: Ctx, collection: CollectionRecord, attributes: UpdateAttributes): 'name' | 'description' | 'register' | undefined {
  if ('name' in attributes && (attributes.name ?? undefined) !== collection.name) return 'name';
  if ('description' in attributes && (attributes.description ?? undefined) !== collection.description) return 'description';
  // `register: true` books a plan (or a booking that failed); one booked once (registered, then
  // collected or voided) has it already.
  if (attributes.register === true && (!collection.register || collectionStatus(ctx.store, collection) === 'collection-registration-failed')) return 'register';
  return undefined;
}

/** Where a refusal points: at the attribute of the body that asked for the change, when a body did. */
const at = (attribute: string | undefined) => (attribute === undefined ? {} : { source: { pointer: `/data/attributes/${attribute}` } });

/** 423/10005 once the collection window has begun on the sandbox clock. */
function assertNotStarted(ctx: Ctx, collection: CollectionRecord, action: string, attribute?: string): void {
  const now = ctx.clock.now();
  if (!collectionStarted(collection, now)) return;
  throw ApiError.of(
    'cannotModify',
    `The collection window began at ${collection.collection_time.from} (it is now ${now}): the carrier may be on its way, so the collection can no longer be ${action}.`,
    at(attribute),
  );
}

/** 423/10005 unless the collection is still a plan (a failed booking counts as one). */
function assertConcept(ctx: Ctx, collection: CollectionRecord, action: string, attribute: string): void {
  const status = collectionStatus(ctx.store, collection);
  if (status === 'collection-concept' || status === 'collection-registration-failed') return;
  const why = status === 'collection-registered' ? 'it is booked with the carrier (collection-registered)' : `it is ${status}`;
  throw ApiError.of('cannotModify', `Collection '${collection.id}' can no longer be ${action}: ${why}.`, at(attribute));
}

/** The problems of booking a concept now, all pointing at `register`, the member that asked for it. */
function registrationProblems(ctx: Ctx, collection: CollectionRecord): DomainError | undefined {
  const register: Field = { attribute: 'register' };
  const { store } = ctx;
  const contract = collection.contract_id ? store.get('contracts', collection.contract_id) : undefined;
  if (!contract)
    return DomainError.unprocessable('Registering books the collection with a carrier, and this collection has no contract to say which.', register);
  if (contract.status !== 'active')
    return DomainError.unprocessable(`Contract '${contract.id}' is ${contract.status}; only an active contract can book a collection.`, register);
  const { problems } = bookingProblems(
    store,
    { contract, countryCode: collection.address.country_code, window: collection.collection_time, now: ctx.clock.now() },
    { contract: register, country: register, window: register },
  );
  return problems.length > 0 ? new DomainError('unprocessable', problems) : undefined;
}

export const collectionWriteEndpoints = [
  endpoint({
    method: 'patch',
    path: '/collections/{collection_id}',
    operationId: 'updateCollection',
    summary: 'Change a collection',
    description:
      'Changes `description` (`null` removes it) and, with `register: true`, books the collection with the carrier of its contract: `collection-registered` with the ' +
      "carrier's reference in `tracking_code`, provided its window still lies in a slot the carrier takes bookings for. As in production, address, collection_time, tracking_code and " +
      'created_at are read-only and ignored when sent. A change to a registered, collected or voided collection, or to one whose window has begun (`collection_time.from` on the sandbox clock), answers 423 ' +
      'pointing at the attribute that would change it; a body that changes nothing (`register: true` retried, or the collection sent back as it is) answers it unchanged. ' +
      'The `status` relationship naming the collection-collected status marks the collection collected by hand, the one status a user may give it, whatever its window: its registered ' +
      'shipments are received by the carrier and the unlabelled ones leave it, as when the carrier collects a booked one (a voided collection answers 423); other relationships are ignored.',
    tag: 'Collections',
    auth: { anyOf: ['collections.manage'] },
    params,
    body: updateRequest,
    responses: {
      200: { description: 'The whole collection.', schema: schemas.document },
      409: { description: 'The body `type` is not `collections` or its `id` is not the one in the URL (10007).', schema: errorDocument },
      422: {
        description: '`register: true` for a collection without an active contract or outside a bookable slot of its carrier (10008).',
        schema: errorDocument,
      },
      423: {
        description: 'The collection is booked, collected or voided, or its window has begun; marked collected, it is voided (10005).',
        schema: errorDocument,
      },
    },
    include: collectionIncludes,
    handler: async (ctx, { params: path, body, include }) => {
      const current = findOr404(ctx, 'collections', 'collections', path.collection_id, (row) => collectionVisible(ctx, row));
      checkIdentity(body.data, 'collections', current.id);
      const attributes = body.data.attributes ?? {};
      const collected = collectionStatus(ctx.store, current) === 'collection-collected';
      // Marked collected again (a client retrying its PATCH), a collected collection stays as it
      // is: 200, as the first answer was. A change sent with it is refused below, as on any collected one.
      if (asksCollected(ctx, body.data.relationships) && collected && Object.keys(attributes).length === 0) {
        return jsonApi(resourceDocument(ctx, collectionKind, current, include));
      }
      if (asksCollected(ctx, body.data.relationships) && !collected) {
        // Collected by hand, whatever its window: the description may change with it, `register` no longer matters.
        const changes: Partial<CollectionRecord> = {};
        if ('name' in attributes) changes.name = attributes.name ?? undefined;
        if ('description' in attributes) changes.description = attributes.description ?? undefined;
        // Rendered in the transaction: while the change waits to be durable, another request (a
        // manifest made, a DELETE) may change the shipments and files the answer names.
        const document = await ctx.store.transact((tx) => {
          const collected = markCollected(tx, ctx.rules, current, ctx.clock.now());
          return resourceDocument(ctx, collectionKind, tx.update('collections', collected.id, changes), include);
        });
        return jsonApi(document);
      }
      // A body that changes nothing answers the collection as it is, whatever its state: a client
      // retrying a PATCH whose answer it lost gets the 200 it missed, not a 423.
      const change = firstChange(ctx, current, attributes);
      if (change === undefined) return jsonApi(resourceDocument(ctx, collectionKind, current, include));
      assertConcept(ctx, current, 'changed', change);
      assertNotStarted(ctx, current, 'changed', change);
      if (attributes.register === true) {
        const problem = registrationProblems(ctx, current);
        if (problem) throw problem;
      }
      // `null` removes; a member left out stays as it was.
      const changes: Partial<CollectionRecord> = {};
      if ('name' in attributes) changes.name = attributes.name ?? undefined;
      if ('description' in attributes) changes.description = attributes.description ?? undefined;
      // Rendered in the transaction, as above.
      const document = await ctx.store.transact((tx) => {
        const changed = tx.update('collections', current.id, changes);
        return resourceDocument(ctx, collectionKind, attributes.register === true ? registerCollection(tx, ctx.rules, changed) : changed, include);
      });
      return jsonApi(document);
    },
  }),
  endpoint({
    method: 'delete',
    path: '/collections/{collection_id}',
    operationId: 'deleteCollection',
    summary: 'Cancel a collection',
    description:
      'A planned collection is removed; the shipments in it stay, without their `collection` relationship. A registered collection is voided (`collection-voided`, its shipments ' +
      'released) where its carrier cancels bookings (`collections.voids_registered_collections`), else 423. A collected or voided collection, or one whose window has begun, answers 423.',
    tag: 'Collections',
    auth: { anyOf: ['shipments.manage'] },
    params,
    responses: {
      204: { description: 'Removed or voided; its shipments no longer point at it.' },
      423: {
        description: 'The collection is collected or voided, booked with a carrier that does not cancel bookings, or its window has begun (10005).',
        schema: errorDocument,
      },
    },
    handler: async (ctx, { params: path }) => {
      const current = findOr404(ctx, 'collections', 'collections', path.collection_id, (row) => collectionVisible(ctx, row));
      const status = collectionStatus(ctx.store, current);
      if (status === 'collection-collected' || status === 'collection-voided') {
        throw ApiError.of('cannotModify', `Collection '${current.id}' is ${status}: there is nothing left to cancel.`);
      }
      assertNotStarted(ctx, current, 'deleted');
      if (status === 'collection-registered') {
        const contract = current.contract_id ? ctx.store.get('contracts', current.contract_id) : undefined;
        const carrier = contract && ctx.store.get('carriers', contract.carrier_id);
        if (!carrier?.collections?.voids_registered_collections) {
          throw ApiError.of(
            'cannotModify',
            `${carrier?.name ?? 'The carrier'} does not cancel booked collections (collections.voids_registered_collections is false): collection '${current.id}' stays registered.`,
          );
        }
        await ctx.store.transact((tx) => voidCollection(tx, ctx.rules, current, ctx.clock.now()));
      } else {
        await ctx.store.transact((tx) => removeCollection(tx, current.id, ctx.clock.now()));
      }
      return new Response(null, { status: 204 });
    },
  }),
];
