import type { ClockView } from '../clock.js';
import type { ShopRecord } from '../model/shop.js';
import type { OrganizationRecord } from '../model/tenancy.js';
import type { ReadView, Tx } from '../store/store.js';
import { assertWithoutShipments, purgeBrokers, purgeOrganization, removeOrganization } from './organizations.js';
import type { OrganizationRemoval } from './removals.js';
import type { JobHandler } from './rules.js';

/*
 * Tenants created through the control API: what the sandbox keeps about each (its setting
 * `tenant:<organization id>`), when one's time is up, and how it goes.
 */

/**
 * What the sandbox keeps about a tenant created through the control API, as the setting
 * `tenant:<organization id>`: what it started with (its shop, the broker contracts shared with it,
 * the organization as made), to restore on a tenant reset; when it was made; and, for an ephemeral
 * tenant, when it expires. Settings written before contracts were shared one by one have no
 * `contract_ids` (then every contract of the broker); those written before tenants could expire
 * have no `created_at`.
 */
export type TenantEntry = {
  client_id: string;
  shops: ShopRecord[];
  contract_ids?: string[];
  organization?: OrganizationRecord;
  /** Unix seconds, sandbox clock. */
  created_at?: number;
  /** Unix seconds, sandbox clock; absent for a tenant that stays until it is deleted. */
  expires_at?: number;
  /** Made for a visitor of the API reference page (`--tenant-per-visitor`). */
  visitor?: true;
  /**
   * For an organization a pack made beside the tenant's own (POST /_sandbox/tenants with a pack
   * of several organizations): the organization of the tenant it belongs to, and goes with.
   */
  group?: string;
  /**
   * For a tenant made for another's use (the scratch tenants POST /_sandbox/examples makes for the
   * deletion examples): the organization of that tenant. It goes with it, however that one goes.
   */
  made_for?: string;
  /** The brokers a pack made for the tenant: they go with it. */
  brokers?: string[];
  /** The keys of the rows packs loaded into the tenant, by section: what later packs refer to and exports name. */
  keys?: Record<string, Record<string, string>>;
  /** The rows packs loaded into this organization, by table: a tenant reset puts them back. */
  rows?: Record<string, { id: string }[]>;
};

const PREFIX = 'tenant:';

/** The id of the setting that holds a tenant's entry. */
export const tenantSettingId = (organizationId: string) => `${PREFIX}${organizationId}`;

/** The entry of a tenant created through the control API; `undefined` for a seeded organization. */
export function tenantEntry(store: ReadView, organizationId: string): TenantEntry | undefined {
  return store.get('settings', tenantSettingId(organizationId))?.value as TenantEntry | undefined;
}

/**
 * Whether an organization (a caller's; `undefined` without a token) sees a catalogue row a pack
 * gave one tenant (`owner`, the tenant's organization): the tenant and the organizations of its
 * group do. A row of no tenant everyone sees.
 */
export function seesTenantRow(store: ReadView, organizationId: string | undefined, owner: string | undefined): boolean {
  if (owner === undefined) return true;
  if (organizationId === undefined) return false;
  return organizationId === owner || tenantEntry(store, organizationId)?.group === owner;
}

/**
 * Whether a catalogue row a pack gave one tenant (`owner`) may be named in what every organization
 * of a broker sees (its contract templates): only when that tenant's pack made the broker, so
 * that its organizations are the tenant's. A row of no tenant any broker may name.
 */
export function brokerMayNameTenantRow(store: ReadView, brokerId: string, owner: string | undefined): boolean {
  if (owner === undefined) return true;
  return tenantEntry(store, owner)?.brokers?.includes(brokerId) === true;
}

/** Every tenant created through the control API, oldest first. */
export function apiTenants(store: ReadView): { organizationId: string; entry: TenantEntry }[] {
  const tenants = [];
  for (const row of store.all('settings')) {
    if (row.id.startsWith(PREFIX)) tenants.push({ organizationId: row.id.slice(PREFIX.length), entry: row.value as TenantEntry });
  }
  // Settings keep the order they were made in; `created_at` only orders entries a restart re-read.
  return tenants.sort((a, b) => (a.entry.created_at ?? 0) - (b.entry.created_at ?? 0));
}

/**
 * Whether a tenant's time is up on `clock`, the tenant's own clock: a tenant that moves its clock
 * past its `expires_at` expires, as waiting would make it.
 */
export function tenantExpired(clock: ClockView, entry: TenantEntry): boolean {
  return entry.expires_at !== undefined && entry.expires_at <= clock.now();
}

/** The job that removes an ephemeral tenant when the sandbox clock reaches its `expires_at`; its subject is the organization id. */
export const EXPIRE_TENANT = 'expire-tenant';

/** The organizations a pack made beside a tenant's own (their tenant entries name it as their group). */
function packSiblings(store: ReadView, organizationId: string): string[] {
  return apiTenants(store)
    .filter((tenant) => tenant.entry.group === organizationId)
    .map((tenant) => tenant.organizationId);
}

