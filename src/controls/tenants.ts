import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hashSecret } from '../auth/secrets.js';
import { MAX_TENANT_TTL } from '../config.js';
import { endpoint } from '../http/endpoint.js';
import { ApiError } from '../jsonapi/errors.js';
import { scopes, type ClientRecord } from '../model/tenancy.js';
import type { Services } from '../services.js';
import { putSetting } from '../store/settings.js';
import type { ReadView, Tx } from '../store/store.js';
import { shareContract, unshareContract } from '../domain/organizations.js';
import type { OrganizationRemoval } from '../domain/removals.js';
import { Removal, clearOrganization, clientsOfOrganization } from '../domain/removals.js';
import { EXPIRE_TENANT, apiTenants, removeExpiredTenants, removeTenant, tenantEntry, tenantSettingId, type TenantEntry } from '../domain/tenant-lifetime.js';
import type { StateData } from '../store/tables.js';
import { globalOnly } from '../http/control-access.js';
import { errorResponse } from './responses.js';
import { forgetTenant } from './forget.js';
import { plainJson } from '../http/respond.js';

export const tenantCountries = ['NL', 'GB', 'DE'] as const;

export const tenantRequest = z
  .strictObject({
    name: z.string().min(1).max(255).optional().describe('Name of the organization and the client (default: a generated company name)'),
    country_code: z.enum(tenantCountries).optional().describe('Country of the organization and its shop (default NL)'),
    ttl: z
      .number()
      .int()
      .min(1)
      .max(MAX_TENANT_TTL)
      .optional()
      .describe(
        `Seconds on the sandbox clock until the tenant and everything it owns is removed (1 to ${MAX_TENANT_TTL}, 30 days); without it the tenant stays until it is deleted or the sandbox is reset`,
      ),
  })
  .meta({ id: 'SandboxTenantRequest' });

const tenantCreated = z
  .object({
    client_id: z.string(),
    client_secret: z.string().describe('Shown only in this answer; the sandbox keeps only its SHA-256 digest.'),
    organization_id: z.string(),
    shop_id: z.string(),
    expires_at: z.number().int().optional().describe('When the tenant is removed, Unix seconds on the sandbox clock; only for a tenant created with a ttl.'),
  })
  .meta({ id: 'SandboxTenant' });

/** A number to seed the tenant's faker with, from its organization id: same id, same content. */
function seedOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0);
}

/** Seconds a creation refused at the cap is told to wait (Retry-After): a tenant may be deleted or expire by then. */
export const TENANT_CAP_RETRY_AFTER = 60;

/**
 * Makes room for one more tenant: removes the tenants whose time is up, then, while as many
 * tenants as the cap allows exist, the oldest ephemeral one. Refuses with 429 (10011) when none can go.
 */
function makeRoom(services: Services, tx: Tx): { expired: OrganizationRemoval[]; evicted: OrganizationRemoval[] } {
  const { clocks, config } = services;
  const expired = removeExpiredTenants(tx, (organizationId) => clocks.of(organizationId));
  const evicted: OrganizationRemoval[] = [];
  let tenants = apiTenants(tx);
  while (tenants.length >= config.maxTenants) {
    const oldest = tenants.find(({ entry }) => entry.expires_at !== undefined);
    if (!oldest) {
      throw ApiError.of(
        'tooManyRequests',
        `The sandbox holds ${tenants.length} tenants, its cap (MAX_TENANTS = ${config.maxTenants}), and none of them has a ttl, so none can make way. ` +
          'Delete one (DELETE /_sandbox/tenants/{organization_id}), create tenants with a ttl, or start the sandbox with a larger --max-tenants.',
        { headers: { 'retry-after': String(TENANT_CAP_RETRY_AFTER) } },
      );
    }
    const removal = removeTenant(tx, oldest.organizationId);
    if (removal) evicted.push(removal);
    tenants = tenants.filter((tenant) => tenant !== oldest);
  }
  return { expired, evicted };
}

/**
 * Creates an organization under the fixture broker with one shop, a user and a client holding
 * every scope. The client id and secret are random; the secret is returned once and stored only
 * as its digest. With a `ttl` the tenant is removed when the sandbox clock passes its
 * `expires_at` (a job on the sandbox clock). At the cap (`MAX_TENANTS`) the oldest ephemeral
 * tenant makes way first.
 */
