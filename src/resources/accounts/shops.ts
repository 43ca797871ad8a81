import { z } from 'zod';
import { decodeLogo, insertLogo, logoPath, logoUpload, type LogoUpload } from '../../domain/logos.js';
import type { Field } from '../../domain/errors.js';
import { principalOf, type Ctx, type Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { ApiError } from '../../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { linkTo, type ResourceObject } from '../../jsonapi/resource.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { validated } from '../../jsonapi/validation.js';
import { withoutNulls, type Address } from '../../model/common.js';
import { DEFAULT_LOCALE, requestShopBranding, shopAttributes, storedBranding, writableShopAttributes, type ShopRecord } from '../../model/shop.js';
import type { Tx } from '../../store/store.js';
import { csvIds, listHas } from '../../http/params.js';
import { findOr404 } from '../lookup.js';
import { returnPortalPath } from '../returns/portal.js';
import { readEndpoints } from '../read-endpoints.js';
import { shopIncludes } from '../include-paths.js';

/** The organization's billing address, for a shop of an older data file that has no address at all. */
function billingAddress(ctx: Ctx, row: ShopRecord): Address {
  return ctx.store.get('organizations', row.organization_id)?.billing_address ?? { street_1: 'Unknown', city: 'Unknown', country_code: 'NL' };
}

/** A client sees and changes only the shops of its own organization. */
export const shopVisible = (ctx: Ctx, row: ShopRecord): boolean => row.organization_id === ctx.principal?.organizationId;

export const shopKind: Kind<ShopRecord> = {
  type: 'shops',
  attributesSchema: shopAttributes,
  attributes: (row, ctx) => ({
    name: row.name,
    website: row.website,
    // Shops saved before both addresses were required may lack one: the other stands in.
    return_address: row.return_address ?? row.sender_address ?? billingAddress(ctx, row),
    sender_address: row.sender_address ?? row.return_address ?? billingAddress(ctx, row),
    reference: row.reference,
    // An uploaded logo's URL is built per request, so it follows the public URL or request host.
    logo_url: row.logo_id ? ctx.url(logoPath(row.logo_id)) : row.logo_url,
    style: row.style,
    branding: row.branding,
    locale: row.locale ?? DEFAULT_LOCALE,
    // A capability, not the shop id: the page opens without a token.
    return_portal_url: ctx.url(returnPortalPath(ctx.rules, row.id)),
    return_portal_locales: row.return_portal_locales,
    return_outcomes: { refund: true, exchange: row.return_outcomes?.exchange ?? false },
    email_subscriptions: row.email_subscriptions,
    created_at: row.created_at,
  }),
  relationships: {
    organization: { targets: ['organizations'], data: (row) => linkTo('organizations', row.organization_id) },
  },
  self: (row) => `/shops/${row.id}`,
  load: (ctx, id) => ctx.store.get('shops', id),
};

/** `data.meta` of requests and responses: the uploaded logo, echoed back as it was sent. */
const shopMeta = z.object({ logo: logoUpload.optional() }).meta({ id: 'ShopMeta' });
const schemas = resourceSchemas(shopKind, { meta: shopMeta });

// Clients send whole resources back, so read-only `created_at` is accepted and ignored.
const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');
const shape = writableShopAttributes;

/** Attributes are a closed set, as in production: an unknown attribute is a 400. `null` for one production lets be null is as if it were left out. */
const createAttributes = z
  .strictObject({
    ...writableShopAttributes,
    website: shape.website.nullable(),
    reference: shape.reference.nullable(),
    logo_url: shape.logo_url.nullable(),
    branding: requestShopBranding.optional(),
    created_at: readOnly,
    return_portal_url: readOnly,
  })
  .meta({ id: 'ShopCreateAttributes' });

/** Every attribute is optional on update; `null` removes an optional one (the addresses stay required). */
const updateAttributes = z
  .strictObject({
    name: shape.name.optional(),
    website: shape.website.nullable(),
    return_address: shape.return_address.optional(),
    sender_address: shape.sender_address.optional(),
    reference: shape.reference.nullable(),
    logo_url: shape.logo_url.nullable(),
    style: shape.style.nullable(),
    branding: requestShopBranding.nullable().optional(),
    locale: shape.locale.optional(),
    return_portal_locales: shape.return_portal_locales.nullable(),
    return_outcomes: shape.return_outcomes.nullable(),
    email_subscriptions: shape.email_subscriptions.nullable(),
    created_at: readOnly,
    return_portal_url: readOnly,
  })
  .meta({ id: 'ShopUpdateAttributes' });

const createRequest = resourceRequest({
  id: 'ShopCreateRequest',
  attributes: createAttributes,
  // Required, as production's contract has it: a body without it is a schema violation (400), as on every other create.
  relationships: z.object({ organization: toOneRef }),
  meta: shopMeta,
});

const updateRequest = resourceRequest({
  id: 'ShopUpdateRequest',
  attributes: updateAttributes.optional(),
  // Optional, as in production's update (its `data` requires only `type` and `id`); sent, it must
  // name the organization, as production's relationships object requires.
  // The shop stays with its organization (another is 422).
  relationships: z
    .object({ organization: toOneRef })
    .catchall(z.unknown())
    .optional()
    .describe('The organization cannot change: leave it out, or send the current one.'),
  meta: shopMeta,
  update: true,
});

type UploadSource = { data: { meta?: { logo?: LogoUpload } }; meta?: Record<string, unknown> };

/** The logo of `data.meta.logo`, or of top-level `meta.logo` (accepted too), with the field it was sent in. */
function uploadOf(body: UploadSource): { logo: LogoUpload; field: Field } | undefined {
  if (body.data.meta?.logo) return { logo: body.data.meta.logo, field: { resourceMeta: 'logo' } };
  if (body.meta?.logo === undefined) return undefined;
  return { logo: validated(logoUpload, body.meta.logo, 'pointer', ['meta', 'logo']), field: { meta: 'logo' } };
}

/** The response document, with the uploaded logo echoed in `data.meta.logo`. */
function shopDocument(ctx: Ctx, row: ShopRecord, include: readonly string[], logo: LogoUpload | undefined) {
  const document = resourceDocument(ctx, shopKind, row, include);
  if (logo) (document.data as ResourceObject).meta = { logo };
  return document;
}

async function createShop(ctx: Ctx, body: z.output<typeof createRequest>, include: readonly string[]): Promise<Response> {
  const principal = principalOf(ctx);
  checkIdentity(body.data, 'shops');
  const organizationId = relatedId(body.data.relationships.organization, 'organization', ['organizations'])!;
  if (organizationId !== principal.organizationId) throw unknownRelated('organization', 'organizations', organizationId);
  const upload = uploadOf(body);
  const logo = upload && (await decodeLogo(upload.logo, ctx.settings.logoMaxBytes, upload.field, ctx.rules.libraries));
  const now = ctx.clock.now();
  const { created_at: _ignored, return_portal_url: _derived, ...sent } = body.data.attributes;
  // `null` where production lets a member be null (at any depth) is the member left out.
  const attributes = withoutNulls(sent) as Omit<ShopRecord, 'id' | 'organization_id' | 'created_at'>;
  // Rendered in the transaction: while the shop waits to be durable, another request (a DELETE of
  // its organization) may remove what the answer includes.
  const { row, document } = await ctx.store.transact((tx) => {
    // Looked at again: the organization may have been removed (its tenant deleted) while the logo was checked.
    if (!tx.get('organizations', organizationId)) throw unknownRelated('organization', 'organizations', organizationId);
    const id = tx.newId();
    const shop = tx.insert('shops', { ...attributes, id, organization_id: organizationId, created_at: now });
    // An uploaded logo wins over a `logo_url` sent with it.
    const row = logo ? tx.update('shops', id, { logo_id: insertLogo(tx, id, logo, now), logo_url: undefined }) : shop;
    return { row, document: shopDocument(ctx, row, include, upload?.logo) };
  });
  return jsonApi(document, 201, { location: ctx.url(shopKind.self(row)) });
}

type UpdateAttributes = z.output<typeof updateAttributes>;

/** The attribute changes of an update, logo aside; `null` becomes `undefined`, which removes the key. */
function attributeChanges(attributes: UpdateAttributes): Partial<ShopRecord> {
  const { created_at: _ignored, return_portal_url: _derived, logo_url: _logo, branding, ...rest } = attributes;
  const changes: Partial<ShopRecord> = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, value ?? undefined]));
  return 'branding' in attributes ? { ...changes, branding: branding ? storedBranding(branding) : undefined } : changes;
}

