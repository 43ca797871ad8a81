import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json } from './support/app.js';
import { carrierSetup, collectionBody, createCollection, DAY, HOUR, MONDAY, rpc } from './support/collections.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/**
 * POST /add-shipments-to-collection, a shipment's `collection` relationship and
 * `meta.add_to_next_collection`: a collection takes shipments of its own shop and contract only.
 */

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const nl = carrierSetup(w, 'NL', 'postnl-parcel-business');
  const de = carrierSetup(w, 'DE', 'dpd-classic');
  const collection = await createCollection(
    sandbox,
    w.token,
    collectionBody(nl.shop, { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR }, { contract: nl.contract, register: true }),
  );
  const parcel = (setup: typeof nl, extra: { attributes?: Json; relationships?: Json; meta?: Json } = {}) =>
    createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: setup.shop,
        recipient: recipients[setup.shop.attributes.sender_address.country_code as 'NL' | 'DE'],
        service: setup.service,
        contract: setup.contract,
        ...extra,
      }),
    );
  const add = (shipmentIds: string[], collectionId = collection.id, token = w.token) =>
    rpc(sandbox, token, '/add-shipments-to-collection', { collection_id: collectionId, shipment_ids: shipmentIds });
  const collectionOf = async (id: string) => (await sandbox.get(`/shipments/${id}`, w.token)).body.data.relationships.collection?.data.id;
  return { sandbox, w, nl, de, collection, parcel, add, collectionOf };
}