export async function createTenant(services: Services, request: z.output<typeof tenantRequest> = {}, options: { visitor?: boolean } = {}) {
  // The fixture helpers bring faker: loaded when the first tenant is made, not at start-up.
  const { seededFakers } = await import('../fixtures/people.js');
  const { fakeOrganization, fakeShop, fakeUser } = await import('../fixtures/tenancy.js');
  // A new tenant follows the global clock until it moves its own.
  const { store, clock, rules } = services;
  const country = request.country_code ?? 'NL';
  const secret = randomBytes(24).toString('base64url');
  const { created, expired, evicted } = await store.transact((tx) => {
    const room = makeRoom(services, tx);
    const broker = tx.all('brokers')[0];
    if (!broker) throw new Error('the sandbox has no broker to create a tenant under');
    let clientId: string;
    do clientId = `tenant-${randomBytes(4).toString('hex')}`;
    while (tx.get('clients', clientId));
    const now = clock.now();
    const organizationId = tx.newId();
    const faker = seededFakers(seedOf(organizationId))[country];
    const organization = fakeOrganization(faker, country, {
      id: organizationId,
      brokerId: broker.id,
      createdAt: now,
      ...(request.name !== undefined ? { name: request.name } : {}),
    });
    const user = fakeUser(faker, { id: tx.newId(), organizationId });
    const shop = fakeShop(faker, country, { id: tx.newId(), organizationId, createdAt: now });
    const client: ClientRecord = {
      id: clientId,
      name: request.name ?? `${organization.name} (${clientId})`,
      secret_sha256: hashSecret(secret),
      user_id: user.id,
      scopes: [...scopes],
      token_generation: 0,
    };
    tx.insert('organizations', organization);
    tx.insert('users', user);
    tx.insert('shops', shop);
    tx.insert('clients', client);
    // Like the fixture organizations, a tenant gets every contract of the broker shared with it.
    const shared = brokerContracts(tx, broker.id);
    for (const contract of shared) shareContract(tx, contract, organizationId);
    const expiresAt = request.ttl === undefined ? undefined : now + request.ttl;
    putSetting(tx, tenantSettingId(organizationId), {
      client_id: clientId,
      shops: [shop],
      contract_ids: shared.map((row) => row.id),
      organization,
      created_at: now,
      ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
      ...(options.visitor ? { visitor: true as const } : {}),
    } satisfies TenantEntry);
    // Scheduled by the tenant's rules, the job is due on the tenant's own clock.
    if (expiresAt !== undefined) rules.forTenant(organizationId).jobs.schedule(tx, { kind: EXPIRE_TENANT, subject: organizationId, dueMs: expiresAt * 1000 });
    return {
      ...room,
      created: {
        client_id: clientId,
        client_secret: secret,
        organization_id: organizationId,
        shop_id: shop.id,
        ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
      },
    };
  });
  for (const removal of expired) forgetTenant(services, removal, 'expired');
  for (const removal of evicted) forgetTenant(services, removal, 'evicted');
  return created;
}

const brokerContracts = (store: ReadView, brokerId: string) =>
  store.all('contracts').filter((row) => row.owner.type === 'brokers' && row.owner.id === brokerId);

/** What a tenant reset removed and restored, by table. */
export interface TenantResetSummary {
  reset: 'tenant';
  client_id: string;
  organization_id: string;
  removed: Record<string, number>;
  restored: Record<string, number>;
}

function snakeKeys(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]));
}

/**
 * The organization a client acts for, or 404 (10002) on `/client_id`. With `within` (the
 * organization of a tenant's token), a client of another organization is unknown as well.
 */
export function tenantOf(services: Services, clientId: string, within?: string): { client: ClientRecord; organizationId: string } {
  const { store } = services;
  const client = store.get('clients', clientId);
  const user = client && store.get('users', client.user_id);
  const organization = user && store.get('organizations', user.organization_id);
  if (!client || !organization || (within !== undefined && organization.id !== within)) {
    throw ApiError.of('resourceNotFound', `No client with client_id '${clientId}' exists${within !== undefined ? ' in your organization' : ''}.`, {
      source: { pointer: '/client_id' },
    });
  }
  return { client, organizationId: organization.id };
}

/** The ids of every client of an organization (its users' clients). */
export function clientsOf(services: Services, organizationId: string): Set<string> {
  return new Set(clientsOfOrganization(services.store, organizationId));
}

