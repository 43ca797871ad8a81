import { z } from 'zod';
import { decodeLogo, insertLogo, logoPath, logoUpload } from '../../domain/logos.js';
import { brokerCarrierIds } from '../../domain/tenancy.js';
import { brokerMayNameTenantRow } from '../../domain/tenant-lifetime.js';
import type { Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { brokerStyle, type BrokerRecord } from '../../model/tenancy.js';
import { emailAddress } from '../../model/common.js';
import { BROKER_ONLY, brokerOnly } from '../acting.js';
import { carrierKind, carrierVisible } from '../catalogue/carriers.js';
import { findOr404 } from '../lookup.js';
import { brokerKind } from './organizations.js';

const schemas = resourceSchemas(brokerKind);
const text = z.string().max(255);
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** Production's closed attribute set of a broker. */
const attributes = {
  name: text.min(1),
  domain: nullable(text),
  reply_to_email: nullable(emailAddress().max(255)),
  logo_url: text.optional().describe('Deprecated: or send `logo`.'),
  logo: logoUpload.optional().describe('An image {mime_type, contents (base64)}: stored and served by the sandbox as `logo_url`.'),
  favicon_url: text,
  support_url: nullable(text),
  contact_url: nullable(text),
  style: brokerStyle,
};

const createRequest = resourceRequest({
  id: 'BrokerCreateRequest',
  attributes: z
    .strictObject(attributes)
    .refine((value) => value.logo !== undefined || value.logo_url !== undefined, { message: 'logo or logo_url is required', path: ['logo_url'] }),
  relationships: z.object({ enterprise: toOneRef }),
});

const updateRequest = resourceRequest({
  id: 'BrokerUpdateRequest',
  update: true,
  attributes: z.strictObject(attributes).partial().default({}),
  // Optional, as in production's update (its `data` requires only `type` and `id`); sent, it must
  // name the enterprise, as production's relationships object requires.
  // Kept as sent, as on create.
  relationships: z.object({ enterprise: toOneRef }).optional(),
});

type Attributes = z.output<typeof updateRequest>['data']['attributes'];

/**
 * Stored fields of sent attributes (the logo aside): `null` removes an optional one. A `logo_url`
 * replaces an uploaded logo, unless it is that logo's own URL (a client sending the broker back as
 * it read it): storing it would remove the logo it points at.
 */
function changesOf(sent: Attributes, before?: BrokerRecord): Partial<BrokerRecord> {
  const { logo: _upload, logo_url: logoUrl, ...rest } = sent;
  const changes: Partial<BrokerRecord> = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, value ?? undefined]));
  const ownLogo = before?.logo_id !== undefined && logoUrl !== undefined && URL.canParse(logoUrl) && new URL(logoUrl).pathname === logoPath(before.logo_id);
  if (logoUrl !== undefined && !ownLogo) Object.assign(changes, { logo_url: logoUrl, logo_id: undefined });
  return changes;
}

/** The broker a request names: a tenant sees only its own (another is 404); the admin token any. */
function brokerOf(ctx: Ctx, id: string): BrokerRecord {
  return findOr404(ctx, 'brokers', 'brokers', id, (row) => !ctx.principal || row.id === ctx.principal.brokerId);
}

async function saveBroker(ctx: Ctx, sent: Attributes, enterpriseId: string | undefined, existing?: BrokerRecord): Promise<BrokerRecord> {
  const logo = sent.logo && (await decodeLogo(sent.logo, ctx.settings.logoMaxBytes, { attribute: 'logo' }, ctx.rules.libraries));
  const now = ctx.clock.now();
  return ctx.store.transact((tx) => {
    const before = existing && tx.get('brokers', existing.id);
    if (existing && !before) throw ApiError.notFound('brokers', existing.id);
    const changes = { ...changesOf(sent, before), ...(enterpriseId !== undefined ? { enterprise_id: enterpriseId } : {}) };
    const row = before ? tx.update('brokers', before.id, changes) : tx.insert('brokers', { ...(changes as BrokerRecord), id: tx.newId(), created_at: now });
    const replaced = (logo || 'logo_id' in changes) && before?.logo_id;
    if (replaced) tx.remove('logos', replaced);
    return logo ? tx.update('brokers', row.id, { logo_id: insertLogo(tx, row.id, logo, now), logo_url: undefined }) : row;
  });
}

const params = z.object({ broker_id: z.string() });
const carrierList = z
  .object({
    data: z
      .array(z.object({ type: z.string(), id: z.string() }))
      .min(1)
      .max(100),
  })
  .meta({ id: 'CarrierIdentifierList' });

async function linkCarriers(ctx: Ctx, brokerId: string, data: z.output<typeof carrierList>['data'], add: boolean): Promise<Response> {
  const broker = brokerOf(ctx, brokerId);
  if (ctx.principal) throw brokerOnly(add ? "Adding carriers to a broker's offer" : "Taking carriers from a broker's offer");
  const ids = data.map((entry, index) => {
    if (entry.type !== 'carriers')
      throw ApiError.of('conflict', `This relationship holds resources of type 'carriers', not '${entry.type}'.`, {
        source: { pointer: `/data/${index}/type` },
      });
    const carrier = ctx.store.get('carriers', entry.id);
    // A carrier a pack gave one tenant is as unknown to a broker other tenants share as a contract template finds it.
    if (!carrier || !brokerMayNameTenantRow(ctx.store, broker.id, carrier.organization_id))
      throw unknownRelated('carriers', 'carriers', entry.id, `/data/${index}/id`);
    return entry.id;
  });
  await ctx.store.transact((tx) => {
    const current = tx.get('brokers', broker.id);
    if (!current) throw ApiError.notFound('brokers', broker.id);
    const offered = brokerCarrierIds(tx, current);
    const next = add ? [...offered, ...ids.filter((id) => !offered.includes(id))] : offered.filter((id) => !ids.includes(id));
    tx.update('brokers', broker.id, { carrier_ids: [...new Set(next)] });
  });
  return new Response(null, { status: 204 });
}

