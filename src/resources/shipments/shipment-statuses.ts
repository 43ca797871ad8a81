import { z } from 'zod';
import type { Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { csvOf } from '../../http/params.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { documentTypes, type ShipmentRecord } from '../../model/shipment.js';
import { findOr404 } from '../lookup.js';
import { fileKind, fileSchemas, shipmentStatusKind, shipmentStatusSchemas, shipmentVisible } from './shipment-kinds.js';
import { shipmentStatusIncludes } from '../include-paths.js';

// Production's scopes for a shipment's statuses and files.
const manage = { anyOf: ['returns.manage', 'shipments.manage', 'shipments.view'] } as const;

/** The caller's shipment of the path, or 404 like any unknown or foreign id. */
export function visibleShipment(ctx: Ctx, id: string): ShipmentRecord {
  return findOr404(ctx, 'shipments', 'shipments', id, (row) => shipmentVisible(ctx, row));
}

export const shipmentStatusEndpoints = [
  endpoint({
    method: 'get',
    path: '/shipments/{shipment_id}/statuses',
    operationId: 'listShipmentStatuses',
    summary: "A shipment's status history",
    description: 'Oldest first; the last one is the current status (the shipment_status relationship).',
    tag: 'Shipments',
    auth: manage,
    params: z.object({ shipment_id: z.string() }),
    paginated: true,
    include: shipmentStatusIncludes,
    responses: { 200: { description: 'The statuses of the shipment.', schema: shipmentStatusSchemas.list } },
    handler: (ctx, { params, page, include }) => {
      const shipment = visibleShipment(ctx, params.shipment_id);
      const rows = ctx.store.find('shipmentStatuses', 'shipment_id', shipment.id);
      return jsonApi(collectionDocument(ctx, shipmentStatusKind, rows, page, include));
    },
  }),
  endpoint({
    method: 'get',
    path: '/shipments/{shipment_id}/statuses/{shipment_status_id}',
    operationId: 'getShipmentStatus',
    summary: 'One status of a shipment',
    tag: 'Shipments',
    auth: manage,
    params: z.object({ shipment_id: z.string(), shipment_status_id: z.string() }),
    include: shipmentStatusIncludes,
    responses: { 200: { description: 'The shipment status.', schema: shipmentStatusSchemas.document } },
    handler: (ctx, { params, include }) => {
      const shipment = visibleShipment(ctx, params.shipment_id);
      const row = findOr404(ctx, 'shipmentStatuses', 'shipment-statuses', params.shipment_status_id, (s) => s.shipment_id === shipment.id);
      return jsonApi(resourceDocument(ctx, shipmentStatusKind, row, include));
    },
  }),
  endpoint({
    method: 'get',
    path: '/shipments/{shipment_id}/files',
    operationId: 'listShipmentFiles',
    summary: "A shipment's documents",
    description:
      'Labels and customs documents exist once the shipment is registered. Download one with GET /files/{file_id} and an Accept header of one of its formats.',
    tag: 'Shipments',
    auth: manage,
    params: z.object({ shipment_id: z.string() }),
    // Production's document types: one of them a shipment never has is an empty list, a typo a 400 rather than a silent one.
    query: z.object({
      'filter[document_type]': csvOf(documentTypes)
        .optional()
        .describe("Comma separated document types (production's DocumentType); a shipment has label and customs-declaration-form."),
    }),
    paginated: true,
    responses: { 200: { description: 'The files of the shipment.', schema: fileSchemas.list } },
    handler: (ctx, { params, query, page, include }) => {
      const shipment = visibleShipment(ctx, params.shipment_id);
      const types = query['filter[document_type]'];
      const rows = ctx.store.find('files', 'shipment_id', shipment.id).filter((file) => !types || types.includes(file.document_type));
      return jsonApi(collectionDocument(ctx, fileKind, rows, page, include));
    },
  }),
];
