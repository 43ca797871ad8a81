/**
 * In-process timing of single requests (no sockets): where the CPU of one request goes.
 * Usage: npx tsx bench/micro.ts [requests]
 */
import { createApp, createServices } from '../src/app.js';
import { generateKeys } from '../src/auth/keys.js';
import { createClock } from '../src/clock.js';
import { parseConfig } from '../src/config.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { openStore } from '../src/store/store.js';
import { generateState } from '../src/fixtures/generate.js';

const count = Number(process.argv[2] ?? 20000);
const now = Math.floor(Date.now() / 1000);
const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => generateState(1, now) });
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
const shops = (await (await call('/shops', { headers })).json()) as { data: { id: string; attributes: Record<string, { country_code: string }> }[] };
const shop = shops.data.find((s) => s.attributes.sender_address!.country_code === 'NL')!;
const body = (n: number) =>
  JSON.stringify({
    data: {
      type: 'shipments',
      attributes: {
        recipient_address: { first_name: 'A', last_name: 'B', street_1: 'Kalverstraat', city: 'Amsterdam', country_code: 'NL' },
        sender_address: shop.attributes.sender_address,
        return_address: shop.attributes.return_address,
        physical_properties: { weight: 1000 + n },
      },
      relationships: { shop: { data: { type: 'shops', id: shop.id } } },
    },
    meta: { service_code: 'postnl-parcel-standard' },
  });
const created = (await (await call('/shipments', { method: 'POST', headers, body: body(0) })).json()) as { data: { id: string } };

async function time(name: string, make: (i: number) => Promise<Response>) {
  for (let i = 0; i < 500; i++) await (await make(i)).arrayBuffer();
  const started = performance.now();
  for (let i = 0; i < count; i++) await (await make(i)).arrayBuffer();
  console.log(`${name.padEnd(34)} ${(((performance.now() - started) * 1000) / count).toFixed(0)} us/request`);
}

await time('GET /health', () => call('/health'));
await time('GET /carriers/{id}', () => call(`/carriers/${store.all('carriers')[0]!.id}`, { headers }));
await time('GET /shipments/{id}', () => call(`/shipments/${created.data.id}`, { headers }));
await time('POST /shipments', (i) => call('/shipments', { method: 'POST', headers: { ...headers, 'idempotency-key': `k${i}` }, body: body(i) }));
