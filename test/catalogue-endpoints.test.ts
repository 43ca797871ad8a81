import { beforeAll, describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

let sandbox: TestSandbox;
let token: string;
let otherToken: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  otherToken = await sandbox.token('other-client');
});

describe('carriers', () => {
  it('lists carriers with a credentials_format schema and label formats, and gets one by id', async () => {
    const list = await sandbox.read('/carriers');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThanOrEqual(5);
    for (const carrier of list.body.data) {
      expect(carrier.attributes.credentials_format).toMatchObject({ type: 'object', required: expect.any(Array) });
      expect(carrier.attributes.label_formats).toContainEqual({ mime_type: 'application/pdf', size: 'A6' });
      expect(carrier.attributes.code).toMatch(/^[a-z0-9-]+$/);
    }
    const one = await sandbox.read(`/carriers/${list.body.data[1].id}`);
    expect(one.body.data).toEqual(list.body.data[1]);
  });
});

describe('service options', () => {
  it('lists options of all three categories and gets one by id', async () => {
    const list = await sandbox.read('/service-options');
    const categories = new Set(list.body.data.map((option: Json) => option.attributes.category));
    expect(categories).toEqual(new Set(['delivery-window', 'handover-method', 'proof-of-delivery']));
    for (const option of list.body.data) expect(option.attributes.code).toMatch(/^[a-z-]+:[a-z0-9-]+$/);
    const withValues = list.body.data.find((option: Json) => option.attributes.values_format);
    expect(withValues.attributes.values_format).toHaveProperty('type', 'object');
    const one = await sandbox.read(`/service-options/${withValues.id}`);
    expect(one.body.data).toEqual(withValues);
    expect((await sandbox.read('/service-options/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('regions', () => {
  it('need a token, form a tree and filter by country, parent and category', async () => {
    expect((await sandbox.get('/regions')).status).toBe(401);
    const all = (await sandbox.get('/regions', token)).body.data;
    const countries = all.filter((region: Json) => region.attributes.category === 'country');
    expect(countries.length).toBeGreaterThanOrEqual(4);
    const nl = await sandbox.get('/regions?filter[country_code]=NL&filter[category]=country', token);
    expect(nl.body.data).toHaveLength(1);
    expect(nl.body.data[0].attributes).toMatchObject({ country_code: 'NL', name: 'Netherlands' });
    const lower = await sandbox.get('/regions?filter[country_code]=nl', token);
    expect([lower.status, lower.body.errors?.[0].source]).toEqual([400, { parameter: 'filter[country_code]' }]);
    const misspelt = await sandbox.get('/regions?filter[category]=countries', token);
    expect([misspelt.status, misspelt.body.errors?.[0].source]).toEqual([400, { parameter: 'filter[category]' }]);
    const parent = nl.body.data[0].relationships.parent.data.id;
    const siblings = await sandbox.get(`/regions?filter[parent]=${parent}`, token);
    expect(siblings.body.data.map((region: Json) => region.id)).toContain(nl.body.data[0].id);
    const byName = await sandbox.get('/regions?filter[name]=netherlands', token);
    expect(byName.body.data.map((region: Json) => region.id)).toEqual([nl.body.data[0].id]);
    const byCode = await sandbox.get('/regions?filter[region_code]=NLD', token);
    expect(byCode.body.data.map((region: Json) => region.id)).toEqual([nl.body.data[0].id]);
    expect((await sandbox.get(`/regions/${parent}`, token)).body.data.attributes.name).toBe('Europe');
    // Production has no include on regions.
    expect((await sandbox.get(`/regions/${nl.body.data[0].id}?include=parent`, token)).status).toBe(400);
  });
});

describe('regions by postal code', () => {
  it('finds every country whose postal codes look like the one given', async () => {
    const names = async (code: string) =>
      (await sandbox.get(`/regions?filter[postal_code]=${encodeURIComponent(code)}`, token)).body.data.map((r: Json) => r.attributes.name).sort();
    expect(await names('1012 AB')).toEqual(['Netherlands']);
    // Five digits: German and French codes look alike.
    expect(await names('80331')).toEqual(['France', 'Germany']);
    expect(await names('BT1 5GS')).toEqual(['Northern Ireland', 'United Kingdom']);
    expect(await names('nowhere')).toEqual([]);
    // Only countries carry production's one category; the world and continents answer none.
    const earth = (await sandbox.get('/regions?filter[name]=earth', token)).body.data[0];
    expect(earth.attributes).not.toHaveProperty('category');
  });
});

describe('carriers', () => {
  it("answer production's capabilities, the deprecated label_mime_types and a logo the sandbox serves", async () => {
    const postnl = (await sandbox.get('/carriers', token)).body.data.find((c: Json) => c.attributes.code === 'postnl');
    expect(postnl.attributes).toMatchObject({
      label_mime_types: ['application/pdf', 'application/zpl'],
      collections: { offers_collections: true },
      pudo: { can_get_pudo_by_id: true },
      delivery_dates: { can_get_delivery_dates: true },
      logo_url: `${BASE}/brand-logos/carrier-postnl.svg`,
    });
    const logo = await sandbox.request('GET', '/brand-logos/carrier-postnl.svg');
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(logo.text).toContain('PostNL');
    expect((await sandbox.request('GET', '/brand-logos/carrier-nope.svg')).status).toBe(404);
  });
});

describe('statuses', () => {
  it("answer collection statuses within production's resource types", async () => {
    const list = await sandbox.get('/statuses?page[size]=100', token);
    const collected = list.body.data.find((status: Json) => status.attributes.code === 'collection-collected');
    expect(collected.attributes.resource_type).toBe('shipments');
  });

  it('list the shipment life cycle with levels', async () => {
    const list = await sandbox.get('/statuses?page[size]=100', token);
    const byCode = Object.fromEntries(list.body.data.map((status: Json) => [status.attributes.code, status.attributes]));
    expect(byCode['shipment-concept']).toMatchObject({ level: 'pending', resource_type: 'shipments' });
    expect(byCode['shipment-registered']).toMatchObject({ level: 'in-progress' });
    expect(byCode['shipment-delivered']).toMatchObject({ level: 'success' });
    expect(byCode['shipment-registration-failed']).toMatchObject({ level: 'failed' });
    expect(byCode['shipment-voided']).toMatchObject({ level: 'cancelled' });
    const id = list.body.data[0].id;
    expect((await sandbox.get(`/statuses/${id}`, token)).body.data.id).toBe(id);
  });
});

describe('organizations and brokers', () => {
  it('show each client only its own organization and broker', async () => {
    const mine = await sandbox.get('/organizations', token);
    const theirs = await sandbox.get('/organizations', otherToken);
    expect(mine.body.data).toHaveLength(1);
    expect(theirs.body.data).toHaveLength(1);
    expect(mine.body.data[0].id).not.toBe(theirs.body.data[0].id);
    expect(mine.body.data[0].attributes.name).toBeTypeOf('string');
    const otherId = theirs.body.data[0].id;
    const hidden = await sandbox.get(`/organizations/${otherId}`, token);
    expect(hidden.status).toBe(404);
    expect(firstError(hidden)).toMatchObject({ code: '10002' });
    const brokerId = mine.body.data[0].relationships.broker.data.id;
    const brokers = await sandbox.get('/brokers', otherToken);
    expect(brokers.body.data.map((b: Json) => b.id)).toEqual([brokerId]);
    const broker = await sandbox.get(`/brokers/${brokerId}`, token);
    expect(broker.body.data.attributes).toMatchObject({
      name: 'Sandbox Parcel Broker',
      domain: 'broker.example.com',
      favicon_url: expect.stringMatching(new RegExp(`^${BASE}/brand-logos/broker-${brokerId}\\.[\\w-]{43}\\.svg$`)),
    });
    const badge = await sandbox.request('GET', new URL(broker.body.data.attributes.favicon_url).pathname);
    expect(badge.text).toContain('Sandbox Parcel Broker');
    expect(broker.body.data.relationships.enterprise.data.type).toBe('enterprises');
  });
});
