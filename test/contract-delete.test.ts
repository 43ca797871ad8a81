import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { returnBody, returnsWorld } from './returns/support.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/** DELETE /contracts/{id}: own contracts nothing uses go with their rates; the rest is refused unchanged. */

const postnlCredentials = { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) };

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const token = w.token;
  // The seeded pending own contract: PostNL, with service rates, no credentials yet.
  const seeded: Json = (await sandbox.get('/contracts?filter[status]=pending', token)).body.data[0];
  const rates: Json[] = (await sandbox.get(`/service-rates?filter[contract]=${seeded.id}&page[size]=100`, token)).body.data;
  /** Gives the seeded contract credentials and verifies them at once, so shipments can use it. */
  const activate = async () => {
    const patched = await sandbox.request('PATCH', `/contracts/${seeded.id}`, {
      token,
      body: { data: { type: 'contracts', id: seeded.id, attributes: { credentials: postnlCredentials } } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await sandbox.request('POST', `/contracts/${seeded.id}/validate`, { token })).body.data.valid).toBe(true);
  };
  const remove = (id: string, t = token) => sandbox.request('DELETE', `/contracts/${id}`, { token: t });
  return { sandbox, w, token, seeded, rates, activate, remove };
}

/** POST /returns/v1/return-methods: a shop's return method that ships on `contract` with `rate`'s service. */
function postReturnMethod(sandbox: TestSandbox, token: string, shop: Json, contract: Json, rate: Json, query = '') {
  return sandbox.request('POST', `/returns/v1/return-methods${query}`, {
    token,
    body: {
      data: {
        type: 'return-methods',
        attributes: { return_type: 'shipment', title: 'Own PostNL', country_codes: ['NL'] },
        relationships: {
          shop: { data: { type: 'shops', id: shop.id } },
          contract: { data: { type: 'contracts', id: contract.id } },
          service: rate.relationships.service,
        },
      },
    },
  });
}

