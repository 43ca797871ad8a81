import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { DataFileError } from '../store/persistence.js';

/*
 * One process serves a data file at a time: two would each keep their own copy in memory, hand
 * out the same ids and overwrite each other's writes. The process that serves `file` holds
 * `<file>.lock`, created exclusively with its pid and hostname inside and removed when it exits.
 * A lock whose process no longer runs (killed with `kill -9`) is taken over; so is one another
 * host left, which its holder no longer touches (see `holderRuns`).
 */

interface Holder {
  pid: number;
  hostname: string;
}

/** Where the lock of the data file `file` is kept. */
export function lockFileFor(file: string): string {
  return `${file}.lock`;
}

/** Whether a process with `pid` runs on this host (EPERM: it runs as another user). */
function alive(pid: number): boolean {
  let exists: boolean;
  try {
    process.kill(pid, 0);
    exists = true;
  } catch (error) {
    exists = (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return exists && !zombie(pid);
}

/**
 * Whether `pid` has ended and only waits for its parent to collect it (Linux: state Z or X in
 * `/proc/<pid>/stat`; elsewhere this cannot tell, and says no). A sandbox killed with SIGKILL is
 * such a zombie until then: a second or so here, for ever under a parent that never collects
 * its children (a shell script's `exec`), and every start meanwhile was refused.
 */
function zombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // The state follows the command name, in parentheses that may themselves hold ') '.
  return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
}

function readHolder(lock: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(lock, 'utf8')) as Partial<Holder>;
    if (typeof holder.pid === 'number' && Number.isInteger(holder.pid) && holder.pid > 0 && typeof holder.hostname === 'string') {
      return { pid: holder.pid, hostname: holder.hostname };
    }
  } catch (error) {
    // Gone since the create failed: the caller simply tries again.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { pid: 0, hostname: '' };
  }
  return undefined;
}

/** How often the sandbox that holds a lock touches it, to show that it still runs. */
const HEARTBEAT_MS = 2000;

/** A lock untouched for this long is left behind: its holder missed five heartbeats. */
export const STALE_MS = 5 * HEARTBEAT_MS;

/** What `lockDataFile` reads the time with and waits with; tests hand in their own. */
export interface LockTiming {
  now(): number;
  wait(ms: number): Promise<void>;
}

const realTiming: LockTiming = { now: () => Date.now(), wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** When the lock was last touched (its mtime), or `undefined` when it is gone. */
function touchedAt(lock: string): number | undefined {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether a holder on this host runs as another process: a pid this host can check. */
function checkable(holder: Holder, host: string): boolean {
  return holder.hostname === host && holder.pid !== process.pid;
}

/**
 * Whether a holder this host cannot check still runs: another host's (a container of its own on
 * the same volume), or one with our own pid (pid 1 of a container restarted, or of a twin
 * container with the same fixed hostname). Such a holder touches its lock every HEARTBEAT_MS, so
 * a lock untouched for STALE_MS is left behind (a container killed with SIGKILL), and one
 * touched again while we watch is in use. A lock touched lately is watched until one or the
 * other: a start right after such a kill waits for at most STALE_MS. Without the heartbeat a
 * second container on the volume took over the lock of one still running, and the two wrote
 * over each other's journal and snapshot: acknowledged writes were lost.
 */
async function holderRuns(lock: string, holder: Holder, timing: LockTiming): Promise<boolean> {
  const first = touchedAt(lock);
  if (first === undefined) return false;
  // A time ahead of ours (another host's clock) counts as now: the watch still ends.
  const age = Math.max(0, timing.now() - first);
  if (age >= STALE_MS) return false;
  const until = timing.now() + STALE_MS - age;
  process.stderr.write(
    `parcel-sandbox: the lock ${lock} was touched ${Math.round(age / 1000)} s ago by pid ${holder.pid} on ${holder.hostname}; waiting up to ${Math.ceil((STALE_MS - age) / 1000)} s to see whether that sandbox still runs\n`,
  );
  while (timing.now() < until) {
    await timing.wait(HEARTBEAT_MS / 4);
    const latest = touchedAt(lock);
    if (latest === undefined) return false;
    if (latest !== first) return true;
  }
  return false;
}

/** Touches the lock every HEARTBEAT_MS while it is ours, so that no other host takes it over. */
function keepAlive(lock: string, mine: string): void {
  const beat = async () => {
    let text: string | undefined;
    try {
      text = await readFile(lock, 'utf8');
    } catch (error) {
      // A disk that refused a read tries again on the next beat; a lock that is gone is not ours.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    }
    if (text !== mine) return clearInterval(timer);
    const now = new Date();
    await utimes(lock, now, now).catch(() => undefined);
  };
  const timer = setInterval(() => void beat(), HEARTBEAT_MS);
  timer.unref();
}

/**
 * Takes the lock of the data file `file`, or throws `DataFileError` naming the process that holds
 * it. System errors (a read-only directory) are thrown as they are. The lock is removed when the
 * process exits, however it exits short of a kill, and touched every HEARTBEAT_MS until then.
 */
export async function lockDataFile(file: string, timing: LockTiming = realTiming): Promise<void> {
  const lock = lockFileFor(file);
  const host = hostname();
  const mine = `${JSON.stringify({ pid: process.pid, hostname: host })}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, mine, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(lock);
    if (holder === undefined) {
      throw new DataFileError(file, `its lock ${lock} is damaged; delete it if no sandbox serves this file`);
    }
    const gone = holder.pid === 0 || (checkable(holder, host) ? !alive(holder.pid) : !(await holderRuns(lock, holder, timing)));
    // Two starts taking over the same stale lock: the one that finds it taken again is refused below.
    if (!gone || attempt >= 3) {
      const where = holder.hostname === host ? '' : ` on ${holder.hostname}`;
      // Most often a second `npm start` in another terminal: say how to run both, or just one.
      throw new DataFileError(
        file,
        `it is in use by another parcel-sandbox (pid ${holder.pid}${where}, lock ${lock}): stop that one, or start this one on another data file (--data) or in memory (--memory)`,
      );
    }
    if (holder.pid !== 0 && holder.hostname !== host) {
      process.stderr.write(
        `parcel-sandbox: taking over the lock of ${file} left by pid ${holder.pid} on ${holder.hostname}, whose process this host cannot see\n`,
      );
    }
    if (holder.pid !== 0) rmSync(lock, { force: true });
  }
  keepAlive(lock, mine);
  process.once('exit', () => {
    try {
      // Only our own lock: a lock another process took over meanwhile stays.
      if (readFileSync(lock, 'utf8') === mine) rmSync(lock, { force: true });
    } catch {
      // Already gone.
    }
  });
}
