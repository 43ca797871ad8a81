// Loading a checked pack into a tenant: rows made with the tenant's ids and fakers, owned by its organizations.
import { createHash } from 'node:crypto';
import { newDemoOrderId } from '../domain/returns/orders.js';
export { assertRoom } from '../domain/quotas.js';
export { topUp } from '../domain/collections/schedules.js';
export { FixtureError } from '../fixtures/problems.js';
import { FixtureError, type FixtureProblem } from '../fixtures/problems.js';
import { at } from '../fixtures/checked.js';
import { checkTarget, targetPolicy, type TargetPolicy } from '../domain/hooks/target-address.js';
import type { Services } from '../http/services.js';
import type { Row, StateData, TableName } from '../store/tables.js';
import type { Tx } from '../store/store.js';
import { buildRows, type Built } from '../fixtures/build.js';
import { checkPack, type CheckedPack, type LoadMode } from '../fixtures/check-pack.js';
import { orderFakers } from '../fixtures/generate.js';
import { drawIds } from '../fixtures/id-plan.js';
import type { FixtureRows } from '../fixtures/pack-schema.js';
import { seededFakers } from '../fixtures/people.js';
import type { PackFile } from '../fixtures/read-pack.js';
import { TenantView, type KeyMaps } from './tenant-world.js';

/** A number to seed a tenant's fakers with, from its organization id: same id, same content. */
function seedOf(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0);
}

/** A pack checked against what the tenant sees. Throws a `FixtureError` naming every problem. */
export function checkTenantPack(services: Services, tx: Tx, files: readonly PackFile[], mode: LoadMode, own: KeyMaps, packName?: string) {
  const view = new TenantView(services, tx, structuredClone(own));
  const pack = checkPack(files, mode, view.outside(packName));
  const refused = hookTargetProblems(pack, targetPolicy(services.rules.settings));
  if (refused.length > 0) throw new FixtureError(refused);
  return { pack, view };
}

/**
 * The webhook URLs of the pack's hooks that POST /hooks would refuse (a scheme other than http(s),
 * a private or link-local address, a host HOOK_ALLOWED_HOSTS leaves out), each at its `url`: a
 * tenant's pack saves hooks as the API does, so it is refused what the API refuses.
 */
function hookTargetProblems(pack: CheckedPack, policy: TargetPolicy): FixtureProblem[] {
  const problems: FixtureProblem[] = [];
  for (const hook of pack.rows.hooks ?? []) {
    if (hook.action.action_type !== 'send-resource') continue;
    hook.action.values.forEach((value, index) => {
      const checked = checkTarget(value.url, policy);
      if ('refusal' in checked) problems.push(at(pack, hook, `action/values/${index}/url`, checked.refusal));
    });
  }
  return problems;
}

/**
 * The pack's rows with the tenant's organization (under `key`) filled in where a row leaves its
 * organization out, and a user for every organization (a tenant's users are made with it).
 */
export function tenantRows(pack: CheckedPack, key: string, extra: FixtureRows = {}): FixtureRows {
  const rows: FixtureRows = structuredClone({ ...pack.rows });
  const fill = <T extends { organization?: string }>(list: T[] | undefined) => list?.forEach((row) => (row.organization ??= key));
  fill(rows.shops);
  fill(rows.return_questions);
  fill(rows.return_reasons);
  for (const contract of rows.contracts ?? []) if (contract.broker === undefined) contract.organization ??= key;
  for (const hook of rows.hooks ?? []) if (hook.shop === undefined) hook.organization ??= key;
  for (const [section, list] of Object.entries(extra))
    (rows as Record<string, unknown[]>)[section] = [...(list as unknown[]), ...((rows as Record<string, unknown[]>)[section] ?? [])];
  return rows;
}

/**
 * Makes the rows of a tenant's pack: ids from the sandbox's id source (in section order), names
 * and addresses from fakers seeded with the tenant's organization id, dates from the tenant's
 * clock. `seedId` is the organization whose id seeds the fakers: the first the pack makes, else
 * the one it loads into.
 */
