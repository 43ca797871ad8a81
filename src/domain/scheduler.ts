import type { JobHandler, Rules, Scheduler } from './rules.js';
import { DataWriteError } from '../store/persistence-api.js';
import { DataClosedError, DataReplacedError, type Tx } from '../store/store.js';
import type { JobRecord } from '../store/tables.js';

export type { JobHandler, Scheduler } from './rules.js';

const MAX_JOBS_PER_RUN = 100_000;

/**
 * How many `run` jobs (webhook deliveries: each may wait up to 10 s on a receiver) are out at
 * once in all, and for one tenant. The rest of the jobs run one at a time between them, so a
 * receiver that never answers holds back only the deliveries queued behind it on its own hook;
 * a tenant with many slow hooks takes at most its share of the slots, so it needs several
 * tenants' worth of stuck receivers to keep everyone else's deliveries waiting. Small, because
 * each is an open connection. The README states both numbers (Hooks, and the list of limits).
 */
export const MAX_RUNS_IN_FLIGHT = 8;
export const MAX_RUNS_PER_TENANT = 2;

/** A `run` job that is out: its lane is busy until `settled`, which never rejects (it holds the error). */
type Flight = { job: JobRecord; lane: string; settled: Promise<void> };

/**
 * The scheduler of one sandbox. Passes over the due jobs are serialized, so a job never runs twice
 * at once: `apply` jobs run one at a time inside a pass, while `run` jobs (outside-world work) are
 * started by a pass and go on beside it, at most MAX_RUNS_IN_FLIGHT at once and one at a time per
 * lane, in due order. A job is due when the clock of its tenant (`organization_id`; the global
 * clock without one) passes its `due_ms`, and runs on that tenant's rules, so what it writes is
 * dated on the tenant's clock and what it schedules is the tenant's again.
 */
