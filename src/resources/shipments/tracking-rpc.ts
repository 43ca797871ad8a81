import { z } from 'zod';
import { trackExternalShipment } from '../../domain/shipments/external.js';
import { resolveDraft } from '../../domain/shipments/resolve.js';
import { CARRIER_STATUS_CATEGORIES } from '../../domain/shipments/status-categories.js';
import { endpoint } from '../../http/endpoint.js';
import { plainJson } from '../../http/respond.js';
import { checkIdentity, resourceRequest, toOneRef } from '../../jsonapi/request.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { carrierStatusCategories } from '../../model/shipment.js';
import { createAttributes, createRelationships, draftFromCreate } from './shipment-requests.js';

const manage = { anyOf: ['shipments.manage'] } as const;
const json = ['application/json', 'application/vnd.api+json'] as const;

const categoriesResponse = z
  .object({ data: z.array(z.object({ code: z.enum(carrierStatusCategories), description: z.string() })) })
  .meta({ id: 'CarrierStatusCategories' });

const trackRequest = resourceRequest({
  id: 'TrackExternalShipmentRequest',
  attributes: z.strictObject({
    ...createAttributes,
    tracking_code: z.string().min(1).max(255).regex(/^\S+$/, 'must not contain spaces').describe('The tracking code the carrier gave the shipment.'),
  }),
  relationships: createRelationships.extend({
    contract: toOneRef.nullable().describe('The contract the shipment was registered on; its carrier is the one tracked.'),
  }),
});

export const trackingRpcEndpoints = [
  endpoint({
    method: 'get',
    path: '/get-carrier-status-categories',
    operationId: 'getCarrierStatusCategories',
    summary: 'The categories of carrier statuses',
    description:
      "Every category a carrier status may have (`carrier_statuses[].category` of shipment-statuses, and `filter[carrier_status][category]` of GET /shipments), with what it means. The sandbox's own carrier statuses are `default`.",
    tag: 'Shipments',
    auth: { anyOf: ['shipments.manage', 'shipments.view'] },
    produces: json,
    responses: { 200: { description: 'The categories.', schema: categoriesResponse, contentTypes: ['application/json'] } },
    handler: () => plainJson({ data: Object.entries(CARRIER_STATUS_CATEGORIES).map(([code, description]) => ({ code, description })) }),
  }),
  endpoint({
    method: 'post',
    path: '/track-external-shipment',
    operationId: 'trackExternalShipment',
    summary: 'Track a shipment registered outside the API',
    description:
      'Stores a shipment the carrier of `contract` registered elsewhere, under its `tracking_code`, as `shipment-registered` (no files, no price). Its carrier statuses then come as for any registered shipment: with the `sandbox:auto-deliver` tag it walks through them on the sandbox clock, and POST /update-shipment-status sets them. Find it with `filter[tracking_code]` of GET /shipments. A tracking code the organization already tracks with that carrier is 422.',
    tag: 'Shipments',
    auth: manage,
    body: trackRequest,
    produces: json,
    responses: {
      204: { description: 'Tracked.' },
      409: { description: 'The body `type` is not `shipments` (10007).', schema: errorDocument },
      422: { description: 'A business rule was broken (10008); each error points at its field.', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      checkIdentity(body.data, 'shipments');
      const draft = draftFromCreate(body);
      const resolved = resolveDraft(ctx, draft);
      await ctx.store.transact((tx) => trackExternalShipment(tx, ctx, draft, resolved, body.data.attributes.tracking_code));
      return new Response(null, { status: 204 });
    },
  }),
];
