// Probes how fast this VM runs plain JavaScript around every run: its CPU speed changes by up to 5x for seconds at a time.
import { onCpu, PIN } from './pin.js';
import { run } from './processes.js';

/** Every probe's speed (the slower CPU), in loop iterations per ms. */
const speeds: number[] = [];
/** Each probe's speed per CPU (CPU 0 runs the server, CPU 1 the driver), for results.json. */
export const probes: { cpu0?: number; cpu1: number }[] = [];

const PROBE = `let n = 0; const t = performance.now(); let now = t;
while (now - t < 150) { for (let j = 0; j < 10000; j++) n += j % 7; now = performance.now(); }
process.stdout.write(String(n / (now - t)));`;

/** Loop iterations per ms over 150 ms, in a separate process per CPU. */
export async function probeSpeed(): Promise<number> {
  // Both CPUs at once: a neighbour may slow down either of them.
  const runs = await Promise.all((PIN ? [0, 1] : [1]).map((cpu) => run(...onCpu(cpu, ['-e', PROBE]))));
  const values = runs.map(({ stdout }) => Math.round(Number(stdout) || 0));
  const speed = Math.min(...values);
  speeds.push(speed);
  probes.push(PIN ? { cpu0: values[0], cpu1: values[1]! } : { cpu1: values[0]! });
  return speed;
}

/** The slower of the probes around a run, as % of the fastest probe of the whole bench. */
export function speedPct(measured: { speed?: { before: number; after: number } }): number | null {
  if (!measured.speed || speeds.length === 0) return null;
  return Math.round((Math.min(measured.speed.before, measured.speed.after) / Math.max(...speeds)) * 100);
}