/**
 * Resets one tenant: removes its organization's shipments (with their statuses, files, surcharges,
 * jobs and hook logs), hooks, collections (with their schedules and manifests), logos, address
 * book, zones, idempotency entries of its clients, its own contracts (with their rates and
 * coverages) and its returns data (returns, payments, reports, demo orders and the returns
 * configuration); then restores its shops and the broker contracts shared with it as seeded.
 * Fixture organizations get their seeded shops, own contracts, upcoming collections and returns
 * configuration back; tenants created through the
 * control API get their one shop as it was created. Clients, users, tokens and the tenant's clock
 * are untouched.
 */
export async function resetTenant(services: Services, clientId: string, within?: string): Promise<TenantResetSummary> {
  const { store, clocks } = services;
  const { organizationId } = tenantOf(services, clientId, within);
  const apiSeed = tenantEntry(store, organizationId);
  // Seeded upcoming collections lie ahead of the tenant's clock, which the reset leaves where it is.
  const now = clocks.of(organizationId).now();
  const fixture: StateData | undefined = apiSeed ? undefined : (await import('../fixtures/generate.js')).generateState(store.seed, now);
  const isFixture = fixture?.tables.organizations?.some((row) => row.id === organizationId) ?? false;

  return store.transact((tx) => {
    const removal = new Removal(tx);
    const restored: Record<string, number> = {};
    const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

    const shops = tx.find('shops', 'organization_id', organizationId);
    clearOrganization(removal, organizationId);

    // The organization's own attributes (PATCH /organizations) as seeded, where the seed is known.
    let organization = tx.get('organizations', organizationId)!;
    const seededOrganization = apiSeed ? apiSeed.organization : fixture?.tables.organizations?.find((row) => row.id === organizationId);
    if (seededOrganization) {
      if (organization.logo_id) removal.drop('logos', [organization.logo_id]);
      tx.remove('organizations', organizationId);
      organization = tx.insert('organizations', seededOrganization);
      restored.organizations = 1;
    }

    // The broker's contracts shared with it as seeded: no more, no fewer.
    const seededShares = apiSeed
      ? apiSeed.contract_ids
      : isFixture
        ? (fixture!.tables.contracts ?? []).filter((row) => row.owner.type === 'brokers' && row.shared_with?.includes(organizationId)).map((row) => row.id)
        : undefined;
    for (const contract of brokerContracts(tx, organization.broker_id)) {
      if (!seededShares || seededShares.includes(contract.id)) shareContract(tx, contract, organizationId);
      else unshareContract(tx, contract, organizationId);
    }

    // Shops back to their seeded state: those added since are removed, the seeded ones restored.
    const seededShops = apiSeed ? apiSeed.shops : isFixture ? (fixture!.tables.shops ?? []).filter((row) => row.organization_id === organizationId) : undefined;
    if (seededShops) {
      const seededIds = new Set(ids(seededShops));
      removal.drop('shops', ids(shops.filter((shop) => !seededIds.has(shop.id))));
      for (const shop of seededShops) {
        if (tx.get('shops', shop.id)) tx.remove('shops', shop.id);
        tx.insert('shops', shop);
      }
      restored.shops = seededShops.length;
    } else {
      // Not seeded in any way we know: keep the shops, without the logos just removed.
      for (const shop of shops) if (shop.logo_id) tx.update('shops', shop.id, { logo_id: undefined });
    }

    if (isFixture && fixture) {
      const own = (fixture.tables.contracts ?? []).filter((row) => row.owner.type === 'organizations' && row.owner.id === organizationId);
      const ownIds = new Set(ids(own));
      const rates = (fixture.tables.serviceRates ?? []).filter((row) => ownIds.has(row.contract_id));
      const coverages = (fixture.tables.liabilityCoverages ?? []).filter((row) => ownIds.has(row.contract_id));
      const seededShopIds = new Set(ids(seededShops ?? []));
      const collections = (fixture.tables.collections ?? []).filter((row) => seededShopIds.has(row.shop_id));
      for (const row of own) tx.insert('contracts', row);
      for (const row of rates) tx.insert('serviceRates', row);
      for (const row of coverages) tx.insert('liabilityCoverages', row);
      for (const row of collections) tx.insert('collections', row);
      restored.contracts = own.length;
      restored.serviceRates = rates.length;
      restored.liabilityCoverages = coverages.length;
      restored.collections = collections.length;
      const returnTables = ['returnReasons', 'returnQuestions', 'shopReasons', 'returnTags', 'returnMethods', 'demoOrders'] as const;
      for (const table of returnTables) {
        const rows = ((fixture.tables[table] ?? []) as { id: string; organization_id: string }[]).filter((row) => row.organization_id === organizationId);
        for (const row of rows) tx.insert(table, row as never);
        restored[table] = rows.length;
      }
    }
    removal.dropJobs();
    return { reset: 'tenant', client_id: clientId, organization_id: organizationId, removed: snakeKeys(removal.removed), restored: snakeKeys(restored) };
  });
}

