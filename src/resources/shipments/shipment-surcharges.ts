import { z } from 'zod';
import { createManualSurcharge, deleteManualSurcharge, updateManualSurcharge } from '../../domain/shipments/manual-surcharges.js';
import type { Ctx, Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { linkTo } from '../../jsonapi/resource.js';
import { relatedId, resourceRequest, toOneRef } from '../../jsonapi/request.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { price } from '../../model/common.js';
import { shipmentSurchargeAttributes, type ShipmentSurchargeRecord } from '../../model/shipment-surcharge.js';
import { shipmentSurchargeIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';
import { writeEndpoints } from '../write-endpoints.js';
import { visibleShipment } from './shipment-statuses.js';

// Production's scopes: a shipment's own surcharges are read with the shipments scopes; the
// top-level /shipment-surcharges (every shipment's, and the writes) is the finance department's.
const ofShipment = { anyOf: ['shipments.manage', 'shipments.view'] } as const;
const finance = { anyOf: ['finance.manage'] } as const;

/** Surcharges of the caller's organization's shipments only. */
const surchargeVisible = (ctx: Ctx, row: ShipmentSurchargeRecord): boolean => row.organization_id === ctx.principal?.organizationId;

export const shipmentSurchargeKind: Kind<ShipmentSurchargeRecord> = {
  type: 'shipment-surcharges',
  attributesSchema: shipmentSurchargeAttributes,
  attributes: ({ name, description, fee, created_at, updated_at }) => ({ name, description, fee, created_at, updated_at }),
  relationships: {
    shipment: { targets: ['shipments'], data: (row) => linkTo('shipments', row.shipment_id) },
  },
  self: (row) => `/shipment-surcharges/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('shipmentSurcharges', id);
    return row && surchargeVisible(ctx, row) ? row : undefined;
  },
};

const shipmentSurchargeSchemas = resourceSchemas(shipmentSurchargeKind);

const description =
  "The parts of a shipment's price on top of its base rate: fuel and oversize surcharges, priced service options, liability coverage, your carrier surcharges, and surcharges added by hand. The base rate plus the fees is the shipment's price.amount; the computed ones are computed again whenever the price is, those added by hand stay.";

const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');
/**
 * A fee added by hand, within a 32-bit integer of cents either way. Production's amount is an
 * integer without a stated bound; the sandbox adds fees to the shipment's price in JavaScript
 * numbers, which stay exact only up to 2^53: fees as large as that (+MAX, +250, -250, then -MAX)
 * left a price one cent off. At this bound no number of fees a tenant can add leaves that range.
 */
const MAX_FEE = 2_147_483_647;
const fee = price.extend({ amount: z.number().int().min(-MAX_FEE).max(MAX_FEE).describe('Cents; at most 2147483647 either way (a sandbox bound).') }).meta({
  id: 'ManualSurchargeFee',
});
const writable = { name: z.string().min(1).max(255), description: z.string().max(255).nullable().optional(), fee };

const createRequest = resourceRequest({
  id: 'ShipmentSurchargeCreateRequest',
  attributes: z.strictObject({ ...writable, created_at: readOnly, updated_at: readOnly }),
  relationships: z.object({ shipment: toOneRef }),
});

const updateRequest = resourceRequest({
  id: 'ShipmentSurchargeUpdateRequest',
  update: true,
  attributes: z
    .strictObject({ name: writable.name.optional(), description: writable.description, fee: fee.optional(), created_at: readOnly, updated_at: readOnly })
    .optional(),
  // Optional, as in production's update (its `data` requires only `type` and `id`); sent, it must
  // name the shipment, as production's relationships object requires.
  relationships: z.object({ shipment: toOneRef }).optional(),
});

const manualOnly = 'Only surcharges added by hand are changed or removed by hand; a computed one is 403 (10013): change the shipment instead.';

/** The caller's surcharge at the path, or 404. */
const ownSurcharge = (ctx: Ctx, id: string) => findOr404(ctx, 'shipmentSurcharges', 'shipment-surcharges', id, (row) => surchargeVisible(ctx, row));

export const shipmentSurchargeEndpoints = [
  endpoint({
    method: 'get',
    path: '/shipments/{shipment_id}/surcharges',
    operationId: 'listSurchargesOfShipment',
    summary: "A shipment's surcharges",
    description,
    tag: 'Shipments',
    auth: ofShipment,
    params: z.object({ shipment_id: z.string() }),
    paginated: true,
    include: shipmentSurchargeIncludes,
    responses: { 200: { description: 'The surcharges of the shipment.', schema: shipmentSurchargeSchemas.list } },
    handler: (ctx, { params, page, include }) => {
      const shipment = visibleShipment(ctx, params.shipment_id);
      const rows = ctx.store.find('shipmentSurcharges', 'shipment_id', shipment.id);
      return jsonApi(collectionDocument(ctx, shipmentSurchargeKind, rows, page, include));
    },
  }),
  endpoint({
    method: 'get',
    path: '/shipments/{shipment_id}/surcharges/{shipment_surcharge_id}',
    operationId: 'getSurchargeOfShipment',
    summary: 'One surcharge of a shipment',
    tag: 'Shipments',
    auth: ofShipment,
    params: z.object({ shipment_id: z.string(), shipment_surcharge_id: z.string() }),
    include: shipmentSurchargeIncludes,
    responses: { 200: { description: 'The shipment surcharge.', schema: shipmentSurchargeSchemas.document } },
    handler: (ctx, { params, include }) => {
      const shipment = visibleShipment(ctx, params.shipment_id);
      const row = findOr404(ctx, 'shipmentSurcharges', 'shipment-surcharges', params.shipment_surcharge_id, (s) => s.shipment_id === shipment.id);
      return jsonApi(resourceDocument(ctx, shipmentSurchargeKind, row, include));
    },
  }),
  ...readEndpoints({
    kind: shipmentSurchargeKind,
    table: 'shipmentSurcharges',
    tag: 'Shipment surcharges',
    noun: 'shipment surcharge',
    plural: 'shipment surcharges',
    auth: finance,
    schemas: shipmentSurchargeSchemas,
    include: shipmentSurchargeIncludes,
    rows: (ctx) => ctx.store.find('shipmentSurcharges', 'organization_id', ctx.principal?.organizationId),
    visible: surchargeVisible,
    description: `Surcharges of every shipment of the caller's organization. ${description}`,
  }),
  ...writeEndpoints({
    kind: shipmentSurchargeKind,
    table: 'shipmentSurcharges',
    tag: 'Shipment surcharges',
    noun: 'shipment surcharge',
    auth: finance,
    schemas: shipmentSurchargeSchemas,
    include: shipmentSurchargeIncludes,
    own: ownSurcharge,
    create: {
      summary: 'Add a surcharge to a shipment',
      description:
        "A fee added by hand on top of a shipment's price (a remote area, a correction): the shipment's price.amount grows by it, and it stays when the price is computed again. The shipment needs a price, in the fee's currency (422 otherwise).",
      body: createRequest,
      answer: 'The new shipment surcharge.',
      errors: {
        404: 'No shipment of yours has the id named in the body (10002).',
        409: 'The body `type` is not `shipment-surcharges` (10007).',
        422: 'The shipment has no price, the fee is in another currency than its price, or it would take the price below zero (10008).',
      },
      insert: (tx, ctx, { attributes, relationships }) => {
        const shipmentId = relatedId(relationships.shipment, 'shipment', ['shipments'])!;
        return createManualSurcharge(tx, ctx, { ...attributes, shipmentId });
      },
    },
    update: {
      summary: 'Change a surcharge added by hand',
      description: `Send only what changes (\`description: null\` removes it); the shipment's price follows a new fee. ${manualOnly} The surcharge stays on its shipment (another shipment in the body is 422).`,
      body: updateRequest,
      answer: 'The whole shipment surcharge.',
      errors: {
        403: 'A computed surcharge (10013).',
        409: 'The body `type` or `id` does not match (10007).',
        422: "Another shipment, a fee in another currency than the shipment's price, or one that would take the price below zero (10008).",
      },
      change: (tx, ctx, current, { attributes, relationships }) => {
        const shipment = relationships?.shipment;
        const shipmentId = shipment ? relatedId(shipment, 'shipment', ['shipments']) : undefined;
        return updateManualSurcharge(tx, ctx, current, { ...attributes, shipmentId });
      },
    },
    delete: {
      summary: 'Remove a surcharge added by hand',
      description: `Its fee leaves the shipment's price. ${manualOnly}`,
      answer: 'Removed.',
      errors: {
        403: 'A computed surcharge (10013).',
        422: "A fee that discounts added by hand lean on: without it the shipment's price would fall below zero (10008).",
      },
      remove: (tx, ctx, current) => deleteManualSurcharge(tx, ctx, current),
    },
  }),
];
