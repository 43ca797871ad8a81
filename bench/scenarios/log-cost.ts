// GET /shipments/{id} with LOG_LEVEL=info, the default, its log read from a pipe as a container runtime reads it: what the request log costs.
import { copyData } from '../lib/data.js';
import { measure, type Measured } from '../lib/measure.js';
import { DURATION, WARMUP } from '../lib/options.js';
import { startSandbox } from '../lib/server.js';
import { endpoints, prepare } from './endpoints.js';

export interface LogCost {
  info: Measured;
  warn: Measured;
  log_bytes_per_request: number;
}

/** `warn` is the main run's GET /shipments/{id}, measured with LOG_LEVEL=warn. */
export async function measureLogCost(dir: string, pristine: string, warn: Measured): Promise<LogCost> {
  const infoServer = await startSandbox('sandbox (LOG_LEVEL=info)', await copyData(pristine, dir, 'info'), { logLevel: 'info' });
  const infoScenario = endpoints(await prepare(infoServer)).get;
  const before = infoServer.stdoutBytes();
  const info = await measure(infoServer, { ...infoScenario, name: 'GET /shipments/{id} (LOG_LEVEL=info)' });
  const bytes = infoServer.stdoutBytes() - before;
  await infoServer.stop(false);
  // The byte count includes the warm-up's requests, which the driver does not count.
  return { info, warn, log_bytes_per_request: info.requests ? Math.round(bytes / (info.requests * (1 + WARMUP / DURATION))) : 0 };
}