export function buildTenantRows(tx: Tx, view: TenantView, rows: FixtureRows, now: number, seedId?: string): Built {
  const ids = drawIds(rows, [], () => tx.newId());
  const seed = seedOf(ids.get('organizations')?.[0]?.[0] ?? seedId ?? '');
  // A pack's orders are new orders like any other: drawn, so they tell nothing of other tenants'.
  const orders = new Set<string>();
  return buildRows({
    rows,
    ids,
    fakers: seededFakers(seed),
    orderFakers: orderFakers(seed),
    anchor: now,
    now,
    createdAt: now,
    products: rows.products?.length ? rows.products : view.worldProducts(),
    nextDemoOrder: () => {
      const id = newDemoOrderId(tx, () => view.publicId(), orders);
      orders.add(id);
      return id;
    },
    outside: (section, key) => view.resolve(section, key),
    rowOutside: (table, id) => view.row(table, id),
    servicesOutside: (carrierId) => tx.find('services', 'carrier_id', carrierId).map((row) => row.id),
  });
}

/** Tables whose rows a pack gives the tenant alone: its own carriers, services and zones. */
const ownedByTenant = new Set<TableName>(['carriers', 'services', 'zones']);

/** The organization a made row belongs to, for a reset that puts a tenant's rows back. */
function organizationOfRow(table: TableName, row: Record<string, unknown>, contracts: Map<string, string>): string | undefined {
  if (table === 'organizations') return row.id as string;
  if (table === 'contracts') return (row.owner as { type: string; id: string }).type === 'organizations' ? (row.owner as { id: string }).id : undefined;
  if (table === 'serviceRates' || table === 'liabilityCoverages') return contracts.get(row.contract_id as string);
  return row.organization_id as string | undefined;
}

/** Inserts the made rows, the tenant's own catalogue rows marked as its `owner`'s; returns them by table. */
export function insertTenantRows(tx: Tx, tables: StateData['tables'], owner: string): Record<string, Row<TableName>[]> {
  const inserted: Record<string, Row<TableName>[]> = {};
  for (const [table, rows] of Object.entries(tables) as [TableName, Row<TableName>[]][]) {
    for (const row of rows) {
      const owned = ownedByTenant.has(table) && !(row as { organization_id?: string }).organization_id ? { ...row, organization_id: owner } : row;
      (inserted[table] ??= []).push(tx.insert(table, owned as never));
    }
  }
  return inserted;
}

/** The rows among `inserted` that belong to one organization, by table: what its reset restores. */
export function rowsOf(inserted: Record<string, Row<TableName>[]>, organizationId: string): Record<string, { id: string }[]> {
  const contracts = new Map<string, string>();
  for (const row of inserted.contracts ?? []) {
    const owner = organizationOfRow('contracts', row as unknown as Record<string, unknown>, contracts);
    if (owner) contracts.set(row.id, owner);
  }
  const out: Record<string, { id: string }[]> = {};
  for (const [table, rows] of Object.entries(inserted) as [TableName, Row<TableName>[]][]) {
    // Shops come back from the entry's own list; the tenant's carriers, services and brokers are not cleared by a reset.
    if (['organizations', 'users', 'shops', 'carriers', 'services', 'brokers', 'contractTemplates'].includes(table)) continue;
    const own = rows.filter((row) => organizationOfRow(table, row as unknown as Record<string, unknown>, contracts) === organizationId);
    if (own.length > 0) out[table] = own;
  }
  return out;
}

/** Keys of two loads together, the later winning. */
export function mergeKeys(a: KeyMaps = {}, b: KeyMaps = {}): KeyMaps {
  const out: KeyMaps = structuredClone(a);
  for (const [section, keys] of Object.entries(b) as [keyof KeyMaps, Record<string, string>][]) out[section] = { ...out[section], ...keys };
  return out;
}
