// Bare Hono answering the same document: the ceiling one Node process reaches with this stack here, so the sandbox's figures read as ratios of it.
import type { SeedSummary } from '../lib/data.js';
import type { Scenario } from '../lib/drive.js';
import { measure, type Measured } from '../lib/measure.js';
import { startBaseline } from '../lib/server.js';

/**
 * The baseline sends the same document the sandbox answers GET /shipments/{id} with, for a
 * request with the same Authorization header, so the ratio measures the sandbox's work, not the
 * payload size.
 */
export function sameDocument(seeded: SeedSummary): Scenario {
  return {
    name: 'bare hono (same document)',
    method: 'GET',
    path: '/shipment',
    ...(seeded.token ? { headers: { authorization: `Bearer ${seeded.token}` } } : {}),
  };
}

/** A fresh baseline server for one measured run. */
export async function measureBaseline(document: string | undefined, scenario: Scenario): Promise<Measured> {
  const server = await startBaseline(document);
  const measured = await measure(server, scenario);
  await server.stop();
  return measured;
}

/** A tiny-document baseline, for reference: what the payload size alone costs. */
export async function measureTinyBaseline(): Promise<Measured> {
  const server = await startBaseline();
  const measured = await measure(server, { name: 'bare hono (tiny document, reference)', method: 'GET', path: '/shipment' });
  await server.stop();
  return measured;
}

/** The baseline runs at the start and at the end of the bench; the mean of the two evens out the VM's drift in between. */
export function meanBaseline(first: Measured, last: Measured): Measured {
  const mean = (a: number | null, b: number | null) => (a === null || b === null ? (a ?? b) : Math.round(((a + b) / 2) * 1000) / 1000);
  return {
    ...first,
    rps: Math.round(((first.rps + last.rps) / 2) * 10) / 10,
    p50_ms: mean(first.p50_ms, last.p50_ms),
    p90_ms: mean(first.p90_ms, last.p90_ms),
    p99_ms: mean(first.p99_ms, last.p99_ms),
    cpu_per_request:
      first.cpu_per_request && last.cpu_per_request
        ? {
            main_us: Math.round((first.cpu_per_request.main_us + last.cpu_per_request.main_us) / 2),
            other_threads_us: Math.round((first.cpu_per_request.other_threads_us + last.cpu_per_request.other_threads_us) / 2),
            total_us: Math.round((first.cpu_per_request.total_us + last.cpu_per_request.total_us) / 2),
          }
        : first.cpu_per_request,
  };
}
