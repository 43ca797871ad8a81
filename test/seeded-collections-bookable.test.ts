import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/server/library.js';

/*
 * The seed's upcoming collections are placed on the weekdays after the clock at start (or reset).
 * Carriers close bookings the evening before (PostNL at 22:00 UTC, Royal Mail at 23:00): a sandbox
 * started late in the evening must not seed one for tomorrow that registering then refuses.
 */

const MONDAY = Date.UTC(2026, 10, 30) / 1000; // 2026-11-30, a Monday
const TIMES = ['21:59', '22:30', '23:30'];

describe('the seeded upcoming collections', () => {
  it('can each be registered, whatever the day of the week and the time of day the sandbox is seeded', async () => {
    const refused: string[] = [];
    const weekdays = new Set<number>();
    for (let day = 0; day < 7; day++) {
      for (const time of TIMES) {
        const now = MONDAY + day * 86400 + Number(time.slice(0, 2)) * 3600 + Number(time.slice(3)) * 60;
        weekdays.add(new Date(now * 1000).getUTCDay());
        const sandbox = await createSandbox({ now });
        try {
          // sandbox-client's organization has the Dutch (PostNL) and German (DPD) shops, other-client's the British one (Royal Mail).
          for (const client of ['sandbox-client', 'other-client']) {
            const headers = { authorization: `Bearer ${await sandbox.token(client)}` };
            const list = (await (await sandbox.request('/collections?page[size]=100', { headers })).json()) as {
              data: { id: string; attributes: { description: string } }[];
            };
            expect(list.data.length, `${client} at ${new Date(now * 1000).toISOString()}`).toBe(client === 'sandbox-client' ? 10 : 5);
            for (const collection of list.data) {
              const answer = await sandbox.request(`/collections/${collection.id}`, {
                method: 'PATCH',
                headers: { ...headers, 'content-type': 'application/vnd.api+json' },
                body: JSON.stringify({ data: { type: 'collections', id: collection.id, attributes: { register: true } } }),
              });
              if (answer.status !== 200)
                refused.push(`${new Date(now * 1000).toISOString()} ${collection.attributes.description}: ${answer.status} ${await answer.text()}`);
            }
          }
        } finally {
          await sandbox.close();
        }
      }
    }
    expect(weekdays.size).toBe(7);
    expect(refused).toEqual([]);
  }, 60000);
});
