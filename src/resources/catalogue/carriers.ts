import type { Ctx, Kind } from '../../http/context.js';
import { z } from 'zod';
import { endpoint } from '../../http/endpoint.js';
import { ApiError } from '../../jsonapi/errors.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { carrierAttributes, type CarrierRecord } from '../../model/carrier.js';
import type { BrokerRecord } from '../../model/tenancy.js';
import { brandLogoSvg } from '../accounts/brand-logo.js';
import { readEndpoints } from '../read-endpoints.js';
import { seesTenantRow } from '../../domain/tenant-lifetime.js';
import { TOKEN as CAPABILITY } from '../../domain/capabilities.js';
import type { Rules } from '../../domain/rules.js';

/** What a carrier of a data file written before capabilities were stored is answered with. */
const NO_CAPABILITIES = {
  collections: { offers_collections: false, voids_registered_collections: false, allows_adding_registered_shipments_to_collection: false },
  pudo: { can_get_pudo_by_id: false },
  delivery_dates: { can_get_delivery_dates: false },
} as const;

/**
 * The path of a carrier's logo (its `logo_url`), which opens without a token. A catalogue carrier's
 * names its code. A carrier a pack gave a tenant is that tenant's alone, and its code is the pack's
 * choice, which another pack may make too: its path is the carrier's capability (an HMAC under this
 * sandbox's secret), so no one else can find its name by trying codes, nor read another's under one.
 */
export const carrierLogoPath = (rules: Rules, row: CarrierRecord) =>
  `/brand-logos/carrier-${row.organization_id === undefined ? row.code : rules.capabilities.token('carrier-logo', row.id)}.svg`;
/**
 * The path of a broker's badge (its `logo_url` or `favicon_url` when it has none of its own): its
 * capability. A broker's name is its own, and its id is no secret (every organization of it sees
 * the id, and without --random-ids ids follow from the seed): by id anyone could read the name of
 * every broker, those a tenant's pack or the API made included.
 */
export const brokerLogoPath = (rules: Rules, brokerId: string) => `/brand-logos/broker-${rules.capabilities.token('broker-logo', brokerId)}.svg`;

/** Whether the caller sees a carrier: the catalogue's, and those a pack gave its own tenant. */
export const carrierVisible = (ctx: Ctx, row: CarrierRecord): boolean => seesTenantRow(ctx.store, ctx.principal?.organizationId, row.organization_id);

export const carrierKind: Kind<CarrierRecord> = {
  type: 'carriers',
  attributesSchema: carrierAttributes,
  attributes: (row, ctx) => ({
    name: row.name,
    code: row.code,
    logo_url: ctx.url(carrierLogoPath(ctx.rules, row)),
    credentials_format: row.credentials_format,
    label_formats: row.label_formats,
    label_mime_types: [...new Set(row.label_formats.map((format) => format.mime_type))],
    collections: row.collections ?? NO_CAPABILITIES.collections,
    pudo: row.pudo ?? NO_CAPABILITIES.pudo,
    delivery_dates: row.delivery_dates ?? NO_CAPABILITIES.delivery_dates,
  }),
  relationships: {},
  self: (row) => `/carriers/${row.id}`,
  // Loaded for `include` (`service.carrier`, `contract.carrier`, ...): never one a pack gave another tenant.
  load: (ctx, id) => {
    const row = ctx.store.get('carriers', id);
    return row && carrierVisible(ctx, row) ? row : undefined;
  },
};

/** The carrier a logo path names (`carrierLogoPath`): a pack carrier by its capability, a catalogue carrier by its code. */
function carrierOfLogo(ctx: Ctx, key: string): CarrierRecord | undefined {
  if (CAPABILITY.test(key)) {
    const id = ctx.rules.capabilities.open('carrier-logo', key);
    const row = id === undefined ? undefined : ctx.store.get('carriers', id);
    return row?.organization_id === undefined ? undefined : row;
  }
  return ctx.store.all('carriers').find((row) => row.organization_id === undefined && row.code === key);
}

/** The broker a badge path names (`brokerLogoPath`): by its capability only. */
function brokerOfLogo(ctx: Ctx, key: string): BrokerRecord | undefined {
  const id = CAPABILITY.test(key) ? ctx.rules.capabilities.open('broker-logo', key) : undefined;
  return id === undefined ? undefined : ctx.store.get('brokers', id);
}

export const carrierEndpoints = [
  ...readEndpoints({
    kind: carrierKind,
    table: 'carriers',
    tag: 'Carriers',
    noun: 'carrier',
    plural: 'carriers',
    auth: 'token',
    schemas: resourceSchemas(carrierKind),
    visible: carrierVisible,
    description: 'A carrier a pack gave a tenant is seen by that tenant only.',
  }),
  endpoint({
    method: 'get',
    path: '/brand-logos/{brand_logo}',
    operationId: 'getBrandLogo',
    summary: 'A carrier or broker logo',
    description:
      "The image a carrier's `logo_url` or a broker's `logo_url`/`favicon_url` points at (`carrier-{code}.svg` for a catalogue carrier; `carrier-{token}.svg` for a carrier a pack gave a tenant and `broker-{token}.svg` for a broker, the row id with an HMAC-SHA256 of it under a secret of this sandbox, since their names are their tenants' and a code or an id can be guessed): " +
      'an SVG badge drawn by the sandbox, where production serves the real artwork.',
    tag: 'Carriers',
    auth: 'none',
    params: z.object({ brand_logo: z.string().regex(/^(carrier|broker)-[A-Za-z0-9_.-]+\.svg$/) }),
    produces: ['image/svg+xml'],
    responses: { 200: { description: 'The logo.', contentTypes: ['image/svg+xml'] } },
    handler: (ctx, { params }) => {
      const [, kind, key] = /^(carrier|broker)-(.+)\.svg$/.exec(params.brand_logo)! as unknown as [string, string, string];
      const brand = kind === 'carrier' ? carrierOfLogo(ctx, key) : brokerOfLogo(ctx, key);
      if (!brand) throw ApiError.of('resourceNotFound', `No ${kind} logo is served as '${params.brand_logo}'.`);
      return new Response(brandLogoSvg(kind === 'carrier' ? (brand as CarrierRecord).code : '', brand.name), {
        headers: {
          'content-type': 'image/svg+xml',
          'cache-control': 'public, max-age=86400',
          'x-content-type-options': 'nosniff',
          // The badge holds a tenant's carrier or broker name; opened directly, an SVG is a document that may run script.
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        },
      });
    },
  }),
];
