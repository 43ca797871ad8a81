import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json } from './support/app.js';
import { carrierSetup, collectionBody, collectionStatus, createCollection, DAY, HOUR, MONDAY, rpc } from './support/collections.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/*
 * The life of a collection on the sandbox clock: concept -> registered (PATCH register: true)
 * -> collected when its window opens, or voided (DELETE, where the carrier cancels bookings);
 * what may change at each step.
 */

async function setup(country: 'NL' | 'DE' = 'NL', serviceCode = 'postnl-parcel-business') {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const { shop, service, contract } = carrierSetup(w, country, serviceCode);
  const window = country === 'NL' ? { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR } : { from: MONDAY + 12 * HOUR, to: MONDAY + 17 * HOUR };
  const collection = await createCollection(sandbox, w.token, collectionBody(shop, window, { contract, description: 'Monday' }));
  const patch = (attributes: Json, token = w.token) =>
    sandbox.request('PATCH', `/collections/${collection.id}`, { token, body: { data: { type: 'collections', id: collection.id, attributes } } });
  const remove = (token = w.token) => sandbox.request('DELETE', `/collections/${collection.id}`, { token });
  const shipment = (attributes: Json = {}) =>
    createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop, service, contract, attributes, relationships: { collection: { data: { type: 'collections', id: collection.id } } } }),
    );
  return { sandbox, w, shop, service, contract, collection, window, patch, remove, shipment };
}

describe('registering a collection', () => {
  it('PATCH register: true books it: registered, with a reference; then it no longer changes', async () => {
    const { sandbox, w, collection, patch } = await setup();
    const answer = await patch({ description: 'Booked', register: true });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.attributes).toMatchObject({ description: 'Booked', register: true, tracking_code: expect.stringMatching(/^POS-COL-/) });
    expect(await collectionStatus(sandbox, w.token, collection.id)).toBe('collection-registered');
    const before = sandbox.store.snapshot();
    for (const [attributes, member] of [
      [{ description: 'Again' }, 'description'],
      [{ register: true, description: null }, 'description'],
      [{ name: 'Renamed' }, 'name'],
    ] as const) {
      const again = await patch(attributes);
      expect(again.status, JSON.stringify(attributes)).toBe(423);
      expect(firstError(again)).toMatchObject({
        code: '10005',
        detail: expect.stringMatching(/booked with the carrier/),
        source: { pointer: `/data/attributes/${member}` },
      });
    }
    // A body that changes nothing (the booking retried, or the resource sent back as it is) answers it unchanged.
    for (const attributes of [{ register: true }, { register: false }, {}, answer.body.data.attributes]) {
      const retried = await patch(attributes);
      expect(retried.status, JSON.stringify(attributes)).toBe(200);
      expect(retried.body.data).toEqual(answer.body.data);
    }
    expect(sandbox.store.snapshot()).toEqual(before);
  });

  it('refuses register: true without a contract, or once bookings for the slot closed; nothing changes', async () => {
    const { sandbox, w, shop, patch } = await setup();
    const plan = await createCollection(sandbox, w.token, collectionBody(shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 10 * HOUR }));
    const noContract = await sandbox.request('PATCH', `/collections/${plan.id}`, {
      token: w.token,
      body: { data: { type: 'collections', id: plan.id, attributes: { register: true } } },
    });
    expect(noContract.status).toBe(422);
    expect(firstError(noContract).source.pointer).toBe('/data/attributes/register');
    await sandbox.advance(22 * HOUR);
    const before = sandbox.store.snapshot();
    const late = await patch({ register: true, description: 'Too late' });
    expect(late.status).toBe(422);
    expect(firstError(late)).toMatchObject({ source: { pointer: '/data/attributes/register' }, detail: expect.stringMatching(/closed at/) });
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});

