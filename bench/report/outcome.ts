// Everything one bench run measured, in one place, so the printed report, the targets and results.json read the same figures.
import type { Measured } from '../lib/measure.js';
import type { DocsPage } from '../scenarios/docs-page.js';
import type { GrowthPoint } from '../scenarios/growth.js';
import type { Hostile } from '../scenarios/hostile.js';
import type { JoseSign } from '../scenarios/jose-sign.js';
import type { LogCost } from '../scenarios/log-cost.js';
import type { Profile } from '../scenarios/profiles.js';
import type { SandboxRun } from '../scenarios/sandbox.js';
import type { Startup } from '../scenarios/startup.js';
import type { TenantSoak } from '../scenarios/tenant-soak.js';
import { ratio } from './format.js';

export interface Outcome extends Omit<SandboxRun, 'stopCode'> {
  baselineFirst: Measured;
  baselineLast: Measured;
  /** The mean of `baselineFirst` and `baselineLast`: what the table's ratios divide by. */
  baseline: Measured;
  tiny: Measured;
  /** Bare jose ES256 signs per second on the sandbox's CPU. */
  jose: JoseSign;
  startup: Startup;
  logCost: LogCost | undefined;
  hostile: Hostile | undefined;
  soak: TenantSoak | undefined;
  docs: DocsPage | undefined;
  profiles: Profile[];
  growth: GrowthPoint[];
}

/** The slower of the two kinds of start, which the target is checked against. */
export const startupMs = (outcome: Pick<Outcome, 'startup'>) => Math.max(outcome.startup.existing_median_ms, outcome.startup.first_start_median_ms);

/** POST /shipments p99 at the largest store size over the smallest. */
export function growthRatio({ growth }: Pick<Outcome, 'growth'>): number | null {
  return growth.length >= 2 ? ratio(growth.at(-1)!.create.p99_ms, growth[0]!.create.p99_ms) : null;
}

export const byName = (outcome: Outcome, name: string) => outcome.measured.find((m) => m.name === name)!;

/** CPU per request of the 30-item page over that of one shipment (the "a page costs at most 3x one" target). */
export function listPageCpuRatio(outcome: Outcome): number | null {
  const get = outcome.measured.find((m) => m.name === 'GET /shipments/{id}');
  const list = outcome.measured.find((m) => m.name === 'GET /shipments?page[size]=30');
  return ratio(list?.cpu_per_request?.total_us, get?.cpu_per_request?.total_us);
}
