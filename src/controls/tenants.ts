// Making a tenant through the controls: an organization with a shop and a client, within the tenant cap.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hashSecret } from '../auth/secrets.js';
import { MAX_TENANT_TTL } from '../config.js';
import { ApiError } from '../jsonapi/errors.js';
import { scopes, type ClientRecord, type Scope } from '../model/tenancy.js';
import type { Services } from '../http/services.js';
import { putSetting } from '../store/settings.js';
import type { ReadView, Tx } from '../store/store.js';
import { shareContract } from '../domain/organizations.js';
import type { OrganizationRemoval } from '../domain/removals.js';
import { EXPIRE_TENANT, apiTenants, removeExpiredTenants, removeTenant, tenantSettingId, type TenantEntry } from '../domain/tenant-lifetime.js';
import { forgetTenant } from './forget.js';
import type { CheckedPack } from '../fixtures/check-pack.js';
import { packReference, packSource } from './pack-source.js';
import { assertRoom } from '../domain/quotas.js';
import { topUp } from '../domain/collections/schedules.js';

const tenantCountries = ['NL', 'GB', 'DE'] as const;

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
    pack: packReference.optional(),
  })
  .meta({ id: 'SandboxTenantRequest' });

export const tenantCreated = z
  .object({
    client_id: z.string(),
    client_secret: z.string().describe('Shown only in this answer; the sandbox keeps only its SHA-256 digest.'),
    organization_id: z.string(),
    shop_id: z.string(),
    expires_at: z.number().int().optional().describe('When the tenant is removed, Unix seconds on the sandbox clock; only for a tenant created with a ttl.'),
    keys: z
      .record(z.string(), z.record(z.string(), z.string()))
      .optional()
      .describe('With a pack: the id each key of its rows became, by section (`keys.shops["my-shop"]`).'),
    organizations: z
      .array(z.object({ key: z.string(), organization_id: z.string(), client_id: z.string(), client_secret: z.string() }))
      .optional()
      .describe('With a pack of several organizations: the others, each with a client of its own (shown only here); they go with the tenant.'),
    clients: z
      .array(z.object({ key: z.string(), organization_id: z.string(), client_id: z.string(), client_secret: z.string() }))
      .optional()
      .describe('With a pack that has clients: each by its id in the pack (`key`), with the random id and secret it became (shown only here).'),
  })
  .meta({ id: 'SandboxTenant' });

/** Seconds a creation refused at the cap is told to wait (Retry-After): a tenant may be deleted or expire by then. */
const TENANT_CAP_RETRY_AFTER = 60;

/**
 * Makes room for one more tenant: removes the tenants whose time is up, then, while as many
 * tenants as the cap allows exist, the oldest visitor tenant, and for a creation of the controls
 * (not a visitor's) the oldest ephemeral one when no visitor is left. So a flood of visitors (or
 * of scripts posing as the page) only ever replaces visitors, never a CI job's tenant, while the
 * admin's creations take precedence over visitors. Refuses with 429 (10011) when none can go.
 */
function makeRoom(services: Services, tx: Tx, visitor: boolean, count = 1): { expired: OrganizationRemoval[]; evicted: OrganizationRemoval[] } {
  const { clocks, config } = services;
  const expired = removeExpiredTenants(tx, (organizationId) => clocks.of(organizationId));
  const evicted: OrganizationRemoval[] = [];
  // The organizations a pack makes beside a tenant's own count as tenants, and go with it.
  let tenants = apiTenants(tx).filter(({ entry }) => entry.group === undefined);
  let held = apiTenants(tx).length;
  // Told as found: tenants removed to make way for it come back when the creation is refused.
  const found = held;
  while (held + count > config.maxTenants) {
    const next = tenants.find(({ entry }) => entry.visitor) ?? (visitor ? undefined : tenants.find(({ entry }) => entry.expires_at !== undefined));
    if (!next) throw capReached(found, config.maxTenants, visitor, count);
    const removal = removeTenant(tx, next.organizationId);
    if (removal) evicted.push(removal);
    tenants = tenants.filter((tenant) => tenant !== next);
    held = apiTenants(tx).length;
  }
  return { expired, evicted };
}

