import type { CollectionRecord } from '../model/collection.js';
import type { ContractRecord } from '../model/contract.js';
import type { ShipmentRecord } from '../model/shipment.js';
import type { ReadView, Tx } from '../store/store.js';
import { tableDeclarations, tableNames, type Belonging, type TableDeclaration, type TableName } from '../store/tables.js';

/*
 * What goes with a deleted resource, and what keeps one from being deleted. Kept in one place so
 * every DELETE removes the same dependants: no row is left pointing at something that is gone.
 */

/** What removing an organization took away: rows by table, and the ids of its clients (gone with it). */
/** Why a tenant was removed: its time ran out, room was made for a new one, or it was deleted. */
export type RemovalCause = 'expired' | 'evicted' | 'deleted';

export interface OrganizationRemoval {
  organizationId: string;
  clientIds: string[];
  removed: Record<string, number>;
  /** Every organization removed, when a tenant had more than its own (a pack made them). */
  organizationIds?: string[];
}

/**
 * Removes a hook with its logs (a log's `hook` relationship is required, so it cannot outlive
 * its hook) and its pending webhook deliveries, whose job subjects start with the hook id.
 */
export function removeHook(tx: Tx, hookId: string): void {
  for (const log of tx.find('hookLogs', 'hook_id', hookId)) tx.remove('hookLogs', log.id);
  const prefix = `${hookId}:`;
  for (const job of tx.all('jobs')) if (job.subject.startsWith(prefix)) tx.remove('jobs', job.id);
  tx.remove('hooks', hookId);
}

/** The shipments made in a shop; while there are any, the shop stays (they need their shop). */
export function shipmentsOfShop(store: ReadView, shopId: string): readonly ShipmentRecord[] {
  return store.find('shipments', 'shop_id', shopId);
}

/**
 * Whether a collection's window has begun on the sandbox clock: from then on the carrier may be
 * on its way, so the collection can no longer be changed or cancelled. It is exactly the moment
 * from which POST /collections would refuse that window as lying in the past.
 */
export function collectionStarted(collection: CollectionRecord, now: number): boolean {
  return now >= collection.collection_time.from;
}

/** Removes a collection with its pending work; the shipments in it stay, without their `collection` relationship. */
export function removeCollection(tx: Tx, collectionId: string, now: number): void {
  for (const shipment of tx.find('shipments', 'collection_id', collectionId)) {
    tx.update('shipments', shipment.id, { collection_id: undefined, updated_at: now });
  }
  for (const job of tx.find('jobs', 'subject', collectionId)) tx.remove('jobs', job.id);
  tx.remove('collections', collectionId);
}

/**
 * Removes a shop with what belongs to it alone: its uploaded logos, the hooks it owns (with
 * their logs), its collections and collection schedules, and its returns configuration. Callers
 * check first that no shipment and no return was made in it.
 */
export function removeShop(tx: Tx, shopId: string, now: number): void {
  const shop = tx.get('shops', shopId);
  if (!shop) return;
  for (const logo of tx.find('logos', 'shop_id', shopId)) tx.remove('logos', logo.id);
  for (const hook of tx.find('hooks', 'organization_id', shop.organization_id)) {
    if (hook.owner.type === 'shops' && hook.owner.id === shopId) removeHook(tx, hook.id);
  }
  for (const collection of tx.find('collections', 'shop_id', shopId)) removeCollection(tx, collection.id, now);
  for (const schedule of tx.find('collectionSchedules', 'shop_id', shopId)) {
    for (const job of tx.find('jobs', 'subject', schedule.id)) tx.remove('jobs', job.id);
    tx.remove('collectionSchedules', schedule.id);
  }
  removeShopReturns(tx, shopId);
  tx.remove('shops', shopId);
}

/** The returns made in a shop; like shipments, they keep their shop from being deleted. */
export function returnsOfShop(store: ReadView, shopId: string): number {
  return store.find('returns', 'organization_id', store.get('shops', shopId)?.organization_id).filter((row) => row.shop_id === shopId).length;
}

/** The returns configuration of a shop (callers check first that it has no returns): demo orders, methods, tags, the reasons it offers. */
function removeShopReturns(tx: Tx, shopId: string): void {
  for (const table of ['demoOrders', 'returnMethods', 'returnTags', 'shopReasons'] as const) {
    for (const row of tx.find(table, 'shop_id', shopId)) tx.remove(table, row.id);
  }
}

/**
 * What of an organization uses a contract: its shipments, its shops' collections, its collection
 * schedules and return methods. By default the owner's: an own contract is visible to its
 * organization only, so only that organization's rows can use it.
 */
export function contractUsage(
  store: ReadView,
  contract: ContractRecord,
  organizationId = contract.owner.id,
): { shipments: number; collections: number; schedules: number; returnMethods: number; deletedReturnMethods: number } {
  const shipments = store.find('shipments', 'organization_id', organizationId).filter((row) => row.contract_id === contract.id).length;
  let collections = 0;
  for (const shop of store.find('shops', 'organization_id', organizationId)) {
    collections += store.find('collections', 'shop_id', shop.id).filter((row) => row.contract_id === contract.id).length;
  }
  const schedules = store.find('collectionSchedules', 'organization_id', organizationId).filter((row) => row.contract_id === contract.id).length;
  // A return method ships its returns, or its recoveries, on the contract. A deleted one still
  // does for the returns made with it (they keep it, and are approved with it): counted apart, as
  // the method lists no longer show it.
  const kept = new Set(store.find('returns', 'organization_id', organizationId).map((row) => row.return_method_id));
  let returnMethods = 0;
  let deletedReturnMethods = 0;
  for (const row of store.find('returnMethods', 'organization_id', organizationId)) {
    if (row.contract_id !== contract.id && row.recovery_contract_id !== contract.id) continue;
    if (row.deleted_at === undefined) returnMethods += 1;
    else if (kept.has(row.id)) deletedReturnMethods += 1;
  }
  return { shipments, collections, schedules, returnMethods, deletedReturnMethods };
}

