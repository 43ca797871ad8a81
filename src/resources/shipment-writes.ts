import { z } from 'zod';
import { idempotencyKey, idempotent, requestFingerprint, type Remember } from '../http/idempotency.js';
import type { ShipmentDraft } from '../domain/shipments/draft.js';
import { shipmentFields } from '../domain/shipments/fields.js';
import { scheduleRegistration } from '../domain/shipments/registration.js';
import { resolveDraft, type ResolvedShipment } from '../domain/shipments/resolve.js';
import { addStatus, EDITABLE_STATUSES, statusRowFor } from '../domain/shipments/statuses.js';
import { removeSurcharges, syncSurcharges } from '../domain/shipments/surcharges.js';
import { principalOf, type Ctx } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import { JSONAPI_MEDIA_TYPE, resourceDocument } from '../jsonapi/document.js';
import { jsonApi } from '../http/respond.js';
import { textResponse } from '../http/response-text.js';
import { ApiError } from '../jsonapi/errors.js';
import { errorDocument } from '../jsonapi/schemas.js';
import { checkIdentity } from '../jsonapi/request.js';
import type { ShipmentRecord } from '../model/shipment.js';
import type { Tx } from '../store/store.js';
import { findOr404 } from './lookup.js';
import { createShipmentRequest, draftFromCreate, draftFromUpdate, updateShipmentRequest } from './shipment-requests.js';
import { shipmentKind, shipmentSchemas as schemas, shipmentVisible } from './shipment-kinds.js';

const manage = { anyOf: ['shipments.manage'] } as const;
const idParams = z.object({ shipment_id: z.string() });

/** A modified or deleted shipment must not have left the sandbox's hands yet. */
function assertEditable(shipment: ShipmentRecord, action: string): void {
  if (EDITABLE_STATUSES.has(shipment.status_code)) return;
  throw ApiError.of('cannotModify', `The shipment is ${shipment.status_code} and can no longer be ${action}.`);
}

function createInTx(ctx: Ctx, tx: Tx, draft: ShipmentDraft, resolved: ResolvedShipment): ShipmentRecord {
  const { services } = ctx;
  const now = services.clock.now();
  const id = tx.newId();
  // The row is inserted with its first status already set, not updated to it afterwards: every
  // version of a row is a full copy, and V8 allocates rows straight into the old generation once
  // it has seen that they live long, so a throwaway version is garbage there on every create.
  const first = statusRowFor(tx, { id }, { code: 'shipment-concept', at: now });
  // Assigned onto the fresh fields rather than spread into a new literal: V8 gives each such object its own hidden class (see `freezeRow` in store/store.ts).
  const inserted = tx.insert('shipments', Object.assign(shipmentFields(draft, resolved), {
    id,
    created_at: now,
    updated_at: now,
    shop_id: resolved.shop.id,
    organization_id: resolved.shop.organization_id,
    shipment_status_id: first.row.id,
    status_code: first.status.code,
    client_id: principalOf(ctx).clientId,
  }) as ShipmentRecord);
  tx.insert('shipmentStatuses', first.row);
  syncSurcharges(tx, inserted, resolved.surcharges, now);
  services.events?.statusCreated(tx, inserted, first.row);
  const shipment = services.events?.shipmentCreated(tx, inserted) ?? inserted;
  scheduleRegistration(tx, services.rules, shipment);
  return shipment;
}

