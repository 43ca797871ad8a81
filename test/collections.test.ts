import { beforeAll, describe, expect, it } from 'vitest';
import { generateState } from '../src/fixtures/generate.js';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';

const HOUR = 3600;
const DAY = 86400;

let sandbox: TestSandbox;
let token: string;
let otherToken: string;
let shops: Json[];
let otherShop: Json;
let carriers: Record<string, Json>;
let contracts: Json[];

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  otherToken = await sandbox.token('other-client');
  shops = (await sandbox.get('/shops', token)).body.data;
  otherShop = (await sandbox.get('/shops', otherToken)).body.data[0];
  carriers = Object.fromEntries((await sandbox.read('/carriers')).body.data.map((c: Json) => [c.attributes.code, c]));
  contracts = (await sandbox.get('/contracts?page[size]=100', token)).body.data;
});

const shopIn = (country: string): Json => shops.find((shop) => shop.attributes.sender_address.country_code === country);
const contractOf = (carrier: string, owner: 'brokers' | 'organizations', status = 'active'): Json =>
  contracts.find(
    (c) => c.relationships.carrier.data.id === carriers[carrier].id && c.relationships.owner.data.type === owner && c.attributes.status === status,
  );

/** A valid create body: a window tomorrow afternoon at the shop's sender address. */
function collectionBody(shop: Json, overrides: { attributes?: Record<string, unknown>; relationships?: Record<string, unknown>; type?: string } = {}) {
  const from = TEST_NOW + DAY + 13 * HOUR;
  return {
    data: {
      type: overrides.type ?? 'collections',
      attributes: {
        description: 'Extra pick-up',
        address: shop.attributes.sender_address,
        collection_time: { from, to: from + 2 * HOUR },
        ...overrides.attributes,
      },
      relationships: { shop: { data: { type: 'shops', id: shop.id } }, ...overrides.relationships },
    },
  };
}

const post = (body: unknown, t = token, s = sandbox) => s.request('POST', '/collections', { token: t, body });

describe('fixture collections', () => {
  it('give every shop a 14:00-17:00 UTC pick-up on each of the next five weekdays', async () => {
    const answer = await sandbox.get('/collections?include=status,contract.carrier', token);
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toEqual({ total_pages: 1, total_records: 10 });
    const included = new Map(answer.body.included.map((r: Json) => [`${r.type}:${r.id}`, r]));
    const carrierFor: Record<string, string> = { NL: 'postnl', DE: 'dpd' };
    for (const shop of shops) {
      const own = answer.body.data.filter((c: Json) => c.relationships.shop.data.id === shop.id);
      expect(own).toHaveLength(5);
      const days = own.map((c: Json) => new Date(c.attributes.collection_time.from * 1000));
      for (const day of days) {
        expect(day.getTime() / 1000).toBeGreaterThan(TEST_NOW);
        expect([1, 2, 3, 4, 5]).toContain(day.getUTCDay());
        expect(day.getUTCHours()).toBe(14);
      }
      expect(new Set(days.map((d: Date) => d.toISOString().slice(0, 10))).size).toBe(5);
      for (const collection of own) {
        const { attributes, relationships } = collection;
        expect(attributes.collection_time.to - attributes.collection_time.from).toBe(3 * HOUR);
        expect(attributes.address).toEqual(shop.attributes.sender_address);
        expect(attributes.register).toBe(false);
        expect(attributes.created_at).toBeLessThanOrEqual(TEST_NOW);
        expect((included.get(`statuses:${relationships.status.data.id}`) as Json).attributes.code).toBe('collection-concept');
        const contract = included.get(`contracts:${relationships.contract.data.id}`) as Json;
        expect(contract.attributes.status).toBe('active');
        expect(contract.relationships.owner.data.type).toBe('brokers');
        const carrier = included.get(`carriers:${contract.relationships.carrier.data.id}`) as Json;
        expect(carrier.attributes.code).toBe(carrierFor[shop.attributes.sender_address.country_code]);
      }
    }
  });

  it('give the British shop Royal Mail collections and keep each tenant to its own', async () => {
    const answer = await sandbox.get('/collections?include=contract.carrier', otherToken);
    expect(answer.body.data).toHaveLength(5);
    expect(answer.body.data.every((c: Json) => c.relationships.shop.data.id === otherShop.id)).toBe(true);
    const carrierCodes = answer.body.included.filter((r: Json) => r.type === 'carriers').map((r: Json) => r.attributes.code);
    expect(carrierCodes).toEqual(['royal-mail']);
  });

  it('are the same for the same seed and clock, follow the clock, and leave every other fixture id alone', () => {
    const a = generateState(1, TEST_NOW);
    expect(generateState(1, TEST_NOW)).toEqual(a);
    // A Wednesday noon a week later: the next weekdays are Thursday, Friday, Monday, Tuesday, Wednesday.
    const later = generateState(1, TEST_NOW + 10 * DAY + 12 * HOUR);
    const { collections: before, ...rest } = a.tables;
    const { collections: after, ...laterRest } = later.tables;
    expect(laterRest).toEqual(rest);
    expect(after!.map((c) => c.id)).toEqual(before!.map((c) => c.id));
    const days = after!.slice(0, 5).map((c) => new Date(c.collection_time.from * 1000).getUTCDay());
    expect(days).toEqual([4, 5, 1, 2, 3]);
    expect(after![0]!.collection_time.from).toBe(TEST_NOW + 11 * DAY + 14 * HOUR);
  });
});

