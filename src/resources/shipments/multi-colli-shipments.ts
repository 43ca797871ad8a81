import { registeringRefusals } from './registered-shipments.js';
import { z } from 'zod';
import { embeddedFiles } from '../../domain/shipments/documents.js';
import { blamingColli, checkMultiColliService, createMultiColliShipment, masterDraft } from '../../domain/shipments/multi-colli.js';
import { resolveDraft } from '../../domain/shipments/resolve.js';
import { principalOf, type Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { idempotencyHeaders, keyedCreate, type KeyedCreate, type Remember } from '../../http/idempotency.js';
import { textResponse } from '../../http/response-text.js';
import { JSONAPI_MEDIA_TYPE, resourceDocument } from '../../jsonapi/document.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, resourceRequest } from '../../jsonapi/request.js';
import { price } from '../../model/common.js';
import {
  createAttributes,
  createRelationships,
  draftFromCreate,
  labelAndServiceMeta,
  requestItem,
  requestPhysicalProperties,
  storedItems,
  storedPhysicalProperties,
} from './shipment-requests.js';
import { shipmentIncludes } from '../include-paths.js';
import { shipmentKind } from './shipment-kinds.js';
import { multiColliShipmentDocument } from './shipment-variants.js';

const MAX_COLLI = 50;

/**
 * What a GET of a shipment includes, and the colli's documents: production's own PHP SDK asks
 * for `colli,colli.files` here and matches each included file to the base64 copy in its collo's
 * meta, and production answers it.
 */
const multiColliIncludes = [...shipmentIncludes, 'colli.files'] as const;

const collo = z
  .object({
    physical_properties: requestPhysicalProperties,
    items: z.array(requestItem).max(500).optional(),
    description: z.string().max(255).optional(),
    customer_reference: z.string().max(255).optional(),
    total_value: price.optional(),
  })
  .meta({ id: 'ColloRequest' });

const meta = z
  .object(
    {
      ...labelAndServiceMeta,
      colli: z
        .array(collo)
        .min(2, 'a multi-colli shipment has at least 2 colli')
        .max(MAX_COLLI, `at most ${MAX_COLLI} colli`)
        .describe('The parcels, each with its weight; what a collo leaves out it takes from the shipment.'),
    },
    { error: (issue) => (issue.input === undefined ? 'is required: meta.colli lists the parcels of the shipment, each with its weight' : undefined) },
  )
  .meta({ id: 'MultiColliShipmentRequestMeta' });

const multiColliRequest = resourceRequest({
  id: 'MultiColliShipmentCreateRequest',
  attributes: z.strictObject({
    ...createAttributes,
    physical_properties: requestPhysicalProperties.optional().describe('Optional: the weight is that of all colli together.'),
  }),
  relationships: createRelationships,
  documentMeta: meta,
  // As production's contract has it: a multi-colli shipment is its colli.
  documentMetaRequired: true,
});

type Body = z.output<typeof multiColliRequest>;

async function respond(ctx: Ctx, body: Body, given: z.output<typeof meta>['colli'], include: readonly string[], remember?: Remember): Promise<Response> {
  // Loaded before anything is looked up, as in POST /registered-shipments: resolved and used in one synchronous step.
  const renderers = await ctx.rules.libraries.labels();
  const colli = given.map((collo) => ({ ...collo, physical_properties: storedPhysicalProperties(collo.physical_properties), items: storedItems(collo.items) }));
  const draft = masterDraft(draftFromCreate(body), colli);
  const resolved = blamingColli(body.data.attributes.physical_properties?.weight !== undefined, () => resolveDraft(ctx, draft));
  checkMultiColliService(ctx.store, draft, resolved);
  const { text, id } = await ctx.store.transact((tx) => {
    const created = createMultiColliShipment(tx, ctx, draft, resolved, colli);
    const document = resourceDocument(ctx, shipmentKind, created.master, include) as { data: { relationships: Record<string, unknown> } };
    // Production's answer names each collo with its tracking and documents.
    document.data.relationships.colli = {
      data: created.colli.map((row) => ({
        type: 'shipments',
        id: row.id,
        meta: {
          collo_number: row.collo_number,
          barcode: row.barcode,
          tracking_code: row.tracking_code,
          tracking_url: row.tracking_url,
          files: embeddedFiles(tx, renderers, row),
        },
      })),
    };
    const text = JSON.stringify(document);
    remember?.(tx, 201, text);
    return { text, id: created.master.id };
  });
  return textResponse(text, { status: 201, headers: { 'content-type': JSONAPI_MEDIA_TYPE, location: ctx.url(`/shipments/${id}`) } });
}

/** POST /multi-colli-shipments: as POST /registered-shipments, under its own endpoint. */
const MULTI_COLLI_CREATE: KeyedCreate = { endpoint: '/multi-colli-shipments', inFlightStatus: 423 };

export const multiColliShipmentEndpoints = [
  endpoint({
    method: 'post',
    path: '/multi-colli-shipments',
    operationId: 'createMultiColliShipment',
    summary: 'Create and register a shipment of several parcels',
    description:
      "Creates a master shipment and one shipment per collo of `meta.colli`, and registers them all at once as POST /registered-shipments does. The master (the shipment answered) is priced for the whole weight; its label lists the colli. Each collo is a shipment of its own (`collo_number`, `multi_colli_shipment` pointing at the master, its own tracking code and label) that follows the life cycle on its own; the answer's `colli` relationship names each with its tracking code and documents (base64). Voiding the master voids its colli. " +
      "The service must be a multi-colli service (`filter[package_type]=multi-colli` of GET /services); other services and carriers without one are 422. A master weight that is not the sum of the colli's is 422. Idempotency-Key as on POST /registered-shipments.",
    tag: 'Shipments',
    auth: { anyOf: ['shipments.manage'] },
    body: multiColliRequest,
    headers: idempotencyHeaders,
    idempotency: MULTI_COLLI_CREATE,
    responses: {
      201: { description: 'The master shipment, its colli with their tracking and documents.', schema: multiColliShipmentDocument },
      ...registeringRefusals,
    },
    include: multiColliIncludes,
    handler: async (ctx, { body, rawBody, search, headers, include }) => {
      // Inside the keyed work, so a wrong type is an outcome of the key too.
      const register = (remember?: Remember) => {
        checkIdentity(body.data, 'shipments');
        // The schema requires meta and its colli; the type of a document's meta is optional all the same.
        const colli = body.meta?.colli;
        if (!colli) throw ApiError.invalid('meta with colli is required: the parcels of the shipment, each with its weight.', '/meta');
        return respond(ctx, body, colli, include, remember);
      };
      const key = headers['Idempotency-Key'];
      if (key === undefined) return register();
      return keyedCreate(ctx, MULTI_COLLI_CREATE, principalOf(ctx).clientId, key, rawBody, search, register);
    },
  }),
];
