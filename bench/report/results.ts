// Writes bench/results.json: every figure of the run, with the field names the README and bench/README.md quote.
import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Measured } from '../lib/measure.js';
import { args, BASE_SHIPMENTS, CONNECTIONS, DURATION, ENTRY, GROWTH_DURATION, NODE_FLAGS, WARMUP } from '../lib/options.js';
import { CPUS, PIN } from '../lib/pin.js';
import { log } from '../lib/processes.js';
import { probes, speedPct } from '../lib/speed.js';
import { PAIRED_SECONDS } from '../scenarios/paired-get.js';
import { ratio } from './format.js';
import { growthRatio, listPageCpuRatio, startupMs, type Outcome } from './outcome.js';
import type { Target } from './targets.js';

function scenarioJson(m: Measured, baseline: Measured) {
  return {
    name: m.name,
    rps: m.rps,
    p50_ms: m.p50_ms,
    p99_ms: m.p99_ms,
    ratio: ratio(m.rps, baseline.rps),
    p50_ratio: ratio(m.p50_ms, baseline.p50_ms),
    p99_ratio: ratio(m.p99_ms, baseline.p99_ms),
    cpu_ratio: ratio(m.cpu_per_request?.total_us, baseline.cpu_per_request?.total_us),
    p90_ms: m.p90_ms,
    max_ms: m.max_ms,
    requests: m.requests,
    non2xx: m.non2xx,
    errors: m.errors,
    cpu_us_per_request: m.cpu_per_request,
    rss_after_mb: m.rss_after_mb,
    machine_speed_pct: speedPct(m),
    machine_speed: m.speed,
  };
}

function growthJson(outcome: Outcome) {
  const { growth, baseline } = outcome;
  if (!growth.length) return null;
  const first = growth[0]!;
  const last = growth.at(-1)!;
  const at = (n: number) => growth.find((g) => g.shipments === n)?.create.p99_ms ?? null;
  return {
    p99_ms_at_1000: at(1000),
    p99_ms_at_100000: at(100_000),
    ratio: growthRatio(outcome),
    cpu_per_request_ratio: growth.length >= 2 ? ratio(last.create.cpu_per_request?.total_us, first.create.cpu_per_request?.total_us) : null,
    rps_ratio: growth.length >= 2 ? ratio(last.create.rps, first.create.rps) : null,
    points: growth.map((g) => ({
      shipments: g.shipments,
      data_file_mb: g.data_file_mb,
      startup_ms: g.startup_ms,
      rss_mb: g.rss_mb,
      rss_peak_mb: g.hwm_mb,
      compactions: g.compactions,
      create: scenarioJson(g.create, baseline),
      create_rounds: g.creates.map((m) => scenarioJson(m, baseline)),
      list: scenarioJson(g.list, baseline),
    })),
  };
}

/** `began` is performance.now() at the start of the bench, for `elapsed_s`. */
export async function writeResults(outcome: Outcome, targets: Target[], began: number): Promise<void> {
  const {
    baseline,
    baselineFirst,
    baselineLast,
    tiny,
    measured,
    pairedGet,
    pairedLists,
    jose,
    startup,
    mainMemory,
    settledRss,
    idleMemory,
    shipmentsAfter,
    hostile,
    soak,
    logCost,
    profiles,
  } = outcome;
  const results = {
    generated_at: new Date().toISOString(),
    machine: { node: process.version, cpus: CPUS },
    settings: {
      connections: CONNECTIONS,
      duration_s: DURATION,
      warmup_s: WARMUP,
      growth_duration_s: GROWTH_DURATION,
      entry: ENTRY,
      log_level: 'warn',
      base_shipments: BASE_SHIPMENTS,
      pinned: PIN,
      node_flags: NODE_FLAGS,
    },
    baseline: {
      name: 'bare hono',
      rps: baseline.rps,
      p50_ms: baseline.p50_ms,
      p99_ms: baseline.p99_ms,
      p90_ms: baseline.p90_ms,
      cpu_us_per_request: baseline.cpu_per_request,
      document: 'the sandbox answer to GET /shipments/{id}, with the same Authorization header',
      runs: [baselineFirst, baselineLast].map((m) => ({
        rps: m.rps,
        p50_ms: m.p50_ms,
        p99_ms: m.p99_ms,
        cpu_us_per_request: m.cpu_per_request,
        machine_speed_pct: speedPct(m),
      })),
    },
    baseline_tiny_document: {
      name: 'bare hono (tiny document)',
      rps: tiny.rps,
      p50_ms: tiny.p50_ms,
      p99_ms: tiny.p99_ms,
      cpu_us_per_request: tiny.cpu_per_request,
    },
    scenarios: measured.map((m) => scenarioJson(m, baseline)),
    paired_get: pairedGet ? { name: 'GET /shipments/{id}', rounds_of_s: PAIRED_SECONDS, ...pairedGet } : null,
    paired_lists: pairedLists.map((list) => ({ rounds_of_s: PAIRED_SECONDS, ...list })),
    list_page_cpu_ratio: listPageCpuRatio(outcome),
    jose_sign: jose,
    startup_ms: startupMs(outcome),
    startup: startup,
    rss_mb: mainMemory.rss_mb,
    rss_peak_mb: mainMemory.hwm_mb,
    rss_settled_mb: settledRss.at(-1) ?? null,
    rss_settling_mb: settledRss,
    rss_after_start_mb: idleMemory.rss_mb,
    shipments_after_run: shipmentsAfter ?? null,
    hostile_bodies: hostile ?? null,
    docs_page: outcome.docs ?? null,
    tenant_soak: soak ?? null,
    log_cost: logCost
      ? {
          info: scenarioJson(logCost.info, baseline),
          rps_ratio_to_warn: ratio(logCost.info.rps, logCost.warn.rps),
          log_bytes_per_request: logCost.log_bytes_per_request,
        }
      : null,
    growth: growthJson(outcome),
    profiles: profiles.map((p) => ({ scenario: p.scenario, rps_while_profiled: p.rps ?? null, ...p.summary, file: undefined })),
    targets: targets.map((t) => ({ pass: t.ok, target: t.text })),
    machine_speed_probes: probes,
    elapsed_s: Math.round((performance.now() - began) / 1000),
  };
  const outFile = resolve(args.out);
  // Written beside and renamed, so an interrupted run never leaves half a results file.
  await writeFile(`${outFile}.tmp`, JSON.stringify(results, null, 2) + '\n');
  await rename(`${outFile}.tmp`, outFile);
  log(`results written to ${outFile} (${results.elapsed_s} s in all)`);
}
