import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeJsonSyntax } from '../src/controls/pack-source.js';
import { loadStartPack } from '../src/fixtures/start-pack.js';
import { JournalPersistence } from '../src/store/journal-persistence.js';
import { firstError, testSandbox } from './support/app.js';

/*
 * `--fixtures` shapes a new data file only: a later start on the file uses it as it is, with the
 * pack given again or not (the start says so). What the data answers must not depend on which.
 */

const warehouse = fileURLToPath(new URL('../fixtures/packs/warehouse', import.meta.url));

describe('a data file a start pack shaped, started again without the pack', () => {
  it("exports the pack's rows under the pack's keys, as before the restart", async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-start-pack-')), 'sandbox.json');
    const first = await testSandbox({ persistence: new JournalPersistence(file), fixtures: await loadStartPack(warehouse, false, describeJsonSyntax) });
    const before = await first.get('/_sandbox/fixtures');
    expect(before.status).toBe(200);
    expect(before.body.organizations.map((row: { key: string }) => row.key)).toContain('warehouse-operator');
    await first.store.close();

    const again = await testSandbox({ persistence: new JournalPersistence(file) });
    const after = await again.get('/_sandbox/fixtures');
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    await again.store.close();
  });

  it("refuses to reset the pack's tenant, naming the flag, and removes nothing", async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-start-pack-')), 'sandbox.json');
    const first = await testSandbox({ persistence: new JournalPersistence(file), fixtures: await loadStartPack(warehouse, false, describeJsonSyntax) });
    await first.store.close();

    const again = await testSandbox({ persistence: new JournalPersistence(file) });
    const contracts = again.store.all('contracts').length;
    const answer = await again.request('POST', '/_sandbox/reset', { body: { client_id: 'warehouse-client' } });
    expect(answer.status, answer.text).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/client_id' }, detail: expect.stringContaining('--fixtures') });
    expect(again.store.all('contracts').length).toBe(contracts);
    await again.store.close();

    // Given the pack again, the reset puts its rows back.
    const withPack = await testSandbox({ persistence: new JournalPersistence(file), fixtures: await loadStartPack(warehouse, false, describeJsonSyntax) });
    const reset = await withPack.request('POST', '/_sandbox/reset', { body: { client_id: 'warehouse-client' } });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.restored.contracts).toBeGreaterThan(0);
    await withPack.store.close();
  });
});
