// The printed report: one table of every scenario against the baseline, the other figures in a line each, then PASS/MISSED per target.
import { docsPageLine } from '../scenarios/docs-page.js';
import type { Hostile } from '../scenarios/hostile.js';
import type { Measured } from '../lib/measure.js';
import { BASE_SHIPMENTS, CONNECTIONS, DURATION, ENTRY, GROWTH_DURATION, NODE_FLAGS, WARMUP } from '../lib/options.js';
import { CPUS, PIN } from '../lib/pin.js';
import { SETTLE_S } from '../lib/proc.js';
import { speedPct } from '../lib/speed.js';
import type { GrowthPoint } from '../scenarios/growth.js';
import { formatProfile } from '../profile.js';
import { fmt, ratio, table, times } from './format.js';
import { growthRatio, type Outcome } from './outcome.js';
import type { Target } from './targets.js';

const HEADER = ['scenario', 'req/s', 'vs base', 'p50 ms', 'vs base', 'p99 ms', 'vs base', 'CPU us/req main+other', 'vs base', 'RSS MB', 'non-2xx', 'speed'];

function row(measured: Measured, base: Measured | undefined): string[] {
  const cpu = measured.cpu_per_request;
  return [
    measured.name,
    fmt(measured.rps, 0),
    base && base !== measured ? times(ratio(measured.rps, base.rps)) : '',
    fmt(measured.p50_ms, 2),
    base && base !== measured ? times(ratio(measured.p50_ms, base.p50_ms)) : '',
    fmt(measured.p99_ms, 2),
    base && base !== measured ? times(ratio(measured.p99_ms, base.p99_ms)) : '',
    cpu ? `${cpu.main_us}+${cpu.other_threads_us}` : '',
    base && base !== measured && cpu && base.cpu_per_request ? times(ratio(cpu.total_us, base.cpu_per_request.total_us)) : '',
    measured.rss_after_mb === undefined ? '' : fmt(measured.rss_after_mb, 0),
    String(measured.non2xx + measured.errors),
    `${speedPct(measured) ?? '?'}%`,
  ];
}

/** The growth table, each size's rounds and the ratios. */
export function growthLines(outcome: Pick<Outcome, 'growth'>): string[] {
  const { growth } = outcome;
  const out: string[] = [''];
  out.push(
    `growth: a fresh sandbox per N shipments stored and round; GET /shipments?page[size]=30 (${DURATION}s, first round), then POST /shipments (2 rounds of ${GROWTH_DURATION}s, the sizes' rounds in turns, counting journal compactions)`,
  );
  out.push(
    table([
      [
        'shipments',
        'data file MB',
        'start-up ms',
        'list req/s',
        'list p99 ms',
        'POST req/s',
        'POST p50 ms',
        'POST p99 ms',
        'POST CPU us/req',
        'compactions',
        'RSS MB',
        'speed',
      ],
      ...growth.map((g) => [
        String(g.shipments),
        fmt(g.data_file_mb, 1),
        String(g.startup_ms),
        fmt(g.list.rps, 0),
        fmt(g.list.p99_ms, 2),
        fmt(g.create.rps, 0),
        fmt(g.create.p50_ms, 2),
        fmt(g.create.p99_ms, 2),
        g.create.cpu_per_request ? `${g.create.cpu_per_request.main_us}+${g.create.cpu_per_request.other_threads_us}` : '',
        String(g.compactions),
        fmt(g.rss_mb, 0),
        `${Math.min(speedPct(g.list) ?? 100, speedPct(g.create) ?? 100)}%`,
      ]),
    ]),
  );
  for (const g of growth) {
    const rounds = g.creates.map(
      (m) =>
        `${fmt(m.rps, 0)} req/s p99 ${fmt(m.p99_ms, 2)} ms ${m.cpu_per_request?.main_us ?? '?'}+${m.cpu_per_request?.other_threads_us ?? '?'} us (${speedPct(m) ?? '?'}%)`,
    );
    out.push(`  POST /shipments with ${g.shipments} stored, by round: ${rounds.join('; ')}`);
  }
  if (growth.length >= 2) {
    const first = growth[0]!;
    const last = growth.at(-1)!;
    const cpu = (g: GrowthPoint) => g.create.cpu_per_request?.total_us ?? null;
    out.push(
      `growth ratios ${first.shipments} -> ${last.shipments}: POST p99 x${fmt(growthRatio(outcome), 2)}, POST CPU per request x${fmt(ratio(cpu(last), cpu(first)), 2)}, POST req/s x${fmt(ratio(last.create.rps, first.create.rps), 2)}, list p99 x${fmt(ratio(last.list.p99_ms, first.list.p99_ms), 2)}`,
    );
  }
  return out;
}

