import type { Clock, ClockView } from '../clock.js';
import type { ReadView, Tx } from './store.js';

/**
 * Every tenant (organization) has its own sandbox clock. It starts at the global clock and is
 * never behind it: a tenant's time is the later of the global time and the time it moved its own
 * clock to. So moving the global clock moves every tenant that has not moved its own past it, a
 * tenant that moved ahead keeps its own time until the global clock catches up (from then on it
 * follows the global clock again), and the global time is the earliest time of any tenant (what
 * has expired on the global clock has expired for every tenant).
 *
 * A tenant's own setting is a row of `tenantClocks` (keyed by organization id, persisted with the
 * data): how far its clock runs ahead of the time source, like the global offset. The clocks read
 * that row on every reading, so a rolled-back transaction, a sandbox reset or a removed tenant can
 * never leave a clock out of step with the data.
 */
export class TenantClocks {
  private readonly clocks = new Map<string, TenantClock>();

  constructor(
    /** The global clock: the sandbox's own, and the clock of every tenant that follows it. */
    readonly global: Clock,
    private readonly store: ReadView,
  ) {}

  /** The clock of an organization (one object per organization, made on first use: a Map lookup). */
  of(organizationId: string): TenantClock {
    let clock = this.clocks.get(organizationId);
    if (!clock) {
      clock = new TenantClock(this.global, this.store, organizationId);
      this.clocks.set(organizationId, clock);
    }
    return clock;
  }

  /** Forgets the clock object of a removed organization (its setting went with its rows). */
  forget(organizationId: string): void {
    this.clocks.delete(organizationId);
  }
}

/** One tenant's clock: the later of the global clock and the tenant's own setting. */
export class TenantClock implements ClockView {
  constructor(
    private readonly global: Clock,
    private readonly store: ReadView,
    readonly organizationId: string,
  ) {}

  /** The offset the tenant moved its own clock to, or `undefined` when it never did (or was reset). */
  ownOffsetMs(): number | undefined {
    return this.store.get('tenantClocks', this.organizationId)?.offset_ms;
  }

  /** Whether the tenant's time is the global time: it never moved its clock, or the global clock caught up. */
  followsGlobal(): boolean {
    const own = this.ownOffsetMs();
    return own === undefined || own <= this.global.offsetMs();
  }

  offsetMs(): number {
    const own = this.ownOffsetMs();
    const global = this.global.offsetMs();
    return own !== undefined && own > global ? own : global;
  }

  nowMs(): number {
    const own = this.ownOffsetMs();
    const globalNow = this.global.nowMs();
    if (own === undefined) return globalNow;
    const ahead = own - this.global.offsetMs();
    return ahead > 0 ? globalNow + ahead : globalNow;
  }

  now(): number {
    return Math.floor(this.nowMs() / 1000);
  }
}

/** Moves a tenant's own clock to run `offsetMs` ahead of the time source (the caller checks it never goes backwards). */
export function setTenantClock(tx: Tx, organizationId: string, offsetMs: number): void {
  if (tx.get('tenantClocks', organizationId)) tx.update('tenantClocks', organizationId, { offset_ms: offsetMs });
  else tx.insert('tenantClocks', { id: organizationId, offset_ms: offsetMs });
}

/** Forgets the own clocks the global clock has caught up with (`globalOffsetMs`): they follow it from now on anyway. */
export function forgetCaughtUpClocks(tx: Tx, globalOffsetMs: number): void {
  for (const row of tx.all('tenantClocks')) if (row.offset_ms <= globalOffsetMs) tx.remove('tenantClocks', row.id);
}
