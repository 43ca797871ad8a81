import { beforeAll, describe, expect, it } from 'vitest';
import { testSandbox, type Json } from './support/app.js';
import { populate, type Populated } from './support/matrix.js';

/**
 * Filters production documents that other suites do not reach: each narrows the list to exactly
 * the rows it names, on a populated tenant (one registered and one concept shipment, hooks).
 */

let p: Populated;
let token: string;
let all: Json[];

const ids = (rows: Json[]) => rows.map((row) => row.id).sort();
const list = async (query: string) => {
  const answer = await p.sandbox.get(`/shipments?page[size]=100&${query}`, token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as Json[];
};

beforeAll(async () => {
  p = await populate(await testSandbox());
  token = p.a.token;
  all = (await p.sandbox.get('/shipments?page[size]=100', token)).body.data;
});

describe('shipment filters', () => {
  it('has shipments to filter', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
  });

  it('filter[description] keeps the shipments with exactly that description', async () => {
    const text = 'Two tulip bulbs';
    const changed = await p.sandbox.request('PATCH', `/shipments/${p.a.conceptShipmentId}`, {
      token,
      body: { data: { type: 'shipments', id: p.a.conceptShipmentId, attributes: { description: text } } },
    });
    expect(changed.status, changed.text).toBe(200);
    all = (await p.sandbox.get('/shipments?page[size]=100', token)).body.data;
    expect(ids(await list(`filter[description]=${encodeURIComponent(text)}`))).toEqual(ids(all.filter((row) => row.attributes.description === text)));
    expect(await list('filter[description]=no%20such%20description')).toEqual([]);
  });

  it('filter[recipient_address][country_code] and filter[sender_address][country_code] compare the address country', async () => {
    for (const side of ['recipient_address', 'sender_address']) {
      const country = all[0].attributes[side].country_code;
      const kept = await list(`filter[${side}][country_code]=${country}`);
      expect(ids(kept), side).toEqual(ids(all.filter((row) => row.attributes[side].country_code === country)));
      expect(await list(`filter[${side}][country_code]=JP`), side).toEqual([]);
    }
  });

  it('a country code filter refuses what is not one country code, rather than answering an empty list', async () => {
    for (const side of ['recipient_address', 'sender_address']) {
      const parameter = `filter[${side}][country_code]`;
      const country = all[0].attributes[side].country_code as string;
      for (const value of [country.toLowerCase(), `${country},JP`, 'XX']) {
        const answer = await p.sandbox.get(`/shipments?${parameter}=${value}`, token);
        expect(answer.status, `${parameter}=${value}`).toBe(400);
        expect(answer.body.errors[0].source).toEqual({ parameter });
      }
    }
  });

  it('filter[service_code] keeps the shipments of services with those codes', async () => {
    const withService = all.find((row) => row.relationships.service);
    const service = (await p.sandbox.get(`/services/${withService.relationships.service.data.id}`, token)).body.data;
    const kept = await list(`filter[service_code]=${service.attributes.code}`);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((row: Json) => row.relationships.service?.data.id === service.id)).toBe(true);
    expect(await list('filter[service_code]=no-such-service')).toEqual([]);
  });

  it('filter[register_at][date_to] keeps the shipments registered up to that day', async () => {
    const registered = all.filter((row) => row.attributes.register_at != null);
    expect(registered.length).toBeGreaterThan(0);
    const latest = Math.max(...registered.map((row) => row.attributes.register_at));
    const day = new Date(latest * 1000).toISOString().slice(0, 10);
    expect(ids(await list(`filter[register_at][date_to]=${day}`))).toEqual(ids(registered));
    expect(await list('filter[register_at][date_to]=2001-01-01')).toEqual([]);
  });
});

describe('hook filters', () => {
  it('filter[trigger][resource_type] and filter[trigger][resource_action] keep the hooks with that trigger', async () => {
    const hooks = (await p.sandbox.get('/hooks?page[size]=100', token)).body.data as Json[];
    expect(hooks.length).toBeGreaterThan(0);
    const shipments = await p.sandbox.get('/hooks?filter[trigger][resource_type]=shipments', token);
    expect(ids(shipments.body.data)).toEqual(ids(hooks.filter((hook) => hook.attributes.trigger.resource_type === 'shipments')));
    expect((await p.sandbox.get('/hooks?filter[trigger][resource_type]=returns', token)).body.data).toEqual([]);
    const creates = await p.sandbox.get('/hooks?filter[trigger][resource_action]=create', token);
    expect(ids(creates.body.data)).toEqual(ids(hooks.filter((hook) => hook.attributes.trigger.resource_action === 'create')));
    expect((await p.sandbox.get('/hooks?filter[trigger][resource_action]=delete', token)).body.data).toEqual([]);
  });
});

describe('repeated query parameters', () => {
  it('are refused with the parameter named, where one value would silently replace the other', async () => {
    const shipment = all[0]!.id as string;
    const requests = [
      `/shipments?page[size]=10&page[size]=2`,
      `/shipments?filter[description]=a&filter[description]=b`,
      `/shipments/${shipment}?include=shop&include=contract`,
    ];
    for (const path of requests) {
      const answer = await p.sandbox.get(path, token);
      expect(answer.status, path).toBe(400);
      const parameter = new URLSearchParams(path.split('?')[1]).keys().next().value;
      expect(answer.body.errors[0]).toMatchObject({ code: '10003', source: { parameter } });
      expect(answer.body.errors[0].detail).toMatch(/is given more than once/);
    }
    // A bracketed include (as some query serialisers write arrays) is refused, not ignored.
    const bracketed = await p.sandbox.get(`/shipments/${shipment}?include[]=contract`, token);
    expect([bracketed.status, bracketed.body.errors[0].source]).toEqual([400, { parameter: 'include[]' }]);
    // One value with a list in it is how it is done.
    const both = await p.sandbox.get(`/shipments/${shipment}?include=shop,contract`, token);
    expect(both.status).toBe(200);
    expect(new Set((both.body.included as Json[]).map((row) => row.type))).toEqual(new Set(['shops', 'contracts']));
  });
});