describe('reading collections', () => {
  it('lists them in time order with links, and gets one', async () => {
    const list = await sandbox.get('/collections', token);
    const froms = list.body.data.map((c: Json) => c.attributes.collection_time.from);
    expect(froms).toEqual([...froms].sort((a, b) => a - b));
    const first = list.body.data[0];
    expect(first.type).toBe('collections');
    expect(first.links.self).toBe(`http://sandbox.test/collections/${first.id}`);
    expect(first.relationships.status.links.related).toMatch(/^http:\/\/sandbox\.test\/statuses\//);
    expect(first.relationships.shipments.data).toEqual([]);
    const one = await sandbox.get(`/collections/${first.id}`, token);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(first);
  });

  it("answers another tenant's collection and an unknown id with 404", async () => {
    const theirs = (await sandbox.get('/collections', otherToken)).body.data[0];
    const answer = await sandbox.get(`/collections/${theirs.id}`, token);
    expect(answer.status).toBe(404);
    expect(firstError(answer)).toMatchObject({ code: '10002' });
    expect((await sandbox.get('/collections/00000000-0000-4000-8000-000000000000', token)).status).toBe(404);
    const filtered = await sandbox.get(`/collections?filter[shop]=${otherShop.id}`, token);
    expect(filtered.body.data).toEqual([]);
  });

  it('filters by shop, status, carrier and collection date', async () => {
    const count = async (query: string) => {
      const answer = await sandbox.get(`/collections?${query}`, token);
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data.length;
    };
    expect(await count(`filter[shop]=${shopIn('NL').id}`)).toBe(5);
    expect(await count(`filter[shop]=${shopIn('NL').id},${shopIn('DE').id}`)).toBe(10);
    expect(await count('filter[status]=collection-concept')).toBe(10);
    expect(await count('filter[status]=collection-registered,collection-voided')).toBe(0);
    expect(await count(`filter[carrier]=${carriers.dpd.id}`)).toBe(5);
    expect(await count(`filter[carrier]=${carriers['royal-mail'].id}`)).toBe(0);
    const firstDay = new Date((TEST_NOW + DAY) * 1000).toISOString().slice(0, 10);
    expect(await count(`filter[collection_date]=${firstDay}`)).toBe(2);
    expect(await count(`filter[collection_date]=${new Date(TEST_NOW * 1000).toISOString().slice(0, 10)}`)).toBe(0);
    expect(await count(`filter[collection_date]=${firstDay}&filter[carrier]=${carriers.postnl.id}`)).toBe(1);
  });

  it('rejects bad filter values with the parameter named', async () => {
    for (const [query, parameter] of [
      ['filter[status]=shipment-concept', 'filter[status]'],
      ['filter[collection_date]=12-01-2026', 'filter[collection_date]'],
      ['filter[collection_date]=2026-02-30', 'filter[collection_date]'],
      ['filter[shop]=not-an-id', 'filter[shop]'],
      ['filter[tracking_code]=x', 'filter[tracking_code]'],
    ]) {
      const answer = await sandbox.get(`/collections?${query}`, token);
      expect(answer.status, query).toBe(400);
      expect(firstError(answer), query).toMatchObject({ code: '10003', source: { parameter } });
      // One error for one bad value: a text that is no date is not also said to name no calendar day.
      expect(answer.body.errors, query).toHaveLength(1);
    }
  });

  it("includes production's paths: shop, contract, the contract carrier, status and (none made yet) manifest", async () => {
    const shop = shopIn('DE');
    const answer = await sandbox.get(`/collections?filter[shop]=${shop.id}&include=shop,contract,contract.carrier,status,manifest`, token);
    expect(answer.status).toBe(200);
    const types = answer.body.included.map((r: Json) => r.type).sort();
    expect(types).toEqual(['carriers', 'contracts', 'shops', 'statuses']);
    expect(answer.body.included.find((r: Json) => r.type === 'shops').id).toBe(shop.id);
    // Production offers no `shipments` include on collections: the relationship lists them instead.
    const bad = await sandbox.get('/collections?include=shipments', token);
    expect(bad.status).toBe(400);
    expect(firstError(bad).source).toEqual({ parameter: 'include' });
  });

  it('lists the shipments whose collection_id is the collection', async () => {
    const s = await testSandbox();
    const t = await s.token();
    const collection = (await s.get('/collections', t)).body.data[0];
    await s.store.transact((tx) => {
      // Only the fields the collection's relationship reads; the shipments module owns the rest.
      tx.insert('shipments', { id: '11111111-1111-4111-8111-111111111111', collection_id: collection.id } as never);
    });
    const one = await s.get(`/collections/${collection.id}`, t);
    expect(one.body.data.relationships.shipments.data).toEqual([{ type: 'shipments', id: '11111111-1111-4111-8111-111111111111' }]);
  });

  it('includes the shipments added to it with meta.add_to_next_collection', async () => {
    const s = await testSandbox();
    const t = await s.token();
    const shop = (await s.get('/shops', t)).body.data.find((x: Json) => x.attributes.sender_address.country_code === 'NL');
    const services = (await s.read('/services?page[size]=100')).body.data;
    // A service the carrier collects: a drop-off one's parcels join no collection.
    const service = services.find(
      (x: Json) =>
        x.attributes.code.startsWith('postnl') &&
        x.attributes.handover_method === 'collection' &&
        x.attributes.regions_to.some((r: Json) => r.country_code === 'NL'),
    );
    const contract = (await s.get('/contracts?page[size]=100', t)).body.data.find(
      (c: Json) => c.attributes.status === 'active' && c.relationships.carrier.data.id === service.relationships.carrier.data.id,
    );
    const recipient = {
      first_name: 'Anna',
      last_name: 'de Vries',
      street_1: 'Kalverstraat',
      street_number: 92,
      postal_code: '1012 PH',
      city: 'Amsterdam',
      country_code: 'NL',
    };
    const created = await s.request('POST', '/shipments', {
      token: t,
      body: {
        data: {
          type: 'shipments',
          attributes: {
            recipient_address: recipient,
            sender_address: shop.attributes.sender_address,
            return_address: shop.attributes.sender_address,
            physical_properties: { weight: 1000 },
          },
          relationships: {
            shop: { data: { type: 'shops', id: shop.id } },
            service: { data: { type: 'services', id: service.id } },
            contract: { data: { type: 'contracts', id: contract.id } },
          },
        },
        meta: { add_to_next_collection: true },
      },
    });
    expect(created.status, created.text).toBe(201);
    const next = (await s.get(`/collections?filter[shop]=${shop.id}`, t)).body.data[0];
    expect(created.body.data.relationships.collection.data.id).toBe(next.id);
    const answer = await s.get(`/collections/${next.id}`, t);
    expect(answer.body.data.relationships.shipments.data).toEqual([{ type: 'shipments', id: created.body.data.id }]);
  });
});

describe('creating collections', () => {
  it('answers 201 with a Location, in collection-concept, with ISO times turned into Unix seconds', async () => {
    const shop = shopIn('NL');
    const contract = contractOf('postnl', 'brokers');
    const answer = await post(
      collectionBody(shop, {
        // Production's pattern takes an offset with or without its colon.
        attributes: { collection_time: { from: '2026-01-12T10:00:00.123456+0100', to: '2026-01-12T12:30:00+01:00' } },
        relationships: { contract: { data: { type: 'contracts', id: contract.id } } },
      }),
    );
    expect(answer.status, answer.text).toBe(201);
    const { data } = answer.body;
    expect(answer.headers.get('location')).toBe(data.links.self);
    expect(data.attributes).toMatchObject({
      description: 'Extra pick-up',
      collection_time: { from: Date.UTC(2026, 0, 12, 9) / 1000, to: Date.UTC(2026, 0, 12, 11, 30) / 1000 },
      register: false,
      created_at: TEST_NOW,
    });
    expect(data.attributes.address).toEqual(shop.attributes.sender_address);
    expect(data.relationships.shop.data).toEqual({ type: 'shops', id: shop.id });
    expect(data.relationships.contract.data).toEqual({ type: 'contracts', id: contract.id });
    const status = await sandbox.get(`/statuses/${data.relationships.status.data.id}`, token);
    expect(status.body.data.attributes.code).toBe('collection-concept');
    const read = await sandbox.get(`/collections/${data.id}`, token);
    expect(read.body.data).toEqual(data);
    expect((await sandbox.get(`/collections/${data.id}`, otherToken)).status).toBe(404);
  });

  it('needs no contract, and takes a token with collections.manage only', async () => {
    const narrow = await sandbox.token('sandbox-client', 'collections.manage');
    const answer = await post(collectionBody(shopIn('DE'), { attributes: { description: undefined } }), narrow);
    expect(answer.status, answer.text).toBe(201);
    // An empty to-one is left out, as production has no `data: null`.
    expect(answer.body.data.relationships).not.toHaveProperty('contract');
    expect(answer.body.data.attributes).not.toHaveProperty('description');
    expect((await sandbox.get('/collections', narrow)).status).toBe(200);
  });

  it('takes null for name and description, as production does, as if they were left out', async () => {
    const answer = await post(collectionBody(shopIn('NL'), { attributes: { name: null, description: null } }));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.attributes).not.toHaveProperty('name');
    expect(answer.body.data.attributes).not.toHaveProperty('description');
  });

  it('ignores read-only attributes sent back', async () => {
    const answer = await post(collectionBody(shopIn('NL'), { attributes: { created_at: 1, tracking_code: 'X' } }));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.attributes.created_at).toBe(TEST_NOW);
    expect(answer.body.data.attributes).not.toHaveProperty('tracking_code');
  });

  it('refuses a window whose end is not after its start', async () => {
    const from = TEST_NOW + DAY;
    for (const to of [from, from - HOUR]) {
      const answer = await post(collectionBody(shopIn('NL'), { attributes: { collection_time: { from, to } } }));
      expect(answer.status).toBe(422);
      expect(answer.body.errors).toHaveLength(1);
      expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/attributes/collection_time/to' } });
    }
  });

  it('refuses a window in the past of the sandbox clock', async () => {
    const answer = await post(collectionBody(shopIn('NL'), { attributes: { collection_time: { from: TEST_NOW - HOUR, to: TEST_NOW + HOUR } } }));
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/attributes/collection_time/from' } });

    const s = await testSandbox();
    const t = await s.token();
    const shop = (await s.get('/shops', t)).body.data[0];
    await s.advance(3 * DAY);
    const late = await post(collectionBody(shop), await s.token(), s);
    expect(late.status).toBe(422);
    expect(firstError(late).source.pointer).toBe('/data/attributes/collection_time/from');
  });

  it('refuses a window that begins now, as adding shipments, PATCH and DELETE count it begun', async () => {
    const now = sandbox.clock.now();
    const before = (await sandbox.get('/collections?page[size]=100', token)).body.meta.total_records;
    const answer = await post(collectionBody(shopIn('NL'), { attributes: { collection_time: { from: now, to: now + 2 * HOUR } } }));
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toHaveLength(1);
    expect(firstError(answer)).toMatchObject({
      code: '10008',
      source: { pointer: '/data/attributes/collection_time/from' },
      detail: expect.stringMatching(/would begin now/),
    });
    expect((await sandbox.get('/collections?page[size]=100', token)).body.meta.total_records).toBe(before);
  });

  it('reports every rule broken at once', async () => {
    const answer = await post(collectionBody(otherShop, { attributes: { collection_time: { from: TEST_NOW - 2 * HOUR, to: TEST_NOW - 3 * HOUR } } }));
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: Json) => e.source.pointer).sort()).toEqual([
      '/data/attributes/collection_time/from',
      '/data/attributes/collection_time/to',
      '/data/relationships/shop/data/id',
    ]);
  });

  it("refuses another tenant's shop or an unknown one", async () => {
    for (const id of [otherShop.id, '00000000-0000-4000-8000-000000000000']) {
      const answer = await post(collectionBody({ ...shopIn('NL'), id }));
      expect(answer.status).toBe(422);
      expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/shop/data/id' } });
    }
    const wrongType = await post(collectionBody(shopIn('NL'), { relationships: { shop: { data: { type: 'organizations', id: shopIn('NL').id } } } }));
    expect(wrongType.status).toBe(422);
    expect(firstError(wrongType).source.pointer).toBe('/data/relationships/shop/data/type');
  });

  it('refuses a contract that is not active, or not visible to the caller', async () => {
    for (const contract of [contractOf('postnl', 'organizations', 'pending'), contractOf('dpd', 'organizations', 'invalid')]) {
      const answer = await post(collectionBody(shopIn('NL'), { relationships: { contract: { data: { type: 'contracts', id: contract.id } } } }));
      expect(answer.status).toBe(422);
      expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/contract/data/id' } });
      expect(firstError(answer).detail).toContain(contract.attributes.status);
    }
    const foreign = contractOf('postnl', 'organizations', 'pending');
    const answer = await post(collectionBody(otherShop, { relationships: { contract: { data: { type: 'contracts', id: foreign.id } } } }), otherToken);
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ source: { pointer: '/data/relationships/contract/data/id' } });
    expect(firstError(answer).detail).toContain('does not exist');
  });

  it('refuses registering without a contract (no carrier to book with), and shipments it cannot take', async () => {
    const register = await post(collectionBody(shopIn('NL'), { attributes: { register: true } }));
    expect(register.status).toBe(422);
    expect(firstError(register)).toMatchObject({ source: { pointer: '/data/attributes/register' }, detail: expect.stringMatching(/give it a contract/) });
    const shipments = await post(
      collectionBody(shopIn('NL'), { relationships: { shipments: { data: [{ type: 'shipments', id: '11111111-1111-4111-8111-111111111111' }] } } }),
    );
    expect(shipments.status).toBe(422);
    expect(firstError(shipments).source.pointer).toBe('/data/relationships/shipments/data/0/id');
    const wrongType = await post(
      collectionBody(shopIn('NL'), { relationships: { shipments: { data: [{ type: 'shops', id: '11111111-1111-4111-8111-111111111111' }] } } }),
    );
    expect(wrongType.status).toBe(422);
    expect(firstError(wrongType).source.pointer).toBe('/data/relationships/shipments/data/0/type');
  });

  it('answers a wrong type with 409 and schema violations with 400', async () => {
    const conflict = await post(collectionBody(shopIn('NL'), { type: 'shipments' }));
    expect(conflict.status).toBe(409);
    expect(firstError(conflict)).toMatchObject({ code: '10007', source: { pointer: '/data/type' } });

    const cases: [Record<string, unknown>, string][] = [
      [{ address: { street_1: 'Damrak', country_code: 'NL' } }, '/data/attributes/address/city'],
      [{ address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'XX' } }, '/data/attributes/address/country_code'],
      [{ collection_time: { from: 'tomorrow', to: TEST_NOW + 2 * DAY } }, '/data/attributes/collection_time/from'],
      [{ collection_time: { from: '2026-01-12T09:00:00', to: TEST_NOW + 2 * DAY } }, '/data/attributes/collection_time/from'],
      // Production's pattern takes up to six decimals of a second.
      [{ collection_time: { from: TEST_NOW + DAY, to: '2026-01-12T12:30:00.1234567Z' } }, '/data/attributes/collection_time/to'],
      [{ collection_time: { from: TEST_NOW + DAY } }, '/data/attributes/collection_time/to'],
      [{ colour: 'red' }, '/data/attributes/colour'],
    ];
    for (const [attributes, pointer] of cases) {
      const answer = await post(collectionBody(shopIn('NL'), { attributes }));
      expect(answer.status, JSON.stringify(attributes)).toBe(400);
      expect(
        answer.body.errors.map((e: Json) => e.source.pointer),
        JSON.stringify(attributes),
      ).toContain(pointer);
    }
    const noShop = await post({ data: { type: 'collections', attributes: collectionBody(shopIn('NL')).data.attributes, relationships: {} } });
    expect(noShop.status).toBe(400);
    expect(firstError(noShop).source.pointer).toBe('/data/relationships/shop');
  });
});

describe('collection scopes', () => {
  it("are production's: collections.view reads, collections.manage also creates, the seed's scopes do neither", async () => {
    const view = await sandbox.token('sandbox-client', 'collections.view');
    expect((await sandbox.get('/collections', view)).status).toBe(200);
    expect(firstError(await post(collectionBody(shopIn('NL')), view))).toMatchObject({ status: '403', code: '14004' });
    const manage = await sandbox.token('sandbox-client', 'collections.manage');
    expect((await sandbox.get('/collections', manage)).status).toBe(200);
    expect((await post(collectionBody(shopIn('NL')), manage)).status).toBe(201);
    for (const scope of ['shops.manage', 'organizations.manage', 'shipments.manage']) {
      const narrow = await sandbox.token('sandbox-client', scope);
      expect(firstError(await sandbox.get('/collections', narrow)), scope).toMatchObject({ status: '403', code: '14004' });
    }
  });

  it('need a token', async () => {
    const answer = await sandbox.get('/collections');
    expect(answer.status).toBe(401);
    expect(firstError(answer).code).toBe('14003');
  });
});
