import { z } from 'zod';
import { principalOf, type Ctx, type Kind } from '../../http/context.js';
import { ApiError } from '../../jsonapi/errors.js';
import { resourceRequest } from '../../jsonapi/request.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { countryCode } from '../../model/common.js';
import { stateCode, zoneAttributes, type ZoneRecord } from '../../model/zone.js';
import { findOr404 } from '../lookup.js';
import { seesTenantRow } from '../../domain/tenant-lifetime.js';
import { readEndpoints } from '../read-endpoints.js';
import { writeEndpoints } from '../write-endpoints.js';

/**
 * Seeded zones (the routes of the catalogue) are everyone's; a zone made through the API is its
 * organization's. A zone a pack gave a tenant is stamped with the tenant's own organization, even
 * when another organization of its group loaded it, and is seen as the pack's services are: by
 * every organization of the group, else a service's zone_from and zone_to would name a zone that
 * answers 404.
 */
const zoneVisible = (ctx: Ctx, row: ZoneRecord): boolean => seesTenantRow(ctx.store, ctx.principal?.organizationId, row.organization_id);

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
  // The group's organizations see the tenant's zones; only the organization that holds one changes it.
  if (row.organization_id !== principalOf(ctx).organizationId) {
    throw ApiError.of('actionNotAllowed', "This zone is another organization's of your group: you can read it but not change or delete it.");
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
    description: `The sandbox's zones (one per place its services ship from or to, named by every service's zone_from and zone_to) and the caller's own (with those a pack gave its tenant, seen by every organization of the tenant's group).`,
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
  ...writeEndpoints({
    kind: zoneKind,
    table: 'zones',
    tag: 'Zones',
    noun: 'zone',
    auth: manage,
    schemas,
    own: ownZone,
    create: {
      summary: 'Create a zone',
      description: `A group of countries, optionally narrowed to subdivisions (\`state_codes\`) and postal codes (\`postal_code\`, a regular expression); the zone is the caller's organization's. \`code\` is unique among the zones it sees.`,
      body: createRequest,
      answer: 'The new zone; `Location` holds its URL.',
      errors: { 409: 'The body `type` is not `zones` (10007).', 422: 'The code is taken (10008).' },
      insert: (tx, ctx, { attributes }) => {
        checkCode(ctx, attributes.code);
        const { name, code, country_codes } = attributes;
        const organization_id = principalOf(ctx).organizationId;
        return tx.insert('zones', { ...changesOf(attributes), name, code, country_codes, id: tx.newId(), organization_id, created_at: ctx.clock.now() });
      },
    },
    update: {
      summary: 'Change a zone',
      description: `Only the caller's own zones; the sandbox's zones and those of another organization of the caller's group answer 403 (10013). Only the attributes sent change; \`null\` removes an optional one.`,
      body: updateRequest,
      answer: 'The whole updated zone.',
      errors: {
        403: "One of the sandbox's zones, or another organization's of the caller's group (10013).",
        409: 'The body `type` or `id` does not match (10007).',
        422: 'The code is taken (10008).',
      },
      change: (tx, ctx, zone, { attributes }) => {
        checkCode(ctx, attributes.code, zone.id);
        return tx.update('zones', zone.id, changesOf(attributes));
      },
    },
    delete: {
      summary: 'Delete a zone',
      description: `Only the caller's own zones; the sandbox's zones and those of another organization of the caller's group answer 403 (10013). A zone a service ships from or to (one a pack gave the organization) stays while the service names it: 422.`,
      answer: 'Deleted.',
      errors: {
        403: "One of the sandbox's zones, or another organization's of the caller's group (10013).",
        422: 'A service ships from or to the zone (10008).',
      },
      remove: (tx, _ctx, zone) => {
        // Checked in the transaction: a service's zone_from or zone_to must not name a zone that is gone.
        const services = tx.all('services').filter((service) => service.zone_from_id === zone.id || service.zone_to_id === zone.id);
        if (services.length > 0) {
          const codes = [...new Set(services.map((service) => service.code))].join(', ');
          throw ApiError.unprocessable(
            `Zone '${zone.id}' is the zone_from or zone_to of ${services.length} service${services.length === 1 ? '' : 's'} (${codes}) and cannot be deleted.`,
          );
        }
        tx.remove('zones', zone.id);
      },
    },
  }),
];
