// One measured run of a scenario: the driver's figures plus the server's CPU per request, RSS and the machine's speed around it.
import { CONNECTIONS, DURATION, WARMUP } from './options.js';
import { cpuPerRequest, memory, threadCpu, type CpuPerRequest, type ThreadCpu } from './proc.js';
import { log } from './processes.js';
import { drive, type DriverResult, type Scenario } from './drive.js';
import type { Server } from './server.js';
import { probeSpeed } from './speed.js';

export interface Measured extends DriverResult {
  name: string;
  /** Machine speed probed just before and after the measured run (iterations per ms). */
  speed?: { before: number; after: number };
  cpu_per_request?: CpuPerRequest;
  /** RSS of the server right after the measured run. */
  rss_after_mb?: number;
  /** The measured run, in ms after the server's spawn (to cut a CPU profile to it). */
  window?: { fromMs: number; toMs: number };
}

/**
 * Waits until the server is idle (its threads used < 10% of a CPU over 200 ms), at most 60 s.
 * autocannon stops without waiting for the answers still in flight, and a slow endpoint (a list
 * page of a large store) or a journal compaction keeps the server busy for seconds afterwards;
 * without this wait, that work would be counted against the next scenario.
 */
export async function waitIdle(server: Server): Promise<void> {
  const total = (threads: ThreadCpu) => [...threads.values()].reduce((sum, thread) => sum + thread.ms, 0);
  const deadline = performance.now() + 60_000;
  let previous = total(await threadCpu(server.pid));
  while (performance.now() < deadline) {
    await new Promise((done) => setTimeout(done, 200));
    const now = total(await threadCpu(server.pid));
    if (now - previous < 20) return;
    previous = now;
  }
}

/** Warm-up (unmeasured), then the measured run with the server's CPU time per request. */
export async function measure(server: Server, scenario: Scenario, seconds = DURATION, around?: { before(): Promise<void> }): Promise<Measured> {
  log(`${server.name}: ${scenario.name} (${WARMUP}s warm-up + ${seconds}s, ${CONNECTIONS} connections)`);
  await waitIdle(server);
  const speedBefore = await probeSpeed();
  let before: ThreadCpu = new Map();
  let fromMs = 0;
  const result = await drive(server, scenario, seconds, async () => {
    fromMs = performance.now() - server.spawnedAt;
    before = await threadCpu(server.pid);
    await around?.before();
  });
  const toMs = performance.now() - server.spawnedAt;
  const after = await threadCpu(server.pid);
  await waitIdle(server);
  const rss = await memory(server.pid).catch(() => undefined);
  const speedAfter = await probeSpeed();
  if (result.non2xx > 0 || result.errors > 0) {
    log(`  ${scenario.name}: ${result.non2xx} non-2xx answers ${JSON.stringify(result.statuses)}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    name: scenario.name,
    ...result,
    cpu_per_request: cpuPerRequest(server.pid, before, after, result.requests),
    rss_after_mb: rss?.rss_mb,
    speed: { before: speedBefore, after: speedAfter },
    window: { fromMs: Math.round(fromMs), toMs: Math.round(toMs) },
  };
}
