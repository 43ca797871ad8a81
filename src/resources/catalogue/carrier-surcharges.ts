import { z } from 'zod';
import { createCarrierSurcharge, updateCarrierSurcharge } from '../../domain/carrier-surcharges.js';
import type { Ctx, Kind } from '../../http/context.js';
import { csvIds, listHas } from '../../http/params.js';
import { linkTo } from '../../jsonapi/resource.js';
import { relatedId, resourceRequest, toOneRef } from '../../jsonapi/request.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { carrierSurchargeAttributes, type CarrierSurchargeRecord } from '../../model/carrier-surcharge.js';
import { price } from '../../model/common.js';
import { carrierSurchargeIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';
import { writeEndpoints } from '../write-endpoints.js';

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
  // Optional, as in production's update (its `data` requires only `type` and `id`); sent, it must
  // name the carrier, as production's relationships object requires.
  relationships: z.object({ carrier: toOneRef }).optional(),
});

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
    filter: (_ctx, rows, q) => rows.filter((row) => !q['filter[carrier]'] || listHas(q['filter[carrier]'], row.carrier_id)),
    description: `${what}`,
  }),
  ...writeEndpoints({
    kind: carrierSurchargeKind,
    table: 'carrierSurcharges',
    tag: 'Carrier surcharges',
    noun: 'carrier surcharge',
    auth: manage,
    schemas,
    include: carrierSurchargeIncludes,
    own: (ctx, id) => findOr404(ctx, 'carrierSurcharges', 'carrier-surcharges', id, (row) => visible(ctx, row)),
    create: {
      summary: 'Add a carrier surcharge',
      description: `${what} A carrier you have no contract with is 422.`,
      body: createRequest,
      answer: 'The new carrier surcharge.',
      errors: {
        409: 'The body `type` is not `carrier-surcharges` (10007).',
        422: 'An unknown carrier, or one you have no contract with (10008).',
      },
      insert: (tx, ctx, { attributes, relationships }) => {
        const carrierId = relatedId(relationships.carrier, 'carrier', ['carriers'])!;
        return createCarrierSurcharge(tx, ctx, { ...attributes, carrierId });
      },
    },
    update: {
      summary: 'Change a carrier surcharge',
      description: `Send only what changes (\`description: null\` removes it). The change applies to shipments priced from now on.`,
      body: updateRequest,
      answer: 'The whole carrier surcharge.',
      errors: {
        409: 'The body `type` or `id` does not match (10007).',
        422: 'An unknown carrier, or one you have no contract with (10008).',
      },
      change: (tx, ctx, current, { attributes, relationships }) => {
        const carrier = relationships?.carrier;
        const carrierId = carrier ? relatedId(carrier, 'carrier', ['carriers']) : undefined;
        return updateCarrierSurcharge(tx, ctx, current, { ...attributes, carrierId });
      },
    },
    delete: {
      summary: 'Remove a carrier surcharge',
      description: 'Shipments priced from now on no longer carry it; those priced before keep their shipment surcharge.',
      answer: 'Removed.',
    },
  }),
];
