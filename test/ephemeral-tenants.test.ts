import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, MAX_TENANT_TTL, parseConfig } from '../src/config.js';
import { parseCli } from '../src/cli.js';
import { scratchTenantIds } from '../src/docs/examples/setup.js';
import { JournalPersistence } from '../src/store/journal-persistence.js';
import { openStore, type Store } from '../src/store/store.js';
import { firstError, seededState, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';
import { gatedPersistence } from './support/gated.js';

interface Tenant {
  client_id: string;
  client_secret: string;
  organization_id: string;
  shop_id: string;
  expires_at?: number;
}

async function createTenant(sandbox: TestSandbox, body: Json = {}, token?: string): Promise<Tenant> {
  const answer = await sandbox.request('POST', '/_sandbox/tenants', { body, ...(token ? { token } : {}) });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

async function tenantToken(sandbox: TestSandbox, tenant: Tenant): Promise<string> {
  const answer = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: tenant.client_id, client_secret: tenant.client_secret },
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.access_token;
}

/** Moves the sandbox clock as the admin (or without a token on a sandbox without one), running what becomes due. */
async function advance(sandbox: TestSandbox, seconds: number): Promise<void> {
  const token = sandbox.config.adminToken;
  const answer = await sandbox.request('POST', '/_sandbox/clock', { body: { advance: seconds }, ...(token ? { token } : {}) });
  expect(answer.status, answer.text).toBe(200);
}

const listed = async (sandbox: TestSandbox, token?: string) => {
  const answer = await sandbox.request('GET', '/_sandbox/tenants', token ? { token } : {});
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { data: Json[]; max_tenants: number };
};

/**
 * Gives a tenant something of nearly every kind it can own: a registered shipment (statuses, a
 * label file, a pending status walk), a shipment under an Idempotency-Key, a hook (and the log
 * of its run), an address book entry, a second shop and a logged request. Returns the ids made.
 */
async function populate(sandbox: TestSandbox, tenant: Tenant, token: string): Promise<string[]> {
  const fixture = await world(sandbox);
  const service = fixture.service('postnl-parcel-standard', 'NL');
  const contract = fixture.contractFor(service);
  const organization = { type: 'organizations', id: tenant.organization_id };
  const hook = await sandbox.request('POST', '/hooks', {
    token,
    body: {
      data: {
        type: 'hooks',
        attributes: {
          name: 'channel',
          order: 1,
          active: true,
          trigger: { resource_type: 'shipments', resource_action: 'create', predicates: [] },
          action: { action_type: 'update-resource', values: [{ pointer: '/attributes/channel', value: 'hooked' }] },
        },
        relationships: { owner: { data: organization } },
      },
    },
  });
  expect(hook.status, hook.text).toBe(201);
  const shop = (await sandbox.get(`/shops/${tenant.shop_id}`, token)).body.data;
  const registered = await createShipment(
    sandbox,
    token,
    shipmentBody({ shop, service, contract, attributes: { register_at: TEST_NOW, tags: ['sandbox:auto-deliver'] } }),
  );
  const keyed = await sandbox.request('POST', '/shipments', { token, body: shipmentBody({ shop }), headers: { 'idempotency-key': 'once' } });
  expect(keyed.status, keyed.text).toBe(201);
  const address = await sandbox.request('POST', '/addresses', {
    token,
    body: {
      data: {
        type: 'addresses',
        attributes: { company: 'Depot', street_1: 'Damrak', street_number: 1, postal_code: '1012 LG', city: 'Amsterdam', country_code: 'NL' },
        relationships: { organization: { data: organization } },
      },
    },
  });
  expect(address.status, address.text).toBe(201);
  const secondShop = await sandbox.request('POST', '/shops', {
    token,
    body: {
      data: {
        type: 'shops',
        attributes: {
          name: 'Second shop',
          sender_address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'NL' },
          return_address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'NL' },
        },
        relationships: { organization: { data: organization } },
      },
    },
  });
  expect(secondShop.status, secondShop.text).toBe(201);
  // Registration runs two seconds after register_at; the walk to "delivered" stays pending.
  await advance(sandbox, 5);
  const shipment = (await sandbox.get(`/shipments/${registered.id}?include=files`, token)).body;
  expect(shipment.data.attributes.tracking_code).toEqual(expect.any(String));
  expect(shipment.data.attributes.channel).toBe('hooked');
  expect(sandbox.store.find('jobs', 'subject', registered.id).length).toBeGreaterThan(0);
  expect(sandbox.store.find('files', 'shipment_id', registered.id).length).toBeGreaterThan(0);
  expect(sandbox.store.all('hookLogs').filter((row) => row.organization_id === tenant.organization_id).length).toBeGreaterThan(0);
  expect(sandbox.store.all('idempotencyKeys').some((row) => row.client_id === tenant.client_id)).toBe(true);
  return [registered.id, keyed.body.data.id, hook.body.data.id, address.body.data.id, secondShop.body.data.id];
}

