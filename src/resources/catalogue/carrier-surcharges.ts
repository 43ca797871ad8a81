import { z } from 'zod';
import { createCarrierSurcharge, updateCarrierSurcharge } from '../../domain/carrier-surcharges.js';
import type { Ctx, Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { csvIds } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { linkTo } from '../../jsonapi/resource.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef } from '../../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { carrierSurchargeAttributes, type CarrierSurchargeRecord } from '../../model/carrier-surcharge.js';
import { price } from '../../model/common.js';
import { carrierSurchargeIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';

// Production's scope: carrier surcharges are the finance department's.
const manage = { anyOf: ['finance.manage'] } as const;

const visible = (ctx: Ctx, row: CarrierSurchargeRecord): boolean => row.organization_id === ctx.principal?.organizationId;

export const carrierSurchargeKind: Kind<CarrierSurchargeRecord> = {
  type: 'carrier-surcharges',
  attributesSchema: carrierSurchargeAttributes,
  attributes: ({ name, description, fee, created_at, updated_at }) => ({ name, description, fee, created_at, updated_at }),
  relationships: {
    carrier: { targets: ['carriers'], data: (row) => linkTo('carriers', row.carrier_id) },
  },
  self: (row) => `/carrier-surcharges/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('carrierSurcharges', id);
    return row && visible(ctx, row) ? row : undefined;
  },
};

const schemas = resourceSchemas(carrierSurchargeKind);
const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');
const writable = { name: z.string().min(1).max(255), description: z.string().max(255).nullable().optional(), fee: price };

const createRequest = resourceRequest({
  id: 'CarrierSurchargeCreateRequest',
  attributes: z.strictObject({ ...writable, created_at: readOnly, updated_at: readOnly }),
  relationships: z.object({ carrier: toOneRef }),
});

const updateRequest = resourceRequest({
  id: 'CarrierSurchargeUpdateRequest',
  update: true,
  attributes: z
    .strictObject({ name: writable.name.optional(), description: writable.description, fee: price.optional(), created_at: readOnly, updated_at: readOnly })
    .optional(),
  relationships: z.object({ carrier: toOneRef.optional() }).optional(),
});

const params = z.object({ carrier_surcharge_id: z.string() });
const what =
  "A carrier surcharge is a fee of your organization on the shipments of one carrier (one you have a contract with): every shipment priced afterwards (created, changed, or registered in the request) on a contract of that carrier, in the fee's currency, carries it as a shipment surcharge, added to its price. Shipments priced before keep what they were charged.";

export const carrierSurchargeEndpoints = [
  ...readEndpoints({
    kind: carrierSurchargeKind,
    table: 'carrierSurcharges',
    tag: 'Carrier surcharges',
    noun: 'carrier surcharge',
    plural: 'carrier surcharges',
    auth: manage,
    schemas,
    include: carrierSurchargeIncludes,
    rows: (ctx) => ctx.store.find('carrierSurcharges', 'organization_id', ctx.principal?.organizationId),
    visible,
    query: z.object({ 'filter[carrier]': csvIds.optional().describe('Comma separated carrier ids.') }),
    filter: (_ctx, rows, q) => rows.filter((row) => !q['filter[carrier]'] || q['filter[carrier]'].includes(row.carrier_id)),
    description: `${what}`,
  }),
  endpoint({
    method: 'post',
    path: '/carrier-surcharges',
    operationId: 'createCarrierSurcharge',
    summary: 'Add a carrier surcharge',
    description: `${what} A carrier you have no contract with is 422.`,
    tag: 'Carrier surcharges',
    auth: manage,
    body: createRequest,
    responses: {
      201: { description: 'The new carrier surcharge.', schema: schemas.document },
      409: { description: 'The body `type` is not `carrier-surcharges` (10007).', schema: errorDocument },
      422: { description: 'An unknown carrier, or one you have no contract with (10008).', schema: errorDocument },
    },
    include: carrierSurchargeIncludes,
    handler: async (ctx, { body, include }) => {
      checkIdentity(body.data, 'carrier-surcharges');
      const { attributes, relationships } = body.data;
      const carrierId = relatedId(relationships.carrier, 'carrier', ['carriers'])!;
      const row = await ctx.store.transact((tx) => createCarrierSurcharge(tx, ctx, { ...attributes, carrierId }));
      return jsonApi(resourceDocument(ctx, carrierSurchargeKind, row, include), 201, { location: ctx.url(carrierSurchargeKind.self(row)) });
    },
  }),
  endpoint({
    method: 'patch',
    path: '/carrier-surcharges/{carrier_surcharge_id}',
    operationId: 'updateCarrierSurcharge',
    summary: 'Change a carrier surcharge',
    description: `Send only what changes (\`description: null\` removes it). The change applies to shipments priced from now on.`,
    tag: 'Carrier surcharges',
    auth: manage,
    params,
    body: updateRequest,
    responses: {
      200: { description: 'The whole carrier surcharge.', schema: schemas.document },
      409: { description: 'The body `type` or `id` does not match (10007).', schema: errorDocument },
      422: { description: 'An unknown carrier, or one you have no contract with (10008).', schema: errorDocument },
    },
    include: carrierSurchargeIncludes,
    handler: async (ctx, { params: path, body, include }) => {
      const current = findOr404(ctx, 'carrierSurcharges', 'carrier-surcharges', path.carrier_surcharge_id, (row) => visible(ctx, row));
      checkIdentity(body.data, 'carrier-surcharges', current.id);
      const carrier = body.data.relationships?.carrier;
      const carrierId = carrier ? relatedId(carrier, 'carrier', ['carriers']) : undefined;
      const row = await ctx.store.transact((tx) => updateCarrierSurcharge(tx, ctx, current, { ...body.data.attributes, carrierId }));
      return jsonApi(resourceDocument(ctx, carrierSurchargeKind, row, include));
    },
  }),
  endpoint({
    method: 'delete',
    path: '/carrier-surcharges/{carrier_surcharge_id}',
    operationId: 'deleteCarrierSurcharge',
    summary: 'Remove a carrier surcharge',
    description: 'Shipments priced from now on no longer carry it; those priced before keep their shipment surcharge.',
    tag: 'Carrier surcharges',
    auth: manage,
    params,
    responses: { 204: { description: 'Removed.' } },
    handler: async (ctx, { params: path }) => {
      const current = findOr404(ctx, 'carrierSurcharges', 'carrier-surcharges', path.carrier_surcharge_id, (row) => visible(ctx, row));
      await ctx.store.transact((tx) => tx.remove('carrierSurcharges', current.id));
      return new Response(null, { status: 204 });
    },
  }),
];
