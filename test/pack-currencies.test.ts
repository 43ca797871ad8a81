import { beforeAll, describe, expect, it } from 'vitest';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';

/*
 * A pack's rates and liability coverages are priced in their contract's currency, as
 * POST /service-rates has it: a shipment's price adds their amounts up unconverted. Before, a
 * pack could give a GBP contract a rate in EUR, and a shipment on it was priced in EUR while
 * the same contract's weight brackets and dynamic rates priced in GBP.
 */

let sandbox: TestSandbox;
const json = { 'content-type': 'application/json' };

const rate = (attributes: Json) => ({
  contract: 'my-postnl',
  service: 'postnl-parcel-standard-nl-nl',
  weight_min: 0,
  weight_max: 2000,
  is_dynamic: false,
  includes_vat: false,
  ...attributes,
});

const pack = (rates: Json[], coverages: Json[] = []) => ({
  contracts: [{ key: 'my-postnl', name: 'My PostNL', carrier: 'postnl', currency: 'GBP', status: 'active', volumetric_weight_divisor_factor: 1 }],
  service_rates: rates,
  liability_coverages: coverages,
});

/** Each problem as its detail, which starts with where it is (`pack#/service_rates/0/...`). */
const problems = (answer: { body: Json }) => answer.body.errors.map((error: Json) => error.detail);

beforeAll(async () => {
  sandbox = await testSandbox();
});

describe('a pack whose amounts are not in their contract currency', () => {
  it('is refused naming each amount, and nothing of it is loaded', async () => {
    const before = sandbox.store.count('serviceRates');
    const refused = await sandbox.request('POST', '/_sandbox/tenants', {
      headers: json,
      body: {
        pack: pack(
          [
            rate({
              price: { amount: 500, currency: 'EUR' },
              fuel_surcharge: { amount: 10, currency: 'GBP' },
              service_options: [{ option: 'proof-of-delivery:signature', price: { amount: 50, currency: 'EUR' }, included: false }],
            }),
          ],
          [{ contract: 'my-postnl', name: 'Up to 500', price: { amount: 100, currency: 'GBP' }, coverage_max: { amount: 50000, currency: 'EUR' } }],
        ),
      },
    });
    expect(refused.status, refused.text).toBe(422);
    expect(problems(refused)).toEqual([
      "pack#/service_rates/0/price/currency: Prices of the contract 'my-postnl' are in GBP, not EUR.",
      "pack#/service_rates/0/service_options/0/price/currency: Prices of the contract 'my-postnl' are in GBP, not EUR.",
      "pack#/liability_coverages/0/coverage_max/currency: Prices of the contract 'my-postnl' are in GBP, not EUR.",
    ]);
    expect(sandbox.store.count('serviceRates')).toBe(before);
  });

  it('in the contract currency loads', async () => {
    const made = await sandbox.request('POST', '/_sandbox/tenants', {
      headers: json,
      body: {
        pack: pack(
          [rate({ price: { amount: 500, currency: 'GBP' } })],
          [{ contract: 'my-postnl', name: 'Up to 500', price: { amount: 100, currency: 'GBP' }, coverage_max: { amount: 50000, currency: 'GBP' } }],
        ),
      },
    });
    expect(made.status, made.text).toBe(201);
  });

  it('added to a contract the tenant has already is held against that contract currency', async () => {
    const made = await sandbox.request('POST', '/_sandbox/tenants', {
      headers: json,
      body: { pack: pack([rate({ price: { amount: 500, currency: 'GBP' } })]) },
    });
    expect(made.status, made.text).toBe(201);
    const { client_id, client_secret } = made.body;
    const grant = { grant_type: 'client_credentials', client_id, client_secret, scope: '*' };
    const token = (await sandbox.request('POST', '/access-token', { body: grant, headers: json })).body.access_token;
    const later = { service_rates: [rate({ weight_min: 2001, weight_max: 5000, price: { amount: 700, currency: 'EUR' } })] };
    const added = await sandbox.request('POST', '/_sandbox/fixtures', { token, headers: json, body: { pack: later } });
    expect(added.status, added.text).toBe(422);
    expect(problems(added)).toEqual(["pack#/service_rates/0/price/currency: Prices of the contract 'my-postnl' are in GBP, not EUR."]);
  });
});

describe("a contract's currency", () => {
  it('stays while a liability coverage of it holds a price, as while a rate does', async () => {
    const coverage = { contract: 'my-postnl', name: 'Up to 500', price: { amount: 100, currency: 'GBP' }, coverage_max: { amount: 50000, currency: 'GBP' } };
    const made = await sandbox.request('POST', '/_sandbox/tenants', { headers: json, body: { pack: pack([], [coverage]) } });
    expect(made.status, made.text).toBe(201);
    const { client_id, client_secret } = made.body;
    const grant = { grant_type: 'client_credentials', client_id, client_secret, scope: '*' };
    const token = (await sandbox.request('POST', '/access-token', { body: grant, headers: json })).body.access_token;
    const id = made.body.keys.contracts['my-postnl'];
    const change = (currency: string) =>
      sandbox.request('PATCH', `/contracts/${id}`, { token, body: { data: { type: 'contracts', id, attributes: { currency } } } });
    const refused = await change('EUR');
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors[0]).toMatchObject({ code: '10008', source: { pointer: '/data/attributes/currency' } });
    expect(refused.body.errors[0].detail).toContain('1 liability coverage priced in GBP');
    expect((await sandbox.get(`/contracts/${id}`, token)).body.data.attributes.currency).toBe('GBP');
  });
});