describe('the carrier comes when the window opens', () => {
  it('collects a registered collection: labelled shipments are received by the carrier, the others stay behind', async () => {
    const { sandbox, collection, window, patch, shipment } = await setup();
    const labelled = await shipment({ register_at: TEST_NOW, tags: ['sandbox:auto-deliver'] });
    const unlabelled = await shipment();
    expect((await patch({ register: true })).status).toBe(200);
    await sandbox.advance(window.from - TEST_NOW - 1);
    let token = await sandbox.token();
    expect(await collectionStatus(sandbox, token, collection.id)).toBe('collection-registered');
    await sandbox.advance(1);
    expect(await collectionStatus(sandbox, token, collection.id)).toBe('collection-collected');
    const history = (await sandbox.get(`/shipments/${labelled.id}/statuses?include=status`, token)).body;
    const codes = history.data.map((row: Json) => history.included.find((s: Json) => s.id === row.relationships.status.data.id).attributes.code);
    expect(codes).toEqual(['shipment-concept', 'shipment-registered', 'shipment-received-by-carrier']);
    expect(history.data.at(-1).attributes).toMatchObject({
      created_at: window.from,
      carrier_statuses: [{ code: 'COLLECTED', category: 'successful-collection' }],
    });
    const left = (await sandbox.get(`/shipments/${unlabelled.id}`, token)).body.data;
    expect(left.relationships).not.toHaveProperty('collection');
    // The auto-deliver walk goes on from the collection: sorting three hours later, and so on.
    await sandbox.advance(DAY);
    token = await sandbox.token();
    const walked = (await sandbox.get(`/shipments/${labelled.id}?include=shipment_status.status`, token)).body;
    expect(walked.included.find((r: Json) => r.type === 'statuses').attributes.code).toBe('shipment-delivered');
    // Collected: nothing to change, cancel or add to any more; marked collected again, it stays as it is (200).
    expect((await patch({ description: 'x' }, token)).status).toBe(423);
    const collectedStatus = { data: { type: 'statuses', id: sandbox.store.all('statuses').find((s) => s.code === 'collection-collected')!.id } };
    const before = (await sandbox.get(`/collections/${collection.id}`, token)).body.data;
    const again = await sandbox.request('PATCH', `/collections/${collection.id}`, {
      token,
      body: { data: { type: 'collections', id: collection.id, relationships: { status: collectedStatus } } },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toEqual(before);
    // Sent back whole (register: true and all), it changes nothing either.
    const whole = await patch(before.attributes, token);
    expect(whole.status, whole.text).toBe(200);
    expect(whole.body.data).toEqual(before);
    const changing = await sandbox.request('PATCH', `/collections/${collection.id}`, {
      token,
      body: { data: { type: 'collections', id: collection.id, attributes: { description: 'x' }, relationships: { status: collectedStatus } } },
    });
    expect(changing.status).toBe(423);
    const gone = await sandbox.request('DELETE', `/collections/${collection.id}`, { token });
    expect(firstError(gone)).toMatchObject({ status: '423', detail: expect.stringMatching(/collection-collected/) });
    const late = await rpc(sandbox, token, '/add-shipments-to-collection', { collection_id: collection.id, shipment_ids: [unlabelled.id] });
    expect(firstError(late)).toMatchObject({ status: '422', source: { pointer: '/data/collection_id' } });
  });

  it('leaves a concept collection alone: the carrier never heard of it', async () => {
    const { sandbox, collection, window } = await setup();
    await sandbox.advance(window.to - TEST_NOW);
    expect(await collectionStatus(sandbox, await sandbox.token(), collection.id)).toBe('collection-concept');
  });
});

describe('cancelling a collection', () => {
  it('removes a concept; voids a registered one where the carrier cancels bookings, releasing its shipments', async () => {
    const { sandbox, w, collection, window, patch, remove, shipment } = await setup();
    const parcel = await shipment();
    expect((await patch({ register: true })).status).toBe(200);
    expect((await remove()).status).toBe(204);
    expect(await collectionStatus(sandbox, w.token, collection.id)).toBe('collection-voided');
    expect((await sandbox.get(`/shipments/${parcel.id}`, w.token)).body.data.relationships).not.toHaveProperty('collection');
    expect(firstError(await remove())).toMatchObject({ status: '423', detail: expect.stringMatching(/collection-voided/) });
    // Voided, it changes no more; sent back as it is (register: true and all), it is answered as it is.
    const voided = (await sandbox.get(`/collections/${collection.id}`, w.token)).body.data;
    expect(firstError(await patch({ description: 'Back on' }))).toMatchObject({ status: '423', source: { pointer: '/data/attributes/description' } });
    const whole = await patch(voided.attributes);
    expect(whole.status, whole.text).toBe(200);
    expect(whole.body.data).toEqual(voided);
    await sandbox.advance(window.from - TEST_NOW);
    expect(await collectionStatus(sandbox, await sandbox.token(), collection.id)).toBe('collection-voided');
  });

  it('lets a labelled auto-deliver shipment of a voided collection walk on without it', async () => {
    const { sandbox, w, patch, remove, shipment } = await setup();
    expect((await patch({ register: true })).status).toBe(200);
    const parcel = await shipment({ register_at: TEST_NOW, tags: ['sandbox:auto-deliver'] });
    await sandbox.advance(2 * HOUR);
    const code = async () =>
      (await sandbox.get(`/shipments/${parcel.id}?include=shipment_status.status`, w.token)).body.included.find((r: Json) => r.type === 'statuses').attributes
        .code;
    // It waits for the collection rather than being handed over an hour after registration.
    expect(await code()).toBe('shipment-registered');
    expect((await remove()).status).toBe(204);
    await sandbox.advance(HOUR);
    expect(await code()).toBe('shipment-received-by-carrier');
  });

  it('refuses to cancel a registered collection of a carrier that does not cancel bookings (DPD)', async () => {
    const { sandbox, patch, remove } = await setup('DE', 'dpd-classic');
    expect((await patch({ register: true })).status).toBe(200);
    const before = sandbox.store.snapshot();
    const answer = await remove();
    expect(firstError(answer)).toMatchObject({ status: '423', code: '10005', detail: expect.stringMatching(/DPD does not cancel booked collections/) });
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});
