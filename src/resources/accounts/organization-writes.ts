import { z } from 'zod';
import { decodeLogo, insertLogo, logoPath, logoUpload, type LogoUpload } from '../../domain/logos.js';
import { assertOnePerTypeAndCountry } from '../../domain/tax-numbers.js';
import { deleteOrganization } from '../../domain/tenant-lifetime.js';
import type { Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { address, taxIdentificationNumber } from '../../model/common.js';
import { style, type OrganizationRecord } from '../../model/tenancy.js';
import type { Tx } from '../../store/store.js';
import { BROKER_ONLY, brokerOnly } from '../acting.js';
import { findOr404 } from '../lookup.js';
import { organizationKind } from './organizations.js';

const schemas = resourceSchemas(organizationKind);
const text = z.string().max(255);
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');

// Production's organization attributes are an open set: members it does not name are ignored.
const writable = {
  company_registration_number: optional(text),
  vat_number: optional(text).describe('Deprecated: use tax_identification_numbers.'),
  eori_number: optional(text).describe('Deprecated: use tax_identification_numbers.'),
  voec_number: optional(text).describe('Deprecated: use tax_identification_numbers.'),
  billing_address: optional(address).describe('street_1, city and country_code are required.'),
  logo_url: optional(text).describe('Or send a logo as `data.meta.logo`.'),
  style: optional(style).describe('Deprecated.'),
  tax_identification_numbers: optional(z.array(taxIdentificationNumber).max(50)),
  reference: optional(text),
  created_at: readOnly,
};
const organizationMeta = z.object({ logo: logoUpload.optional() }).meta({ id: 'OrganizationMeta' });

const createRequest = resourceRequest({
  id: 'OrganizationCreateRequest',
  attributes: z.object({ name: z.string().min(1).max(255), ...writable }),
  relationships: z.object({ broker: toOneRef }),
  meta: organizationMeta,
});

const updateRequest = resourceRequest({
  id: 'OrganizationUpdateRequest',
  update: true,
  attributes: z.object({ name: z.string().min(1).max(255).optional(), ...writable }).default({}),
  // Optional, as in production's update (its `data` requires only `type` and `id`); sent, it must
  // name the broker, as production's relationships object requires.
  relationships: z.object({ broker: toOneRef }).optional().describe('The broker cannot change: leave it out, or send the current one.'),
  meta: organizationMeta,
});

type Attributes = z.output<typeof updateRequest>['data']['attributes'];

/**
 * Stored fields of sent attributes: `null` removes an optional one (the tax numbers become an
 * empty list). A `logo_url` replaces an uploaded logo, unless it is that logo's own URL (a client
 * sending the resource back as it read it).
 */
function changesOf(attributes: Attributes, before?: OrganizationRecord): Partial<OrganizationRecord> {
  const { created_at: _ignored, tax_identification_numbers: numbers, logo_url: logoUrl, ...rest } = attributes;
  const changes: Partial<OrganizationRecord> = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, value ?? undefined]));
  if (numbers !== undefined) changes.tax_identification_numbers = numbers ?? [];
  const ownLogo =
    before?.logo_id !== undefined && typeof logoUrl === 'string' && URL.canParse(logoUrl) && new URL(logoUrl).pathname === logoPath(before.logo_id);
  if ('logo_url' in attributes && !ownLogo) Object.assign(changes, { logo_url: logoUrl ?? undefined, logo_id: undefined });
  return changes;
}

/** The checked logo of `data.meta.logo`, if one was sent. */
async function uploaded(ctx: Ctx, logo: LogoUpload | undefined) {
  return logo && decodeLogo(logo, ctx.settings.logoMaxBytes, { resourceMeta: 'logo' }, ctx.rules.libraries);
}

/** Stores an uploaded logo for the organization, replacing the one it had. */
function storeLogo(tx: Tx, row: OrganizationRecord, logo: Awaited<ReturnType<typeof uploaded>>, now: number): OrganizationRecord {
  if (!logo) return row;
  if (row.logo_id) tx.remove('logos', row.logo_id);
  return tx.update('organizations', row.id, { logo_id: insertLogo(tx, row.id, logo, now), logo_url: undefined });
}

/** The organization a tenant may change: its own; the broker (admin token) may change any. */
function changeable(ctx: Ctx, id: string): OrganizationRecord {
  return findOr404(ctx, 'organizations', 'organizations', id, (row) => !ctx.principal || row.id === ctx.principal.organizationId);
}

const params = z.object({ organization_id: z.string() });
const manage = { anyOf: ['organizations.manage'], admin: true } as const;
const ownOrAny =
  "A client changes its own organization only (another's id is 404); the sandbox's admin token (SANDBOX_ADMIN_TOKEN), or no token on a sandbox without one, acts as the broker and may change any.";