/** The 429 of a creation at the cap that no tenant can make way for. */
function capReached(count: number, cap: number, visitor: boolean, needed: number): ApiError {
  const held =
    needed > 1
      ? `The sandbox holds ${count} tenants and this pack makes ${needed} organizations, each a tenant, past its cap (MAX_TENANTS = ${cap})`
      : `The sandbox holds ${count} tenants, its cap (MAX_TENANTS = ${cap})`;
  const detail = visitor
    ? `${held}, and none of them is a visitor's: a visitor tenant takes the place of another visitor's only. Try again later (Retry-After); visitor tenants expire, and tenants of the controls are deleted or expire.`
    : `${held}, and ${needed > 1 ? "too few of them are a visitor's or have a ttl to make way" : "none of them is a visitor's or has a ttl, so none can make way"}. ` +
      'Delete one (DELETE /_sandbox/tenants/{organization_id}), create tenants with a ttl, or start the sandbox with a larger --max-tenants.';
  return ApiError.of('tooManyRequests', detail, { headers: { 'retry-after': String(TENANT_CAP_RETRY_AFTER) } });
}

/**
 * Creates an organization under the fixture broker with one shop, a user and a client holding
 * every scope. The client id and secret are random; the secret is returned once and stored only
 * as its digest. With a `ttl` the tenant is removed when the sandbox clock passes its
 * `expires_at` (a job on the sandbox clock). At the cap (`MAX_TENANTS`) another tenant makes
 * way first, as `makeRoom` chooses. With a `pack` the tenant is made from it (tenant-pack.ts):
 * its first organization is the tenant's, and what it holds is the tenant's, in one transaction.
 */
