// Start-up, spawn to the first 200 on /health, on an existing data file and on a first start that
// writes one, beside a bare Hono server's start on the same machine (the floor of this stack).
import { join } from 'node:path';
import { copyData } from '../lib/data.js';
import { log } from '../lib/processes.js';
import { startBaseline, startSandbox } from '../lib/server.js';

export type Startup = Awaited<ReturnType<typeof startupTimes>>;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Three starts of each kind, in turns: a single start is at the mercy of the VM's speed at that
 * moment. The bare Hono server (bench/baseline.mjs: hono and @hono/node-server, nothing else) is
 * what any server on this stack pays before its own code runs: Node's start, the HTTP modules and
 * the web globals @hono/node-server builds on, and the first request.
 */
export async function startupTimes(dir: string, seeded: string) {
  log('start-up time (3 starts on the seeded data file, 3 first starts without one, 3 starts of a bare hono server)');
  const existing: number[] = [];
  const first: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 3; i++) {
    const baseline = await startBaseline();
    bare.push(baseline.startupMs);
    await baseline.stop(false);
    const copy = await copyData(seeded, dir, `startup-${i}`);
    const a = await startSandbox('startup', copy);
    existing.push(a.startupMs);
    await a.stop(false);
    const b = await startSandbox('first start', join(dir, `first-${i}`, 'sandbox.json'));
    first.push(b.startupMs);
    await b.stop(false);
  }
  return {
    existing_file_ms: existing,
    first_start_ms: first,
    existing_median_ms: median(existing),
    first_start_median_ms: median(first),
    bare_hono_ms: bare,
    bare_hono_median_ms: median(bare),
  };
}
