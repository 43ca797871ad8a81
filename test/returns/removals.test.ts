import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json } from '../support/app.js';
import { returnBody, returnsWorld } from './support.js';

describe('returns data when shops and tenants go', () => {
  it('a shop with returns stays; a tenant reset removes its returns and restores the seeded configuration', async () => {
    const sandbox = await testSandbox();
    const w = await returnsWorld(sandbox);
    const shop = w.shopIn('DE');
    const order = (await w.orders(shop.id))[0];
    const method = (await w.methods(shop.id)).find((m: Json) => m.attributes.return_type === 'self-shipment');
    const created = await sandbox.request('POST', '/returns/v1/returns', {
      token: w.token,
      body: returnBody({ shop, order, method, items: [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'changed-mind' } }] }),
    });
    expect(created.status).toBe(201);
    await sandbox.request('DELETE', `/returns/v1/return-methods/${(await w.methods(shop.id))[0].id}`, { token: w.token });

    const refused = await sandbox.request('DELETE', `/shops/${shop.id}`, { token: w.token });
    expect(refused.status).toBe(422);
    expect(firstError(refused).detail).toContain('return');

    const reset = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: 'sandbox-client' }, headers: { 'content-type': 'application/json' } });
    expect(reset.status).toBe(200);
    expect(reset.body.removed).toMatchObject({ returns: 1 });
    expect(reset.body.restored).toMatchObject({ return_methods: 7, demo_orders: 8 });
    expect((await sandbox.get(`/returns/v1/returns/${created.body.data.id}`, w.token)).status).toBe(404);
    expect(await w.methods(shop.id)).toHaveLength(3);
    expect((await sandbox.get('/returns/v1/returns', await sandbox.token('other-client'))).status).toBe(200);
  });

  it('a shop without returns goes with its returns configuration', async () => {
    const sandbox = await testSandbox();
    const w = await returnsWorld(sandbox);
    const shop = w.shopIn('DE');
    const methods = await w.methods(shop.id);
    expect((await sandbox.request('DELETE', `/shops/${shop.id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.get(`/returns/v1/return-methods/${methods[0].id}`, w.token)).status).toBe(404);
    expect(sandbox.store.all('demoOrders').filter((row) => row.shop_id === shop.id)).toEqual([]);
  });
});
