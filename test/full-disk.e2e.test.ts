import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dutchShipmentBody, getToken, startServer } from './support/server.js';

/*
 * A real full file system: a small tmpfs mounted for this file, a server whose data file lives on
 * it, and a filler file that takes every byte left. Mounting needs root (or CAP_SYS_ADMIN); where
 * the test cannot mount, it is skipped and says why.
 */
const SIZE = '4m';
const dir = mkdtempSync(join(tmpdir(), 'parcel-sandbox-full-disk-'));
const mounted = process.platform === 'linux' ? spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', dir], { encoding: 'utf8' }) : undefined;
const canMount = mounted?.status === 0;
if (!canMount) {
  const why = mounted ? (mounted.stderr || mounted.error?.message || `mount exited with ${mounted.status}`).trim() : `not Linux (${process.platform})`;
  console.warn(`test/full-disk.e2e.test.ts is SKIPPED: cannot mount a ${SIZE} tmpfs to fill (${why}); it needs root or CAP_SYS_ADMIN.`);
}
afterAll(() => {
  // Lazily, should a server the test started still hold a file there.
  if (canMount && spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a file until the file system has no byte left (a bounded number of chunks); returns its path. */
function fill(name: string): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 'x');
  try {
    for (let i = 0; i < 1024; i++) {
      const written = writeSync(fd, chunk);
      if (written < chunk.length) writeSync(fd, chunk.subarray(written));
    }
    throw new Error(`${dir} took 64 MB without filling up`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return path;
}

describe.skipIf(!canMount)('a sandbox whose data file is on a full file system', () => {
  it('answers writes 503 with Retry-After and keeps none of them, serves reads, and writes again once there is room, without a restart', async () => {
    const file = join(dir, 'sandbox.json');
    const server = await startServer({ DATA_FILE: file });
    try {
      const headers = { authorization: `Bearer ${await getToken(server.url)}`, 'content-type': 'application/vnd.api+json' };
      const body = await dutchShipmentBody(server.url, headers);
      const create = () => fetch(`${server.url}/shipments`, { method: 'POST', headers, body });
      const idOf = async (answer: Response) => ((await answer.json()) as { data: { id: string } }).data.id;
      const total = async () => {
        const answer = await fetch(`${server.url}/shipments`, { headers });
        expect(answer.status).toBe(200);
        return ((await answer.json()) as { meta: { total_records: number } }).meta.total_records;
      };
      const acknowledged = [await idOf(await create())];

      const filler = fill('filler');
      // The journal's last page may still have room for a write or two; every one acknowledged counts.
      let refused: Response | undefined;
      for (let i = 0; i < 50 && !refused; i++) {
        const answer = await create();
        if (answer.status === 201) acknowledged.push(await idOf(answer));
        else refused = answer;
      }
      expect(refused?.status).toBe(503);
      const before = await total();
      expect(before).toBeGreaterThanOrEqual(acknowledged.length);
      for (let i = 0; i < 5; i++) {
        const answer = i === 0 ? refused! : await create();
        expect(answer.status).toBe(503);
        expect(answer.headers.get('content-type')).toContain('application/vnd.api+json');
        expect(answer.headers.get('retry-after')).toBe('10');
        const { errors } = (await answer.json()) as { errors: { status: string; code: string; detail: string }[] };
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({ status: '503', code: '10001' });
        expect(errors[0]!.detail).toContain('the disk is full (ENOSPC)');
        expect(errors[0]!.detail).not.toContain(dir);
        // Nothing of it is visible, and reads go on.
        expect(await total()).toBe(before);
        for (const id of acknowledged) expect((await fetch(`${server.url}/shipments/${id}`, { headers })).status).toBe(200);
      }

      rmSync(filler);
      const accepted = await create();
      expect(accepted.status).toBe(201);
      acknowledged.push(await idOf(accepted));
      expect(await total()).toBe(before + 1);

      // Killed without a chance to fold the journal in: the next start reads every acknowledged write, and none of the refused.
      server.process.kill('SIGKILL');
      await server.stop();
      const again = await startServer({ DATA_FILE: file });
      try {
        const headersAgain = { ...headers, authorization: `Bearer ${await getToken(again.url)}` };
        for (const id of acknowledged) expect((await fetch(`${again.url}/shipments/${id}`, { headers: headersAgain })).status).toBe(200);
        const list = (await (await fetch(`${again.url}/shipments`, { headers: headersAgain })).json()) as { meta: { total_records: number } };
        expect(list.meta.total_records).toBe(before + 1);
      } finally {
        expect(await again.stop()).toBe(0);
      }
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
