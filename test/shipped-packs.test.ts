import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../src/server/library.js';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';
import { recipients } from './support/shipments.js';

/*
 * The packs under fixtures/packs/: each loads at start (over the base set), into a tenant
 * (POST /_sandbox/tenants {"pack": name}), and comes back whole through an export. What each
 * pack is for is checked the same way in both places, through the API.
 */

const packsFolder = fileURLToPath(new URL('../fixtures/packs/', import.meta.url));

/** How a test reaches the pack's data: an access token and a GET, at start or in a tenant. */
interface Reach {
  get(path: string): Promise<Json>;
  post(path: string, body: Json): Promise<{ status: number; body: Json }>;
  /** Moves the clock and runs what is due. */
  advance(seconds: number): Promise<void>;
}

/** The pack's first client, at start, through the library (clients of a pack keep their id and secret there). */
async function atStart(name: string, clientId: string): Promise<Reach & { sandbox: Sandbox }> {
  const sandbox = await createSandbox({ config: { fixtures: `${packsFolder}${name}` }, now: new Date('2026-03-02T08:00:00Z') });
  const token = await sandbox.token(clientId);
  const call = async (method: string, path: string, body?: Json) => {
    const answer = await sandbox.request(path, { method, headers: { authorization: `Bearer ${token}` }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: answer.status, body: (await answer.json()) as Json };
  };
  return {
    sandbox,
    get: async (path) => (await call('GET', path)).body,
    post: (path, body) => call('POST', path, body),
    advance: async (seconds) => void (await sandbox.advanceClock(seconds)),
  };
}

/** A tenant made from the pack, reached with the client the answer gives. */
async function inTenant(sandbox: TestSandbox, pack: string | Json): Promise<Reach & { made: Json; token: string }> {
  const made = await sandbox.request('POST', '/_sandbox/tenants', { body: { pack }, headers: { 'content-type': 'application/json' } });
  expect(made.status, made.text).toBe(201);
  const token = await tokenOf(sandbox, made.body.client_id, made.body.client_secret);
  return {
    made: made.body,
    token,
    get: async (path) => (await sandbox.get(path, token)).body,
    post: async (path, body) => {
      const answer = await sandbox.request('POST', path, { token, body });
      return { status: answer.status, body: answer.body };
    },
    advance: (seconds) => sandbox.advance(seconds),
  };
}

async function tokenOf(sandbox: TestSandbox, clientId: string, secret: string): Promise<string> {
  const answer = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: '*' },
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.access_token;
}

/** What each pack is for, as a user sees it through the API. */
const behaviours: Record<string, { client: string; check(reach: Reach): Promise<void> }> = {
  'broker-three-organizations': {
    client: 'partners-nl-client',
    async check(reach) {
      const broker = (await reach.get('/brokers')).data;
      expect(broker.map((row: Json) => row.attributes.name)).toEqual(['Parcel Partners']);
      const contracts = (await reach.get('/contracts')).data.map((row: Json) => row.attributes.name).sort();
      // The Dutch organization shares the broker's PostNL and DPD contracts, not its Royal Mail one.
      expect(contracts).toEqual(['DPD (Parcel Partners)', 'PostNL (Parcel Partners)']);
      expect((await reach.get('/shops')).data).toHaveLength(1);
    },
  },
  'failing-carrier': {
    client: 'failing-shipper-client',
    async check(reach) {
      const carriers = (await reach.get('/carriers?page[size]=100')).data;
      const failing = carriers.find((row: Json) => row.attributes.code === 'failing-express');
      expect(failing.attributes).not.toHaveProperty('sandbox_triggers');
      const shop = (await reach.get('/shops')).data[0];
      const contract = (await reach.get('/contracts')).data.find((row: Json) => row.relationships.carrier.data.id === failing.id);
      const service = (await reach.get(`/services?filter[carrier]=${failing.id}`)).data.find((row: Json) => row.attributes.regions_to[0].country_code === 'NL');
      const answer = await reach.post('/registered-shipments', {
        data: {
          type: 'shipments',
          attributes: {
            recipient_address: recipients.NL,
            sender_address: shop.attributes.sender_address,
            return_address: shop.attributes.return_address,
            physical_properties: { weight: 1200 },
          },
          relationships: {
            shop: { data: { type: 'shops', id: shop.id } },
            service: { data: { type: 'services', id: service.id } },
            contract: { data: { type: 'contracts', id: contract.id } },
          },
        },
      });
      expect(answer.status).toBe(422);
      expect(answer.body.errors[0].code).toBe('13002');
      expect(answer.body.errors[0].detail).toContain('Failing Express rejected the shipment');
    },
  },
  'returns-shop': {
    client: 'returns-merchant-client',
    async check(reach) {
      const orders = (await reach.get('/returns/v1/demo-orders?page[size]=100')).data;
      expect(orders).toHaveLength(8);
      for (const order of orders) expect(order.attributes.items.length).toBeGreaterThan(0);
      expect(orders.at(-1).attributes.items.at(-1)).toMatchObject({ sku: 'RM-GIFT-50', non_returnable: true });
      const shop = (await reach.get('/shops')).data[0];
      const reasons = (await reach.get(`/returns/v1/shops/${shop.id}/reasons`)).data;
      expect(reasons.map((row: Json) => row.attributes.code).sort()).toEqual(['changed-mind', 'damaged', 'too-large', 'too-small']);
      const methods = (await reach.get(`/returns/v1/return-methods?filter[shop]=${shop.id}`)).data;
      expect(methods.map((row: Json) => row.attributes.return_type).sort()).toEqual(['self-shipment', 'shipment', 'store-drop-off']);
    },
  },
  warehouse: {
    client: 'warehouse-client',
    async check(reach) {
      const schedules = (await reach.get('/collection-schedules')).data;
      expect(schedules).toHaveLength(2);
      await reach.advance(0);
      const collections = (await reach.get('/collections?page[size]=100')).data;
      // Both schedules book ahead: at least one collection each, on weekdays.
      const described = new Set(collections.map((row: Json) => row.attributes.description));
      expect([...described].sort()).toEqual(['DPD daily pick-up', 'PostNL daily pick-up']);
      for (const row of collections) expect([1, 2, 3, 4, 5]).toContain(new Date(row.attributes.collection_time.from * 1000).getUTCDay());
    },
  },
};

describe.each(Object.keys(behaviours))('the shipped pack %s', (name) => {
  const behaviour = behaviours[name]!;

  it('loads at start over the base set, its clients signing in with their own secrets', async () => {
    const reach = await atStart(name, behaviour.client);
    try {
      await behaviour.check(reach);
      // The base set is still there beside it (the catalogue needs a token, as every request does).
      const carriers = await reach.get('/carriers?page[size]=100');
      expect(carriers.data.length).toBeGreaterThanOrEqual(6);
    } finally {
      await reach.sandbox.close();
    }
  });

  it('loads into a tenant by name', async () => {
    const sandbox = await testSandbox();
    const reach = await inTenant(sandbox, name);
    await behaviour.check(reach);
  });

  it('comes back whole through an export: a tenant made from the export exports the same pack', async () => {
    const sandbox = await testSandbox();
    const first = await inTenant(sandbox, name);
    const exported = (await sandbox.get('/_sandbox/fixtures', first.token)).body;
    const second = await inTenant(sandbox, exported);
    expect((await sandbox.get('/_sandbox/fixtures', second.token)).body).toEqual(exported);
    await behaviour.check(second);
  });
});
