// Runs bench/driver.mjs (autocannon) in its own process on the driver's CPU, so the load's CPU is never the server's.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CONNECTIONS, ROOT, WARMUP } from './options.js';
import { onCpu } from './pin.js';
import { children } from './processes.js';
import type { Server } from './server.js';

/** What driver.mjs prints as its last line. */
export interface DriverResult {
  rps: number;
  p50_ms: number | null;
  p90_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  seconds: number;
}

/** One kind of request the driver repeats. */
export interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  uniqueHeader?: string;
}

/**
 * One driver process: `WARMUP` seconds of warm-up, then `seconds` measured. The driver prints
 * "warm" between the two, which is when `onWarm` takes its snapshots, so the measured run is
 * made by an already warmed-up driver and CPU figures cover it alone.
 */
export function drive(server: Server, scenario: Scenario, seconds: number, onWarm: () => Promise<void>): Promise<DriverResult> {
  const config = {
    url: server.url,
    method: scenario.method,
    path: scenario.path,
    headers: scenario.headers,
    body: scenario.body,
    uniqueHeader: scenario.uniqueHeader,
    connections: CONNECTIONS,
    duration: seconds,
    warmup: WARMUP,
  };
  return new Promise((done, fail) => {
    const child = spawn(...onCpu(1, [join(ROOT, 'bench', 'driver.mjs'), JSON.stringify(config)]), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    let warm: Promise<void> = Promise.resolve();
    child.stdout!.on('data', (chunk: Buffer) => {
      const first = stdout === '';
      stdout += chunk.toString();
      // "warm" arrives alone, seconds before the result line.
      if (first && stdout.startsWith('warm')) warm = onWarm();
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      children.delete(child);
      if (code !== 0) return fail(new Error(`driver failed for ${scenario.name} (${code}):\n${stderr}`));
      warm.then(() => done(JSON.parse(stdout.trim().split('\n').at(-1)!) as DriverResult), fail);
    });
  });
}
