// The tenant reset: what a tenant made is removed and what it was seeded with is put back; the clock and other tenants are untouched.
import { ApiError, type ErrorSource } from '../jsonapi/errors.js';
import type { ClientRecord } from '../model/tenancy.js';
import type { Services } from '../http/services.js';
import { shareContract, unshareContract } from '../domain/organizations.js';
import { Removal, clearOrganization, clientsOfOrganization } from '../domain/removals.js';
import { tenantEntry } from '../domain/tenant-lifetime.js';
import type { Row, StateData, TableName } from '../store/tables.js';
import { topUp } from '../domain/collections/schedules.js';
import { brokerContracts } from './tenants.js';
import { forgetExampleRows } from '../docs/examples/index.js';
import { getSetting, WORLD_KEYS } from '../store/settings.js';
import type { KeyMaps } from './tenant-world.js';

/** What a tenant reset removed and restored, by table. */
export interface TenantResetSummary {
  reset: 'tenant';
  client_id: string;
  organization_id: string;
  removed: Record<string, number>;
  restored: Record<string, number>;
}

export function snakeKeys(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).map(([key, value]) => [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), value]));
}

/**
 * The organization a client acts for, or 404 (10002) on `source` (the body's `/client_id` unless
 * the id came in the query). With `within` (the organization of a tenant's token), a client of
 * another organization is unknown as well.
 */
export function tenantOf(
  services: Services,
  clientId: string,
  within?: string,
  source: ErrorSource = { pointer: '/client_id' },
): { client: ClientRecord; organizationId: string } {
  const { store } = services;
  const client = store.get('clients', clientId);
  const user = client && store.get('users', client.user_id);
  const organization = user && store.get('organizations', user.organization_id);
  if (!client || !organization || (within !== undefined && organization.id !== within)) {
    throw ApiError.of('resourceNotFound', `No client with client_id '${clientId}' exists${within !== undefined ? ' in your organization' : ''}.`, {
      source,
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
  const fixture: StateData | undefined = apiSeed ? undefined : (await import('../fixtures/generate.js')).generateState(store.seed, now, services.fixtures);
  const isFixture = fixture?.tables.organizations?.some((row) => row.id === organizationId) ?? false;
  // A start pack's organization (the data keeps what the pack's keys became) that this start cannot
  // seed again, because it was given another pack or none: the reset would remove what the tenant
  // made and put nothing back, so it is refused and the flag to start with is named.
  if (!apiSeed && !isFixture && Object.values(getSetting<KeyMaps>(store, WORLD_KEYS)?.organizations ?? {}).includes(organizationId)) {
    throw ApiError.unprocessable(
      `Client '${clientId}' acts for an organization the start pack (--fixtures) of this data file seeded, and this sandbox was started without that pack, so its seeded rows cannot be put back: start the sandbox with the same --fixtures to reset it.`,
      within === undefined ? '/client_id' : undefined,
    );
  }

  return store.transact((tx) => {
    // Again in the transaction: the tenant may have gone (deleted, expired, a sandbox reset) while the seed was generated.
    tenantOf(services, clientId, within);
    const removal = new Removal(tx);
    const restored: Record<string, number> = {};
    const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

    const shops = tx.find('shops', 'organization_id', organizationId);
    clearOrganization(removal, organizationId);
    // The API reference's example rows went with the rest: the page makes them again.
    forgetExampleRows(tx, organizationId);

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
        ? (fixture!.tables.contractShares ?? []).filter((row) => row.organization_id === organizationId).map((row) => row.contract_id)
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

    // What packs loaded into the tenant comes back as it was loaded.
    for (const [table, rows] of Object.entries(apiSeed?.rows ?? {}) as [TableName, Row<TableName>[]][]) {
      const back = rows.filter((row) => !tx.get(table, row.id));
      for (const row of back) tx.insert(table, row as never);
      if (back.length > 0) restored[table] = (restored[table] ?? 0) + back.length;
      if (table === 'collectionSchedules') for (const schedule of back) topUp(tx, services.rules.forTenant(organizationId), schedule as never, now);
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