export const organizationWriteEndpoints = [
  endpoint({
    method: 'post',
    path: '/organizations',
    operationId: 'createOrganization',
    summary: 'Create an organization',
    description: `${BROKER_ONLY} The new organization belongs to \`relationships.broker\` and has no contracts until the broker shares some (POST /organizations/{id}/relationships/contracts). A logo may be sent as \`data.meta.logo\` {mime_type, contents}.`,
    tag: 'Organizations',
    auth: { anyOf: ['broker.member'], admin: true },
    body: createRequest,
    responses: {
      201: { description: 'The new organization; `Location` holds its URL.', schema: schemas.document },
      403: { description: "A tenant's access token (10013).", schema: errorDocument },
      409: { description: 'The body `type` is not `organizations` (10007).', schema: errorDocument },
      422: { description: 'An unknown broker, two tax identification numbers of one type and country_code, or a refused logo (10008).', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      if (ctx.principal) throw brokerOnly('Creating an organization');
      const { data } = body;
      checkIdentity(data, 'organizations');
      const brokerId = relatedId(data.relationships.broker, 'broker', ['brokers'])!;
      if (!ctx.store.get('brokers', brokerId)) throw unknownRelated('broker', 'brokers', brokerId);
      assertOnePerTypeAndCountry(data.attributes.tax_identification_numbers);
      const logo = await uploaded(ctx, data.meta?.logo);
      const now = ctx.clock.now();
      const { name, ...rest } = data.attributes;
      const row = await ctx.store.transact((tx) => {
        // Again: the broker may have gone (with the tenant whose pack made it) while the logo was checked.
        if (!tx.get('brokers', brokerId)) throw unknownRelated('broker', 'brokers', brokerId);
        const created = tx.insert('organizations', {
          tax_identification_numbers: [],
          ...changesOf(rest),
          name,
          id: tx.newId(),
          broker_id: brokerId,
          created_at: now,
        });
        return storeLogo(tx, created, logo, now);
      });
      return jsonApi(resourceDocument(ctx, organizationKind, row), 201, { location: ctx.url(organizationKind.self(row)) });
    },
  }),
  endpoint({
    method: 'patch',
    path: '/organizations/{organization_id}',
    operationId: 'updateOrganization',
    summary: 'Update an organization',
    description: `${ownOrAny} Only the attributes sent change (\`null\` removes an optional one); \`created_at\` is ignored; \`relationships.broker\` may be sent but not changed. A logo may be sent as \`data.meta.logo\`.`,
    tag: 'Organizations',
    auth: manage,
    params,
    body: updateRequest,
    responses: {
      200: { description: 'The whole updated organization.', schema: schemas.document },
      409: { description: 'The body `type` or `id` does not match (10007).', schema: errorDocument },
      422: {
        description: 'Another broker or none (`data: null`), two tax identification numbers of one type and country_code, or a refused logo (10008).',
        schema: errorDocument,
      },
    },
    handler: async (ctx, { params, body }) => {
      const current = changeable(ctx, params.organization_id);
      checkIdentity(body.data, 'organizations', current.id);
      // Sent, it is the current broker: `{"data": null}` (none) is 422, as for a shop's organization.
      const sent = body.data.relationships;
      if (sent && relatedId(sent.broker, 'broker', ['brokers']) !== current.broker_id) {
        throw ApiError.unprocessable('An organization stays with its broker: `broker` can only be sent as it is.', '/data/relationships/broker/data/id');
      }
      assertOnePerTypeAndCountry(body.data.attributes.tax_identification_numbers);
      const logo = await uploaded(ctx, body.data.meta?.logo);
      // On the organization's clock, also when the broker (admin token) changes it.
      const now = ctx.rules.forTenant(current.id).clock.now();
      const row = await ctx.store.transact((tx) => {
        const before = tx.get('organizations', current.id);
        if (!before) throw ApiError.notFound('organizations', current.id);
        const changes = changesOf(body.data.attributes, before);
        if (changes.logo_id === undefined && 'logo_id' in changes && before.logo_id) tx.remove('logos', before.logo_id);
        return storeLogo(tx, tx.update('organizations', current.id, changes), logo, now);
      });
      return jsonApi(resourceDocument(ctx, organizationKind, row));
    },
  }),
  endpoint({
    method: 'delete',
    path: '/organizations/{organization_id}',
    operationId: 'deleteOrganization',
    summary: 'Delete an organization',
    description:
      `${ownOrAny} Only an organization without shipments can be deleted. Its shops (with logos, hooks and collections), hooks, own contracts (with rates), ` +
      "address book, zones, users and their clients go with it: the clients' tokens stop working. The broker's contracts are no longer shared with it. " +
      "A tenant's own organization made from a pack (POST /_sandbox/tenants) takes the pack's other organizations and brokers with it, as deleting the tenant does, and so does any organization with the tenants POST /_sandbox/examples made for it.",
    tag: 'Organizations',
    auth: manage,
    params,
    responses: {
      204: { description: 'Deleted, with everything that was its alone.' },
      422: { description: 'The organization has shipments (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params }) => {
      const organization = changeable(ctx, params.organization_id);
      const removal = await ctx.store.transact((tx) => deleteOrganization(tx, organization.id));
      // The app forgets what it keeps in memory of the tenant (tokens, logged requests, rendered documents).
      if (removal) ctx.rules.tenantRemoved?.(removal, 'deleted');
      return new Response(null, { status: 204 });
    },
  }),
];