/**
 * How the logo changes: a new upload replaces the stored logo; a `logo_url` replaces it too,
 * unless it is the stored logo's own URL (a client sending the resource back unchanged).
 */
function logoChanges(tx: Tx, before: ShopRecord, attributes: UpdateAttributes, uploadedId: string | undefined): Partial<ShopRecord> {
  let changes: Partial<ShopRecord> = {};
  if (uploadedId) changes = { logo_id: uploadedId, logo_url: undefined };
  else if ('logo_url' in attributes && !(before.logo_id && pointsAtLogo(attributes.logo_url, before.logo_id))) {
    changes = { logo_id: undefined, logo_url: attributes.logo_url ?? undefined };
  }
  if ('logo_id' in changes && before.logo_id) tx.remove('logos', before.logo_id);
  return changes;
}

const pointsAtLogo = (url: string | null | undefined, logoId: string): boolean =>
  typeof url === 'string' && URL.canParse(url) && new URL(url).pathname === logoPath(logoId);

async function updateShop(ctx: Ctx, shopId: string, body: z.output<typeof updateRequest>, include: readonly string[]): Promise<Response> {
  const shop = findOr404(ctx, 'shops', 'shops', shopId, (row) => shopVisible(ctx, row));
  checkIdentity(body.data, 'shops', shopId);
  const sent = body.data.relationships;
  if (sent && relatedId(sent.organization, 'organization', ['organizations']) !== shop.organization_id) {
    throw ApiError.unprocessable('A shop stays with its organization: `organization` can only be sent as it is.', '/data/relationships/organization/data/id');
  }
  const upload = uploadOf(body);
  const logo = upload && (await decodeLogo(upload.logo, ctx.settings.logoMaxBytes, upload.field, ctx.rules.libraries));
  const now = ctx.clock.now();
  const attributes = body.data.attributes ?? {};
  // Rendered in the transaction, as the create's answer is.
  const document = await ctx.store.transact((tx) => {
    // Read again inside the transaction: the row may have changed while the logo was checked.
    const before = tx.get('shops', shopId);
    if (!before) throw ApiError.notFound('shops', shopId);
    const uploadedId = logo && insertLogo(tx, shopId, logo, now);
    const row = tx.update('shops', shopId, { ...attributeChanges(attributes), ...logoChanges(tx, before, attributes, uploadedId) });
    return shopDocument(ctx, row, include, upload?.logo);
  });
  return jsonApi(document);
}

