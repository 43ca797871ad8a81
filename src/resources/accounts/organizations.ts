import type { Kind } from '../../http/context.js';
import { z } from 'zod';
import { csvIds, listHas } from '../../http/params.js';
import { deterministicUuid } from '../../ids.js';
import { linkTo } from '../../jsonapi/resource.js';
import { brokerLogoPath } from '../catalogue/carriers.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { logoPath } from '../../domain/logos.js';
import { brokerAttributes, organizationAttributes, type BrokerRecord, type BrokerStyle, type OrganizationRecord } from '../../model/tenancy.js';
import { readEndpoints } from '../read-endpoints.js';

/** The colours of a broker that has none stored (data files written before brokers had a style). */
const DEFAULT_STYLE: BrokerStyle = {
  background_color: '#ffffff',
  foreground_color: '#1f2937',
  primary_color: '#1d4ed8',
  secondary_color: '#64748b',
  accent_color: '#f59e0b',
};

export const organizationKind: Kind<OrganizationRecord> = {
  type: 'organizations',
  attributesSchema: organizationAttributes,
  attributes: (row, ctx) => ({
    name: row.name,
    company_registration_number: row.company_registration_number,
    vat_number: row.vat_number,
    eori_number: row.eori_number,
    voec_number: row.voec_number,
    billing_address: row.billing_address,
    // An uploaded logo's URL is built per request, so it follows the public URL or request host.
    logo_url: row.logo_id ? ctx.url(logoPath(row.logo_id)) : row.logo_url,
    style: row.style,
    tax_identification_numbers: row.tax_identification_numbers,
    reference: row.reference,
    created_at: row.created_at,
  }),
  relationships: {
    broker: { targets: ['brokers'], data: (row) => linkTo('brokers', row.broker_id) },
  },
  self: (row) => `/organizations/${row.id}`,
  load: (ctx, id) => ctx.store.get('organizations', id),
};

/** The enterprise a broker names: the one it was given, or a stable id derived from its own. */
export function enterpriseIdOf(row: BrokerRecord): string {
  return row.enterprise_id ?? deterministicUuid('enterprise', parseInt(row.id.slice(0, 8), 16));
}

export const brokerKind: Kind<BrokerRecord> = {
  type: 'brokers',
  attributesSchema: brokerAttributes,
  nullAttributes: ['domain'],
  attributes: (row, ctx) => ({
    name: row.name,
    domain: row.domain ?? null,
    reply_to_email: row.reply_to_email,
    // The seeded broker has no logo of its own: it answers the badge the sandbox draws.
    logo_url: row.logo_id ? ctx.url(logoPath(row.logo_id)) : (row.logo_url ?? ctx.url(brokerLogoPath(ctx.rules, row.id))),
    favicon_url: row.favicon_url ?? ctx.url(brokerLogoPath(ctx.rules, row.id)),
    support_url: row.support_url,
    contact_url: row.contact_url,
    style: row.style ?? DEFAULT_STYLE,
  }),
  relationships: {
    // Enterprises are not emulated: each broker names a stable enterprise id derived from its own, without a related URL.
    enterprise: {
      targets: ['enterprises'],
      data: (row) => ({ type: 'enterprises', id: enterpriseIdOf(row) }),
      related: () => undefined,
    },
  },
  self: (row) => `/brokers/${row.id}`,
  load: (ctx, id) => ctx.store.get('brokers', id),
};

const organizationQuery = z.object({
  'filter[broker]': csvIds.optional().describe('Comma separated broker ids.'),
  'filter[search]': z.string().min(1).optional().describe('Organizations whose name, reference, registration number or billing address contains this text.'),
  'filter[search.name]': z.string().min(1).optional().describe('Organizations whose name contains this text (case-insensitive).'),
});

/** The texts `filter[search]` looks in. */
const organizationTexts = (row: OrganizationRecord): string[] => [
  row.name,
  row.reference ?? '',
  row.company_registration_number ?? '',
  ...Object.values(row.billing_address ?? {}).map(String),
];

export const organizationEndpoints = readEndpoints({
  kind: organizationKind,
  table: 'organizations',
  tag: 'Organizations',
  noun: 'organization',
  plural: 'organizations',
  auth: {
    anyOf: [
      ['broker.member', 'organizations.manage'],
      ['broker.member', 'shipments.view'],
    ],
  },
  schemas: resourceSchemas(organizationKind),
  query: organizationQuery,
  description: 'A client sees only its own organization.',
  visible: (ctx, row) => row.id === ctx.principal?.organizationId,
  filter: (_ctx, rows, q) => {
    const search = q['filter[search]']?.toLowerCase();
    const name = q['filter[search.name]']?.toLowerCase();
    return rows.filter(
      (row) =>
        (!q['filter[broker]'] || listHas(q['filter[broker]'], row.broker_id)) &&
        (!name || row.name.toLowerCase().includes(name)) &&
        (!search || organizationTexts(row).some((text) => text.toLowerCase().includes(search))),
    );
  },
});

export const brokerEndpoints = readEndpoints({
  kind: brokerKind,
  table: 'brokers',
  tag: 'Organizations',
  noun: 'broker',
  plural: 'brokers',
  auth: { anyOf: ['broker.member', 'enterprises.manage', 'brokers.manage'] },
  schemas: resourceSchemas(brokerKind),
  description: "A client sees only its organization's broker.",
  visible: (ctx, row) => row.id === ctx.principal?.brokerId,
});
