import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json } from './support/app.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/** PATCH and DELETE /collections/{id}: production's writable attributes, and no change once the window began. */

const FROM = TEST_NOW + 86400;

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  const shop = w.shopIn('NL');
  const created = await sandbox.request('POST', '/collections', {
    token: w.token,
    body: {
      data: {
        type: 'collections',
        attributes: { description: 'Tomorrow afternoon', address: shop.attributes.sender_address, collection_time: { from: FROM, to: FROM + 7200 } },
        relationships: { shop: { data: { type: 'shops', id: shop.id } } },
      },
    },
  });
  expect(created.status, created.text).toBe(201);
  const collection: Json = created.body.data;
  const patch = (attributes: Json, extra: Json = {}, token = w.token) =>
    sandbox.request('PATCH', `/collections/${collection.id}`, { token, body: { data: { type: 'collections', id: collection.id, attributes, ...extra } } });
  const read = async () => (await sandbox.get(`/collections/${collection.id}`, w.token)).body.data;
  return { sandbox, w, shop, collection, patch, read };
}

describe('PATCH /collections/{collection_id}', () => {
  it('changes the description and answers the whole collection; null removes it', async () => {
    const { collection, patch, read } = await setup();
    const answer = await patch({ description: 'Ring twice' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toEqual({ ...collection, attributes: { ...collection.attributes, description: 'Ring twice' } });
    expect((await read()).attributes.description).toBe('Ring twice');
    expect((await patch({ description: null })).status).toBe(200);
    expect((await read()).attributes).not.toHaveProperty('description');
  });

  it('ignores read-only attributes and relationships, as when a client sends the resource back', async () => {
    const { collection, patch, read } = await setup();
    const changed = {
      ...collection.attributes,
      description: 'Sent back whole',
      address: { ...collection.attributes.address, city: 'Elsewhere' },
      collection_time: { from: FROM + 3600, to: FROM + 9000 },
      created_at: 1,
      tracking_code: 'MADE-UP',
      register: false,
    };
    const answer = await patch(changed, { relationships: { shop: { data: { type: 'shops', id: '00000000-0000-4000-8000-000000000000' } } } });
    expect(answer.status, answer.text).toBe(200);
    const after = await read();
    expect(after.attributes).toEqual({ ...collection.attributes, description: 'Sent back whole' });
    expect(after.relationships).toEqual(collection.relationships);
  });

  it('validates like POST: closed attributes, description length, register, type and id; nothing changes', async () => {
    const { sandbox, collection, patch } = await setup();
    const before = sandbox.store.snapshot();
    const cases: [Json, Json, number, string, string | undefined][] = [
      [{ colour: 'red' }, {}, 400, '10003', '/data/attributes/colour'],
      [{ description: 'x'.repeat(256) }, {}, 400, '10003', '/data/attributes/description'],
      [{ description: 42 }, {}, 400, '10003', '/data/attributes/description'],
      [{ register: true }, {}, 422, '10008', '/data/attributes/register'],
      [{ description: 'wrong type' }, { type: 'shipments' }, 409, '10007', '/data/type'],
      [{ description: 'wrong id' }, { id: '00000000-0000-4000-8000-000000000000' }, 409, '10007', '/data/id'],
    ];
    for (const [attributes, extra, status, code, pointer] of cases) {
      const answer = await patch(attributes, extra);
      expect(answer.status, JSON.stringify(attributes)).toBe(status);
      expect(firstError(answer), JSON.stringify(attributes)).toMatchObject({ status: String(status), code, source: { pointer } });
    }
    expect((await sandbox.request('PATCH', `/collections/${collection.id}`, { token: await sandbox.token(), body: '{' })).status).toBe(400);
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});

describe('DELETE /collections/{collection_id}', () => {
  it('deletes the collection; its shipments stay without the collection relationship', async () => {
    const { sandbox, w, shop, collection } = await setup();
    const shipment = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop, relationships: { collection: { data: { type: 'collections', id: collection.id } } } }),
    );
    expect(shipment.relationships.collection.data.id).toBe(collection.id);
    const answer = await sandbox.request('DELETE', `/collections/${collection.id}`, { token: w.token });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(firstError(await sandbox.get(`/collections/${collection.id}`, w.token))).toMatchObject({ code: '10002' });
    const after = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data;
    expect(after.relationships).not.toHaveProperty('collection');
    expect(after.attributes.updated_at).toBe(sandbox.clock.now());
    expect((await sandbox.get('/collections?page[size]=100', w.token)).body.data.map((c: Json) => c.id)).not.toContain(collection.id);
  });
});

describe('PATCH and DELETE of a collection', () => {
  it('answer 423 (10005) once the collection window has begun, and change nothing', async () => {
    const { sandbox, collection, patch } = await setup();
    expect((await patch({ description: 'Still in time' })).status).toBe(200);
    await sandbox.advance(FROM - sandbox.clock.now());
    // A day later: the first token has expired.
    const token = await sandbox.token();
    const before = sandbox.store.snapshot();
    const changed = await patch({ description: 'Too late' }, {}, token);
    expect(changed.status).toBe(423);
    expect(firstError(changed)).toMatchObject({ status: '423', code: '10005', detail: expect.stringMatching(/window began/) });
    const deleted = await sandbox.request('DELETE', `/collections/${collection.id}`, { token });
    expect(firstError(deleted)).toMatchObject({ status: '423', code: '10005', detail: expect.stringMatching(/can no longer be deleted/) });
    expect(sandbox.store.snapshot()).toEqual(before);
  });

  it("answer another tenant's collection and an unknown id with 404 and change nothing", async () => {
    const { sandbox, collection, patch } = await setup();
    const other = await sandbox.token('other-client');
    const before = sandbox.store.snapshot();
    expect(firstError(await patch({ description: 'Not mine' }, {}, other))).toMatchObject({ status: '404', code: '10002' });
    expect(firstError(await sandbox.request('DELETE', `/collections/${collection.id}`, { token: other }))).toMatchObject({ status: '404', code: '10002' });
    expect(firstError(await sandbox.request('DELETE', '/collections/00000000-0000-4000-8000-000000000000', { token: other }))).toMatchObject({ code: '10002' });
    expect((await sandbox.request('DELETE', `/collections/${collection.id}`)).status).toBe(401);
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});
