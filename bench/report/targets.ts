// The targets we set ourselves, each checked into a PASS/MISSED line: the bench reports a miss, it does not fail on one.
import { speedPct } from '../lib/speed.js';
import { fmt, ratio } from './format.js';
import type { DocsPage } from '../scenarios/docs-page.js';
import type { Hostile } from '../scenarios/hostile.js';
import { byName, growthRatio, listPageCpuRatio, startupMs, type Outcome } from './outcome.js';
import type { Startup } from '../scenarios/startup.js';

export interface Target {
  ok: boolean;
  text: string;
}

/** The GET target on its paired rounds alone (`--only-get`). */
export function getTarget(paired: { ratio: number }): Target {
  return {
    ok: paired.ratio >= 0.65,
    text: `GET /shipments/{id} >= 65% of the baseline's req/s: ${Math.round(paired.ratio * 100)}% measured in turns with the baseline`,
  };
}

export function checkTargets(outcome: Outcome): Target[] {
  const { baseline, tiny, pairedGet, pairedLists, jose, startup, hostile, soak, mainMemory, settledRss } = outcome;
  const get = byName(outcome, 'GET /shipments/{id}');
  const create = byName(outcome, 'POST /shipments');
  const token = byName(outcome, 'POST /access-token');
  const targets: Target[] = [];
  const getShare = ratio(get.rps, baseline.rps);
  const pct = (value: number | null | undefined) => `${Math.round((value ?? 0) * 100)}%`;
  const rounds = (paired: { rounds: { sandbox_rps: number; baseline_rps: number }[] }) =>
    paired.rounds.map((r) => `${fmt(r.sandbox_rps, 0)}/${fmt(r.baseline_rps, 0)}`).join(', ');
  targets.push({
    ok: get.non2xx === 0 && (pairedGet?.ratio ?? 0) >= 0.65,
    text: `GET /shipments/{id} >= 65% of the baseline's req/s: ${pct(pairedGet?.ratio)} measured in turns with the baseline (rounds: ${pairedGet ? rounds(pairedGet) : 'n/a'}); in the table, ${fmt(get.rps, 0)}/s = ${pct(getShare)} of the mean baseline ${fmt(baseline.rps, 0)}/s (same document; ${pct(ratio(get.rps, tiny.rps))} of the tiny-document baseline's ${fmt(tiny.rps, 0)}/s)`,
  });
  for (const list of pairedLists) {
    const measured = byName(outcome, list.name);
    targets.push({
      ok: measured.non2xx === 0 && list.ratio >= 0.3,
      text: `${list.name} >= 30% of a bare hono serving the same document (${Math.round(list.document_bytes / 1024)} KB): ${pct(list.ratio)} in turns (rounds: ${rounds(list)})`,
    });
  }
  const pageCost = listPageCpuRatio(outcome);
  targets.push({
    ok: pageCost !== null && pageCost <= 3,
    text: `a 30-item page costs <= 3x a single resource (CPU per request, GET /shipments?page[size]=30 over GET /shipments/{id}): x${fmt(pageCost, 2)}`,
  });
  targets.push({
    ok: create.non2xx === 0 && create.rps >= 2000 && (create.p99_ms ?? Infinity) < 15,
    text: `POST /shipments >= 2,000 req/s with p99 < 15 ms: ${fmt(create.rps, 0)}/s, p99 ${fmt(create.p99_ms, 2)} ms`,
  });
  targets.push({
    ok: token.non2xx === 0 && token.rps >= 8000,
    text: `POST /access-token >= 8,000 req/s: ${fmt(token.rps, 0)}/s (a bare jose ES256 sign on the same CPU: ${fmt(jose.signs_per_s, 0)}/s, so ${pct(ratio(token.rps, jose.signs_per_s))} of the floor)`,
  });
  targets.push(startupTarget(startup));
  if (hostile) targets.push(...hostileTargets(hostile));
  if (outcome.docs) targets.push(docsTarget(outcome.docs));
  if (soak) {
    targets.push({
      ok: soak.rss_ratio <= 1.2 && soak.tenants_left === 0,
      text: `RSS within 20% after ${soak.tenants} ephemeral tenants with ${soak.shipments_per_tenant} shipments each came and went: ${soak.rss_start_mb} MB after the warm-up round, ${soak.rss_end_mb} MB at the end (x${soak.rss_ratio}; both read after ${soak.settle_seconds} s idle), ${soak.tenants_left} tenants left; under load it peaked at ${soak.rss_peak_mb} MB (x${soak.rss_busy_ratio} as the last round ended)`,
    });
  }
  targets.push({
    ok: mainMemory.rss_mb < 150,
    text: `RSS < 150 MB right after the run with the seeded data: ${mainMemory.rss_mb} MB (${settledRss.at(-1)} MB once idle)`,
  });
  const growthX = growthTarget(outcome);
  if (growthX) targets.push(growthX);
  return targets;
}

