#!/usr/bin/env node
/**
 * The load driver: one scenario, run in its own process so its CPU is not the server's.
 *
 *   node bench/driver.mjs '<json>'
 *
 * with { url, method, path, headers?, body?, connections, duration, warmup, uniqueHeader? }.
 * Runs autocannon for `warmup` seconds (discarded), prints "warm", runs for `duration` seconds
 * and prints one JSON line: { rps, p50_ms, p90_ms, p99_ms, max_ms, requests, ok, non2xx, errors, timeouts,
 * statuses, seconds }. Latencies are each response's own float time from autocannon's
 * `response` event (autocannon's histogram rounds to whole milliseconds); only 2xx responses
 * count towards rps and the percentiles, and any other status is reported, never hidden.
 * With `uniqueHeader`, every request gets its own value of that header (an Idempotency-Key).
 */
import autocannon from 'autocannon';

const config = JSON.parse(process.argv[2] ?? '{}');
let counter = 0;
const runId = `${process.pid}-${Date.now().toString(36)}`;

function request() {
  const base = { method: config.method, path: config.path, headers: config.headers ?? {} };
  if (config.body !== undefined) base.body = typeof config.body === 'string' ? config.body : JSON.stringify(config.body);
  if (!config.uniqueHeader) return base;
  return {
    ...base,
    setupRequest: (req) => ({ ...req, headers: { ...req.headers, [config.uniqueHeader]: `bench-${runId}-${++counter}` } }),
  };
}

function run(seconds, record) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    const statuses = {};
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: config.url,
        connections: config.connections,
        duration: seconds,
        requests: [request()],
        timeout: 10,
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
        resolve({ result, latencies, statuses, elapsed });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (record && statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

const round = (value) => (value === null ? null : Math.round(value * 1000) / 1000);

if (config.warmup > 0) await run(config.warmup, false);
// Tells the bench that the measured run starts now (it snapshots the server's CPU time).
process.stdout.write('warm\n');
const { result, latencies, statuses, elapsed } = await run(config.duration, true);
latencies.sort((a, b) => a - b);
const seconds = result.duration ?? elapsed;
const ok = latencies.length;
const total = Object.values(statuses).reduce((sum, n) => sum + n, 0);
process.stdout.write(
  `${JSON.stringify({
    rps: Math.round((ok / seconds) * 10) / 10,
    p50_ms: round(percentile(latencies, 50)),
    p90_ms: round(percentile(latencies, 90)),
    p99_ms: round(percentile(latencies, 99)),
    max_ms: round(latencies.at(-1) ?? null),
    requests: total,
    ok,
    non2xx: total - ok,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    seconds: Math.round(seconds * 1000) / 1000,
  })}\n`,
);