const tenantListEntry = z
  .object({
    organization_id: z.string(),
    client_id: z.string(),
    name: z.string().describe("The organization's name"),
    created_at: z.number().int().optional().describe('Unix seconds, sandbox clock'),
    expires_at: z.number().int().optional().describe('When the tenant is removed, Unix seconds on the sandbox clock; absent for a tenant without a ttl'),
    visitor: z.literal(true).optional().describe('Made for a visitor of the API reference page (--tenant-per-visitor)'),
  })
  .meta({ id: 'SandboxTenantListEntry' });

const tenantList = z
  .object({
    data: z.array(tenantListEntry).describe('Oldest first: at the cap, the first with an expires_at makes way for a new tenant'),
    max_tenants: z.number().int().describe('The cap (MAX_TENANTS)'),
  })
  .meta({ id: 'SandboxTenantList' });

const tenantDeleted = z
  .object({
    deleted: z.literal('tenant'),
    organization_id: z.string(),
    client_ids: z.array(z.string()).describe('Its clients, gone with it: their tokens answer 401'),
    removed: z.record(z.string(), z.number().int()).describe('Rows removed, by table'),
  })
  .meta({ id: 'SandboxTenantDeleted' });

/** A tenant as the list shows it. */
function listed(store: ReadView, organizationId: string, entry: TenantEntry): z.output<typeof tenantListEntry> {
  return {
    organization_id: organizationId,
    client_id: entry.client_id,
    name: store.get('organizations', organizationId)?.name ?? entry.organization?.name ?? '',
    ...(entry.created_at !== undefined ? { created_at: entry.created_at } : {}),
    ...(entry.expires_at !== undefined ? { expires_at: entry.expires_at } : {}),
    ...(entry.visitor ? { visitor: true as const } : {}),
  };
}

/**
 * The tenant an organization id or a client id names, created through the control API. With
 * `within` (a tenant's own token) only that organization is known: 404 for any other. A seeded
 * organization is no such tenant: 422.
 */
function apiTenantOf(services: Services, id: string, within?: string): { organizationId: string } {
  const { store } = services;
  let organizationId = store.get('organizations', id)?.id;
  if (organizationId === undefined) {
    const client = store.get('clients', id);
    organizationId = client && store.get('users', client.user_id)?.organization_id;
  }
  if (organizationId === undefined || (within !== undefined && organizationId !== within)) {
    throw ApiError.of('resourceNotFound', `No tenant with organization id or client id '${id}' exists${within !== undefined ? ' in your organization' : ''}.`);
  }
  if (!tenantEntry(store, organizationId)) {
    throw ApiError.unprocessable(
      `Organization '${organizationId}' is one of the seeded organizations, not a tenant created with POST /_sandbox/tenants, and cannot be deleted; POST /_sandbox/reset {"client_id": ...} restores it as seeded.`,
    );
  }
  return { organizationId };
}

/** Deletes a tenant created through the control API, with everything it owns. */
async function deleteTenant(services: Services, id: string, within?: string) {
  const { organizationId } = apiTenantOf(services, id, within);
  const removal = await services.store.transact((tx) => removeTenant(tx, organizationId));
  if (!removal) throw ApiError.of('resourceNotFound', `No tenant with organization id or client id '${id}' exists.`);
  forgetTenant(services, removal, 'deleted');
  return { deleted: 'tenant' as const, organization_id: organizationId, client_ids: removal.clientIds, removed: snakeKeys(removal.removed) };
}

const json = ['application/json'] as const;