export function createScheduler(rules: () => Rules, handlers: Readonly<Record<string, JobHandler>>): Scheduler {
  let running: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  // Set by `shutdown` (the process is going down): no job starts any more, what is queued stays in the data.
  let stopped = false;
  // Aborted by `abandon`: the run jobs that are out end at once instead of in their own time.
  const abandoned = new AbortController();
  const flights = new Map<string, Flight>();
  const busyLanes = new Set<string>();
  // Run jobs whose outcome the data file refused: they stay in the data, and wait (with their
  // lane) for the next call of runDue or the next tick instead of going out again at once, over
  // and over while the disk is full.
  const held = new Map<string, { job: JobRecord; lane: string; error: unknown }>();
  const releaseHeld = () => {
    for (const entry of held.values()) busyLanes.delete(entry.lane);
    held.clear();
  };

  const dueJobs = (): JobRecord[] => {
    const global = rules();
    // One reading per tenant, so every job of a tenant is judged against the same moment.
    const nowOf = new Map<string | undefined, number>();
    const now = (organizationId: string | undefined) => {
      let value = nowOf.get(organizationId);
      if (value === undefined) nowOf.set(organizationId, (value = global.forTenant(organizationId).clock.nowMs()));
      return value;
    };
    return global.store
      .all('jobs')
      .filter((job) => job.due_ms <= now(job.organization_id))
      .sort((a, b) => a.due_ms - b.due_ms);
  };

  /** The due jobs nobody is running: not out, and not held back after a refused write. */
  const waiting = (): JobRecord[] => dueJobs().filter((job) => !flights.has(job.id) && !held.has(job.id));

  const runOne = async (job: JobRecord): Promise<void> => {
    const s = rules().forTenant(job.organization_id);
    const handler = handlers[job.kind];
    const done = (tx: Tx) => {
      if (tx.get('jobs', job.id)) tx.remove('jobs', job.id);
    };
    try {
      if (!handler) throw new Error(`no handler for job kind '${job.kind}'`);
      if ('apply' in handler) {
        await s.store.transact((tx) => {
          done(tx);
          handler.apply(tx, job, s);
        });
      } else {
        await handler.run(s, job, abandoned.signal);
        await s.store.transact(done);
      }
    } catch (error) {
      // Abandoned (the sandbox closed) while out: nothing of it was written, the job stays.
      if (abandoned.signal.aborted) return;
      // Nothing of the job was kept: it stays, and runs again once the data file takes writes.
      if (error instanceof DataWriteError) throw error;
      // A reset overtook the job and nothing of it ran: the new data has the job again (the next pass runs it) or not.
      if (error instanceof DataReplacedError) return;
      // The data closed under it (the sandbox is stopping; a delivery answered late): nothing of it
      // was written, so the job stays in the data file and runs again after a restart. A delivery
      // may so reach its receiver twice, as webhooks may: at least once, never lost.
      if (error instanceof DataClosedError) return;
      // A failing job is logged and dropped: retrying it on every tick would only repeat the failure.
      s.logger?.error({ err: error, job: job.kind, subject: job.subject }, 'scheduled job failed');
      await s.store.transact(done);
    }
  };

  const tenantFlights = (organizationId: string | undefined): number => {
    let count = 0;
    for (const flight of flights.values()) if (flight.job.organization_id === organizationId) count += 1;
    return count;
  };

  /** Sends a run job out; the pass goes on without waiting for it. */
  const launch = (job: JobRecord, lane: string): void => {
    busyLanes.add(lane);
    const settled = runOne(job).then(
      () => {
        flights.delete(job.id);
        busyLanes.delete(lane);
      },
      (error: unknown) => {
        flights.delete(job.id);
        // Held, it keeps its lane until it may go again: the lane's later jobs must not overtake it.
        held.set(job.id, { job, lane, error });
        rules().logger?.error({ err: error, job: job.kind, subject: job.subject }, 'due jobs could not run; they stay and run on a later tick');
      },
    );
    flights.set(job.id, { job, lane, settled });
  };

  /**
   * One serialized pass: runs the due apply jobs, and starts the due run jobs that have a free
   * slot and lane, until nothing more can run or start. It never waits on a run job, so a slow
   * receiver never holds it. Due order is kept per lane: the earliest due job of a lane takes it.
   */
  const pass = async (): Promise<number> => {
    let count = 0;
    for (let due = waiting(), moved = true; !stopped && moved && due.length > 0 && count < MAX_JOBS_PER_RUN; due = waiting()) {
      moved = false;
      const passed = new Set<string>();
      for (const job of due) {
        if (stopped) break;
        if (!rules().store.get('jobs', job.id)) continue;
        const handler = handlers[job.kind];
        if (handler && 'run' in handler) {
          const lane = handler.lane(job);
          // A lane passed over waits whole: a later job of it must not overtake its earlier one.
          if (passed.has(lane) || busyLanes.has(lane) || flights.size >= MAX_RUNS_IN_FLIGHT || tenantFlights(job.organization_id) >= MAX_RUNS_PER_TENANT) {
            passed.add(lane);
            continue;
          }
          launch(job, lane);
        } else {
          await runOne(job);
        }
        count += 1;
        moved = true;
      }
    }
    return count;
  };

  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = running.then(work, work);
    running = run.catch(() => undefined);
    return run;
  };

  const runDue: Scheduler['runDue'] = async (organizationId) => {
    // A new call is the later attempt a refused write waits for.
    releaseHeld();
    const ours = (job: JobRecord) => organizationId === undefined || job.organization_id === organizationId;
    let count = 0;
    // Whether the last pass, with nothing out, started nothing.
    let idle = false;
    for (;;) {
      const ran = await serially(pass);
      count += ran;
      // Stopping: what is out ends on its own (or with the process), and nothing more starts.
      if (stopped) return count;
      const refused = [...held.values()].find((entry) => ours(entry.job));
      if (refused) throw refused.error;
      if (count >= MAX_JOBS_PER_RUN) return count;
      const out = [...flights.values()].filter((flight) => ours(flight.job));
      if (out.length === 0) {
        if (!waiting().some(ours)) return count;
        // Nothing is out, yet ours wait: one of ours ended after the pass and left a retry that
        // is due, so pass again. Two passes in a row that start nothing mean the rest waits for
        // a held job's lane (the next call): stop.
        if (flights.size === 0) {
          if (idle && ran === 0) return count;
          idle = ran === 0;
          continue;
        }
      }
      idle = false;
      // Ours out: wait for one to end (its retry may be due already). Ours all waiting for a slot
      // others hold: wait for any to end. Then pass again.
      await Promise.race((out.length > 0 ? out : [...flights.values()]).map((flight) => flight.settled));
    }
  };

  const early = async (subjects: readonly string[]): Promise<number> => {
    let count = 0;
    for (const subject of subjects) {
      for (const job of [...rules().store.find('jobs', 'subject', subject)]) {
        // Already out: it ends in its own time; running it here too would send it twice.
        if (flights.has(job.id)) continue;
        const s = rules().forTenant(job.organization_id);
        const dueMs = Math.min(job.due_ms, s.clock.nowMs());
        await runOne({ ...job, due_ms: dueMs });
        count += 1;
      }
    }
    return count;
  };

  const cancel: Scheduler['cancel'] = (tx, kind, subject) => {
    for (const job of tx.find('jobs', 'subject', subject)) if (job.kind === kind) tx.remove('jobs', job.id);
  };

  const shutdown = () => {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = undefined;
  };

  return {
    schedule(tx, { kind, subject, dueMs, payload, organizationId }) {
      cancel(tx, kind, subject);
      tx.insert('jobs', {
        id: tx.newId(),
        kind,
        subject,
        due_ms: dueMs,
        ...(organizationId !== undefined ? { organization_id: organizationId } : {}),
        ...(payload ? { payload } : {}),
      });
    },
    cancel,
    runDue,
    runEarly: (subjects) => serially(() => early(subjects)),
    start(intervalMs = 200) {
      // The tick starts what is due and goes: it never waits for a delivery, so it never piles up.
      timer ??= setInterval(() => {
        releaseHeld();
        if (waiting().length > 0) {
          serially(pass).catch((error: unknown) => rules().logger?.error({ err: error }, 'due jobs could not run; they stay and run on a later tick'));
        }
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    shutdown,
    async abandon() {
      shutdown();
      abandoned.abort();
      await Promise.all([...flights.values()].map((flight) => flight.settled));
    },
  };
}

/** The scheduler as a tenant's rules hand it out: what it schedules is that tenant's. */
export function tenantScheduler(scheduler: Scheduler, organizationId: string): Scheduler {
  return {
    schedule: (tx, job) => scheduler.schedule(tx, { ...job, organizationId: job.organizationId ?? organizationId }),
    cancel: (tx, kind, subject) => scheduler.cancel(tx, kind, subject),
    runDue: (id) => scheduler.runDue(id ?? organizationId),
    runEarly: (subjects) => scheduler.runEarly(subjects),
    start: (intervalMs) => scheduler.start(intervalMs),
    stop: () => scheduler.stop(),
    shutdown: () => scheduler.shutdown(),
    abandon: () => scheduler.abandon(),
  };
}
