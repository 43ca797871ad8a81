import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json } from './support/app.js';
import { collectionBody, createCollection, HOUR, MONDAY, rpc } from './support/collections.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/**
 * Only a parcel the carrier picks up joins a collection: a collection service's, or a drop-off
 * service's with the option handover-method:collection; not a drop-off service's, nor one with
 * handover-method:drop-off. Every way into a collection keeps to it.
 */

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const shop = w.shopIn('NL');
  // postnl-parcel-standard is handed over by drop-off, postnl-parcel-business by collection; the broker contract rates both.
  const dropOff = w.service('postnl-parcel-standard', 'NL');
  const collected = w.service('postnl-parcel-business', 'NL');
  const contract = w.contractFor(collected);
  const window = { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR };
  const collection = await createCollection(sandbox, w.token, collectionBody(shop, window, { contract }));
  const options = (code?: string) => (code ? { service_options: { data: [{ type: 'service-options', id: w.option(code).id }] } } : {});
  const body = (service: Json, option?: string, extra: { relationships?: Json; meta?: Json } = {}) =>
    shipmentBody({ shop, service, contract, relationships: { ...options(option), ...extra.relationships }, meta: extra.meta });
  const inCollection = { relationships: { collection: { data: { type: 'collections', id: collection.id } } } };
  return { sandbox, w, dropOff, collected, contract, window, collection, options, body, inCollection };
}

describe('a collection takes only parcels the carrier picks up', () => {
  it('refuses a drop-off parcel on every way in, naming the member at fault', async () => {
    const { sandbox, w, dropOff, window, collection, body, inCollection } = await setup();
    const plain = await createShipment(sandbox, w.token, body(dropOff));
    const withOption = await createShipment(sandbox, w.token, body(w.service('postnl-parcel-business', 'NL'), 'handover-method:drop-off'));
    const made0 = sandbox.store.count('shipments');

    const added = await rpc(sandbox, w.token, '/add-shipments-to-collection', { collection_id: collection.id, shipment_ids: [plain.id, withOption.id] });
    expect(added.status, added.text).toBe(422);
    expect(added.body.errors.map((e: Json) => [e.source.pointer, e.detail])).toEqual([
      ['/data/shipment_ids/0', expect.stringMatching(/service 'postnl-parcel-standard' has handover_method drop-off\): there is nothing to collect/)],
      ['/data/shipment_ids/1', expect.stringMatching(/service option 'handover-method:drop-off'\): there is nothing to collect/)],
    ]);

    const related = await sandbox.request('POST', '/shipments', { token: w.token, body: body(dropOff, undefined, inCollection) });
    expect(related.status, related.text).toBe(422);
    expect(firstError(related)).toMatchObject({
      source: { pointer: '/data/relationships/collection/data/id' },
      detail: expect.stringMatching(/drop-off point/),
    });

    const patched = await sandbox.request('PATCH', `/shipments/${plain.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: plain.id, ...inCollection } },
    });
    expect(patched.status, patched.text).toBe(422);
    expect(firstError(patched).source).toEqual({ pointer: '/data/relationships/collection/data/id' });

    const registered = await sandbox.request('POST', '/registered-shipments', {
      token: w.token,
      body: body(dropOff, undefined, { meta: { collection: { collection_time: window } } }),
    });
    expect(registered.status, registered.text).toBe(422);
    expect(firstError(registered)).toMatchObject({ source: { pointer: '/meta/collection/collection_time' }, detail: expect.stringMatching(/drop-off point/) });

    const made = await sandbox.request('POST', '/shipments', { token: w.token, body: body(dropOff, undefined, { meta: { add_to_next_collection: true } }) });
    // The flag is a hint: the shipment is made without a collection, and told why.
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.relationships.collection).toBeUndefined();
    expect(made.body.meta.warnings).toEqual([
      { code: 'not-added-to-collection', detail: expect.stringMatching(/drop-off point/), source: { pointer: '/meta/add_to_next_collection' } },
    ]);
    const listed = (await sandbox.get(`/collections/${collection.id}`, w.token)).body.data.relationships.shipments.data;
    expect(listed).toEqual([]);
    // Of all the refused requests, none made a shipment; the hint made one.
    expect(sandbox.store.count('shipments')).toBe(made0 + 1);
  });

  it('takes a drop-off service with handover-method:collection, and a collection service, on every way in', async () => {
    const { sandbox, w, dropOff, collected, window, collection, body, inCollection } = await setup();
    const byRpc = await createShipment(sandbox, w.token, body(dropOff, 'handover-method:collection'));
    const added = await rpc(sandbox, w.token, '/add-shipments-to-collection', { collection_id: collection.id, shipment_ids: [byRpc.id] });
    expect(added.status, added.text).toBe(204);
    const related = await createShipment(sandbox, w.token, body(dropOff, 'handover-method:collection', inCollection));
    expect(related.relationships.collection.data.id).toBe(collection.id);
    const next = await sandbox.request('POST', '/shipments', {
      token: w.token,
      body: body(dropOff, 'handover-method:collection', { meta: { add_to_next_collection: true } }),
    });
    expect(next.status, next.text).toBe(201);
    expect(next.body.data.relationships.collection.data.id).toBe(collection.id);
    const registered = await sandbox.request('POST', '/registered-shipments', {
      token: w.token,
      body: body(collected, undefined, { meta: { collection: { collection_time: window } } }),
    });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.data.relationships.collection.data.id).toBe(collection.id);
  });

  it('refuses an update that makes a parcel in a collection a drop-off one, at the member that did', async () => {
    const { sandbox, w, dropOff, collected, body, inCollection, options } = await setup();
    const inside = await createShipment(sandbox, w.token, body(collected, undefined, inCollection));
    const patch = (data: Json) =>
      sandbox.request('PATCH', `/shipments/${inside.id}`, { token: w.token, body: { data: { type: 'shipments', id: inside.id, ...data } } });
    const byOption = await patch({ relationships: options('handover-method:drop-off') });
    expect(byOption.status, byOption.text).toBe(422);
    expect(firstError(byOption).source).toEqual({ pointer: '/data/relationships/service_options' });
    const byService = await patch({ relationships: { service: { data: { type: 'services', id: dropOff.id } } } });
    expect(byService.status, byService.text).toBe(422);
    expect(firstError(byService).source).toEqual({ pointer: '/data/relationships/service/data/id' });
    const byCode = await sandbox.request('PATCH', `/shipments/${inside.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: inside.id, relationships: { service: { data: null } } }, meta: { service_code: dropOff.attributes.code } },
    });
    expect(byCode.status, byCode.text).toBe(422);
    expect(firstError(byCode).source).toEqual({ pointer: '/meta/service_code' });
    // With the option that has the drop-off service collected, it stays in its collection.
    const both = await patch({ relationships: { service: { data: { type: 'services', id: dropOff.id } }, ...options('handover-method:collection') } });
    expect(both.status, both.text).toBe(200);
    expect(both.body.data.relationships.collection.data.id).toBe(inside.relationships.collection.data.id);
  });
});
