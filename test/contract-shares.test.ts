import { mkdtemp, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSegments, segmentPath } from '../src/store/journal.js';
import { JournalPersistence } from '../src/store/journal-persistence.js';
import { readSnapshot, writeSnapshot } from '../src/store/snapshot.js';
import type { StateData } from '../src/store/tables.js';
import { seededState, testSandbox, type Json, type TestSandbox } from './support/app.js';

const tempFile = async () => join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-shares-')), 'sandbox.json');

async function journalBytes(file: string): Promise<number> {
  let bytes = 0;
  for (const n of await listSegments(file)) bytes += (await stat(segmentPath(file, n))).size;
  return bytes;
}

async function newTenant(sandbox: TestSandbox): Promise<{ client_id: string; client_secret: string; organization_id: string }> {
  const answer = await sandbox.request('POST', '/_sandbox/tenants', { body: {} });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

async function contractIds(sandbox: TestSandbox, token: string): Promise<string[]> {
  const answer = await sandbox.get('/contracts?page[size]=100', token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.map((row: Json) => row.id).sort();
}

/**
 * The seeded data as files kept it before shares had a table: each broker contract listed the
 * organizations it was shared with on its row, and the oldest files had no list at all (shared
 * with every organization of the broker). The first broker contract is shared with the first
 * organization only, the second has no list, the others keep the fixtures' shares.
 */
function legacyState(): { state: StateData; onlyFirst: string; unlisted: string; first: string; second: string } {
  const state = seededState();
  const [first, second] = state.tables.organizations!.map((row) => row.id) as [string, string];
  const shares = state.tables.contractShares!;
  const brokerContracts = state.tables.contracts!.filter((row) => row.owner.type === 'brokers');
  const [onlyFirst, unlisted] = brokerContracts.map((row) => row.id) as [string, string];
  state.tables.contracts = state.tables.contracts!.map((row) => {
    if (row.owner.type !== 'brokers' || row.id === unlisted) return row;
    const list = row.id === onlyFirst ? [first] : shares.filter((share) => share.contract_id === row.id).map((share) => share.organization_id);
    return { ...row, shared_with: list } as typeof row;
  });
  delete state.tables.contractShares;
  return { state, onlyFirst, unlisted, first, second };
}

describe('shares of broker contracts', () => {
  it('are taken over from a data file that kept them as lists on the contracts, and the file is written back in the new shape', async () => {
    const file = await tempFile();
    const { state, onlyFirst, unlisted, first, second } = legacyState();
    await writeSnapshot(file, state);

    const sandbox = await testSandbox({ persistence: new JournalPersistence(file) });
    const fresh = await testSandbox();
    // The first fixture organization sees what it always saw; the second lost only the contract listed for the first.
    const firstToken = await sandbox.token('sandbox-client');
    const secondToken = await sandbox.token('other-client');
    expect(await contractIds(sandbox, firstToken)).toEqual(await contractIds(fresh, await fresh.token('sandbox-client')));
    const secondSees = await contractIds(sandbox, secondToken);
    expect(secondSees).not.toContain(onlyFirst);
    expect(secondSees).toContain(unlisted);
    expect(
      sandbox.store
        .find('contractShares', 'contract_id', unlisted)
        .map((row) => row.organization_id)
        .sort(),
    ).toEqual([first, second].sort());

    // Written back at once: the snapshot on disk has the table, and no contract carries a list.
    const written = (await readSnapshot(file))!;
    expect(written.tables.contractShares!.length).toBe(sandbox.store.count('contractShares'));
    expect(JSON.stringify(written.tables.contracts)).not.toContain('shared_with');

    // A tenant made after the upgrade, then a restart: every share is still there.
    const tenant = await newTenant(sandbox);
    const reopened = await testSandbox({ persistence: new JournalPersistence(file) });
    expect(reopened.store.all('contractShares')).toEqual(sandbox.store.all('contractShares'));
    expect(reopened.store.find('contractShares', 'organization_id', tenant.organization_id).length).toBeGreaterThan(0);
  });

  it('cost a tenant creation the same few journal bytes with 150 tenants as with none', async () => {
    const file = await tempFile();
    const sandbox = await testSandbox({ persistence: new JournalPersistence(file) });
    const creationBytes = async () => {
      const before = await journalBytes(file);
      await newTenant(sandbox);
      return (await journalBytes(file)) - before;
    };
    await newTenant(sandbox);
    const early = await creationBytes();
    for (let i = 0; i < 150; i += 1) await newTenant(sandbox);
    const late = await creationBytes();
    // A share is a row of its own: with lists on the contracts, each creation rewrote every broker
    // contract with every tenant in it (7 contracts x 150 ids, some 40 KB more here).
    expect(late).toBeLessThan(early * 1.2);
    expect(sandbox.store.count('contractShares')).toBeGreaterThanOrEqual(152 * 7);
  });
});