describe('POST /add-shipments-to-collection', () => {
  it('adds shipments of the shop and contract (204); the collection lists them; adding again changes nothing', async () => {
    const { sandbox, w, nl, collection, parcel, add, collectionOf } = await setup();
    const a = await parcel(nl);
    const b = await parcel(nl);
    const answer = await add([a.id, b.id]);
    expect(answer.status, answer.text).toBe(204);
    expect(answer.text).toBe('');
    expect(await collectionOf(a.id)).toBe(collection.id);
    const listed = (await sandbox.get(`/collections/${collection.id}`, w.token)).body.data.relationships.shipments.data.map((s: Json) => s.id);
    expect(listed.sort()).toEqual([a.id, b.id].sort());
    const before = sandbox.store.snapshot();
    expect((await add([a.id])).status).toBe(204);
    expect(sandbox.store.snapshot()).toEqual(before);
  });

  it('names each shipment that cannot join, with its pointer, and adds none', async () => {
    const { sandbox, w, nl, de, parcel, add } = await setup();
    const fine = await parcel(nl);
    const otherShop = await parcel(de);
    const noContract = await createShipment(sandbox, w.token, shipmentBody({ shop: nl.shop }));
    const registered = await parcel(nl, { attributes: { register_at: TEST_NOW } });
    const voided = await parcel(nl, { attributes: { register_at: TEST_NOW } });
    const elsewhere = await parcel(nl);
    const booked = await createCollection(
      sandbox,
      w.token,
      collectionBody(nl.shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 12 * HOUR }, { contract: nl.contract, register: true }),
    );
    expect((await add([elsewhere.id], booked.id)).status).toBe(204);
    await sandbox.advance(5);
    expect((await rpc(sandbox, w.token, '/void-shipment', { shipment_id: voided.id })).status).toBe(204);
    const theirs = (await sandbox.get('/shipments', await sandbox.token('other-client'))).body.data[0]?.id ?? '00000000-0000-4000-8000-000000000000';
    const before = sandbox.store.snapshot();
    const ids = [fine.id, otherShop.id, noContract.id, registered.id, voided.id, elsewhere.id, theirs, fine.id];
    const answer = await add(ids);
    expect(answer.status).toBe(422);
    const byPointer = Object.fromEntries(answer.body.errors.map((e: Json) => [e.source.pointer, e.detail]));
    expect(Object.keys(byPointer).sort()).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `/data/shipment_ids/${i}`).sort());
    expect(byPointer['/data/shipment_ids/1']).toMatch(/another shop/);
    expect(byPointer['/data/shipment_ids/2']).toMatch(/has no contract/);
    expect(byPointer['/data/shipment_ids/3']).toMatch(/PostNL takes only shipments that are not registered yet/);
    expect(byPointer['/data/shipment_ids/4']).toMatch(/voided/);
    expect(byPointer['/data/shipment_ids/5']).toMatch(new RegExp(`in collection '${booked.id}', which is registered`));
    expect(byPointer['/data/shipment_ids/6']).toMatch(/No shipment with id .* is available to you/);
    expect(byPointer['/data/shipment_ids/7']).toMatch(/listed more than once/);
    for (const error of answer.body.errors) expect(error).toMatchObject({ status: '422', code: '10008' });
    expect(sandbox.store.snapshot()).toEqual(before);
  });

  it('takes registered shipments where the carrier allows it (DPD)', async () => {
    const { sandbox, w, de, parcel, add, collectionOf } = await setup();
    const dpd = await createCollection(
      sandbox,
      w.token,
      collectionBody(de.shop, { from: MONDAY + 12 * HOUR, to: MONDAY + 17 * HOUR }, { contract: de.contract, register: true }),
    );
    const labelled = await parcel(de, { attributes: { register_at: TEST_NOW } });
    await sandbox.advance(5);
    expect((await add([labelled.id], dpd.id)).status).toBe(204);
    expect(await collectionOf(labelled.id)).toBe(dpd.id);
  });

  it('moves a multi-colli shipment whole: naming its master or one collo brings the master and every collo', async () => {
    const { sandbox, w, de, add, collectionOf } = await setup();
    const service = w.service('dpd-multi-colli', 'DE');
    const window = (day: number) => ({ from: MONDAY + day * DAY + 12 * HOUR, to: MONDAY + day * DAY + 17 * HOUR });
    const monday = await createCollection(sandbox, w.token, collectionBody(de.shop, window(0), { contract: w.contractFor(service) }));
    const tuesday = await createCollection(sandbox, w.token, collectionBody(de.shop, window(1), { contract: w.contractFor(service), register: true }));
    const multi = shipmentBody({
      shop: de.shop,
      recipient: recipients.DE,
      service,
      contract: w.contractFor(service),
      meta: { colli: [{ physical_properties: { weight: 1000 } }, { physical_properties: { weight: 2000 } }] },
    });
    delete multi.data.attributes.physical_properties;
    const made = await sandbox.request('POST', '/multi-colli-shipments', { token: w.token, body: multi });
    expect(made.status, made.text).toBe(201);
    const family = [made.body.data.id, ...made.body.data.relationships.colli.data.map((c: Json) => c.id)];
    expect((await add([family[0]], monday.id)).status).toBe(204);
    expect(await Promise.all(family.map(collectionOf))).toEqual([monday.id, monday.id, monday.id]);
    expect((await add([family[2]], tuesday.id)).status).toBe(204);
    expect(await Promise.all(family.map(collectionOf))).toEqual([tuesday.id, tuesday.id, tuesday.id]);
  });

  it("refuses an unknown or other tenant's collection, one whose window began, and bodies that are not lists of ids", async () => {
    const { sandbox, w, nl, collection, parcel, add } = await setup();
    const shipment = await parcel(nl);
    const other = await sandbox.token('other-client');
    const theirs = (await sandbox.get('/collections', other)).body.data[0].id;
    for (const id of [theirs, '00000000-0000-4000-8000-000000000000']) {
      const answer = await add([shipment.id], id);
      expect(answer.status).toBe(422);
      expect(firstError(answer)).toMatchObject({ source: { pointer: '/data/collection_id' }, detail: expect.stringMatching(/No collection with id/) });
    }
    for (const data of [{ collection_id: collection.id }, { shipment_ids: [shipment.id] }]) {
      const answer = await rpc(sandbox, w.token, '/add-shipments-to-collection', data);
      expect(answer.status, JSON.stringify(data)).toBe(400);
    }
    // An empty list, which production's schema allows, adds nothing.
    const before = (await sandbox.get(`/collections/${collection.id}?include=shipments`, w.token)).body;
    const none = await rpc(sandbox, w.token, '/add-shipments-to-collection', { collection_id: collection.id, shipment_ids: [] });
    expect(none.status, none.text).toBeLessThan(300);
    expect((await sandbox.get(`/collections/${collection.id}?include=shipments`, w.token)).body).toEqual(before);
    await sandbox.advance(MONDAY + 13 * HOUR - TEST_NOW);
    const late = await add([shipment.id], collection.id, await sandbox.token());
    expect(firstError(late)).toMatchObject({ status: '422', source: { pointer: '/data/collection_id' } });
  });
});