/** The tenants made for an organization's use (their entries' `made_for`). */
function madeFor(store: ReadView, organizationId: string): string[] {
  return apiTenants(store)
    .filter((tenant) => tenant.entry.made_for === organizationId)
    .map((tenant) => tenant.organizationId);
}

/**
 * Removes a tenant created through the control API with everything it owns (see
 * `purgeOrganization`): with the organizations a pack made beside its own, and the brokers it
 * made with their contracts and templates. An organization the broker made later under one of
 * those brokers (POST /organizations with the admin token) goes too: it cannot outlive its broker.
 * So do the tenants made for its use (`made_for`): left behind, a tenant made without a ttl would
 * hold a place under the cap for good, and nobody would know it was there.
 */
export function removeTenant(tx: Tx, organizationId: string): OrganizationRemoval | undefined {
  const entry = tenantEntry(tx, organizationId);
  const members = packSiblings(tx, organizationId);
  const brokers = entry?.brokers ?? [];
  const ofBrokers = brokers
    .flatMap((brokerId) => tx.find('organizations', 'broker_id', brokerId))
    .map((row) => row.id)
    .filter((id) => id !== organizationId && !members.includes(id));
  const removals = [...[...members, ...ofBrokers].map((id) => purgeOrganization(tx, id)), purgeOrganization(tx, organizationId)].filter(
    (removal): removal is OrganizationRemoval => removal !== undefined,
  );
  const own = removals.at(-1);
  if (!own || own.organizationId !== organizationId) return undefined;
  const removed = { ...own.removed };
  for (const other of removals.slice(0, -1)) for (const [table, count] of Object.entries(other.removed)) removed[table] = (removed[table] ?? 0) + count;
  for (const [table, count] of Object.entries(purgeBrokers(tx, brokers))) removed[table] = (removed[table] ?? 0) + count;
  const made = madeFor(tx, organizationId)
    .map((id) => removeTenant(tx, id))
    .filter((removal): removal is OrganizationRemoval => removal !== undefined);
  for (const other of made) for (const [table, count] of Object.entries(other.removed)) removed[table] = (removed[table] ?? 0) + count;
  const organizationIds = [
    ...removals.map((removal) => removal.organizationId),
    ...made.flatMap((removal) => removal.organizationIds ?? [removal.organizationId]),
  ];
  return {
    organizationId,
    clientIds: [...removals, ...made].flatMap((removal) => removal.clientIds),
    removed,
    ...(organizationIds.length > 1 ? { organizationIds } : {}),
  };
}

/**
 * Deletes an organization through the API (DELETE /organizations/{id}), as `removeOrganization`
 * does. The organization of a tenant a pack made with other organizations beside it, or with
 * brokers, is that tenant's head: they cannot stay without it (their tenant entries and the
 * brokers' rows name it), so they go with it, as when the tenant is deleted; none of its
 * organizations may have shipments then. The tenants made for its use go with it too.
 */
export function deleteOrganization(tx: Tx, organizationId: string): OrganizationRemoval | undefined {
  const entry = tenantEntry(tx, organizationId);
  const members = packSiblings(tx, organizationId);
  const alone = members.length === 0 && (entry?.brokers ?? []).length === 0 && madeFor(tx, organizationId).length === 0;
  if (!tx.get('organizations', organizationId) || alone) {
    return removeOrganization(tx, organizationId);
  }
  for (const id of [organizationId, ...members]) assertWithoutShipments(tx, id);
  return removeTenant(tx, organizationId);
}

/**
 * Removes every ephemeral tenant whose time is up (tenant creation calls it first, so expired
 * tenants never count against the cap, whatever became of their jobs).
 */
export function removeExpiredTenants(tx: Tx, clockOf: (organizationId: string) => ClockView): OrganizationRemoval[] {
  const removals: OrganizationRemoval[] = [];
  for (const { organizationId, entry } of apiTenants(tx)) {
    if (!tenantExpired(clockOf(organizationId), entry)) continue;
    const removal = removeTenant(tx, organizationId);
    if (removal) removals.push(removal);
  }
  return removals;
}

/**
 * Removes the tenant the job is about once it has expired; the removal and the job's completion
 * land together. A tenant not yet expired (its clock says otherwise) is looked at again later.
 */
export const expireTenantJob: JobHandler = {
  apply(tx, job, rules) {
    const entry = tenantEntry(tx, job.subject);
    if (entry?.expires_at === undefined) return;
    if (!tenantExpired(rules.clock, entry)) {
      rules.jobs.schedule(tx, { kind: EXPIRE_TENANT, subject: job.subject, dueMs: Math.max(rules.clock.nowMs() + 1000, entry.expires_at * 1000) });
      return;
    }
    const removal = removeTenant(tx, job.subject);
    if (removal) rules.tenantRemoved?.(removal, 'expired');
  },
};
