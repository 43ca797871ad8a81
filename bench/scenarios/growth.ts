// POST /shipments (and the first list page) with N shipments stored: a write should cost the same whatever the size of the data.
import { readdir, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { seedFile } from '../lib/data.js';
import { measure, type Measured } from '../lib/measure.js';
import { GROWTH_DURATION, MB } from '../lib/options.js';
import { memory } from '../lib/proc.js';
import { log } from '../lib/processes.js';
import { startSandbox } from '../lib/server.js';
import { endpoints, prepare } from './endpoints.js';

export interface GrowthPoint {
  shipments: number;
  startup_ms: number;
  create: Measured;
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
 * A fresh sandbox on a data file with `shipments` stored: first the list (so it sees exactly that
 * many), then POST /shipments for GROWTH_DURATION seconds, long enough to include the journal
 * compactions whose cost depends on the size of the store.
 */
async function growthPoint(dir: string, shipments: number): Promise<GrowthPoint> {
  const file = await seedFile(dir, `growth-${shipments}`, shipments);
  const dataFileMb = Math.round(((await stat(file)).size / MB) * 10) / 10;
  const server = await startSandbox(`sandbox (${shipments} shipments)`, file);
  try {
    const prepared = await prepare(server);
    if (prepared.total !== undefined && prepared.total < shipments) log(`  warning: the bench client sees ${prepared.total} of ${shipments} shipments`);
    const all = endpoints(prepared);
    const list = await measure(server, all.list);
    let segmentBefore = 0;
    const create = await measure(server, all.create, GROWTH_DURATION, { before: async () => void (segmentBefore = await lastSegment(file)) });
    const compactions = Math.max(0, (await lastSegment(file)) - segmentBefore);
    const mem = await memory(server.pid);
    return { shipments, startup_ms: server.startupMs, create, list, ...mem, data_file_mb: dataFileMb, compactions };
  } finally {
    // The data is thrown away: no need to wait for the snapshot of a large store to be written.
    await server.stop(false);
  }
}

export async function growthPoints(dir: string, sizes: number[]): Promise<GrowthPoint[]> {
  const growth: GrowthPoint[] = [];
  for (const size of sizes) growth.push(await growthPoint(dir, size));
  return growth;
}
