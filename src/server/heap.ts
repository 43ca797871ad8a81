import { setFlagsFromString } from 'node:v8';

/*
 * The server process lets V8's old generation grow by 30% over the live heap before its next
 * full collection, instead of V8's own factor (up to 4x on a machine like the bench's). Under load
 * V8 otherwise keeps those pages until its memory reducer runs once the process idles, so a busy
 * sandbox sat at ~190-230 MB where its live heap needs ~100. Measured on the compiled server
 * (8 s each of POST /shipments, GET /shipments/{id} and a 30-item page at 10 connections, 2-core
 * VM): RSS right after the load 187-233 MB -> 123-136 MB, CPU per request within the noise of a
 * loaded machine (222-246 vs 219-281 us). The price is in the tail of the writes: POST /shipments
 * p99 19-20 ms -> 28-30 ms in the same runs (more full collections while they allocate); 100%
 * gave 156-164 MB and 21-23 ms, 50-60% 139-149 MB and 25-33 ms. `npm run bench` reports both.
 *
 * A floor in bytes for small heaps (30% or at least 32-40 MB of room, whichever is more) cut
 * POST /shipments p99 on a small sandbox (45 -> 31 ms in a full bench) but cost the RSS target
 * after the run (151.6 MB) and the growth p99 ratio (x1.29): README, Performance, has the runs.
 *
 * Only the server's own process: the library (createSandbox) runs inside its user's process and
 * never changes its flags. A `--heap-growing-percent` given to node itself wins.
 */
const GROWING_PERCENT = 30;

/** Sets the server process's heap growing factor unless node was started with one. */
export function tuneHeap(execArgv: readonly string[]): void {
  if (execArgv.some((flag) => /^--heap[-_]growing[-_]percent\b/.test(flag))) return;
  setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
}
