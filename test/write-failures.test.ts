import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listSegments, segmentPath } from '../src/store/journal.js';
import { JournalPersistence, type Faults } from '../src/store/journal-persistence.js';
import { DataWriteError } from '../src/store/persistence.js';
import { openStore } from '../src/store/store.js';
import { firstError, seededState, testSandbox, TEST_NOW, type TestSandbox } from './support/app.js';
import { shipmentBody, world } from './support/shipments.js';

const tempFile = async () => join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-write-failures-')), 'sandbox.json');
const opened: JournalPersistence[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((persistence) => persistence.abandon()));
});

/** A data file whose journal refuses appends (ENOSPC after half the bytes, as a full disk does) while `disk.full` is set. */
function fillable(file: string, extra: Faults = {}) {
  const disk = { full: false };
  const persistence = new JournalPersistence(file, {
    faults: { append: (bytes) => (disk.full ? { written: Math.floor(bytes / 2), code: 'ENOSPC' } : undefined), ...extra },
  });
  opened.push(persistence);
  return { disk, persistence };
}

/** What a client can see of the data and what the store keeps, to compare before and after a refused write. */
async function observe(sandbox: TestSandbox, token: string) {
  const list = await sandbox.get('/shipments?page[size]=100', token);
  expect(list.status).toBe(200);
  return { ids: list.body.data.map((row: { id: string }) => row.id).sort(), stored: sandbox.store.snapshot() };
}

/** The code of a shipment's current status. */
async function statusCode(sandbox: TestSandbox, id: string, token: string): Promise<string> {
  const answer = await sandbox.get(`/shipments/${id}?include=shipment_status.status`, token);
  return answer.body.included.find((resource: { type: string }) => resource.type === 'statuses').attributes.code;
}