/** Every persisted row that mentions one of `ids`, as `table/id`. */
function rowsMentioning(store: Pick<Store, 'snapshot'>, ids: readonly string[]): string[] {
  const found: string[] = [];
  for (const [table, rows] of Object.entries(store.snapshot().tables)) {
    for (const row of rows ?? []) {
      const text = JSON.stringify(row);
      if (ids.some((id) => text.includes(id))) found.push(`${table}/${(row as { id: string }).id}`);
    }
  }
  return found;
}

/** Keys of the store's secondary indexes and their caches that are one of `ids` (reaching into the tables on purpose). */
function indexKeysOf(store: Store, ids: readonly string[]): string[] {
  const found: string[] = [];
  const tables = (store as unknown as { tables: Map<string, { indexes: Map<string, Map<unknown, unknown>>; found: Map<string, Map<unknown, unknown>> }> })
    .tables;
  for (const [name, table] of tables) {
    for (const maps of [table.indexes, table.found]) {
      for (const [field, index] of maps) for (const key of index.keys()) if (ids.includes(key as string)) found.push(`${name}.${field}=${String(key)}`);
    }
  }
  return found;
}

describe('POST /_sandbox/tenants with a ttl', () => {
  it('says when the tenant expires, and lists it with its expiry', async () => {
    const sandbox = await testSandbox();
    const ephemeral = await createTenant(sandbox, { ttl: 600 });
    expect(ephemeral.expires_at).toBe(TEST_NOW + 600);
    const lasting = await createTenant(sandbox, { name: 'CI main' });
    expect(lasting).not.toHaveProperty('expires_at');
    const list = await listed(sandbox);
    expect(list.max_tenants).toBe(1000);
    expect(list.data).toEqual([
      {
        organization_id: ephemeral.organization_id,
        client_id: ephemeral.client_id,
        name: expect.any(String),
        created_at: TEST_NOW,
        expires_at: TEST_NOW + 600,
      },
      { organization_id: lasting.organization_id, client_id: lasting.client_id, name: 'CI main', created_at: TEST_NOW },
    ]);
    // A tenant's own token lists that tenant only; a seeded organization's token nothing.
    expect((await listed(sandbox, await tenantToken(sandbox, lasting))).data.map((row) => row.organization_id)).toEqual([lasting.organization_id]);
    expect((await listed(sandbox, await sandbox.token())).data).toEqual([]);
  });

  it('refuses a ttl that is not a whole number of seconds from 1 to 30 days, pointing at /ttl', async () => {
    const sandbox = await testSandbox();
    for (const ttl of [-5, 0, 1.5, '60', MAX_TENANT_TTL + 1, null, true]) {
      const answer = await sandbox.request('POST', '/_sandbox/tenants', { body: { ttl } });
      expect(answer.status, JSON.stringify(ttl)).toBe(400);
      expect(firstError(answer)).toMatchObject({ code: '10003', source: { pointer: '/ttl' } });
    }
    expect(sandbox.store.count('organizations')).toBe(seededState().tables.organizations!.length);
    expect((await createTenant(sandbox, { ttl: 1 })).expires_at).toBe(TEST_NOW + 1);
    expect((await createTenant(sandbox, { ttl: MAX_TENANT_TTL })).expires_at).toBe(TEST_NOW + MAX_TENANT_TTL);
  });
});