/** POST /shipments p99 with the most shipments stored within 1.2x of that with the fewest (measured in turns, scenarios/growth.ts). */
export function growthTarget(outcome: Pick<Outcome, 'growth'>): Target | undefined {
  const { growth } = outcome;
  if (growth.length < 2) return undefined;
  const first = growth[0]!;
  const last = growth.at(-1)!;
  const growthX = growthRatio(outcome);
  return {
    ok: growthX !== null && growthX <= 1.2,
    text: `POST /shipments p99 with ${last.shipments} stored within 1.2x of that with ${first.shipments}: ${fmt(first.create.p99_ms, 2)} -> ${fmt(last.create.p99_ms, 2)} ms (x${fmt(growthX, 2)})`,
  };
}

/** Names the runs measured while the VM ran below 85% of its best speed: their req/s and latencies are soft. */
export function slowNote(outcome: Outcome): string | undefined {
  const { baselineFirst, baselineLast, measured, logCost, growth } = outcome;
  const everything = [baselineFirst, baselineLast, ...measured, ...(logCost ? [logCost.info] : []), ...growth.flatMap((g) => [g.list, g.create])];
  const slow = everything.filter((m) => (speedPct(m) ?? 100) < 85);
  if (slow.length === 0) return undefined;
  return `the machine was slow (< 85% of its best speed) around: ${slow.map((m) => `${m.name} (${speedPct(m)}%)`).join(', ')}; rerun for firmer figures`;
}

/** The targets of the hostile-bodies scenario (bursts 250 ms apart): /health p99 and max, RSS, every hostile request refused in the errors document. */
export function hostileTargets(hostile: Hostile): Target[] {
  const { under_attack: health, hostile: sent, rss_peak_mb: rss } = hostile.bursts;
  const what = `bursts of ${hostile.senders} hostile ${hostile.body_mb} MB bodies arrive 250 ms apart`;
  return [
    {
      ok: (health.p99_ms ?? Infinity) < 50 && (health.max_ms ?? Infinity) < 200,
      text: `/health p99 < 50 ms and max < 200 ms while ${what}: p99 ${fmt(health.p99_ms, 2)} ms, max ${fmt(health.max_ms, 2)} ms (${health.probes} probes)`,
    },
    { ok: rss < 300, text: `RSS < 300 MB while ${what}: peak ${rss} MB` },
    {
      ok: sent.sent > 0 && sent.refused_4xx === sent.sent,
      text: `every hostile request answered 4xx in the errors document: ${sent.refused_4xx} of ${sent.sent}${sent.bad.length > 0 ? ` (first other: ${sent.bad[0]})` : ''}`,
    },
  ];
}

/** The API reference page is interactive within 2 s (median of the loads after the first). */
export function docsTarget(docs: DocsPage): Target {
  return { ok: docs.median_ms < 2000, text: `/docs interactive in headless Chromium < 2 s: median ${docs.median_ms} ms (first load ${docs.first_ms} ms)` };
}

/** The start-up target: the slower of the medians on a seeded data file and on a first start, under 300 ms. */
export function startupTarget(startup: Startup): { ok: boolean; text: string } {
  return {
    ok: startupMs({ startup }) < 300,
    text: `first 200 on /health < 300 ms after process start: ${startup.existing_median_ms} ms (seeded data file), ${startup.first_start_median_ms} ms (first start); a bare hono server on the same machine: ${startup.bare_hono_median_ms} ms`,
  };
}