export const tenantEndpoints = [
  endpoint({
    method: 'post',
    path: '/_sandbox/tenants',
    operationId: 'createSandboxTenant',
    summary: 'Create an isolated tenant with fresh client credentials',
    description:
      'Creates an organization under the sandbox broker with one shop (sender and return address filled), a user and a client with every scope (`organizations.manage shipments.manage shops.manage`). The client sees the shared catalogue and the broker contracts, and nothing of other tenants, so parallel test runs cannot collide. ' +
      `The body is optional: \`{"name"?: string, "country_code"?: "NL" | "GB" | "DE", "ttl"?: seconds}\` (schema \`SandboxTenantRequest\`). With a \`ttl\` (1 to ${MAX_TENANT_TTL}, 30 days) the tenant is ephemeral: the answer says when it expires (\`expires_at\`, Unix seconds on the sandbox clock), and once the sandbox clock passes that moment the tenant is removed with everything it owns (its tokens answer 401 from that moment). ` +
      'At most MAX_TENANTS (default 1000) tenants made this way exist at once: at the cap the oldest ephemeral tenant is removed to make way, and when none has a ttl the request is refused with 429 (10011) and a Retry-After header. ' +
      'The `client_secret` is shown only in this answer. `POST /_sandbox/reset {"client_id": ...}` restores the tenant to this state; `DELETE /_sandbox/tenants/{id}` removes it. Only the admin token (or no token, on a sandbox without one) may create tenants; a tenant\'s access token gets 403.',
    tag: 'Sandbox',
    auth: 'control',
    body: tenantRequest,
    bodyOptional: true,
    produces: json,
    responses: {
      201: { description: 'The new tenant and its client credentials.', schema: tenantCreated, contentTypes: json },
      400: errorResponse(
        'The body is not JSON or violates SandboxTenantRequest, e.g. a ttl that is not a whole number of seconds from 1 to 30 days (10003, pointer /ttl).',
      ),
      403: errorResponse("A tenant's access token, or no token from a web page of another origin (10013)."),
      429: errorResponse('The cap (MAX_TENANTS) is reached and no tenant has a ttl, so none can make way (10011); Retry-After says when to try again.'),
    },
    handler: async (ctx, { body }) => {
      if (ctx.principal) throw globalOnly('Creating a tenant');
      return plainJson(await createTenant(ctx.services, body), 201);
    },
  }),
  endpoint({
    method: 'get',
    path: '/_sandbox/tenants',
    operationId: 'listSandboxTenants',
    summary: 'List the tenants created through the controls, with their expiry',
    description:
      "Every tenant created with POST /_sandbox/tenants (or for a visitor of the API reference page) that still exists, oldest first, with when it expires, and the cap. The seeded organizations are not listed. With a tenant's access token only that tenant is listed (nothing, for a seeded organization's token).",
    tag: 'Sandbox',
    auth: 'control',
    produces: json,
    responses: { 200: { description: 'The tenants, oldest first.', schema: tenantList, contentTypes: json } },
    handler: (ctx) => {
      const { store, config } = ctx.services;
      const within = ctx.principal?.organizationId;
      const data = apiTenants(store)
        .filter(({ organizationId }) => within === undefined || organizationId === within)
        .map(({ organizationId, entry }) => listed(store, organizationId, entry));
      return plainJson({ data, max_tenants: config.maxTenants });
    },
  }),
  endpoint({
    method: 'delete',
    path: '/_sandbox/tenants/{tenant}',
    operationId: 'deleteSandboxTenant',
    summary: 'Delete a tenant with everything it owns',
    description:
      "Removes a tenant created with POST /_sandbox/tenants, named by its organization id or one of its client ids, as its expiry would: the organization, its users and clients (their tokens answer 401 from now on), shops, shipments (with statuses, files, surcharges, jobs and hook logs), hooks, collections, manifests, own contracts (with rates), the shares of the broker's contracts with it, address book, zones, returns data, its clients' idempotency entries and request-log entries, and its settings. A tenant's access token may delete its own tenant only (another is unknown, 404). The seeded organizations cannot be deleted (422).",
    tag: 'Sandbox',
    auth: 'control',
    params: z.object({ tenant: z.string().min(1).describe('The organization id, or a client id, of the tenant') }),
    produces: json,
    responses: {
      200: { description: 'The tenant is gone; what was removed, by table.', schema: tenantDeleted, contentTypes: json },
      404: errorResponse("No organization or client with that id (in the organization of the token, with a tenant's token) (10002)."),
      422: errorResponse('A seeded organization, not a tenant created through the controls (10008).'),
    },
    handler: async (ctx, { params }) => plainJson(await deleteTenant(ctx.services, params.tenant, ctx.principal?.organizationId)),
  }),
];
