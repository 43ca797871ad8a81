import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSegments, segmentPath } from '../src/store/journal.js';
import { JournalPersistence, type JournalOptions } from '../src/store/journal-persistence.js';
import { DataFileError } from '../src/store/persistence.js';
import { readSnapshot, stateJson, writeSnapshot } from '../src/store/snapshot.js';
import { openStore } from '../src/store/store.js';
import type { StateData } from '../src/store/tables.js';
import { seededState } from './support/app.js';

const tempFile = async () => join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-journal-')), 'sandbox.json');
// Most stores here are never closed, as after a crash; each test lets go of their files at its end.
const opened: JournalPersistence[] = [];
const journal = (file: string, options?: JournalOptions) => {
  const persistence = new JournalPersistence(file, options);
  opened.push(persistence);
  return persistence;
};
afterEach(async () => {
  await Promise.all(opened.splice(0).map((persistence) => persistence.abandon()));
});
const open = (file: string, options?: JournalOptions, initial: () => StateData = () => seededState()) =>
  openStore({ persistence: journal(file, options), seed: 1, initial });
const setting = (id: string, value: unknown = id) => ({ id, value });
const journalLines = async (file: string) => {
  let lines = 0;
  for (const n of await listSegments(file)) lines += (await readFile(segmentPath(file, n), 'utf8')).split('\n').filter(Boolean).length;
  return lines;
};
const journalBytes = async (file: string) => {
  let bytes = 0;
  for (const n of await listSegments(file)) bytes += (await stat(segmentPath(file, n))).size;
  return bytes;
};
const lastSegment = async (file: string) => segmentPath(file, (await listSegments(file)).at(-1)!);