export function report(outcome: Outcome, targets: Target[], notes: string[]): string {
  const { baseline, baselineFirst, baselineLast, tiny, measured, startup, idleMemory, mainMemory, shipmentsAfter, logCost, hostile, soak, growth, profiles } =
    outcome;
  const out: string[] = [];
  out.push('');
  out.push(
    `parcel-sandbox bench: ${CONNECTIONS} connections, ${DURATION}s per scenario after ${WARMUP}s warm-up; sandbox = ${ENTRY === 'build' ? 'compiled CLI (as npm start)' : 'src/main.ts via tsx'}${NODE_FLAGS.length ? ` with node ${NODE_FLAGS.join(' ')}` : ''}, file-backed, LOG_LEVEL=warn, ${BASE_SHIPMENTS} shipments stored`,
  );
  out.push(
    `node ${process.version}, ${CPUS} CPUs, ${PIN ? 'server pinned to CPU 0 (all its threads), load driver to CPU 1' : 'no CPU pinning'}; baseline = mean of a run before and after the sandbox (${fmt(baselineFirst.rps, 0)} and ${fmt(baselineLast.rps, 0)} req/s)`,
  );
  out.push('');
  out.push(
    table([HEADER, row(baseline, undefined), row(tiny, baseline), ...measured.map((m) => row(m, baseline)), ...(logCost ? [row(logCost.info, baseline)] : [])]),
  );
  out.push('');
  out.push(
    'CPU us/req: server CPU time per request in the measured run, main JS thread + other threads (V8 GC/compiler helpers, libuv pool: WebCrypto, fs); steadier than req/s on this VM. RSS MB: after that scenario.',
  );
  out.push(
    'speed: machine speed probed around the run, % of the fastest probe; this VM slows down by up to 5x at times, and figures measured below ~85% are unreliable.',
  );
  out.push(
    `start-up (spawn to first 200 on /health, median of 3): ${startup.existing_median_ms} ms with the seeded data file [${startup.existing_file_ms.join(', ')}], ${startup.first_start_median_ms} ms on a first start that writes it [${startup.first_start_ms.join(', ')}], ${startup.bare_hono_median_ms} ms for a bare hono server [${startup.bare_hono_ms.join(', ')}]`,
  );
  out.push(
    `memory: RSS ${idleMemory.rss_mb} MB right after start, ${mainMemory.rss_mb} MB after the run (peak ${mainMemory.hwm_mb} MB), ${outcome.settledRss.at(-1)} MB after ${SETTLE_S} s idle, ${shipmentsAfter ?? '?'} shipments stored at the end`,
  );
  if (logCost) {
    out.push(
      `logging: LOG_LEVEL=info serves GET /shipments/{id} at ${fmt(logCost.info.rps, 0)}/s vs ${fmt(logCost.warn.rps, 0)}/s with warn (${times(ratio(logCost.info.rps, logCost.warn.rps))}), p99 ${fmt(logCost.info.p99_ms, 2)} vs ${fmt(logCost.warn.p99_ms, 2)} ms, ~${logCost.log_bytes_per_request} bytes of log per request`,
    );
  }
  if (hostile) out.push(...hostileLines(hostile));
  if (outcome.docs) out.push(docsPageLine(outcome.docs));
  if (soak) {
    out.push(
      `tenant soak: ${soak.tenants} ephemeral tenants x ${soak.shipments_per_tenant} shipments in ${soak.rounds} rounds (${soak.seconds}s), each round expired by the clock: RSS ${soak.rss_idle_mb} MB after start, ${soak.rss_start_mb} MB after a warm-up round and ${soak.settle_seconds} s idle, then [${soak.rss_after_rounds_mb.join(', ')}] MB as each round ended, then idle [${soak.rss_settle_mb.join(', ')}] MB every ${soak.settle_seconds / soak.rss_settle_mb.length} s: ${soak.rss_end_mb} MB at the end (peak ${soak.rss_peak_mb} MB), ${soak.tenants_left} tenants left`,
    );
  }
  if (growth.length > 0) out.push(...growthLines(outcome));
  for (const profile of profiles) {
    out.push('');
    out.push(
      formatProfile(`CPU profile of ${profile.scenario}${profile.rps === undefined ? '' : ` (${fmt(profile.rps, 0)} req/s while profiled)`}`, profile.summary),
    );
  }
  out.push('');
  for (const target of targets) out.push(`${target.ok ? 'PASS  ' : 'MISSED'}  ${target.text}`);
  for (const note of notes) out.push(`note: ${note}`);
  out.push('');
  return out.join('\n') + '\n';
}

/** The figures of the hostile-bodies scenario, a line per run. */
export function hostileLines(hostile: Hostile): string[] {
  const runs = [['bursts 250 ms apart', hostile.bursts] as const, ...(hostile.flood ? [['bursts back to back (a flood)', hostile.flood] as const] : [])];
  return runs.map(([label, runResult]) => {
    const statuses = Object.entries(runResult.hostile.statuses)
      .map(([key, count]) => `${key}: ${count}`)
      .join(', ');
    const bad = runResult.hostile.bad.length > 0 ? `; not a 4xx errors document: ${runResult.hostile.bad.join(' | ')}` : '';
    return `hostile bodies, ${label}: /health p50 ${fmt(runResult.under_attack.p50_ms, 2)} ms, p99 ${fmt(runResult.under_attack.p99_ms, 2)} ms, max ${fmt(runResult.under_attack.max_ms, 2)} ms (${runResult.under_attack.probes} probes; idle p99 ${fmt(runResult.idle.p99_ms, 2)} ms) while ${runResult.hostile.bursts} bursts of ${hostile.senders} x ${hostile.body_mb} MB bodies were sent in ${hostile.seconds}s; ${runResult.hostile.refused_4xx} of ${runResult.hostile.sent} answered 4xx in the errors document, each in p50 ${fmt(runResult.hostile.p50_ms, 1)} ms, max ${fmt(runResult.hostile.max_ms, 1)} ms [${statuses}]${bad}; RSS ${runResult.rss_before_mb} MB before, peak ${runResult.rss_peak_mb} MB`;
  });
}
