import { spawn } from 'node:child_process';
import { appendFile, cp, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { listSegments, segmentPath } from '../src/store/journal.js';
import { filePersistence } from '../src/store/persistence.js';
import { STALE_MS } from '../src/server/data-lock.js';
import { cliEntry, dutchShipmentBody, getToken, outputMatching, runToExit, startServer, type RunningServer } from './support/server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tempDir = () => mkdtemp(join(tmpdir(), 'parcel-sandbox-durability-'));
const lastSegment = async (file: string) => segmentPath(file, (await listSegments(file)).at(-1)!);

/** A client of one running server: its token and a valid shipment body from a fixture shop. */
async function client(url: string) {
  const token = await getToken(url);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' };
  const body = await dutchShipmentBody(url, headers);
  return {
    /** The new shipment's id once the server answered 201, `undefined` otherwise. */
    create: async (): Promise<string | undefined> => {
      const answer = await fetch(`${url}/shipments`, { method: 'POST', headers, body });
      if (answer.status !== 201) return undefined;
      return ((await answer.json()) as { data: { id: string } }).data.id;
    },
    status: async (id: string) => (await fetch(`${url}/shipments/${id}`, { headers })).status,
  };
}

/**
 * Fires creations `workers` at a time and kills the server with SIGKILL right after the
 * `killAfter`-th acknowledgement (201), while the other workers' requests are in flight; every 201
 * goes into `acknowledged`. Resolves once every worker has seen the server die.
 */
async function fireAndKill(server: RunningServer, acknowledged: string[], workers: number, killAfter: number) {
  const api = await client(server.url);
  let answered = 0;
  const worker = async () => {
    while (server.process.exitCode === null && server.process.signalCode === null) {
      const id = await api.create().catch(() => undefined);
      if (!id) continue;
      acknowledged.push(id);
      if (++answered === killAfter) server.process.kill('SIGKILL');
    }
  };
  return Promise.all(Array.from({ length: workers }, worker));
}

/**
 * Where the kills land, counted in acknowledged writes: the same points on a fast machine and a
 * loaded one. Two series of four, each a test of its own on a data file of its own.
 */
const KILL_POINTS = [
  [1, 17, 5, 29],
  [2, 11, 23, 8],
];

/** Every id answers 200 (asked 25 at a time); returns the ids that did not. */
async function missing(url: string, ids: string[]): Promise<string[]> {
  const api = await client(url);
  const lost: string[] = [];
  for (let i = 0; i < ids.length; i += 25) {
    const batch = ids.slice(i, i + 25);
    const statuses = await Promise.all(batch.map((id) => api.status(id)));
    batch.forEach((id, j) => statuses[j] !== 200 && lost.push(id));
  }
  return lost;
}

describe('a sandbox killed with SIGKILL mid-stream', () => {
  it.each(KILL_POINTS)('keeps every acknowledged shipment across kills after %i, %i, %i and %i acknowledgements', async (...points) => {
    const file = join(await tempDir(), 'sandbox.json');
    const acknowledged: string[] = [];
    for (const killAfter of points) {
      const server = await startServer({ DATA_FILE: file });
      expect(await missing(server.url, acknowledged)).toEqual([]);
      await fireAndKill(server, acknowledged, 10, killAfter);
      expect((JSON.parse(await readFile(file, 'utf8')) as { format: string }).format).toBe('parcel-sandbox');
    }
    const server = await startServer({ DATA_FILE: file });
    try {
      expect(await missing(server.url, acknowledged)).toEqual([]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // A graceful stop folds the journal into the snapshot.
    expect(await listSegments(file)).toEqual([]);
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { tables: { shipments: { id: string }[] } };
    const ids = new Set(onDisk.tables.shipments.map((row) => row.id));
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    console.log(`${points.length} kills; ${acknowledged.length} acknowledged shipments all kept`);
    expect(acknowledged.length).toBeGreaterThanOrEqual(points.reduce((sum, n) => sum + n, 0));
  });
});

let killedOnce: Promise<{ dir: string; ids: string[]; pid: number }> | undefined;

/**
 * A data file whose journal holds three acknowledged shipments, left by a sandbox killed with
 * SIGKILL (its snapshot, journal, keys and lock, naming the killed pid): one such sandbox is started
 * and killed, and each caller gets a copy of its folder of its own to damage or start on. A start
 * of its own for each test cost ~0.8 s of CPU each, for the same files.
 */
async function killedWithJournal(): Promise<{ file: string; ids: string[]; pid: number }> {
  killedOnce ??= (async () => {
    const dir = await tempDir();
    const file = join(dir, 'sandbox.json');
    const server = await startServer({ DATA_FILE: file });
    const api = await client(server.url);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api.create())!);
    server.process.kill('SIGKILL');
    await server.stop();
    return { dir, ids, pid: server.process.pid! };
  })();
  const { dir, ids, pid } = await killedOnce;
  const copy = await tempDir();
  await cp(dir, copy, { recursive: true });
  const file = join(copy, 'sandbox.json');
  expect(await listSegments(file)).not.toEqual([]);
  return { file, ids: [...ids], pid };
}

describe('a sandbox restarted after a kill with a damaged journal or snapshot', () => {
  it('ignores a torn last journal line, serves the data and keeps journalling after it', async () => {
    const { file, ids } = await killedWithJournal();
    await appendFile(await lastSegment(file), '{"t":"shipments","id":"torn","v":{"id":"torn","shop_id');
    const second = await startServer({ DATA_FILE: file });
    expect(await missing(second.url, ids)).toEqual([]);
    ids.push((await (await client(second.url)).create())!);
    second.process.kill('SIGKILL');
    await second.stop();
    const third = await startServer({ DATA_FILE: file });
    try {
      expect(await missing(third.url, ids)).toEqual([]);
    } finally {
      expect(await third.stop()).toBe(0);
    }
  });

  it('refuses a corrupt snapshot beside a journal, naming it, and changes neither', async () => {
    const { file } = await killedWithJournal();
    await writeFile(file, '{"format": "parcel-sandbox", "tables": {"shipm');
    const journal = await readFile(await lastSegment(file));
    const { code, output } = await runToExit({ DATA_FILE: file });
    expect(code).toBe(1);
    expect(output).toContain(`cannot use data file ${file}: it is not valid JSON`);
    expect(output).not.toMatch(/\n\s+at /);
    expect(await readFile(file, 'utf8')).toBe('{"format": "parcel-sandbox", "tables": {"shipm');
    expect(await readFile(await lastSegment(file))).toEqual(journal);
  });

  it('refuses a journal damaged before its end, naming the segment', async () => {
    const { file } = await killedWithJournal();
    const segment = await lastSegment(file);
    const lines = (await readFile(segment, 'utf8')).split('\n');
    lines[1] = lines[1]!.slice(0, 20);
    await writeFile(segment, lines.join('\n'));
    const { code, output } = await runToExit({ DATA_FILE: file });
    expect(code).toBe(1);
    expect(output).toContain(`cannot use data file ${segment}: journal line 2 is damaged`);
    expect(await readFile(segment, 'utf8')).toBe(lines.join('\n'));
  });

  it('refuses a journal whose snapshot was deleted', async () => {
    const { file } = await killedWithJournal();
    await rm(file);
    const { code, output } = await runToExit({ DATA_FILE: file });
    expect(code).toBe(1);
    expect(output).toContain(`cannot use data file ${file}: it is missing but its journal`);
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });
});

/**
 * The server compacts only every 20,000 journal lines, more than a short test writes; this runs
 * the same store and persistence in a process of its own with a tiny threshold, so that kills
 * land in the middle of compactions too. It writes to the data file named by its argument.
 */
const WRITER = `
import { generateState } from ${JSON.stringify(join(root, 'src/fixtures/generate.ts'))};
import { JournalPersistence } from ${JSON.stringify(join(root, 'src/store/journal-persistence.ts'))};
import { openStore } from ${JSON.stringify(join(root, 'src/store/store.ts'))};
const file = process.argv[2];
const store = await openStore({ persistence: new JournalPersistence(file, { maxLines: 30 }), seed: 1, initial: () => generateState(1, 1_700_000_000) });
const base = Date.now().toString(36) + '-';
let next = 0;
process.stdout.write('ready\\n');
const worker = async () => {
  for (;;) {
    const id = base + next++;
    await store.transact((tx) => tx.insert('settings', { id, value: { written: Date.now() } }));
    process.stdout.write(id + '\\n'); // pipes are synchronous on Linux: printed means acknowledged
  }
};
await Promise.all(Array.from({ length: 8 }, worker));
`;

describe.skipIf(process.platform === 'win32')('a store process killed with SIGKILL during compactions', () => {
  let script: string;
  beforeAll(async () => {
    // Bundled once, beside this run's server bundle (so that its packages resolve from
    // node_modules), and started with node: through tsx every start compiled the store again.
    script = join(dirname(cliEntry()[0]!), '..', `writer-${basename(await tempDir())}.mjs`);
    await build({
      stdin: { contents: WRITER, loader: 'ts', resolveDir: root },
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      outfile: script,
      logLevel: 'error',
    });
  });

  // Killed once it has printed that many acknowledgements: a count, so the kills land at the same
  // places however fast the machine is.
  it.each([
    [3, 120, 40, 250],
    [9, 75, 180, 30],
  ])('keeps every acknowledged write across kills after %i, %i, %i and %i writes', async (...points) => {
    const dir = await tempDir();
    const file = join(dir, 'sandbox.json');
    const acknowledged: string[] = [];
    let midCompaction = 0;
    for (const killAfter of points) {
      const child = spawn(process.execPath, [script, file], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await outputMatching(child, () => output, new RegExp(`^ready\\n(?:[^\\n]+\\n){${killAfter}}`));
      child.kill('SIGKILL');
      await exited;
      acknowledged.push(...output.split('\n').filter((line) => line && line !== 'ready'));
      const names = await readdir(dir);
      if (names.includes('.sandbox.json.tmp') || (await listSegments(file)).length > 1) midCompaction++;
      const data = await filePersistence(file).load();
      const ids = new Set(data!.tables.settings!.map((row) => row.id));
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
      expect((JSON.parse(await readFile(file, 'utf8')) as { format: string }).format).toBe('parcel-sandbox');
    }
    console.log(`${points.length} kills of a compacting store, ${midCompaction} of them mid-compaction; ${acknowledged.length} acknowledged writes all kept`);
  });
});

describe('one process per data file', () => {
  it('refuses a second start on a data file another sandbox serves (exit 1, one line naming the file and its pid), and frees it on exit', async () => {
    const file = join(await tempDir(), 'sandbox.json');
    const first = await startServer({ DATA_FILE: file });
    try {
      const lock = JSON.parse(await readFile(`${file}.lock`, 'utf8')) as { pid: number; hostname: string };
      expect(lock).toEqual({ pid: first.process.pid, hostname: hostname() });
      const { code, output } = await runToExit({ DATA_FILE: file });
      expect(code).toBe(1);
      expect(output).toBe(
        `parcel-sandbox: cannot use data file ${file}: it is in use by another parcel-sandbox (pid ${first.process.pid}, lock ${file}.lock): stop that one, or start this one on another data file (--data) or in memory (--memory)\n`,
      );
      // The first one still serves, and still holds the file.
      expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toEqual(lock);
      expect(await (await client(first.url)).create()).toBeDefined();
    } finally {
      expect(await first.stop()).toBe(0);
    }
    await expect(readFile(`${file}.lock`)).rejects.toThrow(/ENOENT/);
    const again = await startServer({ DATA_FILE: file });
    expect(await again.stop()).toBe(0);
  });

  it('takes over the lock of a sandbox killed with SIGKILL, keeping its acknowledged writes', async () => {
    const { file, ids, pid } = await killedWithJournal();
    expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toMatchObject({ pid });
    const next = await startServer({ DATA_FILE: file });
    try {
      expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toMatchObject({ pid: next.process.pid });
      expect(await missing(next.url, ids)).toEqual([]);
    } finally {
      expect(await next.stop()).toBe(0);
    }
  });

  it('takes over a lock another host left (a container started anew on the same volume), saying so', async () => {
    const file = join(await tempDir(), 'sandbox.json');
    await writeFile(`${file}.lock`, JSON.stringify({ pid: 4242, hostname: 'elsewhere.example' }));
    // Untouched for longer than its holder's heartbeat would allow (test/data-lock.test.ts has the rest).
    const left = new Date(Date.now() - STALE_MS - 1000);
    await utimes(`${file}.lock`, left, left);
    const next = await startServer({ DATA_FILE: file });
    try {
      // On stderr, while "listening" (which startServer waited for) is on stdout: it may arrive second.
      await next.waitFor(`parcel-sandbox: taking over the lock of ${file} left by pid 4242 on elsewhere.example`);
      expect(JSON.parse(await readFile(`${file}.lock`, 'utf8'))).toEqual({ pid: next.process.pid, hostname: hostname() });
    } finally {
      expect(await next.stop()).toBe(0);
    }
  });
});

describe('a data file from a newer sandbox', () => {
  it('is refused with its version and the newest this sandbox reads (exit 1), and left as it is', async () => {
    const file = join(await tempDir(), 'sandbox.json');
    const text = JSON.stringify({ format: 'parcel-sandbox', version: 2, seed: 1, tables: {} });
    await writeFile(file, text);
    const { code, output } = await runToExit({ DATA_FILE: file });
    expect(code).toBe(1);
    expect(output).toBe(
      `parcel-sandbox: cannot use data file ${file}: it is data file version 2, written by a newer parcel-sandbox; this one reads up to version 1: start that newer one on it, or use another data file\n`,
    );
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await readdir(dirname(file))).toEqual(['sandbox.json']);
  });
});