describe('POST /collections with shipments', () => {
  it('takes them into the new collection as add-shipments-to-collection does, all or none', async () => {
    const { sandbox, w, nl, de, parcel, collectionOf } = await setup();
    const a = await parcel(nl);
    const b = await parcel(nl);
    const window = { from: MONDAY + 24 * HOUR + 13 * HOUR, to: MONDAY + 24 * HOUR + 17 * HOUR };
    const withShipments = (ids: string[]) => {
      const body = collectionBody(nl.shop, window, { contract: nl.contract, register: true });
      body.data.relationships.shipments = { data: ids.map((id) => ({ type: 'shipments', id })) };
      return body;
    };
    const created = await sandbox.request('POST', '/collections', { token: w.token, body: withShipments([a.id, b.id]) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.relationships.shipments.data.map((s: Json) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect(await collectionOf(a.id)).toBe(created.body.data.id);

    const c = await parcel(nl);
    const otherShop = await parcel(de);
    const before = sandbox.store.snapshot();
    const refused = await sandbox.request('POST', '/collections', { token: w.token, body: withShipments([c.id, otherShop.id]) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: Json) => e.source.pointer)).toEqual(['/data/relationships/shipments/data/1/id']);
    expect(firstError(refused).detail).toMatch(/another shop/);
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});

describe('POST /collections with shipments and other problems', () => {
  it('names the shipments that cannot join in the same answer as the rest, entry by entry, and no collection that was never made', async () => {
    const { sandbox, w, nl, parcel } = await setup();
    const loose = await createShipment(sandbox, w.token, shipmentBody({ shop: nl.shop }));
    const fine = await parcel(nl);
    const body = collectionBody(nl.shop, { from: TEST_NOW - HOUR, to: TEST_NOW - 2 * HOUR }, { contract: nl.contract });
    const unknown = '00000000-0000-4000-8000-000000000001';
    body.data.relationships.shipments = {
      data: [
        { type: 'shipments', id: loose.id },
        { type: 'shops', id: nl.shop.id },
        { type: 'shipments', id: fine.id },
        { type: 'shipments', id: unknown },
        { type: 'shipments', id: fine.id },
      ],
    };
    const before = sandbox.store.snapshot();
    const answer = await sandbox.request('POST', '/collections', { token: w.token, body });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: Json) => [e.source.pointer, e.detail])).toEqual([
      [
        '/data/relationships/shipments/data/0/id',
        expect.stringMatching(new RegExp(`^Shipment '${loose.id}': The collection is for contract .*; the shipment has no contract`)),
      ],
      ['/data/relationships/shipments/data/1/type', expect.stringMatching(/point at shipments, not 'shops'/)],
      ['/data/relationships/shipments/data/3/id', `No shipment with id '${unknown}' is available to you.`],
      ['/data/relationships/shipments/data/4/id', `Shipment '${fine.id}' is listed more than once.`],
      ['/data/attributes/collection_time/from', expect.stringMatching(/lies in the past/)],
      ['/data/attributes/collection_time/to', expect.stringMatching(/must be after 'from'/)],
    ]);
    expect(sandbox.store.snapshot()).toEqual(before);
    // With a contract that cannot be used, the shipments are not blamed for not fitting it: only the unknown one is named.
    body.data.relationships.contract.data.id = unknown;
    const noContract = await sandbox.request('POST', '/collections', { token: w.token, body });
    expect(noContract.body.errors.map((e: Json) => e.source.pointer)).toEqual([
      '/data/relationships/contract/data/id',
      '/data/relationships/shipments/data/1/type',
      '/data/relationships/shipments/data/3/id',
      '/data/relationships/shipments/data/4/id',
      '/data/attributes/collection_time/from',
      '/data/attributes/collection_time/to',
    ]);
  });
});

describe('a shipment joins collections of its own contract only', () => {
  it('add_to_next_collection on a carrier that collects nothing says so, not to book a collection it would refuse', async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const bpost = w.service('bpost-bpack-24h-pro', 'BE');
    const carrier = (await sandbox.read(`/carriers/${bpost.relationships.carrier.data.id}`)).body.data;
    expect(carrier.attributes.collections.offers_collections).toBe(false);
    const belgian = { street_1: 'Grote Markt', street_number: 1, postal_code: '1000', city: 'Brussel', country_code: 'BE' };
    const made = await sandbox.request('POST', '/shipments', {
      token: w.token,
      body: shipmentBody({
        shop: w.shopIn('NL'),
        recipient: recipients.BE,
        service: bpost,
        contract: w.contractFor(bpost),
        attributes: { sender_address: belgian, return_address: belgian },
        meta: { add_to_next_collection: true },
      }),
    });
    expect(made.status, made.text).toBe(201);
    const [warning] = made.body.meta.warnings;
    expect(warning).toMatchObject({ code: 'not-added-to-collection', source: { pointer: '/meta/add_to_next_collection' } });
    expect(warning.detail).toContain('bpost does not collect (its collections.offers_collections is false)');
    expect(warning.detail).not.toContain('POST /collections');
  });

  it("add_to_next_collection picks the nearest open collection of the same shop and contract, never another carrier's", async () => {
    const { sandbox, w, nl, collection, parcel } = await setup();
    // A DPD contract on the Dutch shop: PostNL's collections (the booked one, the seeded ones) are not for it.
    const dpdService = w.service('dpd-classic', 'NL');
    const dpdContract = w.contractFor(dpdService);
    // No upcoming collection for that contract: the flag is a hint, so the shipment is made without one and meta says why.
    const alone = await sandbox.request('POST', '/shipments', {
      token: w.token,
      body: shipmentBody({ shop: nl.shop, service: dpdService, contract: dpdContract, meta: { add_to_next_collection: true } }),
    });
    expect(alone.status, alone.text).toBe(201);
    expect(alone.body.data.relationships.collection).toBeUndefined();
    expect(alone.body.meta.warnings).toEqual([
      { code: 'not-added-to-collection', detail: expect.stringContaining(dpdContract.id), source: { pointer: '/meta/add_to_next_collection' } },
    ]);
    expect(sandbox.store.get('shipments', alone.body.data.id)!.collection_id).toBeUndefined();
    const dpd = await createCollection(
      sandbox,
      w.token,
      collectionBody(nl.shop, { from: MONDAY + 15 * HOUR, to: MONDAY + 16 * HOUR }, { contract: dpdContract }),
    );
    const joined = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: nl.shop, service: dpdService, contract: dpdContract, meta: { add_to_next_collection: true } }),
    );
    expect(joined.relationships.collection.data.id).toBe(dpd.id);
    const postnl = await parcel(nl, { meta: { add_to_next_collection: true } });
    expect(postnl.relationships.collection.data.id).toBe(collection.id);
  });

  it('of collections with the same window, picks the one made first (add_to_next_collection, meta.collection)', async () => {
    const { sandbox, w, de } = await setup();
    // Six plans of one window, made in one second (the sandbox clock stands still between moves).
    const window = { from: MONDAY + 12 * HOUR, to: MONDAY + 17 * HOUR };
    const made: string[] = [];
    for (let i = 0; i < 6; i++) made.push((await createCollection(sandbox, w.token, collectionBody(de.shop, window, { contract: de.contract }))).id);
    const body = (meta: Json) => shipmentBody({ shop: de.shop, recipient: recipients.DE, service: de.service, contract: de.contract, meta });
    const next = await createShipment(sandbox, w.token, body({ add_to_next_collection: true }));
    expect(next.relationships.collection.data.id).toBe(made[0]);
    const registered = await sandbox.request('POST', '/registered-shipments', { token: w.token, body: body({ collection: { collection_time: window } }) });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.data.relationships.collection.data.id).toBe(made[0]);
  });

  it('refuses a collection relationship to a collection whose window began, as the RPC does; a shipment already in it stays', async () => {
    const { sandbox, w, nl, parcel } = await setup();
    const plan = await createCollection(
      sandbox,
      w.token,
      collectionBody(nl.shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 12 * HOUR }, { contract: nl.contract }),
    );
    const inside = await parcel(nl, { relationships: { collection: { data: { type: 'collections', id: plan.id } } } });
    await sandbox.advance(MONDAY + 10 * HOUR - TEST_NOW);
    const token = await sandbox.token();
    const late = await sandbox.request('POST', '/shipments', {
      token,
      body: shipmentBody({
        shop: nl.shop,
        recipient: recipients.NL,
        service: nl.service,
        contract: nl.contract,
        relationships: { collection: { data: { type: 'collections', id: plan.id } } },
      }),
    });
    expect(late.status).toBe(422);
    expect(firstError(late)).toMatchObject({
      source: { pointer: '/data/relationships/collection/data/id' },
      detail: expect.stringMatching(/opened at 2026-01-12 09:00 UTC/),
    });
    const kept = await sandbox.request('PATCH', `/shipments/${inside.id}`, {
      token,
      body: { data: { type: 'shipments', id: inside.id, attributes: { description: 'Still waiting' } } },
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.data.relationships.collection.data.id).toBe(plan.id);
  });

  it('keeps a shipment in a registered collection: PATCH cannot take it out or move it, as the RPC cannot', async () => {
    const { sandbox, w, nl, collection, parcel, add, collectionOf } = await setup();
    const plan = await createCollection(
      sandbox,
      w.token,
      collectionBody(nl.shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 12 * HOUR }, { contract: nl.contract }),
    );
    const booked = await parcel(nl, { relationships: { collection: { data: { type: 'collections', id: collection.id } } } });
    const planned = await parcel(nl, { relationships: { collection: { data: { type: 'collections', id: plan.id } } } });
    const patch = (id: string, linkage: Json) =>
      sandbox.request('PATCH', `/shipments/${id}`, {
        token: w.token,
        body: { data: { type: 'shipments', id, relationships: { collection: { data: linkage } } } },
      });
    const before = sandbox.store.snapshot();
    const moved = await patch(booked.id, { type: 'collections', id: plan.id });
    expect(moved.status).toBe(422);
    expect(firstError(moved)).toMatchObject({
      code: '10008',
      source: { pointer: '/data/relationships/collection/data/id' },
      detail: expect.stringMatching(new RegExp(`in collection '${collection.id}', which is registered with the carrier`)),
    });
    const out = await patch(booked.id, null);
    expect(out.status).toBe(422);
    expect(firstError(out)).toMatchObject({
      code: '10008',
      source: { pointer: '/data/relationships/collection' },
      detail: expect.stringMatching(/it stays there/),
    });
    expect((await add([booked.id], plan.id)).status).toBe(422);
    expect(sandbox.store.snapshot()).toEqual(before);
    expect(await collectionOf(booked.id)).toBe(collection.id);
    // A plan the carrier never heard of lets its shipments go.
    const left = await patch(planned.id, { type: 'collections', id: collection.id });
    expect(left.status, left.text).toBe(200);
    expect(await collectionOf(planned.id)).toBe(collection.id);
  });

  it('keeps a shipment in a registered collection on DELETE too: 423 naming the collection, until the booking is cancelled', async () => {
    const { sandbox, w, nl, collection, parcel, collectionOf } = await setup();
    const plan = await createCollection(
      sandbox,
      w.token,
      collectionBody(nl.shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 12 * HOUR }, { contract: nl.contract }),
    );
    const booked = await parcel(nl, { relationships: { collection: { data: { type: 'collections', id: collection.id } } } });
    const planned = await parcel(nl, { relationships: { collection: { data: { type: 'collections', id: plan.id } } } });
    const listed = async (id: string) => (await sandbox.get(`/collections/${id}`, w.token)).body.data.relationships.shipments.data.map((s: Json) => s.id);
    const before = sandbox.store.snapshot();
    const refused = await sandbox.request('DELETE', `/shipments/${booked.id}`, { token: w.token });
    expect(refused.status).toBe(423);
    expect(firstError(refused)).toMatchObject({
      code: '10005',
      detail: expect.stringMatching(new RegExp(`in collection '${collection.id}', which is registered with the carrier: it stays there and cannot be deleted`)),
    });
    expect(sandbox.store.snapshot()).toEqual(before);
    expect(await listed(collection.id)).toEqual([booked.id]);
    // A plan the carrier never heard of lets its shipment be deleted.
    expect((await sandbox.request('DELETE', `/shipments/${planned.id}`, { token: w.token })).status).toBe(204);
    expect(await listed(plan.id)).toEqual([]);
    // Once the booking is cancelled (PostNL voids booked collections) the shipment is free, and can go.
    expect((await sandbox.request('DELETE', `/collections/${collection.id}`, { token: w.token })).status).toBe(204);
    expect(await collectionOf(booked.id)).toBeUndefined();
    expect((await sandbox.request('DELETE', `/shipments/${booked.id}`, { token: w.token })).status).toBe(204);
  });

  it("refuses a collection relationship to another contract's collection, also on PATCH", async () => {
    const { sandbox, w, nl, collection, parcel } = await setup();
    const dpdService = w.service('dpd-classic', 'NL');
    const wrong = await sandbox.request('POST', '/shipments', {
      token: w.token,
      body: shipmentBody({
        shop: nl.shop,
        service: dpdService,
        contract: w.contractFor(dpdService),
        relationships: { collection: { data: { type: 'collections', id: collection.id } } },
      }),
    });
    expect(wrong.status).toBe(422);
    expect(firstError(wrong)).toMatchObject({
      source: { pointer: '/data/relationships/collection/data/id' },
      detail: expect.stringMatching(/takes shipments of its own contract only/),
    });
    const shipment = await parcel(nl);
    const moved = await sandbox.request('PATCH', `/shipments/${shipment.id}`, {
      token: w.token,
      body: {
        data: {
          type: 'shipments',
          id: shipment.id,
          relationships: {
            collection: { data: { type: 'collections', id: collection.id } },
            service: { data: { type: 'services', id: dpdService.id } },
            contract: { data: { type: 'contracts', id: w.contractFor(dpdService).id } },
          },
        },
      },
    });
    expect(moved.status).toBe(422);
    expect(firstError(moved).source.pointer).toBe('/data/relationships/collection/data/id');
    // In the collection already, a shipment that changes carrier is refused at the contract it names: it sent no collection.
    const inside = await parcel(nl, { relationships: { collection: { data: { type: 'collections', id: collection.id } } } });
    const changed = await sandbox.request('PATCH', `/shipments/${inside.id}`, {
      token: w.token,
      body: {
        data: {
          type: 'shipments',
          id: inside.id,
          relationships: {
            service: { data: { type: 'services', id: dpdService.id } },
            contract: { data: { type: 'contracts', id: w.contractFor(dpdService).id } },
          },
        },
      },
    });
    expect(changed.status).toBe(422);
    expect(firstError(changed)).toMatchObject({
      source: { pointer: '/data/relationships/contract/data/id' },
      detail: expect.stringMatching(/takes shipments of its own contract only/),
    });
  });
});
