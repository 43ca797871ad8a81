// A sandbox GET and the baseline serving the same document in turns, back to back: the GET and list targets' figures, since the VM drifts too much between runs minutes apart.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { drive, type Scenario } from '../lib/drive.js';
import { log } from '../lib/processes.js';
import { waitIdle } from '../lib/measure.js';
import { startBaseline, type Server } from '../lib/server.js';

/** Rounds and seconds per turn: short enough that the VM's speed hardly changes within a round. */
const PAIRED_ROUNDS = 3;
export const PAIRED_SECONDS = 2;

/** The baseline and a sandbox scenario measured in turns, back to back. */
export interface Paired {
  /** Sandbox requests over baseline requests, each summed over all rounds. */
  ratio: number;
  rounds: { baseline_rps: number; sandbox_rps: number; ratio: number }[];
}

/**
 * This VM's speed drifts by up to 2x within a minute, and the baseline runs minutes away from the
 * sandbox's GET, so the plain ratio of the two says as much about the drift as about the sandbox.
 * Here they take turns instead: `rounds` times the baseline for `seconds`, then the sandbox for
 * `seconds` (each after its warm-up), both servers running and pinned to the same CPU. The ratio
 * of the summed requests is what the GET target is checked against.
 */
async function paired(
  baseline: Server,
  baselineScenario: Scenario,
  sandbox: Server,
  scenario: Scenario,
  rounds = PAIRED_ROUNDS,
  seconds = PAIRED_SECONDS,
): Promise<Paired> {
  log(`paired: ${baselineScenario.name} and ${scenario.name} in turns, ${rounds} rounds of ${seconds}s each`);
  const results: Paired['rounds'] = [];
  let base = 0;
  let sand = 0;
  for (let round = 0; round < rounds; round += 1) {
    await waitIdle(sandbox);
    const b = await drive(baseline, baselineScenario, seconds, async () => {});
    await waitIdle(baseline);
    const s = await drive(sandbox, scenario, seconds, async () => {});
    base += b.ok;
    sand += s.ok;
    results.push({ baseline_rps: b.rps, sandbox_rps: s.rps, ratio: Math.round((s.ok / Math.max(b.ok, 1)) * 1000) / 1000 });
  }
  return { ratio: Math.round((sand / Math.max(base, 1)) * 1000) / 1000, rounds: results };
}

/** A second baseline server next to the running sandbox, for the paired rounds only. */
export async function pairedGet(
  document: string | undefined,
  baselineScenario: Scenario,
  sandbox: Server,
  get: Scenario,
  rounds = PAIRED_ROUNDS,
): Promise<Paired> {
  const pairServer = await startBaseline(document);
  const result = await paired(pairServer, baselineScenario, sandbox, get, rounds);
  await pairServer.stop();
  return result;
}

/** A list scenario measured in turns with the baseline serving the very document the sandbox answered it with. */
export interface PairedList extends Paired {
  name: string;
  /** Bytes of the document both served. */
  document_bytes: number;
}

/**
 * Asks the sandbox for the list once, hands that exact answer to a fresh baseline (with the same
 * request headers) and measures the two in turns, as for GET /shipments/{id}.
 */
export async function pairedList(dir: string, key: string, sandbox: Server, scenario: Scenario): Promise<PairedList> {
  const response = await fetch(sandbox.url + scenario.path, { headers: scenario.headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`${scenario.name}: ${response.status} ${text.slice(0, 300)}`);
  const file = join(dir, `document-${key}.json`);
  await writeFile(file, text);
  const baselineScenario: Scenario = { name: `bare hono (the document of ${scenario.name})`, method: 'GET', path: '/shipment', headers: scenario.headers };
  const pairServer = await startBaseline(file);
  const result = await paired(pairServer, baselineScenario, sandbox, scenario);
  await pairServer.stop();
  return { name: scenario.name, document_bytes: Buffer.byteLength(text), ...result };
}
