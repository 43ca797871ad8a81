import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json } from './support/app.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/** POST and PATCH /service-rates: rates of own contracts, checked, and used at once by pricing. */

const ADMIN = 'rates-admin-token';
const postnlCredentials = { customer_code: 'RATE', customer_number: '11223344', api_key: 'k'.repeat(32) };

async function setup(templateId?: string) {
  const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
  const w = await world(sandbox);
  const token = w.token;
  const organizationId: string = (await sandbox.get('/organizations', token)).body.data[0].id;
  const service = w.service('postnl-parcel-standard', 'NL');
  const carrierId: string = service.relationships.carrier.data.id;
  const relationships: Json = { carrier: { data: { type: 'carriers', id: carrierId } }, owner: { data: { type: 'organizations', id: organizationId } } };
  if (templateId) relationships.contract_template = { data: { type: 'contract-templates', id: templateId } };
  const created = await sandbox.request('POST', '/contracts', {
    token,
    body: { data: { type: 'contracts', attributes: { name: 'Own PostNL', currency: 'EUR', credentials: postnlCredentials }, relationships } },
  });
  expect(created.status, created.text).toBe(201);
  const contract = created.body.data;
  expect((await sandbox.request('POST', `/contracts/${contract.id}/validate`, { token })).body.data.valid).toBe(true);
  const shop = w.shopIn('NL');
  const rateBody = (attributes: Json, relationships: Json = {}) => ({
    data: {
      type: 'service-rates',
      attributes,
      relationships: { contract: { data: { type: 'contracts', id: contract.id } }, service: { data: { type: 'services', id: service.id } }, ...relationships },
    },
  });
  const post = (body: Json, t = token) => sandbox.request('POST', '/service-rates', { token: t, body });
  const priceOf = async (weight: number) =>
    (await createShipment(sandbox, token, shipmentBody({ shop, recipient: recipients.NL, service, contract, attributes: { physical_properties: { weight } } })))
      .attributes.price;
  return { sandbox, w, token, contract, service, rateBody, post, priceOf };
}

