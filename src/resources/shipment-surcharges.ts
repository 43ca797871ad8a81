import { z } from 'zod';
import type { Ctx, Kind } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import { collectionDocument, resourceDocument } from '../jsonapi/document.js';
import { jsonApi } from '../http/respond.js';
import { linkTo } from '../jsonapi/resource.js';
import { resourceSchemas } from '../jsonapi/schemas.js';
import { shipmentSurchargeAttributes, type ShipmentSurchargeRecord } from '../model/shipment-surcharge.js';
import { shipmentSurchargeIncludes } from './include-paths.js';
import { findOr404 } from './lookup.js';
import { readEndpoints } from './read-endpoints.js';
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
    const row = ctx.services.store.get('shipmentSurcharges', id);
    return row && surchargeVisible(ctx, row) ? row : undefined;
  },
};

export const shipmentSurchargeSchemas = resourceSchemas(shipmentSurchargeKind);

const description =
  "The parts of a shipment's price on top of its base rate: fuel and oversize surcharges, priced service options and liability coverage. The base rate plus the fees is the shipment's price.amount; they are computed again whenever the price is.";

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
      const rows = ctx.services.store.find('shipmentSurcharges', 'shipment_id', shipment.id);
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
    rows: (ctx) => ctx.services.store.find('shipmentSurcharges', 'organization_id', ctx.principal?.organizationId),
    visible: surchargeVisible,
    description: `Surcharges of every shipment of the caller's organization. ${description}`,
  }),
];
