import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../src/server/library.js';
import { FixtureError } from '../src/fixtures/problems.js';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';
import { demoOrder, returnBody } from './returns/support.js';

/*
 * A pack's return methods are held to the rule POST /returns/v1/return-methods applies to their
 * service options: each offered by a rate of the method's service and contract, one per category,
 * none that needs values. Before, such a pack loaded, and every return through the method then
 * failed at approval with a 422.
 */

let sandbox: TestSandbox;
let folder: string;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  sandbox = await testSandbox();
  folder = await mkdtemp(join(tmpdir(), 'parcel-sandbox-method-options-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** An NL shop with its own PostNL contract, whose one rate offers four options. */
const pack = (methods: Json[]) => ({
  shops: [{ key: 'my-shop', name: 'My Shop', country_code: 'NL' }],
  contracts: [{ key: 'my-postnl', name: 'My PostNL', carrier: 'postnl', currency: 'EUR', status: 'active', volumetric_weight_divisor_factor: 1 }],
  service_rates: [
    {
      contract: 'my-postnl',
      service: 'postnl-parcel-standard-nl-nl',
      weight_min: 0,
      weight_max: 20000,
      is_dynamic: false,
      includes_vat: false,
      price: { amount: 500, currency: 'EUR' },
      service_options: ['proof-of-delivery:signature', 'proof-of-delivery:age-check-18', 'proof-of-delivery:insured', 'delivery-window:evening'].map(
        (option) => ({ option, included: false, price: { amount: 50, currency: 'EUR' } }),
      ),
    },
  ],
  return_methods: methods,
});

/** A shipment method of the shop on `contract` (the pack's own, or one of the sandbox's), with options. */
const method = (title: string, options: string[], contract = 'my-postnl') => ({
  shop: 'my-shop',
  return_type: 'shipment',
  title,
  contract,
  service: 'postnl-parcel-standard-nl-nl',
  service_options: options,
});

const createTenant = (body: Json) => sandbox.request('POST', '/_sandbox/tenants', { body, headers: json });

/** Each problem as its detail, which starts with where it is (`pack#/return_methods/0/...`). */
const problems = (answer: { body: Json }) => answer.body.errors.map((error: Json) => error.detail);

describe("a pack's return method", () => {
  it('is refused at each option a return shipment cannot carry, with the words of the API, and nothing is loaded', async () => {
    const before = [sandbox.store.count('returnMethods'), sandbox.store.count('shops')];
    const answer = await createTenant({
      pack: pack([
        method('Not offered', ['proof-of-delivery:signature', 'delivery-window:morning']),
        method('Two proofs', ['proof-of-delivery:signature', 'proof-of-delivery:age-check-18']),
        method('Twice', ['delivery-window:evening', 'delivery-window:evening']),
        method('Insured', ['proof-of-delivery:insured']),
      ]),
    });
    expect(answer.status, answer.text).toBe(422);
    expect(problems(answer)).toEqual([
      "pack#/return_methods/0/service_options/1: Service option 'delivery-window:morning' is not offered with this service and contract.",
      "pack#/return_methods/1/service_options/1: Only one service option per category: 'proof-of-delivery' is already chosen (entry 0). A return shipment takes one option per category.",
      "pack#/return_methods/2/service_options/1: Service option 'delivery-window:evening' is given twice (entries 0 and 1). A return shipment takes one option per category.",
      expect.stringMatching(
        /^pack#\/return_methods\/3\/service_options\/0: Service option 'proof-of-delivery:insured' needs values \(.*amount.*\), which a return method cannot give/,
      ),
    ]);
    expect(answer.body.errors[0].source.pointer).toBe('/pack/return_methods/0/service_options/1');
    expect([sandbox.store.count('returnMethods'), sandbox.store.count('shops')]).toEqual(before);
  });

  it("on a contract of the sandbox is held to that contract's rates, which are outside the pack", async () => {
    // broker-postnl's standard NL rate offers the ID check, not the Saturday window (its business rate does).
    const answer = await createTenant({
      pack: pack([method('Saturday', ['delivery-window:saturday'], 'broker-postnl'), method('ID check', ['proof-of-delivery:id-check'], 'broker-postnl')]),
    });
    expect(answer.status, answer.text).toBe(422);
    expect(problems(answer)).toEqual([
      "pack#/return_methods/0/service_options/0: Service option 'delivery-window:saturday' is not offered with this service and contract.",
    ]);
  });

  it('with options a return shipment carries loads, and a return through it is approved with them', async () => {
    const made = await createTenant({
      pack: pack([
        method('Signed, in the evening', ['proof-of-delivery:signature', 'delivery-window:evening']),
        method('ID check', ['proof-of-delivery:id-check'], 'broker-postnl'),
      ]),
    });
    expect(made.status, made.text).toBe(201);
    const token = (
      await sandbox.request('POST', '/access-token', {
        body: { grant_type: 'client_credentials', client_id: made.body.client_id, client_secret: made.body.client_secret, scope: '*' },
        headers: json,
      })
    ).body.access_token;
    const shop = (await sandbox.get(`/shops/${made.body.keys.shops['my-shop']}`, token)).body.data;
    const methods = (await sandbox.get(`/returns/v1/return-methods?filter[shop]=${shop.id}`, token)).body.data;
    expect(methods.map((row: Json) => row.relationships.service_options.data.length)).toEqual([2, 1]);
    const order = await demoOrder(sandbox, token, shop);
    const created = await sandbox.request('POST', '/returns/v1/returns', {
      token,
      body: returnBody({ shop, order, method: methods[0], items: [{ id: order.attributes.items[0].id, quantity: 1 }] }),
    });
    expect(created.status, created.text).toBe(201);
    const approved = await sandbox.request('POST', `/returns/v1/returns/${created.body.data.id}/approve`, { token, body: {} });
    expect(approved.status, approved.text).toBe(204);
    const shipmentId = (await sandbox.get(`/returns/v1/returns/${created.body.data.id}`, token)).body.data.relationships.shipment.data.id;
    const shipment = (await sandbox.get(`/shipments/${shipmentId}`, token)).body.data;
    expect(shipment.relationships.service_options.data).toEqual(methods[0].relationships.service_options.data);
  });
});

describe('a start pack (--fixtures) with a return method', () => {
  it("is refused at an option the base set's rates do not offer and at one that needs values", async () => {
    const file = join(folder, 'options.json');
    const start = {
      return_methods: [
        {
          shop: 'shop-nl',
          return_type: 'shipment',
          title: 'Saturday, insured',
          contract: 'broker-postnl',
          service: 'postnl-parcel-standard-nl-nl',
          service_options: ['delivery-window:saturday', 'proof-of-delivery:insured'],
        },
      ],
    };
    await writeFile(file, JSON.stringify(start));
    const refused = await createSandbox({ config: { fixtures: file } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(FixtureError);
    expect((refused as FixtureError).problems.map((problem) => [problem.file, problem.pointer, problem.detail])).toEqual([
      [file, '/return_methods/0/service_options/0', "Service option 'delivery-window:saturday' is not offered with this service and contract."],
      [file, '/return_methods/0/service_options/1', expect.stringContaining("Service option 'proof-of-delivery:insured' needs values")],
    ]);
  });
});
