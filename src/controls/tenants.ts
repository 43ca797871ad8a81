import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hashSecret } from '../auth/secrets.js';
import { endpoint } from '../http/endpoint.js';
import { ApiError } from '../jsonapi/errors.js';
import type { ShopRecord } from '../model/shop.js';
import { scopes, type ClientRecord, type OrganizationRecord } from '../model/tenancy.js';
import type { Services } from '../services.js';
import { getSetting, putSetting } from '../store/settings.js';
import type { ReadView, Tx } from '../store/store.js';
import { shareContract, unshareContract } from '../domain/organizations.js';
import type { StateData } from '../store/tables.js';
import { globalOnly } from '../http/control-access.js';
import { errorResponse } from './responses.js';
import { plainJson } from '../http/respond.js';

export const tenantCountries = ['NL', 'GB', 'DE'] as const;

export const tenantRequest = z
  .strictObject({
    name: z.string().min(1).max(255).optional().describe('Name of the organization and the client (default: a generated company name)'),
    country_code: z.enum(tenantCountries).optional().describe('Country of the organization and its shop (default NL)'),
  })
  .meta({ id: 'SandboxTenantRequest' });

const tenantCreated = z
  .object({
    client_id: z.string(),
    client_secret: z.string().describe('Shown only in this answer; the sandbox keeps only its SHA-256 digest.'),
    organization_id: z.string(),
    shop_id: z.string(),
  })
  .meta({ id: 'SandboxTenant' });

/**
 * What a tenant created through the control API started with, kept to restore it on a tenant
 * reset: its shop, and the broker contracts shared with it (settings written before contracts were
 * shared one by one have none: then every contract of the broker).
 */
type TenantSeed = { client_id: string; shops: ShopRecord[]; contract_ids?: string[]; organization?: OrganizationRecord };

const tenantSetting = (organizationId: string) => `tenant:${organizationId}`;

/** A number to seed the tenant's faker with, from its organization id: same id, same content. */
function seedOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0);
}

/**
 * Creates an organization under the fixture broker with one shop, a user and a client holding
 * every scope. The client id and secret are random; the secret is returned once and stored only
 * as its digest.
 */
