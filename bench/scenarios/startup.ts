// Start-up, spawn to the first 200 on /health, on an existing data file and on a first start that writes one: the target is 500 ms.
import { join } from 'node:path';
import { copyData } from '../lib/data.js';
import { log } from '../lib/processes.js';
import { startSandbox } from '../lib/server.js';

export type Startup = Awaited<ReturnType<typeof startupTimes>>;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Three starts of each kind: a single start is at the mercy of the VM's speed at that moment. */
export async function startupTimes(dir: string, seeded: string) {
  log('start-up time (3 starts on the seeded data file, 3 first starts without one)');
  const existing: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < 3; i++) {
    const copy = await copyData(seeded, dir, `startup-${i}`);
    const a = await startSandbox('startup', copy);
    existing.push(a.startupMs);
    await a.stop(false);
    const b = await startSandbox('first start', join(dir, `first-${i}`, 'sandbox.json'));
    first.push(b.startupMs);
    await b.stop(false);
  }
  return { existing_file_ms: existing, first_start_ms: first, existing_median_ms: median(existing), first_start_median_ms: median(first) };
}
