import { describe, expect, it } from 'vitest';
import { testSandbox, type Json } from '../support/app.js';
import { gatedPersistence } from '../support/gated.js';
import { demoOrder, returnBody, returnsWorld } from './support.js';

// POST /returns/v1/returns is acknowledged once the return is durable. While it waits for the disk,
// a DELETE of the tag it was made with runs (returns lose a deleted tag); the answer must still
// show the return as its own write left it: tagged, with that tag included.

describe('POST /returns/v1/returns while its write waits for the disk', () => {
  it('answers the return with its tag included, though a DELETE removed the tag meanwhile', async () => {
    const gated = gatedPersistence();
    const sandbox = await testSandbox({ persistence: gated.persistence });
    const w = await returnsWorld(sandbox);
    const shop = w.shopIn('NL');
    const method = await w.method(shop.id, 'Send it yourself');
    const order = await demoOrder(sandbox, w.token, shop);
    const tag: Json = (await sandbox.get(`/returns/v1/tags?filter[shop]=${shop.id}`, w.token)).body.data[0];
    const items = [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'changed-mind' } }];

    const [created, removed] = await gated.race(
      () =>
        sandbox.request('POST', '/returns/v1/returns?include=tags', {
          token: w.token,
          body: returnBody({ shop, order, method, items, tags: [tag.id] }),
        }),
      () => sandbox.request('DELETE', `/returns/v1/tags/${tag.id}`, { token: w.token }),
    );
    expect(removed.status, removed.text).toBe(204);
    expect(created.status, created.text).toBe(201);
    const { data, included } = created.body;
    expect(data.relationships.tags.data).toEqual({ type: 'return-tags', id: tag.id });
    expect(included.map((resource: Json) => `${resource.type}:${resource.id}`)).toEqual([`return-tags:${tag.id}`]);
  });
});