/** Removes a contract with its service rates, liability coverages and pending verification. */
export function removeContract(tx: Tx, contractId: string): void {
  for (const rate of tx.find('serviceRates', 'contract_id', contractId)) tx.remove('serviceRates', rate.id);
  for (const coverage of tx.find('liabilityCoverages', 'contract_id', contractId)) tx.remove('liabilityCoverages', coverage.id);
  for (const job of tx.find('jobs', 'subject', contractId)) tx.remove('jobs', job.id);
  tx.remove('contracts', contractId);
}

/**
 * Removes rows while counting them by table and remembering their ids, so the jobs about them
 * can go too (`dropJobs`, last). Tenant resets and tenant removals report the counts.
 */
export class Removal {
  readonly removed: Record<string, number> = {};
  private readonly gone = new Set<string>();

  constructor(readonly tx: Tx) {}

  drop(table: TableName, ids: Iterable<string>): void {
    for (const id of ids) {
      if (!this.tx.get(table, id)) continue;
      this.tx.remove(table, id);
      this.gone.add(id);
      this.removed[table] = (this.removed[table] ?? 0) + 1;
    }
  }

  /**
   * Drops an organization's rows of every table whose declaration `which` picks (store/tables.ts):
   * all ids are found before any row goes, as some are found through others (a client through its
   * user, a shipment's statuses through the shipment).
   */
  dropTenant(organizationId: string, which: (belonging: Pick<Belonging<unknown>, 'reset'>) => boolean): void {
    const found = new Map<TableName, readonly string[]>();
    const picked = tableNames.filter((table) => {
      const { tenant } = tableDeclarations[table];
      return 'key' in tenant && tenant.as !== 'about' && which(tenant);
    });
    for (const table of picked) tenantRowIds(this.tx, table, organizationId, found);
    for (const table of picked) this.drop(table, found.get(table)!);
  }

  /** Work about a removed row goes with it: its key (a job's subject) is the row's id, or starts with it (webhook deliveries). */
  dropJobs(): void {
    for (const table of tableNames) {
      const { tenant } = tableDeclarations[table];
      if (!('key' in tenant) || tenant.as !== 'about') continue;
      const about = (row: { id: string }) => String((row as Record<string, unknown>)[tenant.key]).split(':');
      this.drop(table, ids(this.tx.all(table).filter((row) => about(row).some((part) => this.gone.has(part)))));
    }
  }
}

const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

/**
 * The ids of an organization's rows of a table, found as the table's declaration says its rows
 * belong to a tenant, by index where the key has one; none for a shared table or work about rows.
 * `found` keeps what was found per table, for the tables others are found through.
 */
function tenantRowIds(view: ReadView, table: TableName, organizationId: string, found = new Map<TableName, readonly string[]>()): readonly string[] {
  const known = found.get(table);
  if (known) return known;
  const { tenant } = tableDeclarations[table] as TableDeclaration<Record<string, unknown> & { id: string }, TableName>;
  let result: string[] = [];
  if ('key' in tenant && tenant.as !== 'about') {
    const { key } = tenant;
    if (tenant.as === 'part')
      result = ids(
        view.all(table).filter((row) =>
          String((row as Record<string, unknown>)[key])
            .split(':')
            .includes(organizationId),
        ),
      );
    else if (tenant.as === 'owner') result = ids(view.all(table).filter((row) => isOwner((row as Record<string, unknown>)[key], organizationId)));
    else if (tenant.of)
      for (const parent of tenantRowIds(view, tenant.of, organizationId, found)) for (const row of view.find(table, key as never, parent)) result.push(row.id);
    else if (key === 'id') result = view.get(table, organizationId) ? [organizationId] : [];
    else result = ids(view.find(table, key as never, organizationId));
  }
  found.set(table, result);
  return result;
}

const isOwner = (owner: unknown, organizationId: string) =>
  typeof owner === 'object' && owner !== null && (owner as { type?: unknown }).type === 'organizations' && (owner as { id?: unknown }).id === organizationId;

/**
 * Removes what an organization made, leaving the organization and its set-up (shops, users,
 * clients, shares, clock, settings): the rows of every table whose declaration says a tenant
 * reset clears them (store/tables.ts). A tenant reset restores the seeded rows afterwards; a
 * tenant removal removes the rest.
 */
export function clearOrganization(removal: Removal, organizationId: string): void {
  removal.dropTenant(organizationId, (belonging) => belonging.reset === 'clears');
}

/** The ids of an organization's clients (its users' clients). */
export function clientsOfOrganization(store: ReadView, organizationId: string): string[] {
  return store.find('users', 'organization_id', organizationId).flatMap((user) => ids(store.find('clients', 'user_id', user.id)));
}
