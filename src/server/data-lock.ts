import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { DataFileError } from '../store/persistence.js';

/*
 * One process serves a data file at a time: two would each keep their own copy in memory, hand
 * out the same ids and overwrite each other's writes. The process that serves `file` holds
 * `<file>.lock`, created exclusively with its pid and hostname inside and removed when it exits.
 * A lock whose process no longer runs (killed with `kill -9`), or one another host left, is taken over.
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

/**
 * Whether the holder's process is gone: ours (pid 1 again in a new container), or not running on
 * this host. A lock of another host is taken to be gone too: a container started anew on the same
 * volume has another hostname, and a container killed with SIGKILL leaves its lock behind, which
 * would otherwise stop every later start. Two hosts serving one shared file at once is the case
 * this does not catch (the start says so on stderr).
 */
function stale(holder: Holder, host: string): boolean {
  if (holder.hostname !== host) return true;
  return holder.pid === process.pid || !alive(holder.pid);
}

/**
 * Takes the lock of the data file `file`, or throws `DataFileError` naming the process that holds
 * it. System errors (a read-only directory) are thrown as they are. The lock is removed when the
 * process exits, however it exits short of a kill.
 */
export function lockDataFile(file: string): void {
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
    const gone = holder.pid === 0 || stale(holder, host);
    // Two starts taking over the same stale lock: the one that finds it taken again is refused below.
    if (!gone || attempt >= 3) {
      // Most often a second `npm start` in another terminal: say how to run both, or just one.
      throw new DataFileError(
        file,
        `it is in use by another parcel-sandbox (pid ${holder.pid}, lock ${lock}): stop that one, or start this one on another data file (--data) or in memory (--memory)`,
      );
    }
    if (holder.pid !== 0 && holder.hostname !== host) {
      process.stderr.write(
        `parcel-sandbox: taking over the lock of ${file} left by pid ${holder.pid} on ${holder.hostname}, whose process this host cannot see\n`,
      );
    }
    if (holder.pid !== 0) rmSync(lock, { force: true });
  }
  process.once('exit', () => {
    try {
      // Only our own lock: a lock another process took over meanwhile stays.
      if (readFileSync(lock, 'utf8') === mine) rmSync(lock, { force: true });
    } catch {
      // Already gone.
    }
  });
}