export async function createTenant(services: Services, request: z.output<typeof tenantRequest> = {}, options: { visitor?: boolean; madeFor?: string } = {}) {
  // The fixture helpers bring faker (and a pack, ajv): loaded when the first tenant is made, not at start-up.
  const loading = await import('./tenant-pack.js');
  const { TenantView } = await import('./tenant-world.js');
  const source = request.pack === undefined ? undefined : await packSource(services, request.pack);
  // A new tenant follows the global clock until it moves its own.
  const { store, clock, rules } = services;
  const { created, expired, evicted } = await store.transact((tx) => {
    const checked = source ? loading.checkTenantPack(services, tx, source.files, 'tenant', {}, source.name) : undefined;
    const view = checked?.view ?? new TenantView(services, tx, {});
    const pack: CheckedPack = checked?.pack ?? { rows: {}, replace: [], origins: new Map() };
    const packOrganizations = pack.rows.organizations ?? [];
    const room = makeRoom(services, tx, options.visitor === true, Math.max(1, packOrganizations.length));
    const broker = tx.all('brokers')[0];
    if (!broker) throw new Error('the sandbox has no broker to create a tenant under');
    const brokerKey = view.keyOf('brokers', broker.id) ?? 'sandbox-broker';
    if (!view.resolve('brokers', brokerKey)) view.add('brokers', brokerKey, broker.id);
    const country = request.country_code ?? 'NL';
    const mainKey = packOrganizations[0]?.key ?? 'organization';
    const own = packOrganizations.length > 0 ? [] : [{ key: mainKey, broker: brokerKey, country_code: country }];
    const organizationKeys = packOrganizations.length > 0 ? packOrganizations.map((row) => row.key) : [mainKey];
    const mainCountry = packOrganizations[0]?.country_code ?? country;
    const hasShop = (pack.rows.shops ?? []).some((shop) => (shop.organization ?? mainKey) === mainKey);
    const withUser = new Set((pack.rows.users ?? []).map((user) => user.organization));
    const rows = loading.tenantRows(pack, mainKey, {
      organizations: own,
      users: organizationKeys.filter((key) => !withUser.has(key)).map((key) => ({ key: `${key}/user`, organization: key })),
      shops: hasShop ? [] : [{ key: `${mainKey}/shop`, organization: mainKey, country_code: mainCountry }],
    });
    // A tenant's clients are its own: each client of the pack becomes one with a random id and secret.
    const packClients = rows.clients ?? [];
    delete rows.clients;
    if (request.name !== undefined) rows.organizations![0]!.name = request.name;
    const now = clock.now();
    const built = loading.buildTenantRows(tx, view, rows, now);
    const organizationIds = organizationKeys.map((key) => built.keys.organizations![key]!);
    const mainId = organizationIds[0]!;
    for (const organizationId of organizationIds) {
      const hooks = (built.tables.hooks ?? []).filter((hook) => hook.organization_id === organizationId).length;
      if (hooks > 0) assertRoom(rules, tx, organizationId, 'hooks', hooks);
    }
    const inserted = loading.insertTenantRows(tx, built.tables, mainId);
    const organizationOfUser = new Map((built.tables.users ?? []).map((user) => [user.id, user.organization_id]));
    const clients = packClients.map((row) => {
      const userId = built.keys.users![row.user]!;
      const organization = tx.get('organizations', organizationOfUser.get(userId)!)!;
      return { key: row.id, organization_id: organization.id, ...newClient(tx, userId, row.name, organization.name, row.scopes) };
    });
    const packBrokers = Object.values(built.keys.brokers ?? {});
    const expiresAt = request.ttl === undefined ? undefined : now + request.ttl;
    const members: { key: string; organization_id: string; client_id: string; client_secret: string }[] = [];
    organizationIds.forEach((organizationId, index) => {
      const organization = tx.get('organizations', organizationId)!;
      const firstUser = (built.tables.users ?? []).find((user) => user.organization_id === organizationId)!;
      const client =
        clients.find((made) => made.organization_id === organizationId) ??
        newClient(tx, firstUser.id, index === 0 ? request.name : undefined, organization.name);
      // Like the fixture organizations, an organization under the sandbox's broker gets its contracts shared with it.
      const shared = packBrokers.includes(organization.broker_id) ? [] : brokerContracts(tx, organization.broker_id);
      for (const contract of shared) shareContract(tx, contract, organizationId);
      putSetting(tx, tenantSettingId(organizationId), {
        client_id: client.clientId,
        shops: tx.find('shops', 'organization_id', organizationId).map((shop) => ({ ...shop })),
        contract_ids: tx.find('contractShares', 'organization_id', organizationId).map((share) => share.contract_id),
        organization,
        created_at: now,
        ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
        ...(options.visitor ? { visitor: true as const } : {}),
        ...(index === 0 && options.madeFor !== undefined ? { made_for: options.madeFor } : {}),
        ...(index === 0 ? { keys: built.keys, ...(packBrokers.length > 0 ? { brokers: packBrokers } : {}) } : { group: mainId }),
        ...(source ? { rows: loading.rowsOf(inserted, organizationId) } : {}),
      } satisfies TenantEntry);
      // Scheduled by the tenant's rules, the job is due on the tenant's own clock.
      if (expiresAt !== undefined) rules.forTenant(organizationId).jobs.schedule(tx, { kind: EXPIRE_TENANT, subject: organizationId, dueMs: expiresAt * 1000 });
      members.push({ key: organizationKeys[index]!, organization_id: organizationId, client_id: client.clientId, client_secret: client.secret });
    });
    for (const schedule of tx.all('collectionSchedules').filter((row) => organizationIds.includes(row.organization_id) && row.booked_until === undefined)) {
      topUp(tx, rules.forTenant(schedule.organization_id), schedule, now);
    }
    const main = members[0]!;
    const shop = tx.find('shops', 'organization_id', mainId)[0]!;
    return {
      ...room,
      created: {
        client_id: main.client_id,
        client_secret: main.client_secret,
        organization_id: mainId,
        shop_id: shop.id,
        ...(expiresAt !== undefined ? { expires_at: expiresAt } : {}),
        ...(source
          ? {
              keys: packKeys(built.keys, pack),
              ...(members.length > 1 ? { organizations: members.slice(1) } : {}),
              ...(clients.length > 0
                ? {
                    clients: clients.map(({ key, organization_id, clientId, secret }) => ({
                      key,
                      organization_id,
                      client_id: clientId,
                      client_secret: secret,
                    })),
                  }
                : {}),
            }
          : {}),
      },
    };
  });
  for (const removal of expired) forgetTenant(services, removal, 'expired');
  for (const removal of evicted) forgetTenant(services, removal, 'evicted');
  return created;
}

/** A client with every scope for the user: a random id and secret, the secret kept as its digest. */
function newClient(
  tx: Tx,
  userId: string,
  name: string | undefined,
  organizationName: string,
  clientScopes: readonly Scope[] = scopes,
): { clientId: string; secret: string } {
  const secret = randomBytes(24).toString('base64url');
  let clientId: string;
  do clientId = `tenant-${randomBytes(4).toString('hex')}`;
  while (tx.get('clients', clientId));
  const client: ClientRecord = {
    id: clientId,
    name: name ?? `${organizationName} (${clientId})`,
    secret_sha256: hashSecret(secret),
    user_id: userId,
    scopes: [...clientScopes],
    token_generation: 0,
  };
  tx.insert('clients', client);
  return { clientId, secret };
}

/** The ids the keys of the pack's own rows became, by section (what a CI job looks its rows up by). */
function packKeys(keys: Partial<Record<string, Record<string, string>>>, pack: { rows: Record<string, unknown> }): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [section, map] of Object.entries(keys)) if (pack.rows[section] && map) out[section] = map;
  return out;
}

export const brokerContracts = (store: ReadView, brokerId: string) =>
  store.all('contracts').filter((row) => row.owner.type === 'brokers' && row.owner.id === brokerId);
