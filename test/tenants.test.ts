import { beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '../src/model/tenancy.js';
import { hashSecret } from '../src/auth/secrets.js';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

interface Tenant {
  client_id: string;
  client_secret: string;
  organization_id: string;
  shop_id: string;
}

async function createTenant(sandbox: TestSandbox, body?: Json, admin?: string): Promise<Tenant> {
  const answer = await sandbox.request('POST', '/_sandbox/tenants', { body: body ?? {}, ...(admin ? { token: admin } : {}) });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

async function tenantToken(sandbox: TestSandbox, tenant: Tenant, scope = '*'): Promise<string> {
  const answer = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: tenant.client_id, client_secret: tenant.client_secret, scope },
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.access_token;
}

/** A concept shipment in the tenant's shop. */
async function tenantShipment(sandbox: TestSandbox, token: string, shopId: string, extra: Json = {}): Promise<Json> {
  const shop = (await sandbox.get(`/shops/${shopId}`, token)).body.data;
  return createShipment(sandbox, token, shipmentBody({ shop, ...extra }));
}

describe('creating a tenant', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });

  it('answers fresh client credentials, an organization and a shop with filled addresses', async () => {
    const tenant = await createTenant(sandbox);
    expect(Object.keys(tenant).sort()).toEqual(['client_id', 'client_secret', 'organization_id', 'shop_id']);
    expect(tenant.client_id).toMatch(/^tenant-[0-9a-f]{8}$/);
    expect(tenant.client_secret.length).toBeGreaterThanOrEqual(24);
    const token = await tenantToken(sandbox, tenant);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims.scope.split(' ').sort()).toEqual([...scopes].sort());

    const organizations = await sandbox.get('/organizations', token);
    expect(organizations.body.data.map((o: Json) => o.id)).toEqual([tenant.organization_id]);
    const shops = await sandbox.get('/shops', token);
    expect(shops.body.data).toHaveLength(1);
    const shop = shops.body.data[0];
    expect(shop.id).toBe(tenant.shop_id);
    for (const address of [shop.attributes.sender_address, shop.attributes.return_address]) {
      expect(address).toMatchObject({ country_code: 'NL', street_1: expect.any(String), city: expect.any(String), postal_code: expect.any(String) });
    }
    expect(shop.attributes.created_at).toBe(TEST_NOW);
  });

  it('stores the secret only as its digest', async () => {
    const tenant = await createTenant(sandbox);
    const client = sandbox.store.get('clients', tenant.client_id)!;
    expect(client.secret_sha256).toBe(hashSecret(tenant.client_secret));
    expect(JSON.stringify(sandbox.store.snapshot())).not.toContain(tenant.client_secret);
  });

  it('sees the shared catalogue and the broker contracts, and nothing owned by others', async () => {
    const tenant = await createTenant(sandbox);
    const token = await tenantToken(sandbox, tenant);
    const fixtureToken = await sandbox.token();
    const services = async (t: string) => (await sandbox.get('/services?page[size]=100', t)).body.data.map((s: Json) => s.id);
    expect(await services(token)).toEqual(await services(fixtureToken));
    const contracts = (await sandbox.get('/contracts?page[size]=100', token)).body.data;
    expect(contracts.length).toBeGreaterThan(0);
    expect(new Set(contracts.map((c: Json) => c.relationships.owner.data.type))).toEqual(new Set(['brokers']));
  });

  it('takes an optional name and country', async () => {
    const tenant = await createTenant(sandbox, { name: 'CI job 42', country_code: 'GB' });
    const token = await tenantToken(sandbox, tenant);
    const organization = (await sandbox.get('/organizations', token)).body.data[0];
    expect(organization.attributes.name).toBe('CI job 42');
    expect(organization.attributes.billing_address.country_code).toBe('GB');
    const shop = (await sandbox.get(`/shops/${tenant.shop_id}`, token)).body.data;
    expect(shop.attributes.sender_address.country_code).toBe('GB');
    const german = await createTenant(sandbox, { country_code: 'DE' });
    const germanShop = (await sandbox.get(`/shops/${german.shop_id}`, await tenantToken(sandbox, german))).body.data;
    expect(germanShop.attributes.return_address.country_code).toBe('DE');
  });

  it('refuses a body that is not a tenant request (400)', async () => {
    const country = await sandbox.request('POST', '/_sandbox/tenants', { body: { country_code: 'FR' } });
    expect(country.status).toBe(400);
    expect(firstError(country)).toMatchObject({ code: '10003', source: { pointer: '/country_code' } });
    expect((await sandbox.request('POST', '/_sandbox/tenants', { body: { colour: 'red' } })).status).toBe(400);
    expect((await sandbox.request('POST', '/_sandbox/tenants', { body: 'not json' })).status).toBe(400);
    expect((await sandbox.request('POST', '/_sandbox/tenants', { body: {} })).status).toBe(201);
  });

  it('never hands out the same client id twice', async () => {
    const tenants = await Promise.all(Array.from({ length: 20 }, () => createTenant(sandbox)));
    expect(new Set(tenants.map((t) => t.client_id)).size).toBe(20);
    expect(new Set(tenants.map((t) => t.organization_id)).size).toBe(20);
    expect(new Set(tenants.map((t) => t.shop_id)).size).toBe(20);
  });

  it('needs the admin token when one is configured', async () => {
    const guarded = await testSandbox({ config: { adminToken: 'ci-admin' } });
    const without = await guarded.request('POST', '/_sandbox/tenants', { body: {} });
    expect(without.status).toBe(401);
    expect(firstError(without).code).toBe('14003');
    expect((await guarded.request('POST', '/_sandbox/tenants', { token: 'wrong', body: {} })).status).toBe(401);
    const tenant = await createTenant(guarded, { name: 'guarded' }, 'ci-admin');
    const token = await tenantToken(guarded, tenant);
    expect((await guarded.get('/shops', token)).body.data).toHaveLength(1);
  });
});