/** Every text a search may match: name, reference, website and both addresses. */
function searchable(row: ShopRecord): string[] {
  const address = (value: Address | undefined) => Object.values(value ?? {}).map(String);
  return [row.name, row.reference ?? '', row.website ?? '', ...address(row.sender_address), ...address(row.return_address)];
}

const query = z.object({
  'filter[name]': z.string().min(1).optional().describe('Only the shops with exactly this name.'),
  'filter[search]': z
    .string()
    .min(1)
    .optional()
    .describe('Only shops whose name, reference, website or an address field contains this text (case-insensitive).'),
  'filter[search.name]': z.string().min(1).optional().describe('Only shops whose name contains this text (case-insensitive).'),
  'filter[organization]': csvIds.optional().describe('Comma separated organization ids (a client only ever sees its own).'),
  'filter[broker]': csvIds.optional().describe('Comma separated broker ids: the shops of organizations of these brokers.'),
  'filter[returns_domain]': z.string().min(1).optional().describe('Only the shop whose return portal runs on this domain (`branding.returns.domain`).'),
});

const writeDescription =
  'Send a logo as `data.meta.logo` `{mime_type, contents}` (contents base64; png, jpeg, gif, webp or svg+xml, at most LOGO_MAX_BYTES once decoded): ' +
  'the sandbox stores it, serves it at `/logos/{logo_id}`, sets `logo_url` to that URL and echoes `meta.logo` in the response. ' +
  'An uploaded logo wins over a `logo_url` sent with it.';

