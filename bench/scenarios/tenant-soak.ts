// Memory with many short-lived tenants: 1,000 tenants with 20 shipments each, created and expired in rounds (issue 15).
import { copyData } from '../lib/data.js';
import { memory, SETTLE_S, settledRss } from '../lib/proc.js';
import { log } from '../lib/processes.js';
import { startSandbox, type Server } from '../lib/server.js';
import { shipmentBody, type ShopResource } from '../shipment-body.js';
import { api } from './endpoints.js';

export interface TenantSoak {
  tenants: number;
  shipments_per_tenant: number;
  rounds: number;
  seconds: number;
  /**
   * RSS after the warm-up round (one round's tenants made, used and expired) and SETTLE_S seconds
   * of idleness: where the soak starts.
   */
  rss_start_mb: number;
  /** RSS after every round, each measured as soon as that round's tenants are gone (still under load). */
  rss_after_rounds_mb: number[];
  /** RSS the moment the last round's tenants are gone, before any idleness. */
  rss_busy_end_mb: number;
  /** Idle seconds before the start reading and before the end reading. */
  settle_seconds: number;
  /** RSS every few seconds of the idle settle after the last round. */
  rss_settle_mb: number[];
  /** RSS at the end of that settle: where the soak ends. */
  rss_end_mb: number;
  rss_peak_mb: number;
  /** rss_end_mb over rss_start_mb. */
  rss_ratio: number;
  /** rss_busy_end_mb over rss_start_mb: the heap V8 keeps while requests keep coming. */
  rss_busy_ratio: number;
  /** RSS right after start, before any tenant: for reference (the warm-up loads code and fills caches). */
  rss_idle_mb: number;
  /** Tenants the sandbox still lists at the end: 0 when every expired tenant was removed. */
  tenants_left: number;
}

const TENANTS = 1000;
const SHIPMENTS = 20;
const ROUNDS = 10;
const TTL_S = 60;
/** Tenants worked on at once, as parallel CI jobs would. */
const PARALLEL = 10;

const json = { 'content-type': 'application/json' };

/** One tenant's life: made with a ttl, a token, its shop, 20 shipments. */
async function useTenant(server: Server): Promise<void> {
  const tenant = await api(server, '/_sandbox/tenants', { method: 'POST', headers: json, body: JSON.stringify({ ttl: TTL_S }) });
  const { access_token: token } = await api(server, '/access-token', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: tenant.client_id, client_secret: tenant.client_secret, scope: '*' }),
  });
  const headers = { authorization: `Bearer ${token as string}`, accept: 'application/vnd.api+json' };
  const shop = (await api(server, `/shops/${tenant.shop_id as string}`, { headers })).data as ShopResource;
  const body = JSON.stringify(shipmentBody(shop));
  for (let i = 0; i < SHIPMENTS; i += 1) {
    await api(server, '/shipments', { method: 'POST', headers: { ...headers, 'content-type': 'application/vnd.api+json' }, body });
  }
}

/** Makes and uses `count` tenants, PARALLEL at a time, then moves the clock past their ttl so they expire. */
async function round(server: Server, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      await useTenant(server);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  await api(server, '/_sandbox/clock', { method: 'POST', headers: json, body: JSON.stringify({ advance: TTL_S + 1 }) });
}

async function tenantsLeft(server: Server): Promise<number> {
  return ((await api(server, '/_sandbox/tenants')).data as unknown[]).length;
}

export async function tenantSoak(dir: string, pristine: string): Promise<TenantSoak> {
  const server = await startSandbox('sandbox (tenant soak)', await copyData(pristine, dir, 'tenant-soak'));
  try {
    const began = performance.now();
    const idle = await memory(server.pid);
    const perRound = TENANTS / ROUNDS;
    log(`tenant soak: ${TENANTS} tenants x ${SHIPMENTS} shipments in ${ROUNDS} rounds of ${perRound}, each round expired by the clock (plus a warm-up round)`);
    await round(server, perRound);
    const start = (await settledRss(server.pid)).at(-1)!;
    const after: number[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      await round(server, perRound);
      after.push((await memory(server.pid)).rss_mb);
    }
    const busyEnd = after.at(-1)!;
    const settled = await settledRss(server.pid);
    const end = await memory(server.pid);
    const left = await tenantsLeft(server);
    return {
      tenants: TENANTS,
      shipments_per_tenant: SHIPMENTS,
      rounds: ROUNDS,
      seconds: Math.round((performance.now() - began) / 100) / 10,
      rss_idle_mb: idle.rss_mb,
      rss_start_mb: start,
      rss_after_rounds_mb: after,
      settle_seconds: SETTLE_S,
      rss_busy_end_mb: busyEnd,
      rss_settle_mb: settled,
      rss_end_mb: settled.at(-1)!,
      rss_peak_mb: end.hwm_mb,
      rss_ratio: Math.round((settled.at(-1)! / start) * 100) / 100,
      rss_busy_ratio: Math.round((busyEnd / start) * 100) / 100,
      tenants_left: left,
    };
  } finally {
    await server.stop(false);
  }
}
