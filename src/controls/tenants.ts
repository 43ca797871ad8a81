// Making a tenant through the controls: an organization with a shop and a client, within the tenant cap.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hashSecret } from '../auth/secrets.js';
import { MAX_TENANT_TTL } from '../config.js';
import { ApiError } from '../jsonapi/errors.js';
import { scopes, type ClientRecord } from '../model/tenancy.js';
import type { Services } from '../services.js';
import { putSetting } from '../store/settings.js';
import type { ReadView, Tx } from '../store/store.js';
import { shareContract } from '../domain/organizations.js';
import type { OrganizationRemoval } from '../domain/removals.js';
import { EXPIRE_TENANT, apiTenants, removeExpiredTenants, removeTenant, tenantSettingId, type TenantEntry } from '../domain/tenant-lifetime.js';
import { forgetTenant } from './forget.js';

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

export const tenantCreated = z
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
 * tenants as the cap allows exist, the oldest visitor tenant, and for a creation of the controls
 * (not a visitor's) the oldest ephemeral one when no visitor is left. So a flood of visitors (or
 * of scripts posing as the page) only ever replaces visitors, never a CI job's tenant, while the
 * admin's creations take precedence over visitors. Refuses with 429 (10011) when none can go.
 */
function makeRoom(services: Services, tx: Tx, visitor: boolean): { expired: OrganizationRemoval[]; evicted: OrganizationRemoval[] } {
  const { clocks, config } = services;
  const expired = removeExpiredTenants(tx, (organizationId) => clocks.of(organizationId));
  const evicted: OrganizationRemoval[] = [];
  let tenants = apiTenants(tx);
  while (tenants.length >= config.maxTenants) {
    const next = tenants.find(({ entry }) => entry.visitor) ?? (visitor ? undefined : tenants.find(({ entry }) => entry.expires_at !== undefined));
    if (!next) throw capReached(tenants.length, config.maxTenants, visitor);
    const removal = removeTenant(tx, next.organizationId);
    if (removal) evicted.push(removal);
    tenants = tenants.filter((tenant) => tenant !== next);
  }
  return { expired, evicted };
}

/** The 429 of a creation at the cap that no tenant can make way for. */
function capReached(count: number, cap: number, visitor: boolean): ApiError {
  const held = `The sandbox holds ${count} tenants, its cap (MAX_TENANTS = ${cap})`;
  const detail = visitor
    ? `${held}, and none of them is a visitor's: a visitor tenant takes the place of another visitor's only. Try again later (Retry-After); visitor tenants expire, and tenants of the controls are deleted or expire.`
    : `${held}, and none of them is a visitor's or has a ttl, so none can make way. ` +
      'Delete one (DELETE /_sandbox/tenants/{organization_id}), create tenants with a ttl, or start the sandbox with a larger --max-tenants.';
  return ApiError.of('tooManyRequests', detail, { headers: { 'retry-after': String(TENANT_CAP_RETRY_AFTER) } });
}

/**
 * Creates an organization under the fixture broker with one shop, a user and a client holding
 * every scope. The client id and secret are random; the secret is returned once and stored only
 * as its digest. With a `ttl` the tenant is removed when the sandbox clock passes its
 * `expires_at` (a job on the sandbox clock). At the cap (`MAX_TENANTS`) another tenant makes
 * way first, as `makeRoom` chooses.
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
    const room = makeRoom(services, tx, options.visitor === true);
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

export const brokerContracts = (store: ReadView, brokerId: string) =>
  store.all('contracts').filter((row) => row.owner.type === 'brokers' && row.owner.id === brokerId);
