import { z } from 'zod';
import { principalOf, type Ctx, type Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, resourceRequest } from '../../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { countryCode } from '../../model/common.js';
import { stateCode, zoneAttributes, type ZoneRecord } from '../../model/zone.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';

/** Seeded zones (the routes of the catalogue) are everyone's; a zone made through the API is its organization's. */
const zoneVisible = (ctx: Ctx, row: ZoneRecord): boolean => row.organization_id === undefined || row.organization_id === ctx.principal?.organizationId;

export const zoneKind: Kind<ZoneRecord> = {
  type: 'zones',
  attributesSchema: zoneAttributes,
  attributes: (row) => ({
    name: row.name,
    code: row.code,
    description: row.description,
    postal_code: row.postal_code,
    state_codes: row.state_codes,
    country_codes: row.country_codes,
    created_at: row.created_at,
  }),
  relationships: {},
  self: (row) => `/zones/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('zones', id);
    return row && zoneVisible(ctx, row) ? row : undefined;
  },
};

const schemas = resourceSchemas(zoneKind);

/** A pattern the sandbox can match postal codes with, or a problem. */
const pattern = z
  .string()
  .min(1)
  .max(255)
  .refine((value) => {
    try {
      new RegExp(value, 'i');
      return true;
    } catch {
      return false;
    }
  }, 'must be a regular expression');

const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');
const writable = {
  name: z.string().min(1).max(255),
  code: z.string().min(1).max(255),
  description: z.string().max(1000).nullable().optional(),
  postal_code: pattern.nullable().optional().describe('Regular expression the postal codes of the zone match (case-insensitive).'),
  state_codes: z.array(stateCode).max(100).nullable().optional(),
  country_codes: z.array(countryCode).min(1).max(250),
  created_at: readOnly,
};

// Production's zone attributes are a closed set.
const createRequest = resourceRequest({ id: 'ZoneCreateRequest', attributes: z.strictObject(writable), relationships: z.unknown().optional() });
const updateRequest = resourceRequest({
  id: 'ZoneUpdateRequest',
  update: true,
  attributes: z.strictObject(writable).partial().default({}),
  relationships: z.unknown().optional(),
});

/** A zone's code is unique among the zones its organization sees. */
function checkCode(ctx: Ctx, code: string | undefined, except?: string): void {
  if (code === undefined) return;
  const taken = ctx.store.all('zones').find((row) => row.id !== except && zoneVisible(ctx, row) && row.code.toLowerCase() === code.toLowerCase());
  if (taken) throw ApiError.unprocessable(`The zone '${taken.id}' already has the code '${taken.code}'.`, '/data/attributes/code');
}

/** A zone the caller may change: its own. Seeded zones describe the catalogue's services and stay as they are. */
function ownZone(ctx: Ctx, id: string): ZoneRecord {
  const row = findOr404(ctx, 'zones', 'zones', id, (candidate) => zoneVisible(ctx, candidate));
  if (row.organization_id === undefined) {
    throw ApiError.of(
      'actionNotAllowed',
      "This zone is one of the sandbox's own: the catalogue's services ship from and to it, so it cannot be changed or deleted.",
    );
  }
  return row;
}

type Attributes = Partial<z.output<typeof createRequest>['data']['attributes']>;
const changesOf = ({ created_at: _ignored, ...attributes }: Attributes): Partial<ZoneRecord> =>
  Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, value ?? undefined]));

const query = z.object({
  'filter[search]': z.string().min(1).max(255).optional().describe('Zones whose name, code or description contains this text (case-insensitive).'),
  'filter[country_code]': countryCode.optional().describe('Zones that hold this country.'),
});
const manage = { anyOf: ['zones.manage'] } as const;
const read = { anyOf: ['contracts.manage', 'zones.manage'] } as const;
const params = z.object({ zone_id: z.string() });

export const zoneEndpoints = [
  ...readEndpoints({
    kind: zoneKind,
    table: 'zones',
    tag: 'Zones',
    noun: 'zone',
    plural: 'zones',
    auth: read,
    schemas,
    query,
    description: `The sandbox's zones (one per place its services ship from or to, named by every service's zone_from and zone_to) and the caller's own.`,
    visible: zoneVisible,
    filter: (_ctx, rows, q) => {
      const needle = q['filter[search]']?.toLowerCase();
      return rows.filter(
        (row) =>
          (!q['filter[country_code]'] || row.country_codes.includes(q['filter[country_code]'])) &&
          (!needle || [row.name, row.code, row.description ?? ''].some((text) => text.toLowerCase().includes(needle))),
      );
    },
  }),
  endpoint({
    method: 'post',
    path: '/zones',
    operationId: 'createZone',
    summary: 'Create a zone',
    description: `A group of countries, optionally narrowed to subdivisions (\`state_codes\`) and postal codes (\`postal_code\`, a regular expression); the zone is the caller's organization's. \`code\` is unique among the zones it sees.`,
    tag: 'Zones',
    auth: manage,
    body: createRequest,
    responses: {
      201: { description: 'The new zone; `Location` holds its URL.', schema: schemas.document },
      409: { description: 'The body `type` is not `zones` (10007).', schema: errorDocument },
      422: { description: 'The code is taken (10008).', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      checkIdentity(body.data, 'zones');
      checkCode(ctx, body.data.attributes.code);
      const organizationId = principalOf(ctx).organizationId;
      const now = ctx.clock.now();
      const { name, code, country_codes } = body.data.attributes;
      const row = await ctx.store.transact((tx) =>
        tx.insert('zones', { ...changesOf(body.data.attributes), name, code, country_codes, id: tx.newId(), organization_id: organizationId, created_at: now }),
      );
      return jsonApi(resourceDocument(ctx, zoneKind, row), 201, { location: ctx.url(zoneKind.self(row)) });
    },
  }),
  endpoint({
    method: 'patch',
    path: '/zones/{zone_id}',
    operationId: 'updateZone',
    summary: 'Change a zone',
    description: `Only the caller's own zones; the sandbox's zones answer 403 (10013). Only the attributes sent change; \`null\` removes an optional one.`,
    tag: 'Zones',
    auth: manage,
    params,
    body: updateRequest,
    responses: {
      200: { description: 'The whole updated zone.', schema: schemas.document },
      403: { description: "One of the sandbox's zones (10013).", schema: errorDocument },
      409: { description: 'The body `type` or `id` does not match (10007).', schema: errorDocument },
      422: { description: 'The code is taken (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params, body }) => {
      const zone = ownZone(ctx, params.zone_id);
      checkIdentity(body.data, 'zones', zone.id);
      checkCode(ctx, body.data.attributes.code, zone.id);
      const row = await ctx.store.transact((tx) => tx.update('zones', zone.id, changesOf(body.data.attributes)));
      return jsonApi(resourceDocument(ctx, zoneKind, row));
    },
  }),
  endpoint({
    method: 'delete',
    path: '/zones/{zone_id}',
    operationId: 'deleteZone',
    summary: 'Delete a zone',
    description: `Only the caller's own zones; the sandbox's zones answer 403 (10013).`,
    tag: 'Zones',
    auth: manage,
    params,
    responses: {
      204: { description: 'Deleted.' },
      403: { description: "One of the sandbox's zones (10013).", schema: errorDocument },
    },
    handler: async (ctx, { params }) => {
      const zone = ownZone(ctx, params.zone_id);
      await ctx.store.transact((tx) => tx.remove('zones', zone.id));
      return new Response(null, { status: 204 });
    },
  }),
];
