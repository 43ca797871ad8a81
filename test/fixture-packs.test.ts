import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/server/library.js';
import { FixtureError } from '../src/fixtures/problems.js';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/*
 * Packs through the controls: POST /_sandbox/tenants {"pack": ...} and POST /_sandbox/fixtures
 * check a pack like an API body. A broken pack is refused as a whole (422, one error per problem
 * naming the file and a JSON pointer), nothing of it is loaded and other tenants are untouched.
 */

const json = { 'content-type': 'application/json' };

/** A small pack that loads: a shop, an own PostNL contract with rates, a reason and a demo order. */
const goodPack = () => ({
  shops: [{ key: 'my-shop', name: 'My Shop' }],
  contracts: [{ key: 'my-postnl', name: 'My PostNL', carrier: 'postnl', currency: 'EUR', status: 'active', volumetric_weight_divisor_factor: 1 }],
  service_rates: [
    {
      contract: 'my-postnl',
      service: 'postnl-parcel-standard-nl-nl',
      weight_min: 0,
      weight_max: 2000,
      is_dynamic: false,
      includes_vat: false,
      price: { amount: 500, currency: 'EUR' },
    },
    {
      contract: 'my-postnl',
      service: 'postnl-parcel-standard-nl-nl',
      weight_min: 2001,
      weight_max: 10000,
      is_dynamic: false,
      includes_vat: false,
      price: { amount: 700, currency: 'EUR' },
    },
  ],
  return_reasons: [{ key: 'too-small', code: 'too-small', description: 'Too small', attachments: 'disabled', comment: 'optional' }],
  shop_return_reasons: [{ shop: 'my-shop', reason: 'too-small' }],
  demo_orders: [{ shop: 'my-shop', random_products: { min: 1, max: 2 } }],
});

let sandbox: TestSandbox;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'parcel-sandbox-packs-'));
  await mkdir(join(folder, 'packs', 'broken-json'), { recursive: true });
  await writeFile(join(folder, 'packs', 'broken-json', 'shops.json'), '{\n  "shops": [\n    { "key": "a", }\n  ]\n}\n');
  await writeFile(join(folder, 'packs', 'mine.json'), JSON.stringify({ description: 'One shop', shops: [{ key: 'named-shop' }] }));
  sandbox = await testSandbox({ config: { fixtures: folder } });
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const createTenant = (body: Json) => sandbox.request('POST', '/_sandbox/tenants', { body, headers: json });

async function tokenOf(made: Json): Promise<string> {
  const answer = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: made.client_id, client_secret: made.client_secret, scope: '*' },
    headers: json,
  });
  return answer.body.access_token;
}

/** The problems of a 422 as `file#pointer` and the detail. */
const problems = (answer: { body: Json }) =>
  answer.body.errors.map((error: Json) => ({ where: `${error.meta.file}#${error.meta.pointer}`, detail: error.detail }));

/** What the sandbox holds, to show a refused pack left nothing behind. */
const counts = () =>
  Object.fromEntries(
    (['organizations', 'shops', 'contracts', 'serviceRates', 'clients', 'settings', 'demoOrders'] as const).map((t) => [t, sandbox.store.count(t)]),
  );

