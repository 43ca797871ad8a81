import { z } from 'zod';
import { assertNotInBookedCollection } from '../../domain/collections/membership.js';
import { assertNotReturnShipment } from '../../domain/returns/shipment.js';
import type { ShipmentDraft } from '../../domain/shipments/draft.js';
import { assertEditable, changeShipment, checkChange, createShipment, deleteShipment } from '../../domain/shipments/lifecycle.js';
import { resolveDraft } from '../../domain/shipments/resolve.js';
import { principalOf, type Ctx } from '../../http/context.js';
import { sourceOf } from '../../http/domain-errors.js';
import { endpoint } from '../../http/endpoint.js';
import { idempotencyHeaders, keyedCreate, type KeyedCreate, type Remember } from '../../http/idempotency.js';
import { jsonApi } from '../../http/respond.js';
import { textResponse } from '../../http/response-text.js';
import { JSONAPI_MEDIA_TYPE, resourceDocument } from '../../jsonapi/document.js';
import { checkIdentity } from '../../jsonapi/request.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { shipmentIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { createShipmentRequest, draftFromCreate, draftFromUpdate, updateShipmentRequest } from './shipment-requests.js';
import { shipmentKind, shipmentSchemas as schemas, shipmentVisible } from './shipment-kinds.js';
import { createdShipmentDocument } from './shipment-variants.js';

const manage = { anyOf: ['shipments.manage'] } as const;
const idParams = z.object({ shipment_id: z.string() });

async function respondCreated(ctx: Ctx, draft: ShipmentDraft, include: readonly string[], remember?: Remember): Promise<Response> {
  // As production documents: a service code that resolves to nothing still makes the shipment, without service and contract.
  const resolved = resolveDraft(ctx, draft, { keepUnresolvedServiceCode: true });
  const { body, shipment } = await ctx.store.transact((tx) => {
    const created = createShipment(tx, ctx, draft, resolved);
    // The edge names where each hint points, as it does for errors.
    const warnings = resolved.warnings.map(({ field, ...warning }) => ({ ...warning, source: sourceOf(field) }));
    const text = JSON.stringify(resourceDocument(ctx, shipmentKind, created, include, warnings.length > 0 ? { meta: { warnings } } : {}));
    remember?.(tx, 201, text);
    return { body: text, shipment: created };
  });
  return textResponse(body, { status: 201, headers: { 'content-type': JSONAPI_MEDIA_TYPE, location: ctx.url(shipmentKind.self(shipment)) } });
}

/** POST /shipments: the seed's 409 for a repeat in flight, and a fingerprint without the endpoint, as stored keys were made. */
const SHIPMENT_CREATE: KeyedCreate = { inFlightStatus: 409 };

export const shipmentWriteEndpoints = [
  endpoint({
    method: 'post',
    path: '/shipments',
    operationId: 'createShipment',
    summary: 'Create a shipment',
    description:
      'Creates a concept shipment. With service, contract and register_at set it is registered REGISTRATION_DELAY seconds after register_at. Send an Idempotency-Key header to make retries safe: a repeat within 24 hours replays the first answer with Idempotency-Replay: true; the same key with a request that differs in any way (any member of the body, also ones the API ignores, or the query, such as include) is 422.',
    tag: 'Shipments',
    auth: manage,
    body: createShipmentRequest,
    headers: idempotencyHeaders,
    idempotency: SHIPMENT_CREATE,
    responses: {
      201: {
        description:
          'The new shipment; `meta.warnings` names a hint of the request it was made without (no upcoming collection for `meta.add_to_next_collection`; no service and contract for `meta.service_code`, when none fits: the shipment is made without them, as production documents).',
        schema: createdShipmentDocument,
      },
      409: {
        description: "Wrong type (10007), or the same Idempotency-Key is still being processed (the seed's status; production documents 423).",
        schema: errorDocument,
      },
      422: { description: 'A business rule was broken (10008); each error points at its field.', schema: errorDocument },
    },
    include: shipmentIncludes,
    handler: async (ctx, { body, rawBody, search, include, headers }) => {
      // Inside the keyed work, so a wrong type or relationship is an outcome of the key too.
      const create = (remember?: Remember) => {
        checkIdentity(body.data, 'shipments');
        return respondCreated(ctx, draftFromCreate(body), include, remember);
      };
      const key = headers['Idempotency-Key'];
      if (key === undefined) return create();
      return keyedCreate(ctx, SHIPMENT_CREATE, principalOf(ctx).clientId, key, rawBody, search, create);
    },
  }),
  endpoint({
    method: 'patch',
    path: '/shipments/{shipment_id}',
    operationId: 'updateShipment',
    summary: 'Change a shipment that is not registered yet',
    description:
      'Send only what changes. A concept or a shipment whose registration failed can be changed; it becomes a concept again. Registered shipments answer 423.',
    tag: 'Shipments',
    auth: manage,
    params: idParams,
    body: updateShipmentRequest,
    responses: {
      200: { description: 'The whole updated shipment.', schema: schemas.document },
      409: { description: 'The body type or id does not match (10007).', schema: errorDocument },
      422: { description: 'A business rule was broken (10008).', schema: errorDocument },
      423: { description: 'The shipment is registered and cannot be changed (10005).', schema: errorDocument },
    },
    include: shipmentIncludes,
    handler: async (ctx, { params, body, include }) => {
      const current = findOr404(ctx, 'shipments', 'shipments', params.shipment_id, (row) => shipmentVisible(ctx, row));
      checkIdentity(body.data, 'shipments', current.id);
      assertEditable(current, 'changed');
      const draft = draftFromUpdate(current, body);
      checkChange(ctx.store, current, draft);
      const resolved = resolveDraft(ctx, draft);
      // Rendered in the transaction, as the creates are: while the change waits to be durable,
      // another request (a DELETE, a registration falling due) may change what the answer includes.
      const document = await ctx.store.transact((tx) => resourceDocument(ctx, shipmentKind, changeShipment(tx, ctx.rules, current, draft, resolved), include));
      return jsonApi(document);
    },
  }),
  endpoint({
    method: 'delete',
    path: '/shipments/{shipment_id}',
    operationId: 'deleteShipment',
    summary: 'Delete a concept shipment',
    tag: 'Shipments',
    auth: manage,
    params: idParams,
    responses: {
      204: { description: 'Deleted.' },
      423: {
        description:
          'The shipment is not a concept (registered, or its registration failed), a return was sent with it, or it is in a collection registered with the carrier, and cannot be deleted (10005).',
        schema: errorDocument,
      },
    },
    handler: async (ctx, { params }) => {
      const shipment = findOr404(ctx, 'shipments', 'shipments', params.shipment_id, (row) => shipmentVisible(ctx, row));
      // A return's shipment first: it is never deleted, whatever its status, and the answer says how to retry it instead.
      assertNotReturnShipment(ctx.store, shipment);
      assertEditable(shipment, 'deleted');
      assertNotInBookedCollection(ctx.store, shipment);
      await ctx.store.transact((tx) => deleteShipment(tx, shipment, ctx.clock.now()));
      return new Response(null, { status: 204 });
    },
  }),
];
