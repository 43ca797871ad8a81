// Demo order ids are whole numbers, as production's demo_order_id is, and with a postal code they
// are all the consumer's order look-up needs: a new one tells nothing of other tenants' orders
// (it used to be one more than the highest id of any tenant) and cannot be guessed from another.
import { describe, expect, it } from 'vitest';
import { tenantWithToken, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { demoOrder } from './returns/support.js';

/** A new demo order in the shop, by its id: what the consumer's look-up asks for. */
async function order(sandbox: TestSandbox, token: string, shopId: string): Promise<string> {
  const shop = (await sandbox.get(`/shops/${shopId}`, token)).body.data;
  return (await demoOrder(sandbox, token, shop)).id as string;
}

describe('new demo order ids', () => {
  it("are unique whole numbers that do not follow the other tenants' orders, while the seeded orders keep theirs", async () => {
    const sandbox = await testSandbox();
    const seeded = sandbox.store.all('demoOrders').map((row) => row.id);
    const a = await tenantWithToken(sandbox, { name: 'shop a' });
    const b = await tenantWithToken(sandbox, { name: 'shop b' });
    const first = await order(sandbox, a.token, a.made.body.shop_id);
    const others = [];
    for (let i = 0; i < 3; i++) others.push(await order(sandbox, b.token, b.made.body.shop_id));
    const second = await order(sandbox, a.token, a.made.body.shop_id);

    const made = [first, ...others, second];
    for (const id of made) {
      expect(id).toMatch(/^[1-9]\d*$/);
      expect(Number(id)).toBeLessThanOrEqual(2147483647);
    }
    expect(new Set([...seeded, ...made]).size).toBe(seeded.length + made.length);
    // Sequential ids gave the second order the number after tenant b's last, telling a that b made three.
    const highest = Math.max(...[...seeded, first, ...others].map(Number));
    expect(second).not.toBe(String(highest + 1));
    expect(Number(second) - Number(first)).not.toBe(others.length + 1);
    expect(
      sandbox.store
        .all('demoOrders')
        .map((row: Json) => row.id)
        .slice(0, seeded.length),
    ).toEqual(seeded);
    // The consumer finds the order by its id and postal code, as before.
    const found = await sandbox.request('GET', `/orders/v1/orders/${second}?shop_id=${a.made.body.shop_id}&postal_code=1011AB`, { token: a.token });
    expect(found.status, found.text).toBe(200);
  }, 60000);
});
