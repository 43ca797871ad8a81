import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { lockDataFile } from '../src/server/data-lock.js';
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
      lockDataFile(file);
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
      expect(() => lockDataFile(file)).toThrow(DataFileError);
      expect(() => lockDataFile(file)).toThrow(
        `it is in use by another parcel-sandbox (pid ${holder.pid}, lock ${file}.lock): stop that one, or start this one on another data file (--data) or in memory (--memory)`,
      );
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