export const shopEndpoints = [
  ...readEndpoints({
    kind: shopKind,
    include: shopIncludes,
    table: 'shops',
    tag: 'Shops',
    noun: 'shop',
    plural: 'shops',
    auth: { anyOf: ['organizations.manage', 'shipments.manage'] },
    schemas,
    query,
    description: "A client sees only its own organization's shops.",
    visible: shopVisible,
    filter: (ctx, rows, q) => {
      const needle = q['filter[search]']?.toLowerCase();
      const name = q['filter[search.name]']?.toLowerCase();
      const brokers = q['filter[broker]'];
      const brokerOf = (row: ShopRecord) => ctx.store.get('organizations', row.organization_id)?.broker_id ?? '';
      return rows.filter(
        (row) =>
          (!q['filter[name]'] || row.name === q['filter[name]']) &&
          (!name || row.name.toLowerCase().includes(name)) &&
          (!q['filter[organization]'] || listHas(q['filter[organization]'], row.organization_id)) &&
          (!brokers || brokers.includes(brokerOf(row))) &&
          (!q['filter[returns_domain]'] || row.branding?.returns?.domain === q['filter[returns_domain]']) &&
          (!needle || searchable(row).some((text) => text.toLowerCase().includes(needle))),
      );
    },
  }),
  endpoint({
    method: 'post',
    path: '/shops',
    operationId: 'createShop',
    summary: 'Create a shop',
    description: `\`relationships.organization\` must be the caller's own organization. ${writeDescription}`,
    tag: 'Shops',
    auth: { anyOf: ['shops.manage'] },
    body: createRequest,
    responses: {
      201: { description: 'The new shop; `Location` holds its URL.', schema: schemas.document },
      409: { description: 'The body `type` is not `shops` (10007).', schema: errorDocument },
      422: { description: "The organization is not the caller's, or the logo is refused (10008).", schema: errorDocument },
    },
    include: shopIncludes,
    handler: (ctx, { body, include }) => createShop(ctx, body, include),
  }),
  endpoint({
    method: 'patch',
    path: '/shops/{shop_id}',
    operationId: 'updateShop',
    summary: 'Update a shop',
    description: `Only the attributes sent change (\`null\` removes an optional one); \`created_at\` is read-only and ignored; \`relationships.organization\`, when sent, must be the shop's own. ${writeDescription}`,
    tag: 'Shops',
    auth: { anyOf: ['shops.manage'] },
    params: z.object({ shop_id: z.string() }),
    body: updateRequest,
    responses: {
      200: { description: 'The whole updated shop.', schema: schemas.document },
      409: { description: 'The body `type` is not `shops` or its `id` is not the one in the URL (10007).', schema: errorDocument },
      422: { description: 'The logo is refused (10008).', schema: errorDocument },
    },
    include: shopIncludes,
    handler: (ctx, { params, body, include }) => updateShop(ctx, params.shop_id, body, include),
  }),
];
