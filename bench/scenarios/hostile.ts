// /health while bursts of 16 hostile bodies of 5 MB arrive at once (deep, wide, escaped, long arrays, unknown members; anonymous and with a token):
// before the parser limits one burst of [[[... stalled it for seconds, and before the per-endpoint limits and the linear scan one escaped body did.
import { join } from 'node:path';
import { copyData } from '../lib/data.js';
import { DURATION, MB, ROOT } from '../lib/options.js';
import { onCpu } from '../lib/pin.js';
import { memory } from '../lib/proc.js';
import { log, run } from '../lib/processes.js';
import { startSandbox } from '../lib/server.js';
import { prepare } from './endpoints.js';

/** What `bench/hostile.mjs` reports, for one way of sending. */
interface HostileRun {
  idle: { probes: number; p50_ms: number | null; p99_ms: number | null; max_ms: number | null };
  under_attack: { probes: number; p50_ms: number | null; p99_ms: number | null; max_ms: number | null };
  hostile: {
    bursts: number;
    sent: number;
    /** How many answers of each `<target> <shape> <status>`. */
    statuses: Record<string, number>;
    /** Answers that were a 4xx with the errors document. */
    refused_4xx: number;
    /** The first answers that were not (status and start of the body). */
    bad: string[];
    p50_ms: number | null;
    max_ms: number | null;
  };
  pause_ms: number;
  rss_before_mb: number;
  rss_peak_mb: number;
}

export interface Hostile {
  senders: number;
  body_mb: number;
  seconds: number;
  /** A burst of 16 every 250 ms: the target's figure. */
  bursts: HostileRun;
  /** Bursts back to back, as fast as the sandbox answers them: a flood, for reference (not with --only-hostile). */
  flood: HostileRun | undefined;
}

const HOSTILE_SENDERS = 16;
const HOSTILE_BYTES = 5 * MB;

/**
 * A fresh sandbox on a copy of the data for each way of sending (issue 14: before, one burst also
 * took RSS past 600 MB); bench/hostile.mjs sends and probes from the other CPU.
 */
export async function hostileBodies(dir: string, pristine: string, withFlood = true): Promise<Hostile> {
  const seconds = Math.max(3, DURATION);
  const measureRun = async (pauseMs: number): Promise<HostileRun> => {
    const server = await startSandbox(`sandbox (hostile bodies, ${pauseMs} ms apart)`, await copyData(pristine, dir, `hostile-${pauseMs}`));
    try {
      const { token } = await prepare(server);
      const before = await memory(server.pid);
      log(`/health while bursts of ${HOSTILE_SENDERS} hostile ${HOSTILE_BYTES / MB} MB bodies arrive ${pauseMs} ms apart, ${seconds}s`);
      const [command, argv] = onCpu(1, [
        join(ROOT, 'bench', 'hostile.mjs'),
        JSON.stringify({ url: server.url, token, senders: HOSTILE_SENDERS, bytes: HOSTILE_BYTES, seconds, pauseMs }),
      ]);
      const result = await run(command, argv);
      if (result.code !== 0) throw new Error(`bench/hostile.mjs failed (${result.code}): ${result.stderr.slice(-2000)}`);
      const after = await memory(server.pid);
      const report = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Omit<HostileRun, 'pause_ms' | 'rss_before_mb' | 'rss_peak_mb'>;
      return { ...report, pause_ms: pauseMs, rss_before_mb: before.rss_mb, rss_peak_mb: after.hwm_mb };
    } finally {
      await server.stop(false);
    }
  };
  const bursts = await measureRun(250);
  return { senders: HOSTILE_SENDERS, body_mb: HOSTILE_BYTES / MB, seconds, bursts, flood: withFlood ? await measureRun(0) : undefined };
}
