import { z } from 'zod';
import { addStatus } from '../../domain/shipments/statuses.js';
import { voidShipment } from '../../domain/shipments/void.js';
import type { Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { ApiError } from '../../jsonapi/errors.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { carrierStatusCategories, type CarrierStatus, type ShipmentRecord } from '../../model/shipment.js';
import type { Tx } from '../../store/store.js';
import { shipmentVisible } from './shipment-kinds.js';
import { WALK_SHIPMENT } from '../../domain/shipments/walk.js';

const manage = { anyOf: ['shipments.manage'] } as const;
const json = ['application/json', 'application/vnd.api+json'] as const;

const voidRequest = z.object({ data: z.object({ shipment_id: z.string() }) }).meta({ id: 'VoidShipmentRequest' });
const carrierStatus = z
  .object({
    code: z.string().min(1).max(255),
    description: z.string().max(255),
    assigned_at: z.number().int().nonnegative(),
    category: z.enum(carrierStatusCategories).optional().describe('Default: default.'),
    tracking_code: z.string().max(255).optional(),
  })
  .meta({ id: 'CarrierStatus' });
const statusRequest = z
  .object({
    data: z.object({
      shipment_id: z.string(),
      status_id: z
        .string()
        .optional()
        .describe(
          "The status to give the shipment (sandbox). Without it, production's resync with the carrier: the sandbox carrier has nothing new, so the shipment keeps its status (its synced_at becomes now).",
        ),
      carrier_statuses: z
        .array(carrierStatus)
        .max(20)
        .optional()
        .describe(
          'The carrier statuses behind the status, as the carrier reported them; default (also for an empty list, which production takes): one simulated carrier status.',
        ),
    }),
  })
  .meta({ id: 'UpdateShipmentStatusRequest' });

/** Statuses that belong to creating and registering a shipment, not to the carrier's handling. */
const NOT_CARRIER = new Set(['shipment-processing', 'shipment-concept', 'shipment-registered', 'shipment-registration-failed', 'shipment-voided']);

function shipmentOf(ctx: Ctx, id: string): ShipmentRecord {
  const shipment = ctx.store.get('shipments', id);
  if (!shipment || !shipmentVisible(ctx, shipment)) {
    throw ApiError.unprocessable(`No shipment with id '${id}' is available to you.`, '/data/shipment_id');
  }
  return shipment;
}

/** Whether the carrier has the shipment: registered, and not voided. */
const carrierHandled = (shipment: ShipmentRecord): boolean => Boolean(shipment.tracking_code) && shipment.status_code !== 'shipment-voided';

/** Carrier statuses come only for a shipment the carrier has. */
function assertCarrierHandled(shipment: ShipmentRecord): void {
  if (!carrierHandled(shipment)) {
    throw ApiError.unprocessable(`Only registered shipments get carrier statuses; this one is ${shipment.status_code}.`, '/data/shipment_id');
  }
}

/**
 * The carrier statuses one shipment-status holds at most; production states no bound. Joining
 * rewrites the status's whole list (and the data file journals it), so without one a client
 * resyncing in a loop made every later call dearer and the row grow without end.
 */
export const MAX_CARRIER_STATUSES = 100;

/** Carrier statuses of the status the shipment already has join its current shipment-status, as production's do. */
function joinCurrent(tx: Tx, ctx: Ctx, shipment: ShipmentRecord, carrierStatuses: readonly CarrierStatus[]): void {
  const current = tx.get('shipmentStatuses', shipment.shipment_status_id)!;
  const held = current.carrier_statuses.length;
  if (held + carrierStatuses.length > MAX_CARRIER_STATUSES) {
    throw ApiError.unprocessable(
      `The shipment's current status holds ${held} carrier statuses and takes at most ${MAX_CARRIER_STATUSES}; ${carrierStatuses.length} more would pass that. A new status (status_id) starts a list of its own.`,
      '/data/carrier_statuses',
    );
  }
  // As a new shipment-status has them (statusRowFor): the shipment's tracking code unless the carrier names one.
  const added = carrierStatuses.map((carrier) => ({ tracking_code: shipment.tracking_code, ...carrier, category: carrier.category ?? 'default' }));
  const updated = tx.update('shipmentStatuses', current.id, { carrier_statuses: [...current.carrier_statuses, ...added] });
  // Production fires the `update` hooks on shipment-statuses when a carrier status joins the current one.
  ctx.rules.events?.statusUpdated?.(tx, markSynced(tx, ctx, shipment), updated);
}

/** The carrier was asked now (`synced_at`: when the status was last checked with the carrier), whether or not it had news. */
function markSynced(tx: Tx, ctx: Ctx, shipment: ShipmentRecord): ShipmentRecord {
  return tx.update('shipments', shipment.id, { synced_at: ctx.clock.now(), updated_at: Math.max(shipment.updated_at, ctx.clock.now()) });
}

export const shipmentRpcEndpoints = [
  endpoint({
    method: 'post',
    path: '/void-shipment',
    operationId: 'voidShipment',
    summary: 'Void a registered shipment',
    description:
      'Only while the shipment is `shipment-registered` (the carrier has not scanned it): it becomes `shipment-voided` and its label is gone. Voiding the master of a multi-colli shipment voids its colli that are still `shipment-registered` too.',
    tag: 'Shipments',
    auth: manage,
    body: voidRequest,
    produces: json,
    responses: {
      204: { description: 'Voided.' },
      422: { description: 'Unknown shipment id (10008).', schema: errorDocument },
      423: { description: 'The shipment cannot be voided (10005).', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      const shipment = shipmentOf(ctx, body.data.shipment_id);
      if (shipment.status_code !== 'shipment-registered') {
        throw ApiError.of(
          'cannotModify',
          `Only a registered shipment that the carrier has not handled yet can be voided; this one is ${shipment.status_code}.`,
          { source: { pointer: '/data/shipment_id' } },
        );
      }
      await ctx.store.transact((tx) => voidShipment(tx, ctx.rules, shipment));
      return new Response(null, { status: 204 });
    },
  }),
  endpoint({
    method: 'post',
    path: '/update-shipment-status',
    operationId: 'updateShipmentStatus',
    summary: 'Simulate a carrier status (sandbox)',
    description:
      "Gives a registered shipment the carrier status `status_id` (a statuses resource of resource_type shipments), as the carrier would. Adds a shipment-status only when it differs from the current one; hooks on shipment-statuses fire. Optional `carrier_statuses` are the carrier statuses behind it, with their category (what filter[carrier_status][category] of GET /shipments looks at); for the current status they are added to it, and `update` hooks on shipment-statuses fire. Without `status_id` it is production's resync with the carrier: the sandbox carrier has nothing new, so the status stays (given carrier statuses join it, firing `update` hooks), and a registered shipment's `synced_at` becomes now.",
    tag: 'Shipments',
    auth: manage,
    body: statusRequest,
    produces: json,
    responses: {
      204: { description: 'The status was applied; when it was already current, given carrier statuses were added to it.' },
      422: {
        description:
          'Unknown shipment or status, a status that is not a carrier status, a shipment that is not registered, or carrier statuses past the 100 one shipment-status holds (10008).',
        schema: errorDocument,
      },
    },
    handler: async (ctx, { body }) => {
      const shipment = shipmentOf(ctx, body.data.shipment_id);
      // An empty list (production sets no minimum) is none given.
      const carrierStatuses = body.data.carrier_statuses?.length ? body.data.carrier_statuses : undefined;
      if (body.data.status_id === undefined) {
        // Production's resync with the carrier (status_id is the sandbox's addition): the sandbox
        // carrier reports nothing new, so the status stays; carrier statuses given join it. The
        // carrier was checked all the same, so a shipment it has is synced now.
        if (carrierStatuses) {
          assertCarrierHandled(shipment);
          await ctx.store.transact((tx) => joinCurrent(tx, ctx, shipment, carrierStatuses));
        } else if (carrierHandled(shipment)) {
          await ctx.store.transact((tx) => markSynced(tx, ctx, shipment));
        }
        return new Response(null, { status: 204 });
      }
      const status = ctx.store.get('statuses', body.data.status_id);
      if (!status) throw ApiError.unprocessable(`No shipment status with id '${body.data.status_id}' exists; GET /statuses lists them.`, '/data/status_id');
      // GET /statuses answers collection statuses as resource_type shipments too, so name what it is rather than deny it exists.
      if (status.resource_type !== 'shipments') {
        throw ApiError.unprocessable(`'${status.code}' is a status of ${status.resource_type}, not a carrier status of shipments.`, '/data/status_id');
      }
      if (NOT_CARRIER.has(status.code)) {
        throw ApiError.unprocessable(`'${status.code}' is not a carrier status; register, void or edit the shipment instead.`, '/data/status_id');
      }
      assertCarrierHandled(shipment);
      if (status.code !== shipment.status_code) {
        await ctx.store.transact((tx) => {
          ctx.rules.jobs.cancel(tx, WALK_SHIPMENT, shipment.id);
          addStatus(tx, ctx.rules, shipment, {
            code: status.code,
            at: ctx.clock.now(),
            carrier: { code: 'SIM', description: `Simulated: ${status.name}` },
            carrierStatuses,
          });
        });
      } else if (carrierStatuses) {
        await ctx.store.transact((tx) => joinCurrent(tx, ctx, shipment, carrierStatuses));
      }
      return new Response(null, { status: 204 });
    },
  }),
];
