import { z } from 'zod';
import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { colliOf } from '../../domain/shipments/colli.js';
import { trackingPagePath } from './tracking-page.js';
import { shipmentAttributes, type FileRecord, type ShipmentRecord, type ShipmentStatusRecord } from '../../model/shipment.js';

/** Whether the caller may see a shipment: shipments of its organization's shops only. */
export const shipmentVisible = (ctx: Ctx, row: ShipmentRecord): boolean => row.organization_id === ctx.principal?.organizationId;

export const shipmentKind: Kind<ShipmentRecord> = {
  type: 'shipments',
  attributesSchema: shipmentAttributes,
  attributes: (row, ctx) => ({
    recipient_address: row.recipient_address,
    return_address: row.return_address,
    sender_address: row.sender_address,
    pickup_location: row.pickup_location,
    drop_off_location: row.drop_off_location,
    description: row.description,
    customer_reference: row.customer_reference,
    channel: row.channel,
    total_value: row.total_value,
    price: row.price,
    barcode: row.barcode,
    tracking_code: row.tracking_code,
    tracking_url: row.tracking_url,
    // The sandbox serves the tracking page itself, under the public URL of this request; the path is a capability.
    tracking_page_url: row.tracking_code ? ctx.url(trackingPagePath(ctx.rules, row.id)) : undefined,
    physical_properties: row.physical_properties,
    items: row.items,
    customs: row.customs,
    sender_tax_identification_numbers: row.sender_tax_identification_numbers,
    recipient_tax_identification_numbers: row.recipient_tax_identification_numbers,
    sender_tax_number: row.sender_tax_number,
    recipient_tax_number: row.recipient_tax_number,
    is_consolidation: row.is_consolidation,
    register_at: row.register_at,
    tags: row.tags,
    created_at: row.created_at,
    updated_at: row.updated_at,
    synced_at: row.synced_at,
    collo_number: row.collo_number,
    // Production syncs carrier statuses in the background; the sandbox's carrier never needs it.
    sync_active: false,
  }),
  relationships: {
    shop: { targets: ['shops'], data: (row) => linkTo('shops', row.shop_id) },
    service: { targets: ['services'], optional: true, data: (row) => linkTo('services', row.service_id) },
    contract: { targets: ['contracts'], optional: true, data: (row) => linkTo('contracts', row.contract_id) },
    service_options: {
      targets: ['service-options'],
      many: true,
      data: (row) => row.service_options.map((o) => ({ type: 'service-options', id: o.id, ...(o.values ? { meta: { values: o.values } } : {}) })),
    },
    liability_coverage: { targets: ['liability-coverages'], optional: true, data: (row) => linkTo('liability-coverages', row.liability_coverage_id) },
    collection: { targets: ['collections'], optional: true, data: (row) => linkTo('collections', row.collection_id) },
    shipment_status: {
      targets: ['shipment-statuses'],
      data: (row) => linkTo('shipment-statuses', row.shipment_status_id),
      related: (row) => `/shipments/${row.id}/statuses/${row.shipment_status_id}`,
    },
    files: {
      targets: ['files'],
      many: true,
      data: (row, ctx) => ctx.store.find('files', 'shipment_id', row.id).map((file) => ({ type: 'files', id: file.id })),
    },
    hook_logs: {
      targets: ['hook-logs'],
      many: true,
      data: (row, ctx) => ctx.store.find('hookLogs', 'shipment_id', row.id).map((log) => ({ type: 'hook-logs', id: log.id })),
    },
    shipment_surcharges: {
      targets: ['shipment-surcharges'],
      many: true,
      data: (row, ctx) => ctx.store.find('shipmentSurcharges', 'shipment_id', row.id).map((charge) => ({ type: 'shipment-surcharges', id: charge.id })),
    },
    consolidation_shipment: { targets: ['shipments'], optional: true, data: (row) => linkTo('shipments', row.consolidation_shipment_id) },
    colli: {
      targets: ['shipments'],
      many: true,
      data: (row, ctx) => colliOf(ctx.store, row.id).map((collo) => ({ type: 'shipments', id: collo.id })),
    },
    multi_colli_shipment: { targets: ['shipments'], optional: true, data: (row) => linkTo('shipments', row.multi_colli_shipment_id) },
    // The latest manifest that lists the shipment (`include=manifest`, documented by production,
    // embeds it, though production's schema forgets manifests among the included types).
    manifest: { targets: ['manifests'], optional: true, data: (row) => linkTo('manifests', row.manifest_id) },
  },
  self: (row) => `/shipments/${row.id}`,
  links: (row) => ({ files: `/shipments/${row.id}/files` }),
  load: (ctx, id) => {
    const row = ctx.store.get('shipments', id);
    return row && shipmentVisible(ctx, row) ? row : undefined;
  },
};

const carrierStatus = z.object({
  code: z.string(),
  description: z.string(),
  assigned_at: z.number().int(),
  category: z.string().optional(),
  tracking_code: z.string().optional(),
});

export const shipmentStatusKind: Kind<ShipmentStatusRecord> = {
  type: 'shipment-statuses',
  attributesSchema: z
    .object({ carrier_statuses: z.array(carrierStatus), errors: z.array(z.record(z.string(), z.unknown())), created_at: z.number().int() })
    .meta({ id: 'ShipmentStatusAttributes' }),
  attributes: ({ carrier_statuses, errors, created_at }) => ({ carrier_statuses, errors, created_at }),
  relationships: {
    shipment: { targets: ['shipments'], data: (row) => linkTo('shipments', row.shipment_id) },
    status: { targets: ['statuses'], data: (row) => linkTo('statuses', row.status_id) },
  },
  self: (row) => `/shipments/${row.shipment_id}/statuses/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('shipmentStatuses', id);
    const shipment = row && ctx.store.get('shipments', row.shipment_id);
    return shipment && shipmentVisible(ctx, shipment) ? row : undefined;
  },
};

export const fileKind: Kind<FileRecord> = {
  type: 'files',
  attributesSchema: z
    .object({
      document_type: z.string(),
      formats: z.array(z.object({ extension: z.string(), mime_type: z.string() })),
      created_at: z.number().int(),
    })
    .meta({ id: 'FileAttributes' }),
  attributes: ({ document_type, formats, created_at }) => ({ document_type, formats, created_at }),
  relationships: {},
  self: (row) => `/files/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('files', id);
    const shipment = row && ctx.store.get('shipments', row.shipment_id);
    return shipment && shipmentVisible(ctx, shipment) ? row : undefined;
  },
};

export const shipmentSchemas = resourceSchemas(shipmentKind, { links: ['files'] });
export const shipmentStatusSchemas = resourceSchemas(shipmentStatusKind);
export const fileSchemas = resourceSchemas(fileKind);