describe('an expired tenant', () => {
  it('is removed with everything it owns when the clock passes expires_at; its tokens answer 401', async () => {
    const sandbox = await testSandbox();
    const tenant = await createTenant(sandbox, { ttl: 60 });
    const neighbour = await createTenant(sandbox, { ttl: 3600 });
    const token = await tenantToken(sandbox, tenant);
    const neighbourToken = await tenantToken(sandbox, neighbour);
    const made = await populate(sandbox, tenant, token);
    const userId = sandbox.store.get('clients', tenant.client_id)!.user_id;
    const ids = [tenant.organization_id, tenant.client_id, tenant.shop_id, userId, ...made];
    expect((await sandbox.request('GET', `/_sandbox/requests?client_id=${tenant.client_id}`)).body.data.length).toBeGreaterThan(0);
    const before = rowsMentioning(sandbox.store, ids);
    expect(before.length).toBeGreaterThan(15);
    expect(before).toEqual(expect.arrayContaining([`settings/tenant:${tenant.organization_id}`, expect.stringMatching(/^contractShares\//)]));

    await advance(sandbox, 50);
    expect((await sandbox.get('/shops', token)).status).toBe(200);
    await advance(sandbox, 5);

    const refused = await sandbox.get('/shops', token);
    expect(refused.status).toBe(401);
    expect(firstError(refused).code).toBe('14002');
    expect(
      (
        await sandbox.request('POST', '/access-token', {
          body: { grant_type: 'client_credentials', ...tenant },
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(401);
    expect(rowsMentioning(sandbox.store, ids)).toEqual([]);
    expect(indexKeysOf(sandbox.store, ids)).toEqual([]);
    // The request log forgets its requests; the list forgets it; the neighbour is untouched.
    expect((await sandbox.request('GET', `/_sandbox/requests?client_id=${tenant.client_id}`)).body.data).toEqual([]);
    expect((await listed(sandbox)).data.map((row) => row.organization_id)).toEqual([neighbour.organization_id]);
    expect((await sandbox.get('/shops', neighbourToken)).body.data.map((shop: Json) => shop.id)).toEqual([neighbour.shop_id]);
  });

  it('is refused from the moment it expires, before the job that removes it has run', async () => {
    const sandbox = await testSandbox();
    const tenant = await createTenant(sandbox, { ttl: 30 });
    const token = await tenantToken(sandbox, tenant);
    expect((await sandbox.get('/shops', token)).status).toBe(200);
    // The clock moves without running what is due (as between two ticks of the server's scheduler).
    sandbox.clock.setOffsetMs(30_000);
    const refused = await sandbox.get('/shops', token);
    expect(refused.status).toBe(401);
    expect(firstError(refused).detail).toContain('expired at');
    // Nor does it get a new token, which would only be refused in turn.
    const issued = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: tenant.client_id, client_secret: tenant.client_secret },
      headers: { 'content-type': 'application/json' },
    });
    expect(issued.status).toBe(401);
    expect(firstError(issued)).toMatchObject({ code: '14000', source: { pointer: '/client_id' } });
    expect(firstError(issued).detail).toContain('expired at');
    expect(sandbox.store.get('organizations', tenant.organization_id)).toBeDefined();
    await sandbox.services.jobs.runDue();
    expect(sandbox.store.get('organizations', tenant.organization_id)).toBeUndefined();
  });

  it("answers the time it was moved to when the server's scheduler removed it while the move was being written", async () => {
    const gated = gatedPersistence();
    const sandbox = await testSandbox({ persistence: gated.persistence });
    const tenant = await createTenant(sandbox, { ttl: 600 });
    const token = await tenantToken(sandbox, tenant);
    const before = (await sandbox.request('GET', '/_sandbox/clock', { token })).body.now;
    // The move waits at the disk; the scheduler's tick meanwhile finds the tenant's time up.
    const [moved] = await gated.race(
      () => sandbox.request('POST', '/_sandbox/clock', { token, body: { advance: 601 } }),
      () => sandbox.services.jobs.runDue(),
    );
    expect(moved.status, moved.text).toBe(200);
    expect(sandbox.store.get('organizations', tenant.organization_id)).toBeUndefined();
    expect(moved.body).toMatchObject({ now: before + 601, offset: 601, organization_id: tenant.organization_id, follows_global: false, removed: true });
  });

  it('expires on its own clock: moving it past expires_at removes the tenant, while the global clock and a neighbour stay', async () => {
    const sandbox = await testSandbox();
    const tenant = await createTenant(sandbox, { ttl: 600 });
    const neighbour = await createTenant(sandbox, { ttl: 600 });
    const token = await tenantToken(sandbox, tenant);
    const neighbourToken = await tenantToken(sandbox, neighbour);
    const globalBefore = (await sandbox.request('GET', '/_sandbox/clock')).body.now;

    const before = (await sandbox.request('GET', '/_sandbox/clock', { token })).body.now;
    const moved = await sandbox.request('POST', '/_sandbox/clock', { token, body: { advance: 601 } });
    expect(moved.status, moved.text).toBe(200);
    // The answer is the tenant's clock as moved, saying the tenant went with it.
    expect(moved.body).toMatchObject({ now: before + 601, organization_id: tenant.organization_id, follows_global: false, removed: true });

    expect(sandbox.store.get('organizations', tenant.organization_id)).toBeUndefined();
    expect(sandbox.store.get('tenantClocks', tenant.organization_id)).toBeUndefined();
    expect((await sandbox.get('/shops', token)).status).toBe(401);
    expect((await sandbox.request('GET', '/_sandbox/clock')).body.now).toBe(globalBefore);
    expect((await sandbox.get('/shops', neighbourToken)).status).toBe(200);
    expect((await listed(sandbox)).data.map((row) => row.organization_id)).toEqual([neighbour.organization_id]);
  });

  it('forgets the verified tokens of its clients', async () => {
    const sandbox = await testSandbox();
    const tenant = await createTenant(sandbox, { ttl: 10 });
    const token = await tenantToken(sandbox, tenant);
    expect((await sandbox.get('/shops', token)).status).toBe(200);
    const forgotten: string[][] = [];
    const forget = sandbox.services.tokens.forget.bind(sandbox.services.tokens);
    sandbox.services.tokens.forget = (clientIds) => {
      forgotten.push([...clientIds]);
      forget(clientIds);
    };
    await advance(sandbox, 10);
    expect(forgotten).toEqual([[tenant.client_id]]);
  });

  it('leaves the data file: the snapshot after compaction and what a restart loads hold none of its rows', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-ttl-')), 'sandbox.json');
    const sandbox = await testSandbox({ persistence: new JournalPersistence(file) });
    const tenant = await createTenant(sandbox, { ttl: 120 });
    const token = await tenantToken(sandbox, tenant);
    const made = await populate(sandbox, tenant, token);
    const ids = [tenant.organization_id, tenant.client_id, tenant.shop_id, ...made];
    const journal = async () => {
      const names = (await readdir(join(file, '..'))).filter((name) => name.includes('.journal-'));
      return (await Promise.all(names.map((name) => readFile(join(file, '..', name), 'utf8')))).join('');
    };
    expect(await journal()).toContain(tenant.organization_id);

    await advance(sandbox, 120);
    await sandbox.store.close();
    const snapshot = await readFile(file, 'utf8');
    expect(snapshot.length).toBeGreaterThan(10_000);
    for (const id of ids) expect(snapshot).not.toContain(id);
    expect(await journal()).toBe('');

    const reopened = await openStore({ persistence: new JournalPersistence(file), seed: 1, initial: () => seededState() });
    expect(rowsMentioning(reopened, ids)).toEqual([]);
    expect(reopened.count('organizations')).toBe(seededState().tables.organizations!.length);
    await reopened.close();
  });

  it('is removed after a restart that finds it expired (its removal is a job kept with the data)', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-ttl-')), 'sandbox.json');
    const first = await testSandbox({ persistence: new JournalPersistence(file) });
    const tenant = await createTenant(first, { ttl: 300 });
    await first.store.close();

    const second = await testSandbox({ persistence: new JournalPersistence(file) });
    expect(second.store.get('organizations', tenant.organization_id)).toBeDefined();
    await advance(second, 300);
    expect(rowsMentioning(second.store, [tenant.organization_id, tenant.client_id])).toEqual([]);
    await second.store.close();
  });
});

describe('the tenant cap (MAX_TENANTS)', () => {
  it('removes the oldest ephemeral tenant to make way for a new one', async () => {
    const sandbox = await testSandbox({ config: { maxTenants: 3 } });
    const lasting = await createTenant(sandbox);
    const oldest = await createTenant(sandbox, { ttl: 3600 });
    const soonest = await createTenant(sandbox, { ttl: 60 });
    const oldestToken = await tenantToken(sandbox, oldest);
    expect((await sandbox.get('/shops', oldestToken)).status).toBe(200);

    const newest = await createTenant(sandbox, { ttl: 600 });
    expect((await listed(sandbox)).data.map((row) => row.organization_id)).toEqual([lasting.organization_id, soonest.organization_id, newest.organization_id]);
    expect((await sandbox.get('/shops', oldestToken)).status).toBe(401);
    expect(rowsMentioning(sandbox.store, [oldest.organization_id, oldest.client_id])).toEqual([]);
    // A tenant without a ttl is never evicted: a permanent one takes the next ephemeral one's place.
    await createTenant(sandbox);
    expect((await listed(sandbox)).data.map((row) => row.organization_id)).toEqual([lasting.organization_id, newest.organization_id, expect.any(String)]);
  });

  it('answers 429 (10011) with Retry-After when no tenant can make way, and creates nothing', async () => {
    const sandbox = await testSandbox({ config: { maxTenants: 2 } });
    await createTenant(sandbox);
    await createTenant(sandbox);
    const organizations = sandbox.store.count('organizations');
    for (const body of [{}, { ttl: 60 }]) {
      const refused = await sandbox.request('POST', '/_sandbox/tenants', { body });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('content-type')).toBe('application/vnd.api+json');
      expect(firstError(refused)).toMatchObject({ status: '429', code: '10011', title: 'Too many requests.' });
      expect(firstError(refused).detail).toContain('MAX_TENANTS');
    }
    expect(sandbox.store.count('organizations')).toBe(organizations);
  });

  it("refuses a pack of more organizations than can make way, telling the tenants as they are and the pack's need", async () => {
    const sandbox = await testSandbox({ config: { maxTenants: 3 } });
    await createTenant(sandbox);
    const ephemeral = await createTenant(sandbox, { ttl: 600 });
    const refused = await sandbox.request('POST', '/_sandbox/tenants', { body: { pack: 'broker-three-organizations' } });
    expect(refused.status, refused.text).toBe(429);
    expect(firstError(refused).detail).toContain('holds 2 tenants and this pack makes 3 organizations');
    expect(firstError(refused).detail).toContain("too few of them are a visitor's or have a ttl to make way");
    // The ephemeral tenant, removed to make way for it, is back with the refusal.
    expect((await listed(sandbox)).data.map((row) => row.organization_id)).toContain(ephemeral.organization_id);
  });

  it('does not count expired tenants, whatever became of their removal', async () => {
    const sandbox = await testSandbox({ config: { maxTenants: 1 } });
    const expired = await createTenant(sandbox, { ttl: 5 });
    sandbox.clock.setOffsetMs(5_000);
    const lasting = await createTenant(sandbox);
    expect((await listed(sandbox)).data.map((row) => row.organization_id)).toEqual([lasting.organization_id]);
    expect(sandbox.store.get('organizations', expired.organization_id)).toBeUndefined();
  });

  it('keeps answering clearly through a burst of thousands of creations', async () => {
    const sandbox = await testSandbox({ config: { maxTenants: 50 } });
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 2000 }, (_, i) => sandbox.request('POST', '/_sandbox/tenants', { body: { ttl: 60 + (i % 7) } })));
    const elapsed = performance.now() - started;
    expect(answers.filter((answer) => answer.status !== 201)).toEqual([]);
    expect((await listed(sandbox)).data).toHaveLength(50);
    expect(sandbox.store.count('organizations')).toBe(seededState().tables.organizations!.length + 50);
    console.info(`2000 tenant creations at a cap of 50: ${Math.round(elapsed)} ms`);

    // Now fill the cap with tenants that stay: every further creation is a clear 429.
    for (const { organization_id } of (await listed(sandbox)).data) await sandbox.request('DELETE', `/_sandbox/tenants/${organization_id}`);
    const lasting = await Promise.all(Array.from({ length: 200 }, () => sandbox.request('POST', '/_sandbox/tenants', { body: {} })));
    expect(lasting.filter((answer) => answer.status === 201)).toHaveLength(50);
    expect(new Set(lasting.filter((answer) => answer.status !== 201).map((answer) => `${answer.status} ${firstError(answer).code}`))).toEqual(
      new Set(['429 10011']),
    );
    expect((await sandbox.get('/health')).status).toBe(200);
  });
});

