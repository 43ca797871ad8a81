// A bare jose ES256 sign on the server's CPU, the floor POST /access-token stands on (it signs one token per request).
import { join } from 'node:path';
import { CONNECTIONS, DURATION, ROOT } from '../lib/options.js';
import { onCpu } from '../lib/pin.js';
import { log, run } from '../lib/processes.js';

export interface JoseSign {
  signs_per_s: number;
  seconds: number;
}

/** Signs per second with as many signatures in flight as the bench has connections, pinned where the sandbox runs. */
export async function joseSign(): Promise<JoseSign> {
  log(`bare jose ES256 sign (${DURATION}s, ${CONNECTIONS} in flight)`);
  const [command, argv] = onCpu(0, [join(ROOT, 'bench', 'jose-sign.mjs'), String(DURATION), String(CONNECTIONS)]);
  const { code, stdout, stderr } = await run(command, argv);
  if (code !== 0) throw new Error(`jose-sign.mjs failed:\n${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as JoseSign;
}
