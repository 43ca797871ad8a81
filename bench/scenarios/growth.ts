// POST /shipments (and the first list page) with N shipments stored, the sizes in turns: a write should cost the same whatever the size of the data.
import { readdir, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { copyData, seedFile } from '../lib/data.js';
import { measure, type Measured } from '../lib/measure.js';
import { GROWTH_DURATION, MB } from '../lib/options.js';
import { memory } from '../lib/proc.js';
import { log } from '../lib/processes.js';
import { startSandbox } from '../lib/server.js';
import { endpoints, prepare } from './endpoints.js';

export interface GrowthPoint {
  shipments: number;
  startup_ms: number;
  /** POST /shipments, its rounds as one run (see `merged`). */
  create: Measured;
  /** Each round of POST /shipments. */
  creates: Measured[];
  list: Measured;
  rss_mb: number;
  hwm_mb: number;
  data_file_mb: number;
  /** Journal compactions (snapshot rewrites) started during the measured POST run. */
  compactions: number;
}

/** The highest journal segment number beside `file` (a new segment starts at each compaction). */
async function lastSegment(file: string): Promise<number> {
  const dir = resolve(file, '..');
  const prefix = `${file.slice(dir.length + 1)}.journal-`;
  const numbers = (await readdir(dir)).filter((name) => name.startsWith(prefix)).map((name) => Number.parseInt(name.slice(prefix.length), 10));
  return Math.max(0, ...numbers);
}

/**
 * Rounds of POST /shipments per size, taken in turns (1,000, 100,000, 1,000, 100,000), each on a
 * fresh sandbox started from the seeded file. One run per size, one after the other, compared
 * figures taken a minute apart, and this VM's speed moves that much in a minute: the last full
 * run measured 100,000 stored at 60% of the machine's best speed and 1,000 at 89%, and called
 * that x1.66 of CPU per request. In-process, in turns (3 pairs of 2 rounds of 8,000 creates on
 * a file store, a loaded machine), 1,000 stored cost 752+213 us of CPU per create and 100,000
 * cost 767+224 us (x1.03).
 */
const GROWTH_ROUNDS = 2;

/** One round: a fresh sandbox on a copy of the seeded file; the list first on the first round (so it sees exactly that many). */
async function growthRound(dir: string, seeded: string, shipments: number, round: number, seconds: number) {
  const file = await copyData(seeded, dir, `growth-${shipments}-round-${round}`);
  const server = await startSandbox(`sandbox (${shipments} shipments, round ${round + 1})`, file);
  try {
    const prepared = await prepare(server);
    if (prepared.total !== undefined && prepared.total < shipments) log(`  warning: the bench client sees ${prepared.total} of ${shipments} shipments`);
    const all = endpoints(prepared);
    const list = round === 0 ? await measure(server, all.list) : undefined;
    let segmentBefore = 0;
    const create = await measure(server, all.create, seconds, { before: async () => void (segmentBefore = await lastSegment(file)) });
    const compactions = Math.max(0, (await lastSegment(file)) - segmentBefore);
    const mem = await memory(server.pid);
    return { startupMs: server.startupMs, list, create, compactions, mem };
  } finally {
    // The data is thrown away: no need to wait for the snapshot of a large store to be written.
    await server.stop(false);
    await rm(resolve(file, '..'), { recursive: true, force: true });
  }
}

/** The rounds of one size as one run: requests and CPU summed, latencies the mean of the rounds' (max the highest). */
function merged(rounds: Measured[]): Measured {
  const requests = rounds.reduce((sum, m) => sum + m.requests, 0);
  const seconds = rounds.reduce((sum, m) => sum + m.seconds, 0);
  const mean = (pick: (m: Measured) => number | null) => {
    const values = rounds.map(pick).filter((v): v is number => v !== null);
    return values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000 : null;
  };
  const cpu = (pick: (c: NonNullable<Measured['cpu_per_request']>) => number) =>
    Math.round(rounds.reduce((sum, m) => sum + (m.cpu_per_request ? pick(m.cpu_per_request) * m.requests : 0), 0) / Math.max(requests, 1));
  const slowest = rounds.reduce((a, b) =>
    Math.min(a.speed?.before ?? Infinity, a.speed?.after ?? Infinity) <= Math.min(b.speed?.before ?? Infinity, b.speed?.after ?? Infinity) ? a : b,
  );
  return {
    ...rounds[0]!,
    rps: Math.round((requests / Math.max(seconds, 1e-9)) * 10) / 10,
    p50_ms: mean((m) => m.p50_ms),
    p90_ms: mean((m) => m.p90_ms),
    p99_ms: mean((m) => m.p99_ms),
    max_ms: Math.max(...rounds.map((m) => m.max_ms ?? 0)),
    requests,
    seconds,
    ok: rounds.reduce((sum, m) => sum + m.ok, 0),
    non2xx: rounds.reduce((sum, m) => sum + m.non2xx, 0),
    errors: rounds.reduce((sum, m) => sum + m.errors, 0),
    timeouts: rounds.reduce((sum, m) => sum + m.timeouts, 0),
    cpu_per_request: { main_us: cpu((c) => c.main_us), other_threads_us: cpu((c) => c.other_threads_us), total_us: cpu((c) => c.total_us) },
    speed: slowest.speed,
    rss_after_mb: rounds.at(-1)!.rss_after_mb,
  };
}

/**
 * Per size, a sandbox on a data file with that many shipments stored: the list, then POST
 * /shipments for GROWTH_DURATION seconds in each of GROWTH_ROUNDS rounds taken in turns with the
 * other sizes (a round as long as the one run per size was, so 1,000 stored still sees its
 * compactions: one per ~6,700 creates), each long enough to include the journal compactions whose cost depends on the size
 * of the store.
 */
export async function growthPoints(dir: string, sizes: number[]): Promise<GrowthPoint[]> {
  const seeded = new Map<number, string>();
  for (const size of sizes) seeded.set(size, await seedFile(dir, `growth-${size}`, size));
  const rounds = new Map<number, Awaited<ReturnType<typeof growthRound>>[]>(sizes.map((size) => [size, []]));
  for (let round = 0; round < GROWTH_ROUNDS; round++) {
    for (const size of sizes) rounds.get(size)!.push(await growthRound(dir, seeded.get(size)!, size, round, GROWTH_DURATION));
  }
  const growth: GrowthPoint[] = [];
  for (const size of sizes) {
    const taken = rounds.get(size)!;
    const file = seeded.get(size)!;
    growth.push({
      shipments: size,
      startup_ms: taken[0]!.startupMs,
      list: taken[0]!.list!,
      create: merged(taken.map((r) => r.create)),
      creates: taken.map((r) => r.create),
      rss_mb: Math.max(...taken.map((r) => r.mem.rss_mb)),
      hwm_mb: Math.max(...taken.map((r) => r.mem.hwm_mb)),
      data_file_mb: Math.round(((await stat(file)).size / MB) * 10) / 10,
      compactions: taken.reduce((sum, r) => sum + r.compactions, 0),
    });
  }
  return growth;
}