export async function createTenant(services: Services, request: z.output<typeof tenantRequest> = {}) {
  // The fixture helpers bring faker: loaded when the first tenant is made, not at start-up.
  const { seededFakers } = await import('../fixtures/people.js');
  const { fakeOrganization, fakeShop, fakeUser } = await import('../fixtures/tenancy.js');
  // A new tenant follows the global clock until it moves its own.
  const { store, clock } = services;
  const country = request.country_code ?? 'NL';
  const secret = randomBytes(24).toString('base64url');
  return store.transact((tx) => {
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
    putSetting(tx, tenantSetting(organizationId), {
      client_id: clientId,
      shops: [shop],
      contract_ids: shared.map((row) => row.id),
      organization,
    } satisfies TenantSeed);
    return { client_id: clientId, client_secret: secret, organization_id: organizationId, shop_id: shop.id };
  });
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
  const { store } = services;
  return new Set(
    store.find('users', 'organization_id', organizationId).flatMap((user) => store.find('clients', 'user_id', user.id).map((client) => client.id)),
  );
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
  const apiSeed = getSetting<TenantSeed>(store, tenantSetting(organizationId));
  // Seeded upcoming collections lie ahead of the tenant's clock, which the reset leaves where it is.
  const now = clocks.of(organizationId).now();
  const fixture: StateData | undefined = apiSeed ? undefined : (await import('../fixtures/generate.js')).generateState(store.seed, now);
  const isFixture = fixture?.tables.organizations?.some((row) => row.id === organizationId) ?? false;

  return store.transact((tx) => {
    const removed: Record<string, number> = {};
    const restored: Record<string, number> = {};
    const gone = new Set<string>();
    const drop = (table: Parameters<Tx['remove']>[0], ids: Iterable<string>) => {
      for (const id of ids) {
        if (!tx.get(table, id)) continue;
        tx.remove(table, id);
        gone.add(id);
        removed[table] = (removed[table] ?? 0) + 1;
      }
    };
    const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

    const shops = tx.find('shops', 'organization_id', organizationId);
    const shipments = tx.find('shipments', 'organization_id', organizationId);
    for (const shipment of shipments) {
      drop('shipmentStatuses', ids(tx.find('shipmentStatuses', 'shipment_id', shipment.id)));
      drop('files', ids(tx.find('files', 'shipment_id', shipment.id)));
      drop('shipmentSurcharges', ids(tx.find('shipmentSurcharges', 'shipment_id', shipment.id)));
    }
    drop('shipments', ids(shipments));

    drop('carrierSurcharges', ids(tx.find('carrierSurcharges', 'organization_id', organizationId)));
    drop('hookLogs', ids(tx.all('hookLogs').filter((row) => row.organization_id === organizationId)));
    drop('hooks', ids(tx.find('hooks', 'organization_id', organizationId)));

    const shopIds = new Set(ids(shops));
    drop('collections', ids(tx.all('collections').filter((row) => row.organization_id === organizationId || shopIds.has(row.shop_id))));
    drop('collectionSchedules', ids(tx.find('collectionSchedules', 'organization_id', organizationId)));
    drop('manifestFiles', ids(tx.all('manifestFiles').filter((row) => row.organization_id === organizationId)));
    drop('manifests', ids(tx.find('manifests', 'organization_id', organizationId)));
    for (const shop of shops) drop('logos', ids(tx.find('logos', 'shop_id', shop.id)));

    const contracts = tx.all('contracts').filter((row) => row.owner.type === 'organizations' && row.owner.id === organizationId);
    for (const contract of contracts) {
      drop('serviceRates', ids(tx.find('serviceRates', 'contract_id', contract.id)));
      drop('liabilityCoverages', ids(tx.find('liabilityCoverages', 'contract_id', contract.id)));
    }
    drop('contracts', ids(contracts));

    drop('addresses', ids(tx.find('addresses', 'organization_id', organizationId)));
    drop('zones', ids(tx.find('zones', 'organization_id', organizationId)));

    // The organization's own attributes (PATCH /organizations) as seeded, where the seed is known.
    let organization = tx.get('organizations', organizationId)!;
    const seededOrganization = apiSeed ? apiSeed.organization : fixture?.tables.organizations?.find((row) => row.id === organizationId);
    if (seededOrganization) {
      if (organization.logo_id) drop('logos', [organization.logo_id]);
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

    // The returns product: everything of the organization, its configuration restored below.
    const owned = <T extends { id: string; organization_id: string }>(rows: readonly T[]) => ids(rows.filter((row) => row.organization_id === organizationId));
    drop('returnPayments', owned(tx.all('returnPayments')));
    drop('returns', owned(tx.find('returns', 'organization_id', organizationId)));
    drop('returnReportFiles', owned(tx.all('returnReportFiles')));
    drop('returnReports', owned(tx.find('returnReports', 'organization_id', organizationId)));
    drop('demoOrders', owned(tx.find('demoOrders', 'organization_id', organizationId)));
    drop('returnMethods', owned(tx.find('returnMethods', 'organization_id', organizationId)));
    drop('returnTags', owned(tx.find('returnTags', 'organization_id', organizationId)));
    drop('shopReasons', owned(tx.all('shopReasons')));
    drop('returnQuestions', owned(tx.find('returnQuestions', 'organization_id', organizationId)));
    drop('returnReasons', owned(tx.find('returnReasons', 'organization_id', organizationId)));

    const clientIds = new Set(tx.find('users', 'organization_id', organizationId).flatMap((user) => ids(tx.find('clients', 'user_id', user.id))));
    drop('idempotencyKeys', ids(tx.all('idempotencyKeys').filter((row) => clientIds.has(row.client_id))));

    // Shops back to their seeded state: those added since are removed, the seeded ones restored.
    const seededShops = apiSeed ? apiSeed.shops : isFixture ? (fixture!.tables.shops ?? []).filter((row) => row.organization_id === organizationId) : undefined;
    if (seededShops) {
      const seededIds = new Set(ids(seededShops));
      drop('shops', ids(shops.filter((shop) => !seededIds.has(shop.id))));
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
    // Jobs are about a removed row: their subject is its id, or starts with it (webhook deliveries).
    drop('jobs', ids(tx.all('jobs').filter((job) => job.subject.split(':').some((part) => gone.has(part)))));
    return { reset: 'tenant', client_id: clientId, organization_id: organizationId, removed: snakeKeys(removed), restored: snakeKeys(restored) };
  });
}

const json = ['application/json'] as const;

export const tenantEndpoints = [
  endpoint({
    method: 'post',
    path: '/_sandbox/tenants',
    operationId: 'createSandboxTenant',
    summary: 'Create an isolated tenant with fresh client credentials',
    description:
      'Creates an organization under the sandbox broker with one shop (sender and return address filled), a user and a client with every scope (`organizations.manage shipments.manage shops.manage`). The client sees the shared catalogue and the broker contracts, and nothing of other tenants, so parallel test runs cannot collide. The body is optional: `{"name"?: string, "country_code"?: "NL" | "GB" | "DE"}` (schema `SandboxTenantRequest`). The `client_secret` is shown only in this answer. `POST /_sandbox/reset {"client_id": ...}` restores the tenant to this state. Only the admin token (or no token, on a sandbox without one) may create tenants; a tenant\'s access token gets 403.',
    tag: 'Sandbox',
    auth: 'control',
    body: tenantRequest,
    bodyOptional: true,
    produces: json,
    responses: {
      201: { description: 'The new tenant and its client credentials.', schema: tenantCreated, contentTypes: json },
      400: errorResponse('The body is not JSON or violates SandboxTenantRequest (10003).'),
      403: errorResponse("A tenant's access token, or no token from a web page of another origin (10013)."),
    },
    handler: async (ctx, { body }) => {
      if (ctx.principal) throw globalOnly('Creating a tenant');
      return plainJson(await createTenant(ctx.services, body), 201);
    },
  }),
];
