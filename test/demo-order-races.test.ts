import { describe, expect, it } from 'vitest';
import { testSandbox, type Json } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { newShop, world } from './support/shipments.js';

// POST /returns/v1/demo-orders is acknowledged once the order is durable. While it waits for the
// disk, a DELETE of its shop runs (a shop without shipments can go, its demo orders with it); the
// answer must still include the shop the order was made in.

describe('POST /returns/v1/demo-orders while its write waits for the disk', () => {
  it('answers the order with its shop included, though a DELETE removed the shop meanwhile', async () => {
    const gated = gatedPersistence();
    const sandbox = await testSandbox({ persistence: gated.persistence });
    const w = await world(sandbox);
    const nl = w.shopIn('NL');
    const shop: Json = await newShop(sandbox, w);
    const order = {
      data: {
        type: 'demo-orders',
        attributes: {
          recipient_address: { ...nl.attributes.sender_address, first_name: 'Sam', last_name: 'Jansen', email: 'sam@example.com' },
          items: [{ sku: 'LAMP-1', name: 'Lamp', description: 'Desk lamp', quantity: 1, item_price: { amount: 3999, currency: 'EUR' } }],
        },
        relationships: { shop: { data: { type: 'shops', id: shop.id } } },
      },
    };

    const [created, removed] = await gated.race(
      () => sandbox.request('POST', '/returns/v1/demo-orders?include=shop', { token: w.token, body: order }),
      () => sandbox.request('DELETE', `/shops/${shop.id}`, { token: w.token }),
    );
    expect(removed.status, removed.text).toBe(204);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.relationships.shop.data).toEqual({ type: 'shops', id: shop.id });
    expect(created.body.included.map((resource: Json) => `${resource.type}:${resource.id}`)).toEqual([`shops:${shop.id}`]);
  });
});
