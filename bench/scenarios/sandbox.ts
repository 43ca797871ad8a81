// The sandbox on the seeded data file: the endpoints in turn (the GET and each list paired with the baseline right after it), then its memory after all of them.
import type { Scenario } from '../lib/drive.js';
import { measure, type Measured } from '../lib/measure.js';
import { memory, settledRss } from '../lib/proc.js';
import { startSandbox } from '../lib/server.js';
import { dirname } from 'node:path';
import { api, endpoints, LIST_KEYS, prepare } from './endpoints.js';
import { pairedGet, pairedList, type Paired, type PairedList } from './paired-get.js';

export interface SandboxRun {
  measured: Measured[];
  pairedGet: Paired | undefined;
  /** Each list in turns with the baseline serving its document. */
  pairedLists: PairedList[];
  /** RSS right after start, with the seeded data loaded. */
  idleMemory: { rss_mb: number; hwm_mb: number };
  /** After every scenario: POST /shipments has added shipments for as long as it ran. */
  mainMemory: { rss_mb: number; hwm_mb: number };
  /** RSS while the sandbox is left idle after every scenario (see settledRss): the last is where it settles. */
  settledRss: number[];
  shipmentsAfter: number | undefined;
  stopCode: number | null;
}

export async function runSandbox(file: string, document: string | undefined, baselineScenario: Scenario): Promise<SandboxRun> {
  const sandbox = await startSandbox('sandbox', file);
  const idleMemory = await memory(sandbox.pid);
  const prepared = await prepare(sandbox);
  if (!prepared.shipmentId) throw new Error('the seeded data holds no shipment of the bench client; use --base-shipments 1 or more');
  const all = endpoints(prepared);
  const measured: Measured[] = [];
  let paired: Paired | undefined;
  const pairedLists: PairedList[] = [];
  for (const key of ['token', 'get', ...LIST_KEYS, 'create'] as const) {
    measured.push(await measure(sandbox, all[key]));
    // Right after each, while the sandbox is as warm as it was for it.
    if (key === 'get') paired = await pairedGet(document, baselineScenario, sandbox, all.get);
    if ((LIST_KEYS as readonly string[]).includes(key)) pairedLists.push(await pairedList(dirname(file), key, sandbox, all[key]));
  }
  const mainMemory = await memory(sandbox.pid);
  const shipmentsAfter = (await api(sandbox, '/shipments?page[size]=1', { headers: prepared.headers })).meta?.total_records as number | undefined;
  const settled = await settledRss(sandbox.pid);
  const stopCode = await sandbox.stop(true);
  return { measured, pairedGet: paired, pairedLists, idleMemory, mainMemory, settledRss: settled, shipmentsAfter, stopCode };
}
