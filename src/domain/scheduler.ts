import type { JobHandler, Rules, Scheduler } from './rules.js';
import { DataWriteError } from '../store/persistence-api.js';
import { DataReplacedError, type Tx } from '../store/store.js';
import type { JobRecord } from '../store/tables.js';

export type { JobHandler, Scheduler } from './rules.js';

const MAX_JOBS_PER_RUN = 100_000;

/**
 * The scheduler of one sandbox. Runs are serialized, so a job never runs twice at once. A job is
 * due when the clock of its tenant (`organization_id`; the global clock without one) passes its
 * `due_ms`, and runs on that tenant's rules, so what it writes is dated on the tenant's clock and
 * what it schedules is the tenant's again.
 */
export function createScheduler(rules: () => Rules, handlers: Readonly<Record<string, JobHandler>>): Scheduler {
  let running: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;

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
        await handler.run(s, job);
        await s.store.transact(done);
      }
    } catch (error) {
      // Nothing of the job was kept: it stays, and runs again once the data file takes writes.
      if (error instanceof DataWriteError) throw error;
      // A reset overtook the job and nothing of it ran: the new data has the job again (the next pass runs it) or not.
      if (error instanceof DataReplacedError) return;
      // A failing job is logged and dropped: retrying it on every tick would only repeat the failure.
      s.logger?.error({ err: error, job: job.kind, subject: job.subject }, 'scheduled job failed');
      await s.store.transact(done);
    }
  };

  const drain = async (): Promise<number> => {
    let count = 0;
    for (let due = dueJobs(); due.length > 0 && count < MAX_JOBS_PER_RUN; due = dueJobs()) {
      for (const job of due) {
        if (!rules().store.get('jobs', job.id)) continue;
        await runOne(job);
        count += 1;
      }
    }
    return count;
  };

  const early = async (subjects: readonly string[]): Promise<number> => {
    let count = 0;
    for (const subject of subjects) {
      for (const job of [...rules().store.find('jobs', 'subject', subject)]) {
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
    runDue() {
      running = running.then(drain, drain);
      return running;
    },
    runEarly(subjects) {
      const run = running.then(
        () => early(subjects),
        () => early(subjects),
      );
      running = run;
      return run;
    },
    start(intervalMs = 200) {
      timer ??= setInterval(() => {
        if (dueJobs().length > 0) {
          this.runDue().catch((error: unknown) => rules().logger?.error({ err: error }, 'due jobs could not run; they stay and run on a later tick'));
        }
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

/** The scheduler as a tenant's rules hand it out: what it schedules is that tenant's. */
export function tenantScheduler(scheduler: Scheduler, organizationId: string): Scheduler {
  return {
    schedule: (tx, job) => scheduler.schedule(tx, { ...job, organizationId: job.organizationId ?? organizationId }),
    cancel: (tx, kind, subject) => scheduler.cancel(tx, kind, subject),
    runDue: () => scheduler.runDue(),
    runEarly: (subjects) => scheduler.runEarly(subjects),
    start: (intervalMs) => scheduler.start(intervalMs),
    stop: () => scheduler.stop(),
  };
}