describe('POST /service-rates', () => {
  it('adds a rate the next shipment is priced with; a change to it prices the one after', async () => {
    const { sandbox, token, contract, rateBody, post, priceOf } = await setup();
    const created = await post(
      rateBody({
        weight_min: 0,
        weight_max: 10000,
        price: { amount: 333, currency: 'EUR' },
        fuel_surcharge: { amount: 12, currency: 'EUR' },
        purchase_price: { amount: 250, currency: 'EUR' },
        oversize_purchase_price: { amount: 800, currency: 'EUR' },
      }),
    );
    expect(created.status, created.text).toBe(201);
    const rate = created.body.data;
    // The purchase prices are kept and answered, and do not change what a shipment is charged.
    expect((await sandbox.get(`/service-rates/${rate.id}`, token)).body.data.attributes).toMatchObject({
      purchase_price: { amount: 250, currency: 'EUR' },
      oversize_purchase_price: { amount: 800, currency: 'EUR' },
    });
    expect(created.headers.get('location')).toBe(rate.links.self);
    expect(rate.attributes).toMatchObject({
      weight_min: 0,
      weight_max: 10000,
      is_dynamic: false,
      includes_vat: false,
      price: { amount: 333, currency: 'EUR' },
    });
    expect((await sandbox.get(`/service-rates?filter[contract]=${contract.id}`, token)).body.data.map((row: Json) => row.id)).toEqual([rate.id]);
    expect(await priceOf(1500)).toEqual({ amount: 345, currency: 'EUR' });

    const changed = await sandbox.request('PATCH', `/service-rates/${rate.id}`, {
      token,
      body: { data: { type: 'service-rates', id: rate.id, attributes: { price: { amount: 444, currency: 'EUR' }, fuel_surcharge: null } } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.fuel_surcharge).toBeUndefined();
    expect(await priceOf(1500)).toEqual({ amount: 444, currency: 'EUR' });
  });

  it('prices by weight bracket and offers the options sent with their prices', async () => {
    const { w, rateBody, post, priceOf } = await setup();
    const option = w.options.find((row: Json) => !row.attributes.values_format)!;
    const created = await post(
      rateBody(
        { weight_min: 1, weight_max: 30000, weight_bracket: { start: 2000, start_amount: 500, size: 1000, size_amount: 100 } },
        { service_options: { data: [{ type: 'service-options', id: option.id, meta: { price: { amount: 75, currency: 'EUR' }, included: false } }] } },
      ),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.relationships.service_options.data).toEqual([
      { type: 'service-options', id: option.id, meta: { price: { amount: 75, currency: 'EUR' }, included: false } },
    ]);
    expect(await priceOf(1500)).toEqual({ amount: 500, currency: 'EUR' });
    expect(await priceOf(4500)).toEqual({ amount: 800, currency: 'EUR' });
  });

  it("prices a weight above a bracket rate's range as the bracket at weight_max plus its steps, not the bracket twice", async () => {
    const { post, rateBody, priceOf } = await setup();
    const bracket = { start: 2000, start_amount: 500, size: 1000, size_amount: 100 };
    const step = { step_size: 1000, step_price: { amount: 150, currency: 'EUR' } };
    const created = await post(rateBody({ weight_min: 1, weight_max: 5000, weight_bracket: bracket, ...step }));
    expect(created.status, created.text).toBe(201);
    // 500 + 3 x 100 at the top of the range; 6500 g is two started steps above it. The bracket
    // went on to 6500 g as well and charged 1300.
    expect(await priceOf(5000)).toEqual({ amount: 800, currency: 'EUR' });
    expect(await priceOf(6500)).toEqual({ amount: 800 + 2 * 150, currency: 'EUR' });
  });

  it('refuses a shipment whose price on the rate would pass 2^53 - 1 cents, where amounts stop being exact', async () => {
    const { sandbox, token, w, contract, service, rateBody, post, priceOf } = await setup();
    const most = { amount: Number.MAX_SAFE_INTEGER, currency: 'EUR' };
    expect((await post(rateBody({ weight_min: 0, weight_max: 5000, price: most, fuel_surcharge: most }))).status).toBe(201);
    // Steps multiply by the weight: 2^40 cents a gram above 5000 g.
    expect(
      (
        await post(
          rateBody({
            weight_min: 5001,
            weight_max: 6000,
            price: { amount: 1, currency: 'EUR' },
            step_size: 1,
            step_price: { amount: 2 ** 40, currency: 'EUR' },
          }),
        )
      ).status,
    ).toBe(201);
    const before = sandbox.store.count('shipments');
    // The first rate comes to 2 x (2^53 - 1); 8192 x 2^40 = 2^53 is one cent too many.
    for (const weight of [1000, 6000 + 8192]) {
      const body = shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.NL, service, contract, attributes: { physical_properties: { weight } } });
      const answer = await sandbox.request('POST', '/shipments', { token, body });
      expect(firstError(answer)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/relationships/contract/data/id' } });
    }
    expect(sandbox.store.count('shipments')).toBe(before);
    expect(await priceOf(6000 + 8191)).toEqual({ amount: 1 + 8191 * 2 ** 40, currency: 'EUR' });
  });

  it('refuses a weight bracket that comes to more than 2^53 - 1 cents within its range', async () => {
    const { sandbox, token, contract, rateBody, post } = await setup();
    const bracket = { start: 0, start_amount: 0, size: 1, size_amount: 2 ** 40 };
    const refused = await post(rateBody({ weight_min: 0, weight_max: 8192, weight_bracket: bracket }));
    expect(firstError(refused)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/attributes/weight_bracket/size_amount' } });
    expect(sandbox.store.countBy('serviceRates', 'contract_id', contract.id)).toBe(0);
    expect((await post(rateBody({ weight_min: 0, weight_max: 8191, weight_bracket: bracket }))).status).toBe(201);
    const listed = await sandbox.get(`/service-rates?filter[contract]=${contract.id}&filter[weight]=8191`, token);
    expect(listed.body.data[0].meta.bracket_price).toEqual({ amount: 8191 * 2 ** 40, currency: 'EUR' });
  });

  it('refuses a weight range overlapping another rate of the same contract and service, changing nothing', async () => {
    const { sandbox, w, rateBody, post } = await setup();
    expect((await post(rateBody({ weight_min: 0, weight_max: 10000, price: { amount: 333, currency: 'EUR' } }))).status).toBe(201);
    const before = sandbox.store.count('serviceRates');
    const overlap = await post(rateBody({ weight_min: 10000, weight_max: 20000, price: { amount: 500, currency: 'EUR' } }));
    expect(firstError(overlap)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/attributes/weight_min' } });
    expect(firstError(overlap).detail).toContain('overlaps');
    expect(sandbox.store.count('serviceRates')).toBe(before);
    expect((await post(rateBody({ weight_min: 10001, weight_max: 20000, price: { amount: 500, currency: 'EUR' } }))).status).toBe(201);
    const pickup = w.service('postnl-parcel-pickup-point');
    const otherService = await post(
      rateBody({ weight_min: 0, weight_max: 10000, price: { amount: 300, currency: 'EUR' } }, { service: { data: { type: 'services', id: pickup.id } } }),
    );
    expect(otherService.status, otherService.text).toBe(201);
  });

  it('reports every inconsistency of a rate at once, each with its pointer', async () => {
    const { sandbox, rateBody, post } = await setup();
    const before = sandbox.store.count('serviceRates');
    const answer = await post(
      rateBody({
        weight_min: 5000,
        weight_max: 1000,
        price: { amount: 100, currency: 'GBP' },
        weight_bracket: { start: 9000, start_amount: 1, size: 1, size_amount: 1 },
        step_price: { amount: 10, currency: 'EUR' },
        oversize_surcharge: { amount: 5, currency: 'EUR' },
      }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((error: Json) => error.source.pointer).sort()).toEqual([
      '/data/attributes/length_max',
      '/data/attributes/price/currency',
      '/data/attributes/step_size',
      '/data/attributes/weight_bracket',
      '/data/attributes/weight_bracket/start',
      '/data/attributes/weight_max',
    ]);
    expect(firstError(await post(rateBody({ weight_min: 0, weight_max: 100 })))).toMatchObject({
      status: '422',
      source: { pointer: '/data/attributes/price' },
    });
    const surcharged = await post(
      rateBody({ weight_min: 0, weight_max: 100, price: { amount: -1, currency: 'EUR' }, fuel_surcharge: { amount: 5, currency: 'GBP' } }),
    );
    expect(surcharged.body.errors.map((error: Json) => error.source.pointer).sort()).toEqual([
      '/data/attributes/fuel_surcharge/currency',
      '/data/attributes/price/amount',
    ]);
    expect(firstError(await post(rateBody({ weight_max: 100, price: { amount: 1, currency: 'EUR' } })))).toMatchObject({
      status: '400',
      source: { pointer: '/data/attributes/weight_min' },
    });
    expect(sandbox.store.count('serviceRates')).toBe(before);
  });

  it('blames a PATCH that breaks a rule with a kept attribute on the attribute it sent', async () => {
    const { sandbox, token, rateBody, post } = await setup();
    const made = await post(rateBody({ weight_min: 0, weight_max: 2000, weight_bracket: { start: 1000, start_amount: 500, size: 500, size_amount: 50 } }));
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    const patch = (attributes: Json) => sandbox.request('PATCH', `/service-rates/${id}`, { token, body: { data: { type: 'service-rates', id, attributes } } });
    const pointers = (answer: Json) => answer.body.errors.map((error: Json) => error.source.pointer).sort();
    // weight_min above the kept weight_max (and the kept bracket start): both are weight_min's doing.
    expect(pointers(await patch({ weight_min: 3000 }))).toEqual(['/data/attributes/weight_min', '/data/attributes/weight_min']);
    // weight_max below the kept bracket start.
    expect(pointers(await patch({ weight_max: 500 }))).toEqual(['/data/attributes/weight_max']);
    // A price beside the kept bracket.
    expect(pointers(await patch({ price: { amount: 100, currency: 'EUR' } }))).toEqual(['/data/attributes/price']);
    // Both sent: weight_max is blamed for the range, as a create blames it, and weight_min for leaving the kept bracket start out.
    expect(pointers(await patch({ weight_min: 3000, weight_max: 1000 }))).toEqual(['/data/attributes/weight_max', '/data/attributes/weight_min']);
    // A bracket start the update sends outside the kept range is blamed itself.
    expect(pointers(await patch({ weight_bracket: { start: 5000, start_amount: 1, size: 1, size_amount: 1 } }))).toEqual([
      '/data/attributes/weight_bracket/start',
    ]);
  });

  it('blames a PATCH that breaks a pairing, an overlap or a currency with a kept member on the member it sent', async () => {
    const { sandbox, token, contract, service, rateBody, post } = await setup();
    const made = await post(rateBody({ weight_min: 0, weight_max: 2000, weight_bracket: { start: 1000, start_amount: 500, size: 500, size_amount: 50 } }));
    const priced = await post(rateBody({ weight_min: 3000, weight_max: 5000, price: { amount: 900, currency: 'EUR' } }));
    const patch = (data: Json, id = made.body.data.id) =>
      sandbox.request('PATCH', `/service-rates/${id}`, { token, body: { data: { type: 'service-rates', id, ...data } } });
    const pointers = async (data: Json) => {
      const answer = await patch(data);
      expect(answer.status, answer.text).toBe(422);
      return answer.body.errors.map((error: Json) => error.source.pointer);
    };
    // Each sent member breaks a rule with one the rate keeps: the sent one is blamed.
    expect(await pointers({ attributes: { step_price: { amount: 10, currency: 'EUR' } } })).toEqual(['/data/attributes/step_price']);
    expect(await pointers({ attributes: { oversize_surcharge: { amount: 10, currency: 'EUR' } } })).toEqual(['/data/attributes/oversize_surcharge']);
    expect(await pointers({ attributes: { weight_bracket: null } })).toEqual(['/data/attributes/weight_bracket']);
    expect(await pointers({ attributes: { weight_max: 4000 } })).toEqual(['/data/attributes/weight_max']);
    // Another own contract of the carrier, in pounds: the kept euro prices are the contract's doing.
    const pounds = await sandbox.request('POST', '/contracts', {
      token,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'Own PostNL in pounds', currency: 'GBP', credentials: postnlCredentials },
          relationships: { carrier: contract.relationships.carrier, owner: contract.relationships.owner },
        },
      },
    });
    expect(pounds.status, pounds.text).toBe(201);
    const moved = await patch({ relationships: { contract: { data: { type: 'contracts', id: pounds.body.data.id } } } }, priced.body.data.id);
    expect(moved.body.errors.map((error: Json) => [error.source.pointer, error.detail])).toEqual([
      ['/data/relationships/contract/data/id', 'Prices of this contract are in GBP, not EUR: send price in GBP too.'],
    ]);
    // Sent with the contract, the price is blamed itself.
    const both = await patch(
      {
        attributes: { price: { amount: 1, currency: 'EUR' } },
        relationships: { contract: { data: { type: 'contracts', id: pounds.body.data.id } }, service: { data: { type: 'services', id: service.id } } },
      },
      priced.body.data.id,
    );
    expect(both.body.errors.map((error: Json) => error.source.pointer)).toEqual(['/data/attributes/price/currency']);
  });

  it("refuses a service of another carrier, an unknown option, a broker's contract and another tenant's", async () => {
    const { sandbox, w, token, rateBody, post } = await setup();
    const dpd = w.service('dpd-classic', 'DE');
    const price = { amount: 100, currency: 'EUR' };
    expect(firstError(await post(rateBody({ weight_min: 0, weight_max: 100, price }, { service: { data: { type: 'services', id: dpd.id } } })))).toMatchObject({
      status: '422',
      source: { pointer: '/data/relationships/service/data/id' },
    });
    const unknownOption = await post(
      rateBody(
        { weight_min: 0, weight_max: 100, price },
        { service_options: { data: [{ type: 'service-options', id: '00000000-0000-4000-8000-000000000000' }] } },
      ),
    );
    expect(firstError(unknownOption)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/service_options/data/0/id' } });
    const broker = w.contractFor(w.service('postnl-parcel-standard'));
    expect(
      firstError(await post(rateBody({ weight_min: 0, weight_max: 100, price }, { contract: { data: { type: 'contracts', id: broker.id } } }))),
    ).toMatchObject({ status: '403', code: '10013' });
    const other = await sandbox.token('other-client');
    expect(firstError(await post(rateBody({ weight_min: 0, weight_max: 100, price }), other))).toMatchObject({
      status: '422',
      source: { pointer: '/data/relationships/contract/data/id' },
    });
    const brokerRate = (await sandbox.get(`/service-rates?filter[contract]=${broker.id}`, token)).body.data[0];
    const patchBroker = await sandbox.request('PATCH', `/service-rates/${brokerRate.id}`, {
      token,
      body: { data: { type: 'service-rates', id: brokerRate.id, attributes: { weight_max: 1 } } },
    });
    expect(firstError(patchBroker)).toMatchObject({ status: '403', code: '10013' });
  });

  it("keeps another tenant's rates out of reach: 404 on PATCH", async () => {
    const { sandbox, rateBody, post } = await setup();
    const rate = (await post(rateBody({ weight_min: 0, weight_max: 100, price: { amount: 1, currency: 'EUR' } }))).body.data;
    const other = await sandbox.token('other-client');
    const answer = await sandbox.request('PATCH', `/service-rates/${rate.id}`, {
      token: other,
      body: { data: { type: 'service-rates', id: rate.id, attributes: { weight_max: 5 } } },
    });
    expect(firstError(answer)).toMatchObject({ status: '404', code: '10002' });
    expect(sandbox.store.get('serviceRates', rate.id)?.weight_max).toBe(100);
  });

  it('takes rates only for the services of the contract template', async () => {
    const probe = await setup();
    const broker = probe.w.contractFor(probe.service).relationships.owner.data.id;
    const template = await probe.sandbox.request('POST', '/contracts/v1/templates', {
      token: ADMIN,
      body: {
        data: {
          type: 'contract-templates',
          attributes: { name: 'Pick-up only', currency: 'EUR' },
          relationships: {
            broker: { data: { type: 'brokers', id: broker } },
            carrier: { data: { type: 'carriers', id: probe.service.relationships.carrier.data.id } },
            services: { data: [{ type: 'services', id: probe.w.service('postnl-parcel-pickup-point').id }] },
          },
        },
      },
    });
    expect(template.status, template.text).toBe(201);
    // A template made in another sandbox has another id: make the contract in this one.
    const contract = await probe.sandbox.request('POST', '/contracts', {
      token: probe.token,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'From template', currency: 'EUR', credentials: postnlCredentials },
          relationships: {
            carrier: { data: { type: 'carriers', id: probe.service.relationships.carrier.data.id } },
            owner: { data: { type: 'organizations', id: probe.contract.relationships.owner.data.id } },
            contract_template: { data: { type: 'contract-templates', id: template.body.data.id } },
          },
        },
      },
    });
    const body = probe.rateBody(
      { weight_min: 0, weight_max: 100, price: { amount: 1, currency: 'EUR' } },
      { contract: { data: { type: 'contracts', id: contract.body.data.id } } },
    );
    expect(firstError(await probe.post(body))).toMatchObject({ status: '422', source: { pointer: '/data/relationships/service/data/id' } });
  });
});