describe('DELETE /_sandbox/tenants/{id}', () => {
  it('removes a tenant named by its organization id or a client id, with everything it owns', async () => {
    const sandbox = await testSandbox({ config: { adminToken: 'ci-admin' } });
    const byOrganization = await createTenant(sandbox, {}, 'ci-admin');
    const byClient = await createTenant(sandbox, { ttl: 60 }, 'ci-admin');
    const token = await tenantToken(sandbox, byOrganization);
    const made = await populate(sandbox, byOrganization, token);

    const deleted = await sandbox.request('DELETE', `/_sandbox/tenants/${byOrganization.organization_id}`, { token: 'ci-admin' });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({
      deleted: 'tenant',
      organization_id: byOrganization.organization_id,
      client_ids: [byOrganization.client_id],
      removed: { organizations: 1, users: 1, clients: 1, shops: 2, shipments: 2, hooks: 1, addresses: 1, settings: 1 },
    });
    expect((await sandbox.get('/shops', token)).status).toBe(401);
    expect(rowsMentioning(sandbox.store, [byOrganization.organization_id, byOrganization.client_id, ...made])).toEqual([]);

    const byClientId = await sandbox.request('DELETE', `/_sandbox/tenants/${byClient.client_id}`, { token: 'ci-admin' });
    expect(byClientId.status).toBe(200);
    expect(byClientId.body.organization_id).toBe(byClient.organization_id);
    // Its expiry job went with it.
    expect(sandbox.store.find('jobs', 'subject', byClient.organization_id)).toEqual([]);
    expect((await listed(sandbox, 'ci-admin')).data).toEqual([]);

    const again = await sandbox.request('DELETE', `/_sandbox/tenants/${byClient.client_id}`, { token: 'ci-admin' });
    expect(again.status).toBe(404);
    expect(firstError(again).code).toBe('10002');
    expect((await sandbox.request('DELETE', `/_sandbox/tenants/${byClient.organization_id}`)).status).toBe(401);
  });

  it("lets a tenant's own token delete that tenant only, and no one the seeded organizations", async () => {
    const sandbox = await testSandbox();
    const [a, b] = [await createTenant(sandbox), await createTenant(sandbox)];
    const [tokenA, tokenB] = [await tenantToken(sandbox, a), await tenantToken(sandbox, b)];
    const other = await sandbox.request('DELETE', `/_sandbox/tenants/${b.organization_id}`, { token: tokenA });
    expect(other.status).toBe(404);
    expect(firstError(other).detail).toContain('in your organization');
    expect((await sandbox.request('DELETE', `/_sandbox/tenants/${b.client_id}`, { token: tokenA })).status).toBe(404);

    const fixtureToken = await sandbox.token();
    const fixtureOrganization = (await sandbox.get('/organizations', fixtureToken)).body.data[0].id;
    for (const token of [fixtureToken, undefined]) {
      const seeded = await sandbox.request('DELETE', `/_sandbox/tenants/${token ? 'sandbox-client' : fixtureOrganization}`, token ? { token } : {});
      expect(seeded.status).toBe(422);
      expect(firstError(seeded).detail).toContain('seeded');
    }
    expect((await sandbox.get('/shops', fixtureToken)).status).toBe(200);

    const own = await sandbox.request('DELETE', `/_sandbox/tenants/${a.client_id}`, { token: tokenA });
    expect(own.status).toBe(200);
    expect((await sandbox.get('/shops', tokenA)).status).toBe(401);
    expect((await sandbox.get('/shops', tokenB)).status).toBe(200);
    expect((await sandbox.request('DELETE', '/_sandbox/tenants/no-such-tenant')).status).toBe(404);
  });

  it('is what DELETE /organizations does to a tenant made through the controls, which then leaves the list', async () => {
    const sandbox = await testSandbox({ config: { adminToken: 'ci-admin' } });
    const tenant = await createTenant(sandbox, { ttl: 600 }, 'ci-admin');
    const token = await tenantToken(sandbox, tenant);
    const removed = await sandbox.request('DELETE', `/organizations/${tenant.organization_id}`, { token });
    expect(removed.status, removed.text).toBe(204);
    expect((await listed(sandbox, 'ci-admin')).data).toEqual([]);
    expect(rowsMentioning(sandbox.store, [tenant.organization_id, tenant.client_id])).toEqual([]);
  });
});

