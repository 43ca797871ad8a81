import type { JobHandler, Rules, Scheduler } from './rules.js';
import type { Tx } from '../store/store.js';
import type { JobRecord } from '../store/tables.js';

export type { JobHandler, Scheduler } from './rules.js';

const MAX_JOBS_PER_RUN = 100_000;

/** The scheduler of one sandbox. Runs are serialized, so a job never runs twice at once. */
export function createScheduler(rules: () => Rules, handlers: Readonly<Record<string, JobHandler>>): Scheduler {
  let running: Promise<number> = Promise.resolve(0);
  let timer: NodeJS.Timeout | undefined;

  const dueJobs = (): JobRecord[] => {
    const { store, clock } = rules();
    const now = clock.nowMs();
    return store
      .all('jobs')
      .filter((job) => job.due_ms <= now)
      .sort((a, b) => a.due_ms - b.due_ms);
  };

  const runOne = async (job: JobRecord): Promise<void> => {
    const s = rules();
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

  return {
    schedule(tx, { kind, subject, dueMs, payload }) {
      this.cancel(tx, kind, subject);
      tx.insert('jobs', { id: tx.newId(), kind, subject, due_ms: dueMs, ...(payload ? { payload } : {}) });
    },
    cancel(tx, kind, subject) {
      for (const job of tx.find('jobs', 'subject', subject)) if (job.kind === kind) tx.remove('jobs', job.id);
    },
    runDue() {
      running = running.then(drain, drain);
      return running;
    },
    start(intervalMs = 200) {
      timer ??= setInterval(() => {
        if (dueJobs().length > 0) void this.runDue();
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
