import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

/** Filters production documents on shops, organizations and service rates, as a client uses them. */

let sandbox: TestSandbox;
let token: string;
let organization: Json;

const ids = (answer: { body: Json }) => answer.body.data.map((row: Json) => row.id).sort();

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  organization = (await sandbox.get('/organizations', token)).body.data[0];
});

describe('shop filters', () => {
  it('narrow by organization, broker, name text and returns domain', async () => {
    const all = await sandbox.get('/shops', token);
    expect(all.body.data.length).toBe(2);
    const brokerId = organization.relationships.broker.data.id;
    expect(ids(await sandbox.get(`/shops?filter[organization]=${organization.id}`, token))).toEqual(ids(all));
    expect(ids(await sandbox.get(`/shops?filter[broker]=${brokerId}`, token))).toEqual(ids(all));
    expect((await sandbox.get('/shops?filter[broker]=00000000-0000-4000-8000-000000000000', token)).body.data).toEqual([]);
    const first = all.body.data[0];
    const word = first.attributes.name.split(' ')[0].toUpperCase();
    const byName = await sandbox.get(`/shops?filter[search.name]=${encodeURIComponent(word)}`, token);
    expect(byName.body.data.every((shop: Json) => shop.attributes.name.toUpperCase().includes(word))).toBe(true);
    expect(ids(byName)).toContain(first.id);

    const patched = await sandbox.request('PATCH', `/shops/${first.id}`, {
      token,
      body: {
        data: {
          type: 'shops',
          id: first.id,
          attributes: { branding: { returns: { domain: 'returns.tulip.example.com' } } },
          relationships: { organization: { data: first.relationships.organization.data } },
        },
      },
    });
    expect(patched.status).toBe(200);
    expect(ids(await sandbox.get('/shops?filter[returns_domain]=returns.tulip.example.com', token))).toEqual([first.id]);
    expect(firstError(await sandbox.get('/shops?filter[organization]=not-an-id', token)).source).toEqual({ parameter: 'filter[organization]' });
  });
});

describe('organization filters', () => {
  it('narrow by broker and search text', async () => {
    const brokerId = organization.relationships.broker.data.id;
    expect(ids(await sandbox.get(`/organizations?filter[broker]=${brokerId}`, token))).toEqual([organization.id]);
    expect((await sandbox.get('/organizations?filter[broker]=00000000-0000-4000-8000-000000000000', token)).body.data).toEqual([]);
    const word = organization.attributes.name.split(/\s+/)[0].toLowerCase();
    expect(ids(await sandbox.get(`/organizations?filter[search.name]=${encodeURIComponent(word)}`, token))).toEqual([organization.id]);
    const city = organization.attributes.billing_address.city;
    expect(ids(await sandbox.get(`/organizations?filter[search]=${encodeURIComponent(city)}`, token))).toEqual([organization.id]);
    expect((await sandbox.get('/organizations?filter[search]=no-such-organization', token)).body.data).toEqual([]);
  });
});

describe('service rate filters', () => {
  it("filter[organization] keeps the rates of contracts the organization can use: its own and its broker's", async () => {
    const all = (await sandbox.get('/service-rates?page[size]=100', token)).body;
    const mine = await sandbox.get(`/service-rates?page[size]=100&filter[organization]=${organization.id}`, token);
    expect(mine.body.meta.total_records).toBe(all.meta.total_records);
    // The other organization shares the broker but is another tenant: its id keeps what an unknown id keeps, nothing.
    const other = (await sandbox.get('/organizations', await sandbox.token('other-client'))).body.data[0];
    const theirs = await sandbox.get(`/service-rates?page[size]=100&filter[organization]=${other.id}`, token);
    const unknown = await sandbox.get('/service-rates?page[size]=100&filter[organization]=00000000-0000-4000-8000-000000000000', token);
    expect([theirs.body.meta.total_records, unknown.body.meta.total_records]).toEqual([0, 0]);
  });
});