async function createShipment(ctx: Ctx, draft: ShipmentDraft, include: readonly string[], remember?: Remember): Promise<Response> {
  const resolved = resolveDraft(ctx, draft);
  const { body, shipment } = await ctx.services.store.transact((tx) => {
    const created = createInTx(ctx, tx, draft, resolved);
    const text = JSON.stringify(resourceDocument(ctx, shipmentKind, created, include));
    remember?.(tx, 201, text);
    return { body: text, shipment: created };
  });
  return textResponse(body, { status: 201, headers: { 'content-type': JSONAPI_MEDIA_TYPE, location: ctx.url(shipmentKind.self(shipment)) } });
}

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
    responses: {
      201: { description: 'The new shipment.', schema: schemas.document },
      409: { description: 'Wrong type (10007), or the same Idempotency-Key is still being processed.', schema: errorDocument },
      422: { description: 'A business rule was broken (10008); each error points at its field.', schema: errorDocument },
    },
    handler: async (ctx, { body, rawBody, search, include }, c) => {
      checkIdentity(body.data, 'shipments');
      const draft = draftFromCreate(body);
      const key = idempotencyKey(c.req.header('idempotency-key'));
      if (key === undefined) return createShipment(ctx, draft, include);
      return idempotent(ctx.services, principalOf(ctx).clientId, key, requestFingerprint(rawBody, search), (remember) => createShipment(ctx, draft, include, remember));
    },
  }),
  endpoint({
    method: 'patch',
    path: '/shipments/{shipment_id}',
    operationId: 'updateShipment',
    summary: 'Change a shipment that is not registered yet',
    description: 'Send only what changes. A concept or a shipment whose registration failed can be changed; it becomes a concept again. Registered shipments answer 423.',
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
    handler: async (ctx, { params, body, include }) => {
      const current = findOr404(ctx, 'shipments', 'shipments', params.shipment_id, (row) => shipmentVisible(ctx, row));
      checkIdentity(body.data, 'shipments', current.id);
      assertEditable(current, 'changed');
      const draft = draftFromUpdate(current, body);
      if (draft.consolidationShipmentId === current.id) {
        throw ApiError.unprocessable('A shipment cannot be consolidated into itself.', '/data/relationships/consolidation_shipment/data/id');
      }
      const resolved = resolveDraft(ctx, draft);
      const { services } = ctx;
      const updated = await services.store.transact((tx) => {
        let row = tx.update('shipments', current.id, Object.assign(shipmentFields(draft, resolved), { updated_at: services.clock.now() }));
        syncSurcharges(tx, row, resolved.surcharges, services.clock.now());
        if (row.status_code !== 'shipment-concept') row = addStatus(tx, services.rules, row, { code: 'shipment-concept', at: services.clock.now() });
        scheduleRegistration(tx, services.rules, row);
        return row;
      });
      return jsonApi(resourceDocument(ctx, shipmentKind, updated, include));
    },
  }),
  endpoint({
    method: 'delete',
    path: '/shipments/{shipment_id}',
    operationId: 'deleteShipment',
    summary: 'Delete a shipment that is not registered yet',
    tag: 'Shipments',
    auth: manage,
    params: idParams,
    responses: {
      204: { description: 'Deleted.' },
      423: { description: 'The shipment is registered and cannot be deleted (10005).', schema: errorDocument },
    },
    handler: async (ctx, { params }) => {
      const shipment = findOr404(ctx, 'shipments', 'shipments', params.shipment_id, (row) => shipmentVisible(ctx, row));
      assertEditable(shipment, 'deleted');
      await ctx.services.store.transact((tx) => {
        for (const status of tx.find('shipmentStatuses', 'shipment_id', shipment.id)) tx.remove('shipmentStatuses', status.id);
        for (const file of tx.find('files', 'shipment_id', shipment.id)) tx.remove('files', file.id);
        removeSurcharges(tx, shipment.id);
        // Shipments consolidated into this one are no longer: they keep no link to a deleted shipment.
        for (const child of [...tx.find('shipments', 'consolidation_shipment_id', shipment.id)]) tx.update('shipments', child.id, { consolidation_shipment_id: undefined });
        for (const job of tx.find('jobs', 'subject', shipment.id)) tx.remove('jobs', job.id);
        tx.remove('shipments', shipment.id);
      });
      return new Response(null, { status: 204 });
    },
  }),
];