export const brokerWriteEndpoints = [
  endpoint({
    method: 'post',
    path: '/brokers',
    operationId: 'createBroker',
    summary: 'Create a broker',
    description: `${BROKER_ONLY} Enterprises are not emulated: \`relationships.enterprise\` is kept as sent. \`logo\` or \`logo_url\` is required.`,
    tag: 'Organizations',
    auth: { anyOf: ['enterprises.manage'], admin: true },
    body: createRequest,
    responses: {
      201: { description: 'The new broker; `Location` holds its URL.', schema: schemas.document },
      403: { description: "A tenant's access token (10013).", schema: errorDocument },
      409: { description: 'The body `type` is not `brokers` (10007).', schema: errorDocument },
      422: { description: 'A refused logo (10008).', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      if (ctx.principal) throw brokerOnly('Creating a broker');
      checkIdentity(body.data, 'brokers');
      const enterpriseId = relatedId(body.data.relationships.enterprise, 'enterprise', ['enterprises'])!;
      const row = await saveBroker(ctx, body.data.attributes, enterpriseId);
      return jsonApi(resourceDocument(ctx, brokerKind, row), 201, { location: ctx.url(brokerKind.self(row)) });
    },
  }),
  endpoint({
    method: 'patch',
    path: '/brokers/{broker_id}',
    operationId: 'updateBroker',
    summary: 'Update a broker',
    description: `${BROKER_ONLY} Only the attributes sent change (\`null\` removes an optional one).`,
    tag: 'Organizations',
    auth: { anyOf: ['enterprises.manage', 'brokers.manage'], admin: true },
    params,
    body: updateRequest,
    responses: {
      200: { description: 'The whole updated broker.', schema: schemas.document },
      403: { description: "A tenant's access token (10013).", schema: errorDocument },
      409: { description: 'The body `type` or `id` does not match (10007).', schema: errorDocument },
      422: { description: 'A refused logo, or no enterprise (`data: null`) (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params, body }) => {
      const broker = brokerOf(ctx, params.broker_id);
      if (ctx.principal) throw brokerOnly('Changing a broker');
      checkIdentity(body.data, 'brokers', broker.id);
      // Left out, the enterprise stays; sent as `{"data": null}` it is none (422).
      const sent = body.data.relationships;
      const enterpriseId = sent && relatedId(sent.enterprise, 'enterprise', ['enterprises']);
      return jsonApi(resourceDocument(ctx, brokerKind, await saveBroker(ctx, body.data.attributes, enterpriseId, broker)));
    },
  }),
  endpoint({
    method: 'get',
    path: '/brokers/{broker_id}/carriers',
    operationId: 'listBrokerCarriers',
    summary: "List a broker's carriers",
    description:
      "The carriers the broker offers its organizations: an organization adds own contracts (POST /contracts) only for these. A client sees its own broker's only (another's id is 404).",
    tag: 'Organizations',
    auth: { anyOf: ['broker.member', 'enterprise.manage', 'brokers.manage'] },
    params,
    paginated: true,
    responses: { 200: { description: "The broker's carriers.", schema: resourceSchemas(carrierKind).list } },
    handler: (ctx, { params, page }) => {
      const broker = brokerOf(ctx, params.broker_id);
      const ids = new Set(brokerCarrierIds(ctx.store, broker));
      const rows = ctx.store.all('carriers').filter((row) => ids.has(row.id) && carrierVisible(ctx, row));
      return jsonApi(collectionDocument(ctx, carrierKind, rows, page, []));
    },
  }),
  ...(['post', 'delete'] as const).map((method) =>
    endpoint({
      method,
      path: '/brokers/{broker_id}/relationships/carriers',
      operationId: method === 'post' ? 'addBrokerCarriers' : 'removeBrokerCarriers',
      summary: method === 'post' ? "Add carriers to a broker's offer" : "Take carriers from a broker's offer",
      description:
        `${BROKER_ONLY} ` +
        (method === 'post'
          ? 'Its organizations can then add own contracts for these carriers.'
          : 'Its organizations can no longer add own contracts for these carriers; contracts that exist stay.') +
        " An unknown carrier is 422 and nothing changes; a carrier a pack gave one tenant is unknown here unless that tenant's pack made the broker.",
      tag: 'Organizations',
      auth: { anyOf: ['enterprise.manage'], admin: true },
      params,
      body: carrierList,
      responses: {
        204: { description: method === 'post' ? 'Added.' : 'Taken away.' },
        403: { description: "A tenant's access token (10013).", schema: errorDocument },
        409: { description: 'An entry whose type is not `carriers` (10007).', schema: errorDocument },
        422: { description: 'An unknown carrier (10008).', schema: errorDocument },
      },
      handler: (ctx, { params, body }) => linkCarriers(ctx, params.broker_id, body.data, method === 'post'),
    }),
  ),
];