describe('tenant isolation', () => {
  let sandbox: TestSandbox;
  let a: Tenant;
  let b: Tenant;
  let tokenA: string;
  let tokenB: string;
  let fixture: World;

  beforeAll(async () => {
    sandbox = await testSandbox();
    [a, b] = await Promise.all([createTenant(sandbox), createTenant(sandbox)]);
    [tokenA, tokenB] = await Promise.all([tenantToken(sandbox, a), tenantToken(sandbox, b)]);
    fixture = await world(sandbox);
  });

  it('gives each tenant its own token and only its own shop', async () => {
    expect(a.client_id).not.toBe(b.client_id);
    expect((await sandbox.get('/shops', tokenA)).body.data.map((s: Json) => s.id)).toEqual([a.shop_id]);
    expect((await sandbox.get('/shops', tokenB)).body.data.map((s: Json) => s.id)).toEqual([b.shop_id]);
    const fixtureShops = fixture.shops.map((s: Json) => s.id);
    expect(fixtureShops).not.toContain(a.shop_id);
    expect(fixtureShops).not.toContain(b.shop_id);
    expect((await sandbox.get(`/shops/${b.shop_id}`, tokenA)).status).toBe(404);
    expect((await sandbox.get(`/shops/${a.shop_id}`, fixture.token)).status).toBe(404);
    expect((await sandbox.get(`/shops/${fixture.shops[0].id}`, tokenA)).status).toBe(404);
    expect((await sandbox.get(`/organizations/${b.organization_id}`, tokenA)).status).toBe(404);
  });

  it("answers one tenant's shipment with 404 for the other and for the fixture clients", async () => {
    const shipment = await tenantShipment(sandbox, tokenA, a.shop_id);
    expect((await sandbox.get(`/shipments/${shipment.id}`, tokenA)).status).toBe(200);
    const other = await sandbox.get(`/shipments/${shipment.id}`, tokenB);
    expect(other.status).toBe(404);
    expect(firstError(other).code).toBe('10002');
    expect((await sandbox.get(`/shipments/${shipment.id}`, fixture.token)).status).toBe(404);
    expect((await sandbox.get('/shipments', tokenB)).body.data).toEqual([]);
    const fixtureShipment = await createShipment(sandbox, fixture.token, shipmentBody({ shop: fixture.shopIn('NL') }));
    expect((await sandbox.get(`/shipments/${fixtureShipment.id}`, tokenA)).status).toBe(404);
    const shopA = (await sandbox.get(`/shops/${a.shop_id}`, tokenA)).body.data;
    const intoOtherShop = await sandbox.request('POST', '/shipments', { token: tokenB, body: shipmentBody({ shop: shopA }) });
    expect(intoOtherShop.status).toBe(422);
  });

  it('can register and price a shipment with a broker contract', async () => {
    const service = fixture.service('postnl-parcel-standard', 'NL');
    const contract = fixture.contractFor(service);
    expect(contract.relationships.owner.data.type).toBe('brokers');
    const shipment = await tenantShipment(sandbox, tokenA, a.shop_id, { service, contract, attributes: { register_at: TEST_NOW } });
    expect(shipment.attributes.price.amount).toBeGreaterThan(0);
    await sandbox.advance(5);
    const registered = (await sandbox.get(`/shipments/${shipment.id}?include=shipment_status.status`, tokenA)).body;
    expect(registered.data.attributes.tracking_code).toEqual(expect.any(String));
  });
});

