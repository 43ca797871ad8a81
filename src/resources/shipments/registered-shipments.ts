import { z } from 'zod';
import { embeddedFiles } from '../../domain/shipments/documents.js';
import { createRegisteredShipment } from '../../domain/shipments/register-now.js';
import { resolveDraft } from '../../domain/shipments/resolve.js';
import { principalOf, type Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { idempotencyHeaders, keyedCreate, type KeyedCreate, type Remember } from '../../http/idempotency.js';
import { textResponse } from '../../http/response-text.js';
import { JSONAPI_MEDIA_TYPE, resourceDocument } from '../../jsonapi/document.js';
import { checkIdentity, resourceRequest } from '../../jsonapi/request.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { createAttributes, createRelationships, draftFromCreate, labelAndServiceMeta } from './shipment-requests.js';
import { collectionTimeInput } from '../collection-time.js';
import { shipmentIncludes } from '../include-paths.js';
import { shipmentKind } from './shipment-kinds.js';
import { registeredShipmentDocument } from './shipment-variants.js';

const registeredRequest = resourceRequest({
  id: 'RegisteredShipmentCreateRequest',
  attributes: z.strictObject(createAttributes),
  relationships: createRelationships,
  documentMeta: z
    .object({
      ...labelAndServiceMeta,
      collection: z
        .object({
          name: z.string().max(255).optional().describe('Deprecated.'),
          description: z.string().max(255).nullable().optional(),
          collection_time: collectionTimeInput,
        })
        .optional()
        .describe("Puts the shipment in the shop's collection with exactly this collection_time (plan it first with POST /collections)."),
    })
    .meta({ id: 'RegisteredShipmentRequestMeta' }),
});

type Body = z.output<typeof registeredRequest>;

/** Creates, registers and renders in one transaction, so the stored replay holds the documents too. */
async function respond(ctx: Ctx, body: Body, include: readonly string[], remember?: Remember): Promise<Response> {
  // PDF, PNG and barcode libraries load with the first document, not at start-up. Loaded before
  // anything is looked up: what the request names (its shop, collection, contract) is resolved and
  // used in one synchronous step, so nothing can be deleted in between (a shop, while the first
  // registration waited for the libraries, and the shipment made for it anyway).
  const renderers = await ctx.rules.libraries.labels();
  const draft = draftFromCreate(body);
  const time = body.meta?.collection?.collection_time;
  if (time) draft.collectionTime = time;
  const resolved = resolveDraft(ctx, draft);
  const { text, id } = await ctx.store.transact((tx) => {
    const shipment = createRegisteredShipment(tx, ctx, draft, resolved);
    const document = resourceDocument(ctx, shipmentKind, shipment, include, { meta: { files: embeddedFiles(tx, renderers, shipment) } });
    const text = JSON.stringify(document);
    remember?.(tx, 201, text);
    return { text, id: shipment.id };
  });
  return textResponse(text, { status: 201, headers: { 'content-type': JSONAPI_MEDIA_TYPE, location: ctx.url(`/shipments/${id}`) } });
}

/** The refusals of a write that creates and registers shipments in one request (here and POST /multi-colli-shipments). */
export const registeringRefusals = {
  409: { description: 'Wrong type (10007).', schema: errorDocument },
  422: {
    description: 'A business rule was broken (10008) or the carrier refused the shipment (13002); each error points at its cause.',
    schema: errorDocument,
  },
  423: { description: 'A request with the same Idempotency-Key is still being processed.', schema: errorDocument },
} as const;

/** POST /registered-shipments: production's 423 for a repeat in flight; its fingerprint names the endpoint. */
const REGISTERED_CREATE: KeyedCreate = { endpoint: '/registered-shipments', inFlightStatus: 423 };

export const registeredShipmentEndpoints = [
  endpoint({
    method: 'post',
    path: '/registered-shipments',
    operationId: 'createRegisteredShipment',
    summary: 'Create a shipment and register it in the same request',
    description:
      'Creates the shipment and hands it to the sandbox carrier at once, by the rules of a queued registration: the answer (201) has its tracking code (none for a letter, which the carrier does not track), barcode and files, and `meta.files` holds each document base64 (the label in the format `meta.label` asked for, a customs declaration as PDF). ' +
      'It needs a service and an active contract (or `meta.service_code`). Its `register_at` is the time it was registered: a `register_at` still to come is not kept (to register later, send it to POST /shipments). When the carrier refuses (the `sandbox:registration-failed` tag, a contract that is no longer active, an international shipment without the recipient `phone_number`, `customs` without `items`) the answer is 422/13002 pointing at the cause, and nothing is created. ' +
      '`meta.collection` names an existing collection of the shop by its `collection_time`. Idempotency-Key works as on POST /shipments, except that a repeat while the first request still runs is 423, as production documents it.',
    tag: 'Shipments',
    auth: { anyOf: ['shipments.manage'] },
    body: registeredRequest,
    headers: idempotencyHeaders,
    idempotency: REGISTERED_CREATE,
    responses: {
      201: { description: 'The registered shipment, its documents in meta.files.', schema: registeredShipmentDocument },
      ...registeringRefusals,
    },
    include: shipmentIncludes,
    handler: async (ctx, { body, rawBody, search, include, headers }) => {
      // Inside the keyed work, so a wrong type is an outcome of the key too.
      const register = (remember?: Remember) => {
        checkIdentity(body.data, 'shipments');
        return respond(ctx, body, include, remember);
      };
      const key = headers['Idempotency-Key'];
      if (key === undefined) return register();
      return keyedCreate(ctx, REGISTERED_CREATE, principalOf(ctx).clientId, key, rawBody, search, register);
    },
  }),
];