describe('POST /_sandbox/visitor (the docs site mode)', () => {
  const own = { origin: 'http://sandbox.test' };

  it('is off by default: 404', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.request('POST', '/_sandbox/visitor', { headers: own });
    expect(answer.status).toBe(404);
    expect(firstError(answer)).toMatchObject({ code: '10000' });
    expect(firstError(answer).detail).toContain('--tenant-per-visitor');
    expect(sandbox.store.count('organizations')).toBe(seededState().tables.organizations!.length);
  });

  it("gives the sandbox's own page a short-lived tenant of the visitor's own, with a token that sees only it", async () => {
    const sandbox = await testSandbox({ config: { tenantPerVisitor: true, visitorTtl: 900, adminToken: 'docs-admin' } });
    const answer = await sandbox.request('POST', '/_sandbox/visitor', { headers: own });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const visitor = answer.body;
    expect(visitor).toMatchObject({ expires_at: TEST_NOW + 900, ttl: 900, token_type: 'Bearer', expires_in: 86400 });
    const shops = await sandbox.get('/shops', visitor.access_token);
    // Its own shop, and the shop the API reference's examples delete (made for it with the other example rows).
    expect(shops.body.data.map((shop: Json) => shop.id)).toEqual(expect.arrayContaining([visitor.shop_id]));
    expect(shops.body.data).toHaveLength(2);
    const fixture = await world(sandbox);
    expect((await sandbox.get(`/shops/${visitor.shop_id}`, fixture.token)).status).toBe(404);
    // The visitor's tenant alone: the page load makes none of the admin's example rows.
    expect((await listed(sandbox, 'docs-admin')).data).toEqual([
      expect.objectContaining({ organization_id: visitor.organization_id, visitor: true, expires_at: TEST_NOW + 900 }),
    ]);
    // Made when the admin token first executes an example on the visitor's page: the three tenants the
    // admin's examples act on (two deletions, loading a pack), which end with the visitor's.
    const admins = await sandbox.request('POST', '/_sandbox/examples', {
      token: 'docs-admin',
      body: { client_id: visitor.client_id },
      headers: { 'content-type': 'application/json' },
    });
    expect(admins.status, admins.text).toBe(200);
    const list = await listed(sandbox, 'docs-admin');
    expect(list.data).toEqual([
      expect.objectContaining({ organization_id: visitor.organization_id, visitor: true, expires_at: TEST_NOW + 900 }),
      expect.objectContaining({ name: 'Organization to delete', visitor: true, expires_at: TEST_NOW + 900 }),
      expect.objectContaining({ name: 'Tenant to delete', visitor: true, expires_at: TEST_NOW + 900 }),
      expect.objectContaining({ name: 'Tenant with a pack', visitor: true, expires_at: TEST_NOW + 900 }),
    ]);

    const second = (await sandbox.request('POST', '/_sandbox/visitor', { headers: own })).body;
    expect(second.organization_id).not.toBe(visitor.organization_id);
    await advance(sandbox, 900);
    expect((await sandbox.get('/shops', visitor.access_token)).status).toBe(401);
  });

  it('refuses pages of other origins and requests without an Origin, and answers no CORS preflight', async () => {
    const sandbox = await testSandbox({ config: { tenantPerVisitor: true, adminToken: 'docs-admin' } });
    const foreign = await sandbox.request('POST', '/_sandbox/visitor', { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(firstError(foreign)).toMatchObject({ code: '10013', source: { header: 'Origin' } });
    expect(firstError(foreign).detail).toContain('https://evil.example');
    const none = await sandbox.request('POST', '/_sandbox/visitor');
    expect(none.status).toBe(403);
    expect(firstError(none).detail).toContain('Origin header');
    const sameSite = await sandbox.request('POST', '/_sandbox/visitor', { headers: { 'sec-fetch-site': 'same-site' } });
    expect(sameSite.status).toBe(403);
    const preflight = await sandbox.app.request('http://sandbox.test/_sandbox/visitor', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(sandbox.store.count('organizations')).toBe(seededState().tables.organizations!.length);
  });

  it('counts visitors against the cap: the oldest visitor makes way, with the scratch tenant its examples made', async () => {
    const sandbox = await testSandbox({ config: { tenantPerVisitor: true, adminToken: 'docs-admin', maxTenants: 2 } });
    const visitors = [];
    for (let i = 0; i < 3; i++) {
      const visitor = (await sandbox.request('POST', '/_sandbox/visitor', { headers: own })).body;
      visitors.push(visitor);
      // The admin executes an example on each visitor's page: its examples' scratch tenants are made there.
      const json = { 'content-type': 'application/json' };
      await sandbox.request('POST', '/_sandbox/examples', { token: 'docs-admin', body: { client_id: visitor.client_id }, headers: json });
    }
    // Each visitor's examples take the place left (one scratch tenant); a new visitor takes both places of the oldest.
    const last = visitors[2].organization_id;
    expect((await listed(sandbox, 'docs-admin')).data.map((row) => row.organization_id)).toEqual([last, scratchTenantIds(last)[0]]);
    for (const gone of visitors.slice(0, 2)) expect((await sandbox.get('/shops', gone.access_token)).status).toBe(401);
  });

  it("never removes a tenant that is not a visitor's to make way for a visitor: 429 with Retry-After instead", async () => {
    const admin = 'docs-admin';
    const sandbox = await testSandbox({ config: { tenantPerVisitor: true, adminToken: admin, maxTenants: 3 } });
    // A CI job's tenant with a ttl, the oldest of all: the cap used to take it first.
    const job = await createTenant(sandbox, { name: 'ci job', ttl: 7200 }, admin);
    const jobToken = await tenantToken(sandbox, job);
    const visitors = [];
    for (let i = 0; i < 6; i++) {
      const answer = await sandbox.request('POST', '/_sandbox/visitor', { headers: own });
      expect(answer.status, answer.text).toBe(201);
      visitors.push(answer.body);
    }
    // The flood replaced visitors only, the oldest first.
    const kept = (await listed(sandbox, admin)).data.map((row) => row.organization_id);
    const last = visitors[5].organization_id;
    expect(kept).toEqual([job.organization_id, visitors[4].organization_id, last]);
    expect((await sandbox.get('/shops', jobToken)).status).toBe(200);

    // With no visitor left to make way, a visitor is refused and the job's tenants stay.
    for (const visitor of [visitors[4].organization_id, last]) {
      expect((await sandbox.request('DELETE', `/_sandbox/tenants/${visitor}`, { token: admin })).status).toBe(200);
    }
    const second = await createTenant(sandbox, { name: 'ci job 2', ttl: 7200 }, admin);
    const third = await createTenant(sandbox, { name: 'ci job 3', ttl: 60 }, admin);
    const refused = await sandbox.request('POST', '/_sandbox/visitor', { headers: own });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(firstError(refused)).toMatchObject({ status: '429', code: '10011', title: 'Too many requests.' });
    expect(firstError(refused).detail).toContain('visitor');
    expect((await listed(sandbox, admin)).data.map((row) => row.organization_id)).toEqual([job.organization_id, second.organization_id, third.organization_id]);
    expect((await sandbox.get('/shops', jobToken)).status).toBe(200);
  });

  it('makes way for a tenant of the controls with visitor tenants first, then with the oldest ephemeral one', async () => {
    const admin = 'docs-admin';
    const sandbox = await testSandbox({ config: { tenantPerVisitor: true, adminToken: admin, maxTenants: 3 } });
    const job = await createTenant(sandbox, { ttl: 7200 }, admin);
    const first = (await sandbox.request('POST', '/_sandbox/visitor', { headers: own })).body;
    const second = (await sandbox.request('POST', '/_sandbox/visitor', { headers: own })).body;
    const next = await createTenant(sandbox, { ttl: 600 }, admin);
    // The oldest visitor made way for it, then the other for the next one.
    expect((await listed(sandbox, admin)).data.map((row) => row.organization_id)).toEqual([job.organization_id, second.organization_id, next.organization_id]);
    expect(sandbox.store.get('organizations', first.organization_id)).toBeUndefined();
    const last = await createTenant(sandbox, { ttl: 600 }, admin);
    expect(sandbox.store.get('organizations', second.organization_id)).toBeUndefined();
    const after = await createTenant(sandbox, {}, admin);
    // No visitor left: the oldest ephemeral tenant makes way, as before.
    expect((await listed(sandbox, admin)).data.map((row) => row.organization_id)).toEqual([next.organization_id, last.organization_id, after.organization_id]);
    expect(sandbox.store.get('organizations', first.organization_id)).toBeUndefined();
  });

  it('serves the /docs page without the shared client, asking for the visitor tenant instead', async () => {
    const plain = await (await testSandbox()).request('GET', '/docs', { headers: { accept: 'text/html' } });
    expect(plain.text).toContain('value="sandbox-client"');
    expect(plain.text).not.toContain('_sandbox/visitor');
    const sandbox = await testSandbox({ config: { tenantPerVisitor: true, adminToken: 'docs-admin' } });
    const page = await sandbox.request('GET', '/docs', { headers: { accept: 'text/html' } });
    expect(page.text).not.toContain('sandbox-secret');
    expect(page.text).toContain('"visitorUrl":"_sandbox/visitor"');
  });
});

describe('configuration of the cap and the visitor mode', () => {
  it('defaults to a cap of 1000, the mode off and a visitor ttl of 1800 s', () => {
    const config = parseConfig({}, {}, true);
    expect(config).toMatchObject({ maxTenants: 1000, tenantPerVisitor: false, visitorTtl: 1800 });
  });

  it('reads flags and variables, and stops the start on a cap below 1 or a visitor ttl out of range', () => {
    const cli = parseCli(['--max-tenants', '25', '--tenant-per-visitor', '--visitor-ttl', '600', '--admin-token', 'a'], {});
    expect(cli.action === 'serve' && cli.config).toMatchObject({ maxTenants: 25, tenantPerVisitor: true, visitorTtl: 600 });
    expect(parseConfig({ MAX_TENANTS: '7' }, {}, true).maxTenants).toBe(7);
    expect(() => parseConfig({ MAX_TENANTS: '0' }, {}, true)).toThrow(
      new ConfigError('MAX_TENANTS (--max-tenants) must be at least 1, got 0', { setting: 'maxTenants', problem: 'must be at least 1, got 0' }),
    );
    expect(() => parseConfig({ MAX_TENANTS: '-3' }, {}, true)).toThrow(/MAX_TENANTS \(--max-tenants\) must be at least 1/);
    expect(() => parseConfig({ MAX_TENANTS: 'many' }, {}, true)).toThrow(/MAX_TENANTS \(--max-tenants\) must be an integer/);
    expect(() => parseConfig({ VISITOR_TTL: '0' }, {}, true)).toThrow(/VISITOR_TTL \(--visitor-ttl\) must be 1 to 2592000 seconds/);
    expect(() => parseConfig({ VISITOR_TTL: String(MAX_TENANT_TTL + 1) }, {}, true)).toThrow(ConfigError);
    expect(() => parseConfig({ TENANT_PER_VISITOR: 'true' }, {}, true)).toThrow(/TENANT_PER_VISITOR \(--tenant-per-visitor\) needs an admin token/);
  });
});