describe('DELETE /contracts/{contract_id}', () => {
  it('deletes an own contract nothing uses, with its service rates', async () => {
    const { sandbox, token, seeded, rates, remove } = await setup();
    expect(rates.length).toBeGreaterThan(0);
    // No endpoint creates coverages and own contracts are seeded without: one is inserted to see it go.
    const coverage = await sandbox.store.transact((tx) =>
      tx.insert('liabilityCoverages', { ...tx.all('liabilityCoverages')[0]!, id: tx.newId(), contract_id: seeded.id }),
    );
    expect((await sandbox.get(`/liability-coverages/${coverage.id}`, token)).status).toBe(200);
    const answer = await remove(seeded.id);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(firstError(await sandbox.get(`/contracts/${seeded.id}`, token))).toMatchObject({ status: '404', code: '10002' });
    expect((await sandbox.get(`/service-rates/${rates[0].id}`, token)).status).toBe(404);
    expect(sandbox.store.find('serviceRates', 'contract_id', seeded.id)).toEqual([]);
    expect((await sandbox.get(`/liability-coverages/${coverage.id}`, token)).status).toBe(404);
    expect((await sandbox.get('/contracts?page[size]=100', token)).body.data.map((c: Json) => c.id)).not.toContain(seeded.id);
  });

  it('drops the verification of a contract deleted while pending', async () => {
    const { sandbox, w, token, remove } = await setup();
    const organizationId = (await sandbox.get('/organizations', token)).body.data[0].id;
    const created = await sandbox.request('POST', '/contracts', {
      token,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'Gone before verified', currency: 'EUR', credentials: postnlCredentials },
          relationships: {
            carrier: { data: { type: 'carriers', id: w.services[0].relationships.carrier.data.id } },
            owner: { data: { type: 'organizations', id: organizationId } },
          },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(sandbox.store.find('jobs', 'subject', created.body.data.id)).toHaveLength(1);
    expect((await remove(created.body.data.id)).status).toBe(204);
    expect(sandbox.store.find('jobs', 'subject', created.body.data.id)).toEqual([]);
    await sandbox.advance(60);
    expect(sandbox.store.get('contracts', created.body.data.id)).toBeUndefined();
  });

  it('refuses a contract a shipment uses (422, 10008) and changes nothing; it goes once the shipment is deleted', async () => {
    const { sandbox, w, token, seeded, activate, remove } = await setup();
    await activate();
    const service = w.service('postnl-parcel-standard', 'NL');
    const shipment = await createShipment(sandbox, token, shipmentBody({ shop: w.shopIn('NL'), service, contract: seeded }));
    const before = sandbox.store.snapshot();
    const answer = await remove(seeded.id);
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ status: '422', code: '10008', detail: expect.stringMatching(/used by 1 shipment and cannot be deleted/) });
    expect(sandbox.store.snapshot()).toEqual(before);

    expect((await sandbox.request('DELETE', `/shipments/${shipment.id}`, { token })).status).toBe(204);
    expect((await remove(seeded.id)).status).toBe(204);
  });

  it('refuses a contract a collection uses', async () => {
    const { sandbox, w, token, seeded, activate, remove } = await setup();
    await activate();
    const shop = w.shopIn('NL');
    // Monday 09:00 UTC: a window the contract's carrier (PostNL) collects in.
    const from = TEST_NOW + 86400 + 9 * 3600;
    const collection = await sandbox.request('POST', '/collections', {
      token,
      body: {
        data: {
          type: 'collections',
          attributes: { address: shop.attributes.sender_address, collection_time: { from, to: from + 3600 } },
          relationships: { shop: { data: { type: 'shops', id: shop.id } }, contract: { data: { type: 'contracts', id: seeded.id } } },
        },
      },
    });
    expect(collection.status, collection.text).toBe(201);
    const answer = await remove(seeded.id);
    expect(firstError(answer)).toMatchObject({ status: '422', code: '10008', detail: expect.stringMatching(/used by 1 collection/) });
    expect((await sandbox.get(`/contracts/${seeded.id}`, token)).status).toBe(200);
  });

  it('refuses a contract a return method ships on, until the method is deleted', async () => {
    const { sandbox, w, token, seeded, rates, activate, remove } = await setup();
    await activate();
    const shop = w.shopIn('NL');
    const method = await postReturnMethod(sandbox, token, shop, seeded, rates[0]);
    expect(method.status, method.text).toBe(201);
    const answer = await remove(seeded.id);
    expect(firstError(answer)).toMatchObject({ status: '422', code: '10008', detail: expect.stringMatching(/used by 1 return method/) });
    expect((await sandbox.request('DELETE', `/returns/v1/return-methods/${method.body.data.id}`, { token })).status).toBe(204);
    expect((await remove(seeded.id)).status).toBe(204);
  });

  it('refuses a contract a deleted return method still ships on for the returns made with it', async () => {
    const { sandbox, w, token, seeded, rates, activate, remove } = await setup();
    await activate();
    const shop = w.shopIn('NL');
    const method = await postReturnMethod(sandbox, token, shop, seeded, rates[0], '?include=contract');
    expect(method.status, method.text).toBe(201);
    const order = (await (await returnsWorld(sandbox)).orders(shop.id))[0];
    const items = [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'too-small', questions: [{ code: 'worn', answer: false }] } }];
    const made = await sandbox.request('POST', '/returns/v1/returns', { token, body: returnBody({ shop, order, method: method.body.data, items }) });
    expect(made.status, made.text).toBe(201);
    expect((await sandbox.request('DELETE', `/returns/v1/return-methods/${method.body.data.id}`, { token })).status).toBe(204);

    // The return keeps its method (included, and approved with it), so the method keeps its contract.
    const answer = await remove(seeded.id);
    expect(firstError(answer)).toMatchObject({
      status: '422',
      code: '10008',
      detail: expect.stringMatching(/used by 1 deleted return method kept by the returns made with it/),
    });
    const read = await sandbox.get(`/returns/v1/returns/${made.body.data.id}?include=return_method`, token);
    const kept = read.body.included.find((row: Json) => row.type === 'return-methods');
    expect(kept.relationships.contract.data.id).toBe(seeded.id);
    expect((await sandbox.get(`/contracts/${seeded.id}`, token)).status).toBe(200);
  });

  it("refuses broker contracts (403, 10013), another tenant's (404) and tokens without organizations.manage, changing nothing", async () => {
    const { sandbox, w, seeded, remove } = await setup();
    const broker = w.contracts.find((c: Json) => c.relationships.owner.data.type === 'brokers');
    const before = sandbox.store.snapshot();
    const shared = await remove(broker.id);
    expect(shared.status).toBe(403);
    expect(firstError(shared)).toMatchObject({ status: '403', code: '10013', detail: expect.stringMatching(/shared by your broker/) });
    expect(firstError(await remove(seeded.id, await sandbox.token('other-client')))).toMatchObject({ status: '404', code: '10002' });
    expect(firstError(await remove(seeded.id, await sandbox.token('limited-client')))).toMatchObject({ status: '403', code: '14004' });
    expect(firstError(await remove('not-a-contract'))).toMatchObject({ status: '404', code: '10002' });
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});