describe('resetting one tenant', () => {
  it("removes the tenant's shipments and restores its shop, leaving other tenants alone", async () => {
    const sandbox = await testSandbox();
    const [a, b] = await Promise.all([createTenant(sandbox), createTenant(sandbox)]);
    const [tokenA, tokenB] = await Promise.all([tenantToken(sandbox, a), tenantToken(sandbox, b)]);
    const originalShop = (await sandbox.get(`/shops/${a.shop_id}`, tokenA)).body;
    const shipmentsA = [await tenantShipment(sandbox, tokenA, a.shop_id), await tenantShipment(sandbox, tokenA, a.shop_id)];
    const shipmentB = await tenantShipment(sandbox, tokenB, b.shop_id);
    const renamed = await sandbox.request('PATCH', `/shops/${a.shop_id}`, {
      token: tokenA,
      body: {
        data: {
          type: 'shops',
          id: a.shop_id,
          attributes: { name: 'Renamed' },
          relationships: { organization: { data: originalShop.data.relationships.organization.data } },
        },
      },
    });
    expect(renamed.status).toBe(200);
    const extra = await sandbox.request('POST', '/shops', {
      token: tokenA,
      body: {
        data: {
          type: 'shops',
          attributes: {
            name: 'Second shop',
            sender_address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'NL' },
            return_address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'NL' },
          },
          relationships: { organization: { data: { type: 'organizations', id: a.organization_id } } },
        },
      },
    });
    expect(extra.status, extra.text).toBe(201);

    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: a.client_id } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({
      reset: 'tenant',
      client_id: a.client_id,
      organization_id: a.organization_id,
      removed: { shipments: 2, shops: 1 },
      restored: { shops: 1 },
    });
    expect(reset.body.removed.shipment_statuses).toBeGreaterThanOrEqual(2);

    for (const shipment of shipmentsA) expect((await sandbox.get(`/shipments/${shipment.id}`, tokenA)).status).toBe(404);
    expect((await sandbox.get('/shipments', tokenA)).body.data).toEqual([]);
    expect((await sandbox.get(`/shipments/${shipmentB.id}`, tokenB)).status).toBe(200);
    expect((await sandbox.get('/shops', tokenA)).body).toEqual({
      ...originalShop,
      data: [originalShop.data],
      meta: expect.anything(),
      links: expect.anything(),
    });
    expect((await sandbox.get(`/shops/${a.shop_id}`, tokenA)).body).toEqual(originalShop);
    expect(sandbox.store.find('shipmentStatuses', 'shipment_id', shipmentsA[0].id)).toEqual([]);
    // The tenant keeps its client and its tokens.
    expect((await sandbox.get('/organizations', tokenA)).status).toBe(200);
  });

  it('drops pending jobs, hooks, hook logs and idempotency entries of the tenant only', async () => {
    const sandbox = await testSandbox();
    const [a, b] = await Promise.all([createTenant(sandbox), createTenant(sandbox)]);
    const [tokenA, tokenB] = await Promise.all([tenantToken(sandbox, a), tenantToken(sandbox, b)]);
    const fixture = await world(sandbox);
    const service = fixture.service('postnl-parcel-standard', 'NL');
    const contract = fixture.contractFor(service);
    const later = { service, contract, attributes: { register_at: TEST_NOW + 3600 } };
    const shipmentA = await tenantShipment(sandbox, tokenA, a.shop_id, later);
    const shipmentB = await tenantShipment(sandbox, tokenB, b.shop_id, later);
    const shopA = (await sandbox.get(`/shops/${a.shop_id}`, tokenA)).body.data;
    const keyed = await sandbox.request('POST', '/shipments', { token: tokenA, body: shipmentBody({ shop: shopA }), headers: { 'idempotency-key': 'k-1' } });
    expect(keyed.status).toBe(201);
    await sandbox.store.transact((tx) => {
      for (const [tenant, shipment] of [
        [a, shipmentA],
        [b, shipmentB],
      ] as const) {
        const hookId = tx.newId();
        tx.insert('hooks', {
          id: hookId,
          name: 'tag it',
          order: 1,
          active: true,
          trigger: { resource_type: 'shipments', resource_action: 'create' },
          action: { action_type: 'update-resource', values: [{ pointer: '/attributes/tags', value: ['x'] }] },
          owner: { type: 'organizations', id: tenant.organization_id },
          organization_id: tenant.organization_id,
          created_at: TEST_NOW,
        } as Json);
        tx.insert('hookLogs', {
          id: tx.newId(),
          hook_id: hookId,
          resource_type: 'shipments',
          resource_id: shipment.id,
          shipment_id: shipment.id,
          organization_id: tenant.organization_id,
          resource_diff: {},
          errors: [],
          created_at: TEST_NOW,
        } as Json);
      }
    });
    const jobsOf = (shipment: Json) => sandbox.store.find('jobs', 'subject', shipment.id);
    expect(jobsOf(shipmentA)).toHaveLength(1);

    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: a.client_id } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.removed).toMatchObject({ shipments: 2, jobs: 1, hooks: 1, hook_logs: 1, idempotency_keys: 1 });
    expect(jobsOf(shipmentA)).toEqual([]);
    expect(jobsOf(shipmentB)).toHaveLength(1);
    const owned = (table: 'hooks' | 'hookLogs', organizationId: string) => sandbox.store.all(table).filter((row) => row.organization_id === organizationId);
    expect(owned('hooks', a.organization_id)).toEqual([]);
    expect(owned('hookLogs', a.organization_id)).toEqual([]);
    expect(owned('hooks', b.organization_id)).toHaveLength(1);
    expect(owned('hookLogs', b.organization_id)).toHaveLength(1);
    expect(sandbox.store.all('idempotencyKeys').filter((row) => row.client_id === a.client_id)).toEqual([]);
    // The same idempotency key is free again, and registering the other tenant's shipment still runs.
    const again = await sandbox.request('POST', '/shipments', { token: tokenA, body: shipmentBody({ shop: shopA }), headers: { 'idempotency-key': 'k-1' } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replay')).toBeNull();
    await sandbox.advance(3700);
    expect((await sandbox.get(`/shipments/${shipmentB.id}`, tokenB)).body.data.attributes.tracking_code).toEqual(expect.any(String));
  });

  it('restores a fixture tenant to its seeded shops, own contracts and collections', async () => {
    const sandbox = await testSandbox();
    const fixture = await world(sandbox);
    const other = await world(sandbox, 'other-client');
    const organizationId = (await sandbox.get('/organizations', fixture.token)).body.data[0].id;
    const snapshot = async () => ({
      shops: (await sandbox.get('/shops?page[size]=100', fixture.token)).body.data,
      contracts: (await sandbox.get('/contracts?page[size]=100', fixture.token)).body.data,
      collections: (await sandbox.get('/collections?page[size]=100', fixture.token)).body,
    });
    const before = await snapshot();

    const mine = await createShipment(sandbox, fixture.token, shipmentBody({ shop: fixture.shopIn('NL') }));
    const theirs = await createShipment(sandbox, other.token, shipmentBody({ shop: other.shopIn('GB'), recipient: recipients.GB }));
    const shop = fixture.shopIn('NL');
    await sandbox.request('PATCH', `/shops/${shop.id}`, {
      token: fixture.token,
      body: {
        data: { type: 'shops', id: shop.id, attributes: { name: 'Changed' }, relationships: { organization: { data: shop.relationships.organization.data } } },
      },
    });
    const postnl = (await sandbox.read('/carriers')).body.data.find((c: Json) => c.attributes.code === 'postnl');
    const contract = await sandbox.request('POST', '/contracts', {
      token: fixture.token,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'Extra', currency: 'EUR', credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) } },
          relationships: { carrier: { data: { type: 'carriers', id: postnl.id } }, owner: { data: { type: 'organizations', id: organizationId } } },
        },
      },
    });
    expect(contract.status, contract.text).toBe(201);
    const ownSeeded = before.contracts.find((c: Json) => c.relationships.owner.data.type === 'organizations');
    const renamed = await sandbox.request('PATCH', `/contracts/${ownSeeded.id}`, {
      token: fixture.token,
      body: { data: { type: 'contracts', id: ownSeeded.id, attributes: { name: 'Renamed' } } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data.attributes.name).toBe('Renamed');

    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: 'limited-client' } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.organization_id).toBe(organizationId);
    expect(reset.body.restored.shops).toBe(before.shops.length);
    expect(reset.body.restored.contracts).toBeGreaterThan(0);

    expect(await snapshot()).toEqual(before);
    expect((await sandbox.get(`/shipments/${mine.id}`, fixture.token)).status).toBe(404);
    expect((await sandbox.get(`/contracts/${contract.body.data.id}`, fixture.token)).status).toBe(404);
    expect((await sandbox.get(`/shipments/${theirs.id}`, other.token)).status).toBe(200);
    expect((await sandbox.get('/shops', other.token)).body.data).toEqual(other.shops);
  });

  it('answers an unknown client with 404 and a malformed body with 400', async () => {
    const sandbox = await testSandbox();
    const unknown = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: 'nobody' } });
    expect(unknown.status).toBe(404);
    expect(firstError(unknown)).toMatchObject({ code: '10002', source: { pointer: '/client_id' } });
    expect((await sandbox.request('POST', '/_sandbox/reset', { body: { client: 'x' } })).status).toBe(400);
    expect((await sandbox.request('POST', '/_sandbox/reset', { body: '{' })).status).toBe(400);
    // A body that is not an object (a script's null for a variable it failed to fill) is refused, never taken as no body: that would reset everything.
    const tenant = await createTenant(sandbox);
    for (const text of ['null', '[]', ' null ']) {
      const answer = await sandbox.request('POST', '/_sandbox/reset', { body: text, headers: { 'content-type': 'application/json' } });
      expect([answer.status, firstError(answer).source], text).toEqual([400, { pointer: '' }]);
      expect((await sandbox.request('POST', '/_sandbox/tenants', { body: text, headers: { 'content-type': 'application/json' } })).status, text).toBe(400);
    }
    expect(sandbox.store.get('clients', tenant.client_id), 'the tenant survived the refused resets').toBeDefined();
    const whole = await sandbox.request('POST', '/_sandbox/reset', { body: {} });
    expect(whole.body.reset).toBe('sandbox');
  });

  it('is gone after a full reset, which restores only the seeded tenants', async () => {
    const sandbox = await testSandbox();
    const tenant = await createTenant(sandbox);
    const token = await tenantToken(sandbox, tenant);
    await sandbox.request('POST', '/_sandbox/reset', { body: {} });
    const answer = await sandbox.get('/shops', token);
    expect(answer.status).toBe(401);
    expect((await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: tenant.client_id } })).status).toBe(404);
  });
});