describe('a broken pack', () => {
  it('is refused as a whole, with one error per problem naming the file and a JSON pointer, and nothing loaded', async () => {
    const before = counts();
    const pack = goodPack();
    const broken = {
      ...pack,
      shops: [
        ...pack.shops,
        { key: 'my-shop' },
        { key: 'nl-shop', organization: 'nobody', sender_address: { street_1: 'Dam', city: 'Amsterdam', country_code: 'XX' } },
      ],
      contracts: [
        ...pack.contracts,
        { key: 'ghost', name: 'Ghost', carrier: 'no-such-carrier', currency: 'EUR', status: 'active', volumetric_weight_divisor_factor: 1 },
      ],
      service_rates: [
        ...pack.service_rates,
        { ...pack.service_rates[1], weight_min: 9000, weight_max: 12000 },
        { ...pack.service_rates[0], service_options: [{ option: 'proof-of-delivery:signature', price: { amount: 'ten', currency: 'EUR' }, included: false }] },
      ],
    };
    const answer = await createTenant({ pack: broken });
    expect(answer.status).toBe(422);
    // A schema violation deep in an array is found first, on its own: the rules run on a pack the schemas accept.
    expect(problems(answer)).toEqual([
      { where: 'pack#/service_rates/3/service_options/0/price/amount', detail: 'pack#/service_rates/3/service_options/0/price/amount: Must be integer.' },
    ]);
    expect(answer.body.errors[0].source.pointer).toBe('/pack/service_rates/3/service_options/0/price/amount');
    broken.service_rates.pop();
    const again = await createTenant({ pack: broken });
    expect(again.status).toBe(422);
    expect(problems(again).map((p: Json) => p.where)).toEqual([
      'pack#/shops/1/key',
      'pack#/shops/2/organization',
      'pack#/contracts/1/carrier',
      'pack#/service_rates/2/weight_min',
      'pack#/shops/2/sender_address/country_code',
    ]);
    const details = problems(again).map((p: Json) => p.detail);
    expect(details[0]).toContain("Another shop of this pack has the key 'my-shop'");
    expect(details[1]).toContain("There is no organization 'nobody'");
    expect(details[2]).toContain("There is no carrier 'no-such-carrier'");
    expect(details[3]).toContain('The weight range 9000-12000 g overlaps 2001-10000 g');
    expect(details[4]).toContain("'XX' is not an ISO 3166-1 country code");
    expect(counts()).toEqual(before);
  });

  it('with a return method whose service delivers to a pick-up point is refused at that service, as the API refuses it', async () => {
    const before = counts();
    const method = { shop: 'my-shop', return_type: 'shipment', title: 'To a parcel shop', contract: 'my-postnl' };
    const answer = await createTenant({
      pack: {
        ...goodPack(),
        return_methods: [
          { ...method, service: 'postnl-parcel-pickup-point-nl-nl' },
          { ...method, service: 'postnl-parcel-standard-nl-nl', recovery_service: 'postnl-parcel-pickup-point-nl-nl', recovery_contract: 'my-postnl' },
        ],
      },
    });
    expect([answer.status, problems(answer).map((p: Json) => p.where)]).toEqual([
      422,
      ['pack#/return_methods/0/service', 'pack#/return_methods/1/recovery_service'],
    ]);
    expect(problems(answer)[0].detail).toContain("The service 'postnl-parcel-pickup-point-nl-nl' delivers to a pick-up point");
    expect(counts()).toEqual(before);
  });

  it('cannot refer into another pack, and is told which pack the key is from', async () => {
    const answer = await createTenant({ pack: { shop_return_reasons: [{ shop: 'returns-shop', reason: 'returns-too-small' }] } });
    expect(answer.status).toBe(422);
    expect(problems(answer)).toEqual([
      { where: 'pack#/shop_return_reasons/0/shop', detail: expect.stringContaining("'returns-shop' is a shop of the pack 'returns-shop'") },
      { where: 'pack#/shop_return_reasons/0/reason', detail: expect.stringContaining("'returns-too-small' is a return reason of the pack 'returns-shop'") },
    ]);
  });

  it('that is not JSON is refused naming its file, line and column, without quoting it', async () => {
    const answer = await createTenant({ pack: 'broken-json' });
    expect(answer.status).toBe(422);
    expect(problems(answer)).toEqual([
      {
        where: 'packs/broken-json/shops.json#',
        detail: 'packs/broken-json/shops.json: Not JSON: a member name in double quotes was expected at line 3, column 19 (character 34).',
      },
    ]);
    expect(answer.body.errors[0].source.pointer).toBe('/pack');
  });

  it('of 50 MB is refused before it is read (413, the endpoint limit of 1 MiB)', async () => {
    const body = JSON.stringify({ pack: { description: 'x'.repeat(50 * 1024 * 1024) } });
    for (const path of ['/_sandbox/tenants', '/_sandbox/fixtures']) {
      const answer = await sandbox.request('POST', path, { body, headers: json });
      expect(answer.status, path).toBe(413);
      expect(answer.body.errors[0].meta.max_bytes).toBe(1024 * 1024);
    }
  });

  it('with a webhook to an address POST /hooks refuses is refused at that url, as the API refuses it', async () => {
    const hook = (urls: string[]) => ({
      name: 'Notify',
      order: 1,
      active: true,
      trigger: { resource_type: 'shipments', resource_action: 'create' },
      action: { action_type: 'send-resource', values: urls.map((url) => ({ url })) },
    });
    const before = counts();
    // Before, both were loaded, and refused only when a shipment's webhook went out.
    const answer = await createTenant({
      pack: { hooks: [hook(['http://127.0.0.1:9/hooks', 'http://169.254.169.254/latest']), hook(['ftp://files.example/in'])] },
    });
    expect(answer.status).toBe(422);
    expect(problems(answer)).toEqual([
      { where: 'pack#/hooks/0/action/values/1/url', detail: expect.stringContaining('Webhooks to 169.254.169.254 are refused: it is a link-local address.') },
      { where: 'pack#/hooks/1/action/values/0/url', detail: expect.stringContaining('Webhooks are sent over http or https only, not ftp.') },
    ]);
    expect(answer.body.errors[0].source.pointer).toBe('/pack/hooks/0/action/values/1/url');
    expect(counts()).toEqual(before);
    // The loopback receiver alone is taken, as POST /hooks takes it here.
    expect((await createTenant({ pack: { hooks: [hook(['http://127.0.0.1:9/hooks'])] } })).status).toBe(201);
  });

  it('names a pack that does not exist', async () => {
    const answer = await createTenant({ pack: 'no-such-pack' });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].detail).toContain("'no-such-pack' is no pack under the fixtures folder");
  });
});

