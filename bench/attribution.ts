/**
 * Where the time of one request goes, in-process (no sockets): the sandbox app as `createApp`
 * builds it, next to the same endpoints with the request-log capture middleware left out, and
 * with only the endpoint routes (`mount`), plus token verification (jose) on its own. Each
 * figure is the CPU time of the whole process per request, over thousands of sequential
 * requests; differences between the variants are what a layer costs. Also weighs what the
 * request log holds once full (500 entries) and what the idempotency records hold.
 *
 *   npm run bench:attribution [-- --requests 3000]   (node --expose-gc --import tsx bench/attribution.ts)
 *
 * The variants rebuild createApp's middleware chain from the exported pieces (see src/app.ts);
 * if createApp changes its chain, update `variant()` below to match.
 */
import { parseArgs } from 'node:util';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { generateState } from '../src/fixtures/generate.js';
import { allEndpoints, createApp, createServices } from '../src/app.js';
import { generateKeys } from '../src/auth/keys.js';
import { verifyToken } from '../src/auth/tokens.js';
import { createClock } from '../src/clock.js';
import { parseConfig } from '../src/config.js';
import { mount } from '../src/http/mount.js';
import { captureRequests, requestLog } from '../src/http/request-log.js';
import type { AppEnv } from '../src/http/env.js';
import { ApiError } from '../src/jsonapi/errors.js';
import { createLogger } from '../src/logger.js';
import type { Services } from '../src/http/services.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { openStore } from '../src/store/store.js';
import { BENCH_CLIENT, dutchShop, shipmentBody, type ShopResource } from './shipment-body.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '3000' } } });
const REQUESTS = Number(values.requests);
const ORIGIN = 'http://127.0.0.1:8080';

type Fetch = (request: Request) => Response | Promise<Response>;

/** createApp's chain (src/app.ts) with chosen layers left out. */
function variant(services: Services, layers: { log: boolean; capture: boolean; corsAndLimit: boolean }): Fetch {
  const app = new Hono<AppEnv>();
  if (layers.log && services.logger) app.use('*', requestLog(services.logger));
  if (layers.capture) app.use('*', captureRequests(services));
  if (layers.corsAndLimit) {
    app.use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'], maxAge: 600 }));
    app.use(
      '*',
      bodyLimit({
        maxSize: services.config.bodyLimit,
        onError: () => {
          throw ApiError.of('tooLarge', 'too large');
        },
      }),
    );
  }
  mount(app, allEndpoints(), services);
  app.onError((error) => {
    if (error instanceof ApiError) return new Response(JSON.stringify({ errors: error.errors }), { status: error.status });
    throw error;
  });
  return app.fetch;
}

async function call(fetch: Fetch, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new Request(ORIGIN + path, init));
}

/** Process CPU (all threads) and wall time per request over `n` sequential requests. */
async function time(name: string, n: number, once: (i: number) => Promise<unknown>): Promise<{ name: string; cpu_us: number; wall_us: number }> {
  for (let i = 0; i < Math.min(300, n); i++) await once(i);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < n; i++) await once(i);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { name, cpu_us: Math.round((used.user + used.system) / n), wall_us: Math.round((wall * 1000) / n) };
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10;
}

async function main(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => generateState(1, now) });
  const config = parseConfig({}, { logLevel: 'warn', rateLimit: '1000000000', quotaShipments: '1000000000' }, true);
  const services = createServices({ store, clock: createClock(), keys: await generateKeys(), config, logger: createLogger('warn', 'json') });
  const full = createApp(services).fetch;

  const token = (
    (await (
      await call(full, '/access-token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: BENCH_CLIENT.id, client_secret: BENCH_CLIENT.secret }),
      })
    ).json()) as { access_token: string }
  ).access_token;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/vnd.api+json' };
  const shop = dutchShop(((await (await call(full, '/shops', { headers })).json()) as { data: ShopResource[] }).data);
  const body = JSON.stringify(shipmentBody(shop));
  const post = (fetch: Fetch, key: string) =>
    call(fetch, '/shipments', { method: 'POST', headers: { ...headers, 'content-type': 'application/vnd.api+json', 'idempotency-key': key }, body });
  let id = '';
  for (let i = 0; i < 200; i++) id = ((await (await post(full, `seed-${i}`)).json()) as { data: { id: string } }).data.id;

  const variants: [string, Fetch][] = [
    ['createApp (as served, LOG_LEVEL=warn)', full],
    ['without captureRequests (request log)', variant(services, { log: true, capture: false, corsAndLimit: true })],
    ['mount only (no log, capture, cors, body limit)', variant(services, { log: false, capture: false, corsAndLimit: false })],
  ];
  const rows: { name: string; cpu_us: number; wall_us: number }[] = [];
  for (const [name, fetch] of variants) {
    rows.push(await time(`GET /shipments/{id}          ${name}`, REQUESTS, async () => (await call(fetch, `/shipments/${id}`, { headers })).text()));
  }
  for (const [name, fetch] of variants) {
    rows.push(
      await time(`GET /shipments?page[size]=30 ${name}`, Math.ceil(REQUESTS / 5), async () =>
        (await call(fetch, '/shipments?page[size]=30', { headers })).text(),
      ),
    );
  }
  let key = 0;
  for (const [name, fetch] of variants) {
    rows.push(await time(`POST /shipments (memory)     ${name}`, Math.ceil(REQUESTS / 3), async () => (await post(fetch, `k-${process.pid}-${key++}`)).text()));
  }
  const keys = services.keys;
  const clock = services.clock;
  rows.push(await time('verifyToken (jose ES256), sequential', REQUESTS, () => verifyToken(keys, clock, token)));

  const width = Math.max(...rows.map((row) => row.name.length));
  process.stdout.write(`in-process, sequential, ${REQUESTS} requests per GET variant; process CPU (all threads) and wall time per request\n`);
  for (const row of rows)
    process.stdout.write(`${row.name.padEnd(width)}  ${String(row.cpu_us).padStart(6)} us CPU  ${String(row.wall_us).padStart(6)} us wall\n`);

  // Memory held by the request log once full, and by idempotency records.
  services.requestLog.clear();
  const before = heapMb();
  for (let i = 0; i < 500; i++) await (await call(full, '/shipments?page[size]=30', { headers })).text();
  const afterLists = heapMb();
  services.requestLog.clear();
  const cleared = heapMb();
  const records = store.all('idempotencyKeys');
  const recordBytes = records.reduce(
    (sum, record) => sum + ('body' in record ? record.body : 'body_gzip' in record ? record.body_gzip : record.body_deflated).length,
    0,
  );
  process.stdout.write(
    `request log: 500 captured GET /shipments?page[size]=30 hold ~${Math.round((afterLists - cleared) * 10) / 10} MB of heap (heap ${before} -> ${afterLists} MB, ${cleared} MB cleared)${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for exact figures)'}\n`,
  );
  process.stdout.write(
    `idempotency records: ${records.length} rows holding ${Math.round(recordBytes / 1024)} KB of (packed) response bodies (${Math.round(recordBytes / Math.max(records.length, 1))} bytes each)\n`,
  );
  await store.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
