import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { lockDataFile, STALE_MS, type LockTiming } from '../src/server/data-lock.js';
import { DataFileError } from '../src/store/persistence.js';

const state = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
};

/**
 * A process that has ended but is never collected: its shell `exec`s into a `sleep` that does
 * not wait for children. Answers its pid once it is a zombie, however long a busy machine takes
 * to end it (a hang is the test's timeout), and the parent to stop.
 */
async function zombie(): Promise<{ pid: number; parent: ReturnType<typeof spawn> }> {
  const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = Number((await new Promise<Buffer>((resolve) => parent.stdout!.once('data', resolve))).toString().trim());
  while (state(pid) !== 'Z') await wait(10);
  return { pid, parent };
}

describe.skipIf(!existsSync('/proc/self/stat'))('the lock of the data file', () => {
  it('is taken over from a sandbox that was killed but not yet collected by its parent (a zombie)', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-lock-')), 'sandbox.json');
    const { pid, parent } = await zombie();
    try {
      expect(state(pid)).toBe('Z');
      await writeFile(`${file}.lock`, `${JSON.stringify({ pid, hostname: hostname() })}\n`);
      await lockDataFile(file);
      expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toEqual({ pid: process.pid, hostname: hostname() });
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('is still refused while its holder runs', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-lock-')), 'sandbox.json');
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      await writeFile(`${file}.lock`, `${JSON.stringify({ pid: holder.pid, hostname: hostname() })}\n`);
      await expect(lockDataFile(file)).rejects.toThrow(DataFileError);
      await expect(lockDataFile(file)).rejects.toThrow(
        `it is in use by another parcel-sandbox (pid ${holder.pid}, lock ${file}.lock): stop that one, or start this one on another data file (--data) or in memory (--memory)`,
      );
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

/*
 * A lock of another host (a container of its own on the same volume) names a process this host
 * cannot see: whether it still runs shows in the lock being touched, every 2 s, by its holder.
 */
describe('the lock of the data file, left by another host', () => {
  const otherHost = { pid: 1, hostname: 'other-container' };

  /** A data file whose lock another host holds, last touched `ageMs` ago. */
  async function lockedElsewhere(ageMs: number) {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-lock-')), 'sandbox.json');
    const lock = `${file}.lock`;
    await writeFile(lock, `${JSON.stringify(otherHost)}\n`);
    const touched = new Date(Date.now() - ageMs);
    await utimes(lock, touched, touched);
    return { file, lock, touched: touched.getTime() };
  }

  /** Time that passes only when the lock waits: each wait moves it on by the time waited, after `onWait`. */
  function steppedTiming(start: number, onWait: (waits: number) => Promise<void> = async () => {}): LockTiming & { waits(): number } {
    let now = start;
    let waits = 0;
    return {
      now: () => now,
      wait: async (ms) => {
        waits += 1;
        now += ms;
        await onWait(waits);
      },
      waits: () => waits,
    };
  }

  it('is taken over at once when nobody touched it for STALE_MS (a container killed with SIGKILL)', async () => {
    const { file, lock, touched } = await lockedElsewhere(STALE_MS + 1000);
    const timing = steppedTiming(touched + STALE_MS + 1000);
    await lockDataFile(file, timing);
    expect(timing.waits()).toBe(0);
    expect(JSON.parse(await readFile(lock, 'utf8'))).toEqual({ pid: process.pid, hostname: hostname() });
  });

  it('is refused while its holder touches it (a second container started on a volume another one serves)', async () => {
    const { file, lock, touched } = await lockedElsewhere(1000);
    // The holder's next heartbeat comes while the start watches the lock.
    const timing = steppedTiming(touched + 1000, async (waits) => {
      if (waits === 2) await utimes(lock, new Date(), new Date());
    });
    await expect(lockDataFile(file, timing)).rejects.toThrow(
      `it is in use by another parcel-sandbox (pid 1 on other-container, lock ${lock}): stop that one, or start this one on another data file (--data) or in memory (--memory)`,
    );
    expect(timing.waits()).toBe(2);
    expect(JSON.parse(await readFile(lock, 'utf8'))).toEqual(otherHost);
  });

  it('is taken over once nobody touched it for STALE_MS, waiting no longer (a container started right after one was killed)', async () => {
    const { file, lock, touched } = await lockedElsewhere(1000);
    const timing = steppedTiming(touched + 1000);
    await lockDataFile(file, timing);
    // Watched in steps of 500 ms from 1 s of age until it was STALE_MS old.
    expect(timing.waits()).toBe((STALE_MS - 1000) / 500);
    expect(JSON.parse(await readFile(lock, 'utf8'))).toEqual({ pid: process.pid, hostname: hostname() });
  });

  it('is touched by the sandbox that took it, so that no other host takes it from a running one', async () => {
    const { file, lock } = await lockedElsewhere(STALE_MS + 1000);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      await lockDataFile(file);
      // A whole second, which the file system keeps exactly.
      const old = new Date(Math.floor((Date.now() - STALE_MS) / 1000) * 1000);
      await utimes(lock, old, old);
      await vi.advanceTimersByTimeAsync(2000);
      // The heartbeat reads the lock and touches it with real file operations: wait for them.
      for (let reads = 0; reads < 100 && (await stat(lock)).mtimeMs === old.getTime(); reads++) await readFile(lock);
      // Touched since it was aged: newer than the age a taker looks for, however slow the machine.
      expect((await stat(lock)).mtimeMs).toBeGreaterThan(old.getTime());
    } finally {
      vi.useRealTimers();
      await rm(lock, { force: true });
    }
  });
});
