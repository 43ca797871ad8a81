/**
 * A list filter (comma separated values) of GET /shipments and GET /returns/v1/returns is matched through a set: its cost is
 * the shipments plus the values, never their product. A tenant may keep 100,000 shipments and a
 * query string holds thousands of values, so the product held the event loop, every tenant's, for
 * seconds. Values looked at are counted (Array.prototype.includes), never timed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testSandbox, type Json } from './support/app.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';
import { demoOrder, returnBody, returnsWorld } from './returns/support.js';

/** How many array elements `Array.prototype.includes` may have looked at while `run` runs. */
async function elementsSearched<T>(run: () => Promise<T>): Promise<{ result: T; searched: number }> {
  const original = Array.prototype.includes;
  let searched = 0;
  Array.prototype.includes = function (this: unknown[], ...args: [unknown, number?]) {
    searched += this.length;
    return original.apply(this, args);
  };
  try {
    return { result: await run(), searched };
  } finally {
    Array.prototype.includes = original;
  }
}

describe('GET /shipments with list filters of thousands of values', () => {
  it('looks at each shipment and each value a bounded number of times', async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const shop = w.shopIn('NL');
    const made: string[] = [];
    for (let i = 0; i < 20; i++) made.push((await createShipment(sandbox, w.token, shipmentBody({ shop, attributes: { tags: ['gift'] } }))).id);
    const tags = [...Array.from({ length: 3000 }, (_, i) => `tag-${i}`), 'gift'].join(',');
    const shops = [...Array.from({ length: 300 }, () => randomUUID()), shop.id].join(',');
    const { result: answer, searched } = await elementsSearched(() =>
      sandbox.get(`/shipments?page[size]=100&filter[tags]=${tags}&filter[shop]=${shops}`, w.token),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.map((row: Json) => row.id).sort()).toEqual([...made].sort());
    // 20 shipments against 3,301 values: their product is 66,020; a pass over each is about 3,300.
    expect(searched).toBeLessThan(10_000);
  });
});

describe('GET /returns/v1/returns with list filters of thousands of values', () => {
  it('looks at each return and each value a bounded number of times', async () => {
    const sandbox = await testSandbox();
    const w = await returnsWorld(sandbox);
    const shop = w.shopIn('NL');
    const method = await w.method(shop.id, 'Send it yourself');
    const order = await demoOrder(sandbox, w.token, shop, 20);
    const items = [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'changed-mind' } }];
    const made: string[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await sandbox.request('POST', '/returns/v1/returns', { token: w.token, body: returnBody({ shop, order, method, items }) });
      expect(answer.status, answer.text).toBe(201);
      made.push(answer.body.data.id);
    }
    const shops = [...Array.from({ length: 2000 }, () => randomUUID()), shop.id].join(',');
    const { result: answer, searched } = await elementsSearched(() => sandbox.get(`/returns/v1/returns?page[size]=100&filter[shop]=${shops}`, w.token));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.map((row: Json) => row.id).sort()).toEqual([...made].sort());
    // 10 returns against 2,001 shops: their product is 20,010; a pass over each is about 2,000.
    expect(searched).toBeLessThan(8_000);
  });
});
