import { z } from 'zod';
import { addStatus } from '../domain/shipments/statuses.js';
import type { Ctx } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import { ApiError } from '../jsonapi/errors.js';
import type { ShipmentRecord } from '../model/shipment.js';
import { shipmentVisible } from './shipment-kinds.js';
import { WALK_SHIPMENT } from '../domain/shipments/walk.js';

const manage = { anyOf: ['shipments.manage'] } as const;
const json = ['application/json', 'application/vnd.api+json'] as const;

const voidRequest = z.object({ data: z.object({ shipment_id: z.string() }) }).meta({ id: 'VoidShipmentRequest' });
const statusRequest = z.object({ data: z.object({ shipment_id: z.string(), status_id: z.string() }) }).meta({ id: 'UpdateShipmentStatusRequest' });

/** Statuses that belong to creating and registering a shipment, not to the carrier's handling. */
const NOT_CARRIER = new Set(['shipment-processing', 'shipment-concept', 'shipment-registered', 'shipment-registration-failed', 'shipment-voided']);

function shipmentOf(ctx: Ctx, id: string): ShipmentRecord {
  const shipment = ctx.services.store.get('shipments', id);
  if (!shipment || !shipmentVisible(ctx, shipment)) {
    throw ApiError.unprocessable(`No shipment with id '${id}' is available to you.`, '/data/shipment_id');
  }
  return shipment;
}

export const shipmentRpcEndpoints = [
  endpoint({
    method: 'post',
    path: '/void-shipment',
    operationId: 'voidShipment',
    summary: 'Void a registered shipment',
    description: 'Only while the shipment is `shipment-registered` (the carrier has not scanned it): it becomes `shipment-voided` and its label is gone.',
    tag: 'Shipments',
    auth: manage,
    body: voidRequest,
    produces: json,
    responses: {
      204: { description: 'Voided.' },
      422: { description: 'Unknown shipment id (10008).' },
      423: { description: 'The shipment cannot be voided (10005).' },
    },
    handler: async (ctx, { body }) => {
      const shipment = shipmentOf(ctx, body.data.shipment_id);
      if (shipment.status_code !== 'shipment-registered') {
        throw ApiError.of('cannotModify', `Only a registered shipment that the carrier has not handled yet can be voided; this one is ${shipment.status_code}.`);
      }
      const { services } = ctx;
      await services.store.transact((tx) => {
        for (const file of tx.find('files', 'shipment_id', shipment.id)) if (file.document_type === 'label') tx.remove('files', file.id);
        services.jobs.cancel(tx, WALK_SHIPMENT, shipment.id);
        addStatus(tx, services, shipment, { code: 'shipment-voided', at: services.clock.now(), carrier: { code: 'VOID', description: 'Shipment voided' } });
      });
      return new Response(null, { status: 204 });
    },
  }),
  endpoint({
    method: 'post',
    path: '/update-shipment-status',
    operationId: 'updateShipmentStatus',
    summary: 'Simulate a carrier status (sandbox)',
    description:
      'Gives a registered shipment the carrier status `status_id` (a statuses resource of resource_type shipments), as the carrier would. Adds a shipment-status only when it differs from the current one; hooks on shipment-statuses fire.',
    tag: 'Shipments',
    auth: manage,
    body: statusRequest,
    produces: json,
    responses: {
      204: { description: 'The status was applied (or was already current).' },
      422: { description: 'Unknown shipment or status, a status that is not a carrier status, or a shipment that is not registered (10008).' },
    },
    handler: async (ctx, { body }) => {
      const shipment = shipmentOf(ctx, body.data.shipment_id);
      const { services } = ctx;
      const status = services.store.get('statuses', body.data.status_id);
      if (!status || status.resource_type !== 'shipments') {
        throw ApiError.unprocessable(`No shipment status with id '${body.data.status_id}' exists; GET /statuses lists them.`, '/data/status_id');
      }
      if (NOT_CARRIER.has(status.code)) {
        throw ApiError.unprocessable(`'${status.code}' is not a carrier status; register, void or edit the shipment instead.`, '/data/status_id');
      }
      if (!shipment.tracking_code || shipment.status_code === 'shipment-voided') {
        throw ApiError.unprocessable(`Only registered shipments get carrier statuses; this one is ${shipment.status_code}.`, '/data/shipment_id');
      }
      if (status.code !== shipment.status_code) {
        await services.store.transact((tx) => {
          services.jobs.cancel(tx, WALK_SHIPMENT, shipment.id);
          addStatus(tx, services, shipment, { code: status.code, at: services.clock.now(), carrier: { code: 'SIM', description: `Simulated: ${status.name}` } });
        });
      }
      return new Response(null, { status: 204 });
    },
  }),
];