describe('a broken pack at start (--fixtures)', () => {
  it('with a key twice is told that alone: its references into the base set are not reported missing', async () => {
    await mkdir(join(folder, 'start'), { recursive: true });
    const file = join(folder, 'start', 'twice.json');
    const shop = (name: string) => ({ key: 'a', organization: 'organization-a', country_code: 'NL', name });
    await writeFile(file, JSON.stringify({ shops: [shop('x'), shop('y')] }));
    const refused = await createSandbox({ config: { fixtures: file } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(FixtureError);
    expect((refused as FixtureError).problems).toEqual([{ file, pointer: '/shops/1/key', detail: "Another shop of this pack has the key 'a'." }]);
  });
});

describe('a pack loaded into a tenant', () => {
  it('makes the tenant with the pack, and answers the id of every key', async () => {
    const made = await createTenant({ pack: goodPack(), name: 'Pack Tenant' });
    expect(made.status, made.text).toBe(201);
    const token = await tokenOf(made.body);
    const shops = (await sandbox.get('/shops', token)).body.data;
    expect(shops.map((row: Json) => [row.id, row.attributes.name])).toEqual([[made.body.keys.shops['my-shop'], 'My Shop']]);
    expect(made.body.shop_id).toBe(made.body.keys.shops['my-shop']);
    const rates = (await sandbox.get(`/service-rates?filter[contract]=${made.body.keys.contracts['my-postnl']}`, token)).body.data;
    expect(rates.map((row: Json) => row.attributes.price.amount)).toEqual([500, 700]);
    expect((await sandbox.get('/organizations', token)).body.data[0].attributes.name).toBe('Pack Tenant');
  });

  it("is refused the second time: its keys are the tenant's already, and other tenants are untouched", async () => {
    const other = await createTenant({ pack: goodPack() });
    const otherToken = await tokenOf(other.body);
    const otherExport = (await sandbox.get('/_sandbox/fixtures', otherToken)).body;
    const made = await createTenant({});
    const token = await tokenOf(made.body);
    const first = await sandbox.request('POST', '/_sandbox/fixtures', { token, body: { pack: goodPack() }, headers: json });
    expect(first.status, first.text).toBe(200);
    expect(first.body.loaded).toMatchObject({ shops: 1, contracts: 1, service_rates: 2, demo_orders: 1 });
    const before = counts();
    const second = await sandbox.request('POST', '/_sandbox/fixtures', { token, body: { pack: goodPack() }, headers: json });
    expect(second.status).toBe(422);
    expect(problems(second).map((p: Json) => p.where)).toEqual([
      'pack#/shops/0/key',
      'pack#/contracts/0/key',
      'pack#/return_reasons/0/key',
      'pack#/service_rates/0/weight_min',
      'pack#/service_rates/1/weight_min',
    ]);
    expect(problems(second)[0].detail).toContain("The shop 'my-shop' exists already here (was this pack loaded before?)");
    expect(counts()).toEqual(before);
    expect((await sandbox.get('/_sandbox/fixtures', otherToken)).body).toEqual(otherExport);
    // Naming a client it cannot see (in the query) is a 404 on that query parameter.
    const unknown = await sandbox.get(`/_sandbox/fixtures?client_id=${other.body.client_id}`, token);
    expect([unknown.status, unknown.body.errors[0].source]).toEqual([404, { parameter: 'client_id' }]);
  });

  it('is added to what earlier packs gave the tenant, in a table they filled already, and refers to their rows by key', async () => {
    const made = await createTenant({ name: 'plain' });
    const token = await tokenOf(made.body);
    const reason = (key: string) => ({ key, code: key, description: key, attachments: 'disabled', comment: 'optional' });
    const load = (pack: Json) => sandbox.request('POST', '/_sandbox/fixtures', { token, body: { pack }, headers: json });
    const first = await load({ return_reasons: [reason('r1')], shops: [{ key: 'outlet', country_code: 'NL', name: 'Outlet' }] });
    expect(first.status, first.text).toBe(200);
    const second = await load({
      return_reasons: [reason('r2')],
      shop_return_reasons: [
        { shop: 'outlet', reason: 'r1' },
        { shop: 'outlet', reason: 'r2' },
      ],
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body.loaded).toMatchObject({ return_reasons: 1, shop_reasons: 2 });
    const shopId = first.body.keys.shops.outlet;
    const reasons = async () => (await sandbox.get(`/returns/v1/shops/${shopId}/reasons`, token)).body.data.map((row: Json) => row.id).sort();
    const ids = [first.body.keys.return_reasons.r1, second.body.keys.return_reasons.r2].sort();
    expect(await reasons()).toEqual(ids);
    // A reset puts back the rows of both packs.
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token, body: {}, headers: json });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.restored).toMatchObject({ return_reasons: 2, shop_reasons: 2 });
    expect(await reasons()).toEqual(ids);
  });

  it("puts back, with a tenant reset, the attributes the pack gave the tenant's organization", async () => {
    const made = await createTenant({ name: 'Before the pack' });
    const token = await tokenOf(made.body);
    const organization = { key: 'mine', broker: 'broker', name: 'Named by the pack' };
    const loaded = await sandbox.request('POST', '/_sandbox/fixtures', { token, body: { pack: { organizations: [organization] } }, headers: json });
    expect(loaded.status, loaded.text).toBe(200);
    const name = async () => (await sandbox.get(`/organizations/${made.body.organization_id}`, token)).body.data.attributes.name;
    expect(await name()).toBe('Named by the pack');
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token, body: {}, headers: json });
    expect(reset.status, reset.text).toBe(200);
    expect(await name()).toBe('Named by the pack');
  });

  it("that asks to replace sections is refused: a tenant's pack adds to what every tenant shares", async () => {
    const made = await createTenant({});
    const token = await tokenOf(made.body);
    const before = counts();
    const pack = { replace: ['service_rates'], shops: [{ key: 'replacing-shop' }] };
    for (const answer of [await sandbox.request('POST', '/_sandbox/fixtures', { token, body: { pack }, headers: json }), await createTenant({ pack })]) {
      expect(answer.status, answer.text).toBe(422);
      expect(problems(answer).map((p: Json) => p.where)).toEqual(['pack#/replace']);
      expect(answer.body.errors[0].source).toEqual({ pointer: '/pack/replace' });
    }
    expect(counts()).toEqual(before);
  });

  it("made from a seeded organization's export holds its shops, contracts and returns configuration under the same keys", async () => {
    const seededToken = await sandbox.token();
    const exported = (await sandbox.get('/_sandbox/fixtures', seededToken)).body;
    const made = await createTenant({ pack: exported });
    expect(made.status, made.text).toBe(201);
    const token = await tokenOf(made.body);
    const again = (await sandbox.get('/_sandbox/fixtures', token)).body;
    const keysOf = (pack: Json, section: string) => pack[section].map((row: Json) => row.key);
    for (const section of ['organizations', 'shops', 'contracts', 'return_reasons']) expect(keysOf(again, section)).toEqual(keysOf(exported, section));
    // The seeded organization keeps its rows; the tenant has copies of its own.
    const seededShops = (await sandbox.get('/shops', seededToken)).body.data.map((shop: Json) => shop.id);
    expect(seededShops).toHaveLength(exported.shops.length);
    expect(seededShops).not.toContain(made.body.keys.shops['shop-nl']);
  });

  it("cannot add rates or coverages to a broker contract every tenant shares: nobody else's prices change", async () => {
    const made = await createTenant({});
    const token = await tokenOf(made.body);
    const ratesSeen = async () =>
      (await sandbox.get('/service-rates?filter[weight]=40500&page[size]=100', await sandbox.token('other-client'))).body.data.length;
    const before = { rows: counts(), rates: await ratesSeen() };
    const price = { amount: 1, currency: 'EUR' };
    const pack = {
      service_rates: [
        {
          contract: 'broker-postnl',
          service: 'postnl-parcel-standard-nl-nl',
          weight_min: 40000,
          weight_max: 41000,
          is_dynamic: false,
          includes_vat: false,
          price,
        },
      ],
      liability_coverages: [{ contract: 'broker-postnl', name: 'Cheap cover', price, coverage_max: { amount: 100000, currency: 'EUR' } }],
    };
    for (const answer of [await sandbox.request('POST', '/_sandbox/fixtures', { token, body: { pack }, headers: json }), await createTenant({ pack })]) {
      expect(answer.status, answer.text).toBe(422);
      expect(problems(answer).map((p: Json) => p.where)).toEqual(['pack#/service_rates/0/contract', 'pack#/liability_coverages/0/contract']);
      expect(answer.body.errors[0].source).toEqual({ pointer: '/pack/service_rates/0/contract' });
    }
    expect({ rows: counts(), rates: await ratesSeen() }).toEqual(before);
  });

  it('is loaded by name from the packs/ folder of --fixtures, which GET /_sandbox/fixtures/packs lists with the shipped ones', async () => {
    const listed = (await sandbox.get('/_sandbox/fixtures/packs')).body.data;
    expect(listed.map((row: Json) => row.name)).toEqual(['broken-json', 'broker-three-organizations', 'failing-carrier', 'mine', 'returns-shop', 'warehouse']);
    expect(listed.find((row: Json) => row.name === 'mine').description).toBe('One shop');
    const made = await createTenant({ pack: 'mine' });
    expect(made.status, made.text).toBe(201);
    expect(Object.keys(made.body.keys.shops)).toEqual(['named-shop']);
  });

  it('comes back as it was loaded with a tenant reset', async () => {
    const made = await createTenant({ pack: 'returns-shop' });
    const token = await tokenOf(made.body);
    const seen = async () => ({
      orders: (await sandbox.get('/returns/v1/demo-orders?page[size]=100', token)).body.data.map((row: Json) => row.id),
      contracts: (await sandbox.get('/contracts', token)).body.data.map((row: Json) => row.id).sort(),
      rates: (await sandbox.get('/service-rates?page[size]=100', token)).body.data.map((row: Json) => row.id).sort(),
      reasons: (await sandbox.get(`/returns/v1/shops/${made.body.shop_id}/reasons`, token)).body.data.map((row: Json) => row.id),
    });
    const loaded = await seen();
    expect(loaded.orders).toHaveLength(8);
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token, body: {}, headers: json });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.restored).toMatchObject({ demo_orders: 8, contracts: 1, return_reasons: 4 });
    expect(await seen()).toEqual(loaded);
  });

  it("goes with the tenant: its other organizations, its broker and the broker's contracts", async () => {
    const made = await createTenant({ pack: 'broker-three-organizations' });
    expect(made.body.organizations.map((row: Json) => row.key)).toEqual(['partners-gb', 'partners-de']);
    expect(made.body.clients.map((row: Json) => row.key)).toEqual(['partners-nl-client', 'partners-gb-client', 'partners-de-client']);
    const brokers = sandbox.store.count('brokers');
    const contracts = sandbox.store.count('contracts');
    const deleted = await sandbox.request('DELETE', `/_sandbox/tenants/${made.body.organization_id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.client_ids).toHaveLength(3);
    expect(sandbox.store.count('brokers')).toBe(brokers - 1);
    expect(sandbox.store.count('contracts')).toBe(contracts - 3);
    for (const member of made.body.organizations) expect(sandbox.store.get('organizations', member.organization_id)).toBeUndefined();
  });

  it('takes the organizations the broker (admin) made under its broker, which cannot outlive it', async () => {
    const made = await createTenant({ pack: 'broker-three-organizations' });
    const brokerId = made.body.keys.brokers['parcel-partners'] as string;
    const contractId = made.body.keys.contracts['partners-postnl'] as string;
    const organization = await sandbox.request('POST', '/organizations', {
      body: {
        data: { type: 'organizations', attributes: { name: 'Made by the broker' }, relationships: { broker: { data: { type: 'brokers', id: brokerId } } } },
      },
    });
    expect(organization.status, organization.text).toBe(201);
    const organizationId = organization.body.data.id as string;
    const shared = await sandbox.request('POST', `/organizations/${organizationId}/relationships/contracts`, {
      body: { data: [{ type: 'contracts', id: contractId }] },
    });
    expect(shared.status, shared.text).toBe(204);
    const deleted = await sandbox.request('DELETE', `/_sandbox/tenants/${made.body.organization_id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(sandbox.store.get('brokers', brokerId)).toBeUndefined();
    // Its broker is gone, so the organization goes too, rather than naming a broker that answers 404.
    expect((await sandbox.get(`/organizations/${organizationId}/contracts`)).status).toBe(404);
    expect(sandbox.store.all('organizations').filter((row) => row.broker_id === brokerId)).toEqual([]);
    expect(sandbox.store.all('contractShares').filter((row) => row.organization_id === organizationId)).toEqual([]);
  });

  it("deleting the tenant's own organization (DELETE /organizations/{id}) takes the pack's other organizations and its broker with it", async () => {
    const made = await createTenant({ pack: 'broker-three-organizations' });
    const token = await tokenOf(made.body);
    const brokerId = made.body.keys.brokers['parcel-partners'] as string;
    const deleted = await sandbox.request('DELETE', `/organizations/${made.body.organization_id}`, { token });
    expect(deleted.status, deleted.text).toBe(204);
    for (const member of made.body.organizations) expect(sandbox.store.get('organizations', member.organization_id)).toBeUndefined();
    expect(sandbox.store.get('brokers', brokerId)).toBeUndefined();
    // No tenant is left naming the deleted one as its own: none is listed, none answers as a tenant.
    const listed = (await sandbox.get('/_sandbox/tenants')).body.data.map((row: Json) => row.organization_id);
    for (const member of made.body.organizations) expect(listed).not.toContain(member.organization_id);
    expect((await sandbox.request('DELETE', `/_sandbox/tenants/${made.body.organizations[0].organization_id}`)).status).toBe(404);
  });

  it('gives the tenant its own carrier, which no other tenant or seeded organization sees', async () => {
    const made = await createTenant({ pack: 'failing-carrier' });
    const token = await tokenOf(made.body);
    const carrierId = made.body.keys.carriers['failing-express'];
    expect((await sandbox.get(`/carriers/${carrierId}`, token)).status).toBe(200);
    const stranger = await sandbox.token();
    expect((await sandbox.get(`/carriers/${carrierId}`, stranger)).status).toBe(404);
    expect((await sandbox.get('/carriers?page[size]=100', stranger)).body.data.map((row: Json) => row.id)).not.toContain(carrierId);
    // Without a token the catalogue is 401, as production answers: no way round a tenant's rows there either.
    expect((await sandbox.get('/carriers?page[size]=100')).status).toBe(401);
  });

  it("answers another organization naming the tenant's own service on a shipment as it answers an unknown service", async () => {
    const made = await createTenant({ pack: 'failing-carrier' });
    const serviceId = made.body.keys.services['failing-express-parcel-nl-nl'] as string;
    const w = await world(sandbox);
    for (const id of [serviceId, '00000000-0000-4000-8000-000000000000']) {
      const answer = await sandbox.request('POST', '/shipments', { token: w.token, body: shipmentBody({ shop: w.shopIn('NL'), service: { id } }) });
      expect(answer.status, id).toBe(422);
      expect(answer.body.errors[0], id).toMatchObject({
        detail: `No service with id '${id}' exists.`,
        source: { pointer: '/data/relationships/service/data/id' },
      });
    }
  });

  it("answers another organization asking for the tenant's own service code (meta.service_code) as it answers an unknown code", async () => {
    await createTenant({ pack: 'failing-carrier' });
    const w = await world(sandbox);
    for (const code of ['failing-express-parcel', 'no-such-parcel']) {
      const answer = await sandbox.request('POST', '/shipments', {
        token: w.token,
        body: shipmentBody({ shop: w.shopIn('NL'), meta: { service_code: code } }),
      });
      // The shipment is made without a service; the warning says why.
      expect(answer.status, code).toBe(201);
      expect(answer.body.meta.warnings[0].detail, code).toContain(`No service has the code '${code}'.`);
    }
  });

  it("answers another organization naming the tenant's own service on dynamic rates and return methods as an unknown service", async () => {
    const made = await createTenant({ pack: 'failing-carrier' });
    const serviceId = made.body.keys.services['failing-express-parcel-nl-nl'] as string;
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const w = await world(sandbox);
    const shop = w.shopIn('NL');
    const contract = w.contracts.find((row: Json) => row.attributes.status === 'active');
    const address = shop.attributes.sender_address;
    /** The errors of an answer, with the id named written the same way. */
    const errorsOf = (answer: { status: number; body: Json }, id: string) =>
      [answer.status, JSON.stringify(answer.body.errors).replaceAll(id, '<id>')] as const;
    const asked = async (id: string) => ({
      rates: errorsOf(
        await sandbox.request('POST', '/get-dynamic-service-rates', {
          token: w.token,
          body: {
            data: {
              type: 'shipments',
              attributes: { sender_address: address, recipient_address: address, physical_properties: { weight: 1000 } },
              relationships: { service: { data: { type: 'services', id } }, shop: { data: { type: 'shops', id: shop.id } } },
            },
          },
          headers: json,
        }),
        id,
      ),
      method: errorsOf(
        await sandbox.request('POST', '/returns/v1/return-methods', {
          token: w.token,
          body: {
            data: {
              type: 'return-methods',
              attributes: { return_type: 'shipment', title: 'Back to us' },
              relationships: {
                shop: { data: { type: 'shops', id: shop.id } },
                service: { data: { type: 'services', id } },
                contract: { data: { type: 'contracts', id: contract.id } },
              },
            },
          },
        }),
        id,
      ),
    });
    const unknown = await asked(unknownId);
    expect(unknown.rates[0]).toBe(422);
    expect(unknown.method[0]).toBe(422);
    expect(await asked(serviceId)).toEqual(unknown);
  });

  it("never shows the tenant's own service or carrier in another organization's includes", async () => {
    const made = await createTenant({ pack: 'failing-carrier' });
    const serviceId = made.body.keys.services['failing-express-parcel-nl-nl'] as string;
    const carrierId = made.body.keys.carriers['failing-express'] as string;
    const w = await world(sandbox);
    const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    // A stranger's shipment that names the tenant's service, as a data file may hold one: its
    // service relationship is its own data, the service and its carrier are not the stranger's to see.
    await sandbox.store.transact((tx) => tx.update('shipments', shipment.id, { service_id: serviceId }));
    for (const path of [`/shipments/${shipment.id}?include=service.carrier`, '/shipments?page[size]=100&include=service.carrier']) {
      const answer = await sandbox.get(path, w.token);
      expect(answer.status, path).toBe(200);
      const included = (answer.body.included as Json[]).map((row) => row.id);
      expect(included, path).not.toContain(serviceId);
      expect(included, path).not.toContain(carrierId);
    }
  });

  it("with a seeded organization's token is refused: packs reach the seeded world at start", async () => {
    const answer = await sandbox.request('POST', '/_sandbox/fixtures', { token: await sandbox.token(), body: { pack: goodPack() }, headers: json });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].detail).toContain('one of the seeded organizations');
    // The token named the organization, not a client_id the body never sent; the admin's client_id is where it names it.
    expect(answer.body.errors[0].source).toEqual({ header: 'Authorization' });
    const byAdmin = await sandbox.request('POST', '/_sandbox/fixtures', { body: { pack: goodPack(), client_id: 'sandbox-client' }, headers: json });
    expect(byAdmin.status).toBe(422);
    expect(byAdmin.body.errors[0].source).toEqual({ pointer: '/client_id' });
  });

  it('takes the tenant by id from the admin (as DELETE /_sandbox/tenants/{tenant} names it), and refuses an unknown one or two names', async () => {
    const made = await createTenant({ name: 'By id' });
    const tenant = made.body.organization_id as string;
    const pack = { shops: [{ key: 'outlet', country_code: 'NL', name: 'Outlet store' }] };
    const loaded = await sandbox.request('POST', '/_sandbox/fixtures', { body: { tenant, pack }, headers: json });
    expect(loaded.status, loaded.text).toBe(200);
    expect(loaded.body).toMatchObject({ organization_id: tenant, loaded: { shops: 1 } });
    const shops = await sandbox.get('/shops', await tokenOf(made.body));
    expect(shops.body.data.map((shop: Json) => shop.attributes.name)).toContain('Outlet store');
    const unknown = await sandbox.request('POST', '/_sandbox/fixtures', { body: { tenant: 'no-such-tenant', pack }, headers: json });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].source).toEqual({ pointer: '/tenant' });
    const seeded = await sandbox.request('POST', '/_sandbox/fixtures', {
      body: { tenant: sandbox.services.store.all('organizations')[0]!.id, pack },
      headers: json,
    });
    expect(seeded.status).toBe(404);
    const both = await sandbox.request('POST', '/_sandbox/fixtures', { body: { tenant, client_id: made.body.client_id, pack }, headers: json });
    expect(both.status).toBe(422);
    expect(both.body.errors[0].source).toEqual({ pointer: '/tenant' });
  });
});