describe('the journal', () => {
  it('replays to the same data after a restart without close, leaving the snapshot alone', async () => {
    const file = await tempFile();
    const store = await open(file);
    const before = await readFile(file, 'utf8');
    const [shop, other] = store.all('shops');
    await store.transact((tx) => tx.update('shops', shop!.id, { name: 'Journalled' }));
    await store.transact((tx) => tx.remove('shops', other!.id));
    await store.transact((tx) => [tx.insert('settings', setting('a', 1)), tx.insert('settings', setting('b', 2))]);
    expect(await readFile(file, 'utf8')).toBe(before);
    // No close(): as if the process had been killed.
    const reopened = await open(file);
    expect(reopened.snapshot()).toEqual(store.snapshot());
    expect(reopened.get('shops', shop!.id)!.name).toBe('Journalled');
    expect(reopened.get('shops', other!.id)).toBeUndefined();
  });

  it('writes the snapshot as indented JSON with one row per line', () => {
    const state = seededState();
    const text = [...stateJson(state)].join('');
    expect(JSON.parse(text)).toEqual(state);
    const shops = state.tables.shops!;
    for (const shop of shops) expect(text).toContain(`\n      ${JSON.stringify(shop)}`);
    const odd = { format: 'parcel-sandbox', version: 1, seed: 3, tables: { settings: [], jobs: undefined, shops: [{ id: 'x', a: [1, { b: 'c\nd' }] }] } };
    expect([...stateJson(odd as unknown as StateData)].join('')).toBe(
      '{\n  "format": "parcel-sandbox",\n  "version": 1,\n  "seed": 3,\n  "tables": {\n    "settings": [],\n    "shops": [\n      {"id":"x","a":[1,{"b":"c\\nd"}]}\n    ]\n  }\n}',
    );
  });

  it('reads a snapshot too big for one string a row at a time, to the same data, and refuses one in another layout', async () => {
    const file = await tempFile();
    const state = seededState();
    // An empty table, and a row whose text holds what the table lines look like.
    state.tables.revokedTokens = [];
    state.tables.settings = [...(state.tables.settings ?? []), setting('tricky', '\n    ],\n  },\n    "x": [')];
    const bytes = await writeSnapshot(file, state);
    // Read as if V8's longest string were a tenth of the file (it is ~512 MB).
    const small = Math.floor(bytes / 10);
    expect(await readSnapshot(file, small)).toEqual(await readSnapshot(file));
    expect(await readSnapshot(file, small)).toEqual(state);

    await writeFile(file, JSON.stringify(state, null, 1));
    const refused = readSnapshot(file, small);
    await expect(refused).rejects.toBeInstanceOf(DataFileError);
    await expect(refused).rejects.toThrow(/too big to read as one text, and line \d+ is not laid out as parcel-sandbox writes its data files/);
  });

  it('keeps every write through compactions, including writes racing with them', async () => {
    const file = await tempFile();
    const persistence = journal(file, { maxLines: 40 });
    const store = await openStore({ persistence, seed: 1, initial: () => seededState() });
    for (let wave = 0; wave < 10; wave++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.transact((tx) => tx.insert('settings', setting(`w${wave}-${i}`, i)))));
    }
    await persistence.settle();
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as StateData;
    expect(onDisk.tables.settings!.filter((row) => row.id.startsWith('w')).length).toBeGreaterThan(0);
    // At most the segment written since the last compaction (none if the last write started one).
    expect((await listSegments(file)).length).toBeLessThanOrEqual(1);
    const reopened = await open(file);
    expect(reopened.snapshot()).toEqual(store.snapshot());
    expect(reopened.all('settings').filter((row) => row.id.startsWith('w'))).toHaveLength(500);
  });

  it('compacts once the journal is as big as the snapshot, not before', async () => {
    const file = await tempFile();
    const persistence = journal(file, { minBytes: 1 });
    const store = await openStore({ persistence, seed: 1, initial: () => seededState() });
    const snapshotBytes = Buffer.byteLength(await readFile(file));
    const journalBytes = async () => {
      let bytes = 0;
      for (const n of await listSegments(file)) bytes += Buffer.byteLength(await readFile(segmentPath(file, n)));
      return bytes;
    };
    const big = 'x'.repeat(Math.ceil(snapshotBytes / 10));
    for (let i = 0; i < 9; i++) await store.transact((tx) => tx.insert('settings', setting(`big-${i}`, big)));
    expect(await journalBytes()).toBeLessThan(snapshotBytes);
    expect(await readFile(file, 'utf8')).not.toContain('big-0');
    for (let i = 9; i < 12; i++) await store.transact((tx) => tx.insert('settings', setting(`big-${i}`, big)));
    await persistence.settle();
    // The snapshot took in the journal; the next trigger is its new, bigger size.
    expect(await readFile(file, 'utf8')).toContain('big-9');
    expect(await journalBytes()).toBeLessThan(snapshotBytes);
  });

  it('ignores a torn last line, and the next write still replays', async () => {
    const file = await tempFile();
    const store = await open(file);
    await store.transact((tx) => tx.insert('settings', setting('kept')));
    // A complete change without its commit line and a line cut off mid-append: one unacknowledged write.
    await appendFile(await lastSegment(file), '{"t":"settings","id":"lost","v":{"id":"lost","value":1}}\n{"t":"settings","id":"torn","v":{"id"');
    const reopened = await open(file);
    expect(reopened.get('settings', 'kept')).toBeDefined();
    expect(reopened.get('settings', 'lost')).toBeUndefined();
    await reopened.transact((tx) => tx.insert('settings', setting('after')));
    const again = await open(file);
    expect(again.get('settings', 'after')).toBeDefined();
    expect(again.get('settings', 'torn')).toBeUndefined();
  });

  it('refuses a damaged line in the middle of the journal, naming the segment', async () => {
    const file = await tempFile();
    const store = await open(file);
    await store.transact((tx) => tx.insert('settings', setting('one')));
    const segment = await lastSegment(file);
    await appendFile(segment, 'garbage\n');
    await store.transact((tx) => tx.insert('settings', setting('two')));
    const bytes = await readFile(segment);
    const opening = open(file);
    await expect(opening).rejects.toBeInstanceOf(DataFileError);
    await expect(opening).rejects.toThrow(`${segment}: journal line 3 is damaged`);
    expect(await readFile(segment)).toEqual(bytes);
  });

  it('refuses a corrupt snapshot beside a journal and leaves both byte-identical', async () => {
    const file = await tempFile();
    const store = await open(file);
    await store.transact((tx) => tx.insert('settings', setting('one')));
    await writeFile(file, '{"format": "parcel-sandbox", "tables": {');
    const segment = await readFile(await lastSegment(file));
    const opening = open(file);
    await expect(opening).rejects.toBeInstanceOf(DataFileError);
    await expect(opening).rejects.toThrow(`cannot use data file ${file}: it is not valid JSON`);
    expect(await readFile(file, 'utf8')).toBe('{"format": "parcel-sandbox", "tables": {');
    expect(await readFile(await lastSegment(file))).toEqual(segment);
  });

  it('refuses a journal whose snapshot is gone', async () => {
    const file = await tempFile();
    const store = await open(file);
    await store.transact((tx) => tx.insert('settings', setting('one')));
    await rm(file);
    await expect(open(file)).rejects.toThrow(/it is missing but its journal .*journal-000001\.jsonl exists/);
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });

  it('resets journal and snapshot on replace, and a restart sees the reset', async () => {
    const file = await tempFile();
    const store = await open(file);
    await store.transact((tx) => tx.insert('settings', setting('before-reset')));
    await store.replace(seededState(2));
    expect(await journalLines(file)).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(store.snapshot());
    await store.transact((tx) => tx.insert('settings', setting('after-reset')));
    const reopened = await open(file);
    expect(reopened.get('settings', 'before-reset')).toBeUndefined();
    expect(reopened.get('settings', 'after-reset')).toBeDefined();
  });

  it('replays a reset left in the journal over a snapshot that is older or newer', async () => {
    const file = await tempFile();
    await open(file);
    const reset = { ...seededState(), tables: { settings: [setting('only')] } };
    const segment = [
      '{"t":"settings","id":"old","v":{"id":"old","value":1}}',
      '{"c":1}',
      JSON.stringify({ reset }),
      '{"c":1}',
      '{"t":"settings","id":"new","v":{"id":"new","value":2}}',
      '{"c":1}',
    ].join('\n');
    await writeFile(segmentPath(file, 1), `${segment}\n`);
    const older = await open(file);
    expect(older.all('settings').map((row) => row.id)).toEqual(['only', 'new']);
    // As after a crash between writing the compacted snapshot and deleting the segment.
    await writeFile(file, JSON.stringify({ ...reset, tables: { settings: [setting('only'), setting('new', 2)] } }));
    await writeFile(segmentPath(file, 1), `${segment}\n`);
    expect((await open(file)).snapshot()).toEqual(older.snapshot());
  });

  it('skips segments older than a gap: a compaction already covered them', async () => {
    const file = await tempFile();
    await open(file);
    await writeFile(segmentPath(file, 2), '{"t":"settings","id":"stale","v":{"id":"stale","value":1}}\n{"c":1}\n');
    await writeFile(segmentPath(file, 4), '{"t":"settings","id":"fresh","v":{"id":"fresh","value":1}}\n{"c":1}\n');
    const store = await open(file);
    expect(store.get('settings', 'stale')).toBeUndefined();
    expect(store.get('settings', 'fresh')).toBeDefined();
    await store.close();
    expect(await listSegments(file)).toEqual([]);
  });

  it('leaves just the snapshot on close, with every write in it', async () => {
    const file = await tempFile();
    const store = await open(file);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.transact((tx) => tx.insert('settings', setting(`c${i}`)))));
    await store.close();
    expect((await readdir(join(file, '..'))).sort()).toEqual(['sandbox.json']);
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as StateData;
    expect(onDisk.tables.settings!.filter((row) => row.id.startsWith('c'))).toHaveLength(20);
    await expect(store.transact((tx) => tx.insert('settings', setting('late')))).rejects.toThrow(/closed/);
  });

  // How long a write takes at each size is the bench's figure (bench/scenarios/growth.ts); what
  // makes it flat is that a write appends its own rows and nothing else, which is what this counts.
  it('appends the same bytes for a change whether its table holds 1,000 rows or 100,000, and leaves the snapshot alone', async () => {
    const appended = async (rows: number) => {
      const file = await tempFile();
      const settings = Array.from({ length: rows }, (_, i) => setting(`row-${i}`, { n: i, text: 'x'.repeat(40) }));
      const store = await open(file, undefined, () => ({ ...seededState(), tables: { ...seededState().tables, settings } }));
      const snapshot = await readFile(file);
      const before = await journalBytes(file);
      for (let i = 0; i < 100; i++) await store.transact((tx) => tx.update('settings', `row-${i}`, { value: -i }));
      const bytes = (await journalBytes(file)) - before;
      expect((await readFile(file)).equals(snapshot), 'the snapshot was rewritten').toBe(true);
      return bytes;
    };
    const small = await appended(1_000);
    expect(small).toBeGreaterThan(0);
    expect(await appended(100_000)).toBe(small);
  });
});