describe('a write the data file refuses', () => {
  it('answers 503 with Retry-After, keeps nothing of it, serves reads meanwhile, and takes the same write once there is room', async () => {
    const file = await tempFile();
    const { disk, persistence } = fillable(file);
    const sandbox = await testSandbox({ persistence });
    const w = await world(sandbox);
    const body = shipmentBody({ shop: w.shopIn('NL'), attributes: { register_at: TEST_NOW }, meta: { service_code: 'postnl-parcel-standard' } });
    const post = () => sandbox.request('POST', '/shipments', { token: w.token, body, headers: { 'idempotency-key': 'full-disk-1' } });
    const existing = (await sandbox.request('POST', '/shipments', { token: w.token, body: shipmentBody({ shop: w.shopIn('NL') }) })).body.data.id;
    const before = await observe(sandbox, w.token);
    const organizationId = sandbox.store.get('shipments', existing)!.organization_id;

    disk.full = true;
    const refused = await post();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(firstError(refused)).toMatchObject({ status: '503', code: '10001', title: 'Service Unavailable' });
    expect(firstError(refused).detail).toContain('could not write this change to its data file (the disk is full (ENOSPC)); nothing was changed');
    expect(refused.text).not.toContain(file);
    // Not visible to anyone: the list, the rows, the id counter, the registration job, the idempotency record, the indexes.
    expect(await observe(sandbox, w.token)).toEqual(before);
    expect(sandbox.store.countBy('shipments', 'organization_id', organizationId)).toBe(before.ids.length);
    // Reads go on while the disk is full; the same write is refused again, not replayed.
    expect((await sandbox.get(`/shipments/${existing}`, w.token)).status).toBe(200);
    expect((await sandbox.read('/carriers')).status).toBe(200);
    expect((await post()).status).toBe(503);

    disk.full = false;
    const accepted = await post();
    expect(accepted.status).toBe(201);
    expect(accepted.headers.get('idempotency-replay')).toBeNull();
    const id = accepted.body.data.id;
    expect((await sandbox.get(`/shipments/${id}`, w.token)).status).toBe(200);
    expect((await post()).headers.get('idempotency-replay')).toBe('true');

    // Survives a reopen of the data file without close (as after a kill), and its registration job runs there.
    const reopened = await testSandbox({ persistence: new JournalPersistence(file) });
    expect((await reopened.get(`/shipments/${id}`, w.token)).status).toBe(200);
    await reopened.advance(60);
    expect(await statusCode(reopened, id, w.token)).toBe('shipment-registered');
    await reopened.store.close();
  });

  it('cuts a half-written append off the journal, so the next append and the next start read cleanly', async () => {
    const file = await tempFile();
    const { disk, persistence } = fillable(file);
    const store = await openStore({ persistence, seed: 1, initial: () => seededState() });
    await store.transact((tx) => tx.insert('settings', { id: 'first', value: 1 }));
    const segment = segmentPath(file, (await listSegments(file)).at(-1)!);
    const kept = await readFile(segment);
    disk.full = true;
    await expect(store.transact((tx) => tx.insert('settings', { id: 'refused', value: 2 }))).rejects.toBeInstanceOf(DataWriteError);
    expect(store.get('settings', 'refused')).toBeUndefined();
    expect(await readFile(segment)).toEqual(kept);
    disk.full = false;
    await store.transact((tx) => tx.insert('settings', { id: 'after', value: 3 }));
    const reopened = await openStore({ persistence: new JournalPersistence(file), seed: 1, initial: () => seededState() });
    expect(reopened.get('settings', 'first')).toBeDefined();
    expect(reopened.get('settings', 'refused')).toBeUndefined();
    expect(reopened.get('settings', 'after')).toBeDefined();
    await reopened.close();
  });

  it('takes back a batch whose fdatasync fails, with the transactions appended while it ran, and keeps what was durable', async () => {
    const file = await tempFile();
    let failSync = false;
    const { persistence } = fillable(file, { sync: () => (failSync ? 'EIO' : undefined) });
    const store = await openStore({ persistence, seed: 1, initial: () => seededState() });
    await store.transact((tx) => tx.insert('settings', { id: 'durable', value: 0 }));
    failSync = true;
    const writes = Array.from({ length: 5 }, (_, i) =>
      store.transact((tx) => {
        tx.update('settings', 'durable', { value: i + 1 });
        tx.insert('settings', { id: `lost-${i}`, value: i });
      }),
    );
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof DataWriteError)).toBe(true);
    expect(store.get('settings', 'durable')!.value).toBe(0);
    expect(store.all('settings').filter((row) => row.id.startsWith('lost-'))).toEqual([]);
    failSync = false;
    await store.transact((tx) => tx.update('settings', 'durable', { value: 'again' }));
    const reopened = await openStore({ persistence: new JournalPersistence(file), seed: 1, initial: () => seededState() });
    expect(reopened.get('settings', 'durable')!.value).toBe('again');
    expect(reopened.all('settings').filter((row) => row.id.startsWith('lost-'))).toEqual([]);
    await reopened.close();
  });

  it('loses nothing when a compaction cannot write the snapshot, and compacts once it can', async () => {
    const file = await tempFile();
    let failSnapshot = true;
    const persistence = new JournalPersistence(file, { maxLines: 10, faults: { snapshot: () => (failSnapshot ? 'ENOSPC' : undefined) } });
    opened.push(persistence);
    // The new data file's first snapshot is written before the fault is armed.
    failSnapshot = false;
    const store = await openStore({ persistence, seed: 1, initial: () => seededState() });
    failSnapshot = true;
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 30; i++) await store.transact((tx) => tx.insert('settings', { id: `c${i}`, value: i }));
      await persistence.settle();
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.some((message) => message.includes('the disk is full'))).toBe(true);
    expect(await readFile(file, 'utf8')).not.toContain('"c0"');
    const reopened = await openStore({ persistence: new JournalPersistence(file), seed: 1, initial: () => seededState() });
    expect(reopened.all('settings').filter((row) => row.id.startsWith('c'))).toHaveLength(30);
    await reopened.close();
    expect(await readFile(file, 'utf8')).toContain('"c29"');
    expect(await listSegments(file)).toEqual([]);
  });

  it('leaves the sandbox clock where it was when its move cannot be written, and when a reset cannot', async () => {
    const file = await tempFile();
    const { disk, persistence } = fillable(file);
    const sandbox = await testSandbox({ persistence });
    const control = (path: string, body: unknown) => sandbox.request('POST', path, { headers: { 'content-type': 'application/json' }, body });
    await sandbox.advance(3600);
    const before = (await sandbox.get('/_sandbox/clock')).body;
    disk.full = true;
    const move = await control('/_sandbox/clock', { advance: 86400 });
    expect(move.status).toBe(503);
    expect((await sandbox.get('/_sandbox/clock')).body).toEqual(before);
    expect((await control('/_sandbox/reset', {})).status).toBe(503);
    expect((await sandbox.get('/_sandbox/clock')).body).toEqual(before);
    disk.full = false;
    expect((await control('/_sandbox/clock', { advance: 60 })).body.now).toBe(before.now + 60);
  });

  it('keeps a due job whose write is refused, runs it once there is room, and never lets the failure escape the timer', async () => {
    const file = await tempFile();
    const { disk, persistence } = fillable(file);
    const logged: string[] = [];
    const logger = { error: (_: object, message?: string) => logged.push(message ?? ''), warn: () => {}, info: () => {} };
    const sandbox = await testSandbox({ persistence, logger: logger as never });
    const w = await world(sandbox);
    const body = shipmentBody({ shop: w.shopIn('NL'), attributes: { register_at: TEST_NOW + 60 }, meta: { service_code: 'postnl-parcel-standard' } });
    const id = (await sandbox.request('POST', '/shipments', { token: w.token, body })).body.data.id;
    const status = () => statusCode(sandbox, id, w.token);
    expect(sandbox.store.find('jobs', 'subject', id)).toHaveLength(1);
    disk.full = true;
    sandbox.clock.setOffsetMs(3600 * 1000);
    await expect(sandbox.services.jobs.runDue()).rejects.toBeInstanceOf(DataWriteError);
    expect(sandbox.store.find('jobs', 'subject', id)).toHaveLength(1);
    expect(await status()).toBe('shipment-concept');
    // The scheduler's own tick meets the same refusal: logged, not an unhandled rejection.
    vi.useFakeTimers();
    try {
      sandbox.services.jobs.start(10);
      await vi.advanceTimersByTimeAsync(15);
      sandbox.services.jobs.stop();
    } finally {
      vi.useRealTimers();
    }
    expect(logged).toContain('due jobs could not run; they stay and run on a later tick');
    disk.full = false;
    expect(await sandbox.services.jobs.runDue()).toBeGreaterThan(0);
    expect(sandbox.store.find('jobs', 'subject', id).filter((job) => job.kind === 'register-shipment')).toHaveLength(0);
    expect(await status()).toBe('shipment-registered');
  });

  it('keeps the old data visible and answers 503 when a reset cannot be written', async () => {
    const file = await tempFile();
    const { disk, persistence } = fillable(file);
    const sandbox = await testSandbox({ persistence });
    const w = await world(sandbox);
    const created = await sandbox.request('POST', '/shipments', { token: w.token, body: shipmentBody({ shop: w.shopIn('NL') }) });
    disk.full = true;
    const reset = await sandbox.request('POST', '/_sandbox/reset', { headers: { 'content-type': 'application/json' }, body: {} });
    expect(reset.status).toBe(503);
    expect(reset.headers.get('retry-after')).toBe('10');
    expect((await sandbox.get(`/shipments/${created.body.data.id}`, w.token)).status).toBe(200);
    disk.full = false;
    expect((await sandbox.request('POST', '/_sandbox/reset', { headers: { 'content-type': 'application/json' }, body: {} })).status).toBe(200);
    expect((await sandbox.get(`/shipments/${created.body.data.id}`, w.token)).status).toBe(404);
  });
});
