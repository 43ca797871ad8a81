import { z } from 'zod';
import { consolidateShipments, MAX_CONSOLIDATED } from '../../domain/shipments/consolidation.js';
import { endpoint } from '../../http/endpoint.js';
import { errorDocument } from '../../jsonapi/schemas.js';

const consolidateRequest = z
  .object({
    data: z.object({
      consolidation_shipment_id: z.string().describe('The shipment the others are consolidated into.'),
      shipment_ids: z.array(z.string()).min(1, 'name at least one shipment').max(MAX_CONSOLIDATED, `name at most ${MAX_CONSOLIDATED} shipments`),
    }),
  })
  .meta({ id: 'ConsolidateShipmentsRequest' });

export const consolidationEndpoints = [
  endpoint({
    method: 'post',
    path: '/consolidate-shipments',
    operationId: 'consolidateShipments',
    summary: 'Consolidate shipments into a consolidation shipment',
    description:
      "Sets the `consolidation_shipment` relationship of each shipment to the consolidation shipment, which becomes `is_consolidation`. Every shipment must be the caller's and not registered yet (the consolidation shipment neither), of the consolidation shipment's shop and contract (and of its service when that service has `strict_consolidation`); a shipment others are consolidated into is not consolidated itself. " +
      'Every broken rule is a 422 pointing at its id, and then nothing changes.',
    tag: 'Shipments',
    auth: { anyOf: ['shipments.manage'] },
    body: consolidateRequest,
    produces: ['application/json', 'application/vnd.api+json'],
    responses: {
      204: { description: 'Consolidated.' },
      422: { description: 'A shipment that does not fit (10008); each error points at its id.', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      await ctx.store.transact((tx) => consolidateShipments(tx, ctx, body.data.consolidation_shipment_id, body.data.shipment_ids));
      return new Response(null, { status: 204 });
    },
  }),
];
