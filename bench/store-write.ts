/**
 * In-process cost of `POST /shipments` on a file-backed store (journal plus snapshot in a temporary
 * directory), the write path the bench's POST target runs through, at a fixed number of requests
 * in flight: requests per second, and CPU per request of the main thread and of the other threads
 * (the libuv pool runs fdatasync), read from /proc so that other processes on the machine do not
 * count. Usage: npx tsx bench/store-write.ts [requests] [in-flight]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cpuPerRequest, threadCpu } from './lib/proc.js';
import { createApp, createServices } from '../src/app.js';
import { generateKeys } from '../src/auth/keys.js';
import { createClock } from '../src/clock.js';
import { parseConfig } from '../src/config.js';
import { generateState } from '../src/fixtures/generate.js';
import { filePersistence } from '../src/store/persistence.js';
import { openStore } from '../src/store/store.js';
import { shipmentBody, type ShopResource } from './shipment-body.js';

const count = Number(process.argv[2] ?? 5000);
const inFlight = Number(process.argv[3] ?? 10);
const dir = await mkdtemp(join(tmpdir(), 'parcel-sandbox-store-write-'));
const now = Math.floor(Date.now() / 1000);
const store = await openStore({ persistence: filePersistence(join(dir, 'sandbox.json')), seed: 1, initial: () => generateState(1, now) });
const services = createServices({
  store,
  clock: createClock(),
  keys: await generateKeys(),
  config: parseConfig({}, { logLevel: 'warn', rateLimit: '1000000000', quotaShipments: '1000000000' }, true),
});
const app = createApp(services);
const call = async (path: string, init: RequestInit = {}): Promise<Response> => app.fetch(new Request(`http://127.0.0.1:8080${path}`, init));
const token = (
  (await (
    await call('/access-token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
    })
  ).json()) as { access_token: string }
).access_token;
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' };
const shops = (await (await call('/shops', { headers })).json()) as { data: (ShopResource & { attributes: { sender_address: { country_code: string } } })[] };
const body = JSON.stringify(shipmentBody(shops.data.find((shop) => shop.attributes.sender_address.country_code === 'NL')!));

/** Sends `total` creates, `inFlight` at a time; returns the wall time, the CPU per request and the statuses seen. */
async function run(total: number, prefix: string) {
  let next = 0;
  const statuses = new Map<number, number>();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const answer = await call('/shipments', { method: 'POST', headers: { ...headers, 'idempotency-key': `${prefix}${i}` }, body });
      await answer.arrayBuffer();
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
  };
  const cpu = await threadCpu(process.pid);
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const wall = performance.now() - started;
  return { wall, cpu: cpuPerRequest(process.pid, cpu, await threadCpu(process.pid), total), statuses };
}

await run(Math.min(1000, count), 'warm-');
const { wall, cpu, statuses } = await run(count, 'run-');
console.log(
  `POST /shipments, file store, ${inFlight} in flight: ${Math.round((count * 1000) / wall)} req/s; CPU per request: ` +
    `main thread ${cpu.main_us} us, other threads ${cpu.other_threads_us} us; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
);
// The store alone: transactions that write what one create writes (a shipment, its status and an
// idempotency record, the id counter), the same number in flight, without the HTTP and domain work.
const shipment = store.all('shipments').at(-1)!;
const status = store.find('shipmentStatuses', 'shipment_id', shipment.id)[0]!;
const record = store.all('idempotencyKeys').at(-1)!;
let written = 0;
const writer = async () => {
  while (written < count) {
    written++;
    await store.transact((tx) => {
      const id = tx.newId();
      tx.insert('shipments', { ...shipment, id });
      tx.insert('shipmentStatuses', { ...status, id: tx.newId(), shipment_id: id });
      tx.insert('idempotencyKeys', { ...record, id: `store-${id}` });
    });
  }
};
const before = await threadCpu(process.pid);
const started = performance.now();
await Promise.all(Array.from({ length: inFlight }, writer));
const storeWall = performance.now() - started;
const storeCpu = cpuPerRequest(process.pid, before, await threadCpu(process.pid), count);
console.log(
  `store.transact of the same rows, ${inFlight} in flight: ${Math.round((count * 1000) / storeWall)} tx/s; CPU per transaction: ` +
    `main thread ${storeCpu.main_us} us, other threads ${storeCpu.other_threads_us} us`,
);
await store.close();
await rm(dir, { recursive: true, force: true });
