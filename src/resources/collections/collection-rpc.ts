import { z } from 'zod';
import { createCollectionManifest } from '../../domain/collections/manifests.js';
import { addShipments } from '../../domain/collections/membership.js';
import { principalOf } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { plainJson } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { collectionVisible } from './collection-kind.js';
import { manifestIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { manifestKind } from './manifest-kinds.js';
import { manifestDocument, manifestSchemas } from './manifests.js';

/* The collection RPCs and a collection's files, with production's scopes. */

const json = ['application/json', 'application/vnd.api+json'] as const;

const addRequest = z
  .object({
    data: z.object({
      collection_id: z.string(),
      shipment_ids: z.array(z.string()).max(1000).describe("The shipments to add: of the collection's shop and contract, not with the carrier yet."),
    }),
  })
  .meta({ id: 'AddShipmentsToCollectionRequest' });

// Production closes the body but not `data`: a member it does not know there is dropped.
const manifestRequest = z.strictObject({ data: z.object({ collection_id: z.string() }) }).meta({ id: 'CreateManifestForCollectionRequest' });
const manifestAnswer = z.strictObject({ data: manifestSchemas.resource }).meta({ id: 'CreateManifestForCollectionAnswer' });

export const collectionRpcEndpoints = [
  endpoint({
    method: 'post',
    path: '/add-shipments-to-collection',
    operationId: 'addShipmentsToCollection',
    summary: 'Add shipments to a collection',
    description:
      "Every shipment joins the collection, or none does: each must be the caller's, of the collection's shop and contract, not voided and not with the carrier yet, and picked up by the carrier: " +
      'a service with handover_method `collection` (without the option `handover-method:drop-off`), or a `drop-off` one with the option `handover-method:collection`; a ' +
      'registered one only where the carrier allows it (`collections.allows_adding_registered_shipments_to_collection`); one in another, registered collection stays there. ' +
      'The collection must be open (concept or registered, its window not begun). A shipment already in it is left as it is. A multi-colli shipment joins whole: naming its master or any collo brings the master and every collo that is not voided.',
    tag: 'Collections',
    auth: { anyOf: ['collections.manage', 'shipments.manage'] },
    body: addRequest,
    produces: json,
    responses: {
      204: { description: 'The shipments are in the collection.' },
      422: {
        description: 'An unknown or closed collection, and every shipment that cannot join, each with its pointer (`/data/shipment_ids/{index}`) (10008).',
        schema: errorDocument,
      },
    },
    handler: async (ctx, { body }) => {
      await ctx.store.transact((tx) =>
        addShipments(tx, principalOf(ctx), { collectionId: body.data.collection_id, shipmentIds: body.data.shipment_ids, now: ctx.clock.now() }),
      );
      return new Response(null, { status: 204 });
    },
  }),
  endpoint({
    method: 'post',
    path: '/create-manifest-for-collection',
    operationId: 'createManifestForCollection',
    summary: "Make a collection's manifest",
    description:
      "A manifest of the collection's registered shipments, for the driver: its PDF lists each with tracking code, barcode, recipient, destination, weight and the total. " +
      "Shipments not registered yet (or voided) are left off and named in the manifest's `meta.errors`; with none registered, or none at all, it is a 422. " +
      "The collection's `manifest` becomes this one. Statuses do not change: the collection moves them when the carrier comes. Plain JSON, as in production.",
    tag: 'Collections',
    auth: { anyOf: ['collections.manage', 'collections.view'] },
    body: manifestRequest,
    produces: ['application/json'],
    responses: {
      200: { description: 'The manifest.', schema: manifestAnswer, contentTypes: ['application/json'] },
      422: { description: 'An unknown, voided or empty collection, or one without registered shipments (10008).', schema: errorDocument },
    },
    include: manifestIncludes,
    handler: async (ctx, { body, include }) => {
      // Rendered in the transaction, as POST /manifests renders its answer.
      const document = await ctx.store.transact((tx) =>
        resourceDocument(ctx, manifestKind, createCollectionManifest(tx, ctx.rules, principalOf(ctx), body.data.collection_id, ctx.clock.now()), include),
      );
      return plainJson(document);
    },
  }),
  endpoint({
    method: 'get',
    path: '/collections/{collection_id}/files/{file_id}',
    operationId: 'getCollectionFile',
    summary: "Download a collection's manifest",
    description: 'The PDF of a manifest made for the collection (one of its `files`), as GET /manifests/{manifest_id}/files/{file_id} answers it.',
    tag: 'Collections',
    auth: { anyOf: ['collections.manage', 'collections.view'] },
    params: z.object({ collection_id: z.string(), file_id: z.string() }),
    produces: ['application/pdf'],
    responses: { 200: { description: 'The manifest PDF.', contentTypes: ['application/pdf'] } },
    handler: (ctx, { params }) => {
      const collection = findOr404(ctx, 'collections', 'collections', params.collection_id, (row) => collectionVisible(ctx, row));
      const file = findOr404(ctx, 'manifestFiles', 'files', params.file_id, (row) => row.collection_id === collection.id);
      return manifestDocument(ctx, file, 'application/pdf');
    },
  }),
];
