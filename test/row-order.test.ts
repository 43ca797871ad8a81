import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalPersistence } from '../src/store/journal-persistence.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { openStore, type Store } from '../src/store/store.js';
import { seededState, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { carrierSetup, collectionBody, createCollection, HOUR, MONDAY, rpc } from './support/collections.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/*
 * Lists answer rows in the order the store keeps them. A restart on the same data file must
 * answer them in the same order, and a write that is taken back must leave them where they were.
 */

const tempFile = async () => join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-row-order-')), 'sandbox.json');
const opened: JournalPersistence[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((persistence) => persistence.abandon()));
});

/** A sandbox on a journal-backed data file; `file` again gives the data as a restart (after a kill) reads it. */
async function onFile(file: string, options: ConstructorParameters<typeof JournalPersistence>[1] = {}) {
  const persistence = new JournalPersistence(file, options);
  opened.push(persistence);
  return testSandbox({ persistence });
}

const ids = (answer: Json): string[] => answer.body.data.map((row: { id: string }) => row.id);
const memberIds = (answer: Json): string[] => answer.body.data.relationships.shipments.data.map((row: { id: string }) => row.id);

describe('the order of rows', () => {
  it("keeps a collection's shipments in the same order after a restart, whatever order they joined in", async () => {
    const file = await tempFile();
    const sandbox = await onFile(file);
    const w = await world(sandbox);
    const nl = carrierSetup(w, 'NL', 'postnl-parcel-business');
    const window = { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR };
    const collection = await createCollection(sandbox, w.token, collectionBody(nl.shop, window, { contract: nl.contract, register: true }));
    const body = shipmentBody({ shop: nl.shop, service: nl.service, contract: nl.contract });
    const parcels: string[] = [];
    for (let i = 0; i < 3; i++) parcels.push((await createShipment(sandbox, w.token, body)).id);
    // The newest joins first, one request each.
    for (const id of [parcels[2]!, parcels[0]!, parcels[1]!]) {
      const added = await rpc(sandbox, w.token, '/add-shipments-to-collection', { collection_id: collection.id, shipment_ids: [id] });
      expect(added.status, added.text).toBe(204);
    }
    const before = memberIds(await sandbox.get(`/collections/${collection.id}`, w.token));
    expect(before.toSorted()).toEqual(parcels.toSorted());

    const restarted = await onFile(file);
    expect(memberIds(await restarted.get(`/collections/${collection.id}`, w.token))).toEqual(before);
  });

  it('leaves a shipment where it was in the list when its deletion cannot be written, also after a restart', async () => {
    const file = await tempFile();
    const disk = { full: false };
    const sandbox: TestSandbox = await onFile(file, {
      faults: { append: (bytes) => (disk.full ? { written: Math.floor(bytes / 2), code: 'ENOSPC' } : undefined) },
    });
    const w = await world(sandbox);
    const body = shipmentBody({ shop: w.shopIn('NL') });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await createShipment(sandbox, w.token, body)).id);
    const list = () => sandbox.get('/shipments?page[size]=100', w.token);
    const before = ids(await list());

    disk.full = true;
    expect((await sandbox.request('DELETE', `/shipments/${made[0]}`, { token: w.token })).status).toBe(503);
    disk.full = false;
    expect(ids(await list())).toEqual(before);

    const restarted = await onFile(file);
    expect(ids(await restarted.get('/shipments?page[size]=100', w.token))).toEqual(before);
  });

  it('puts the rows a failed transaction deleted back in their places, in the table and in its indexes', async () => {
    const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => seededState() });
    const organizationId = store.all('shops')[0]!.organization_id;
    const order = (s: Store) => ({ all: s.all('shops').map((row) => row.id), own: s.find('shops', 'organization_id', organizationId).map((row) => row.id) });
    const before = order(store);
    expect(before.own.length).toBeGreaterThan(1);
    await expect(
      store.transact((tx) => {
        for (const id of before.own) tx.remove('shops', id);
        throw new Error('a rule failed after the removals');
      }),
    ).rejects.toThrow('a rule failed');
    expect(order(store)).toEqual(before);
  });

  it('replays a row deleted and made again in one transaction to the place it has before the restart', async () => {
    const file = await tempFile();
    const persistence = new JournalPersistence(file);
    opened.push(persistence);
    const store = await openStore({ persistence, seed: 1, initial: () => seededState() });
    const shop = store.all('shops')[0]!;
    await store.transact((tx) => {
      tx.remove('shops', shop.id);
      tx.insert('shops', { ...shop, name: 'Made again' });
    });
    const before = store.all('shops').map((row) => row.id);
    expect(before.at(-1)).toBe(shop.id);

    const restarted = await openStore({ persistence: new JournalPersistence(file), seed: 1, initial: () => seededState() });
    expect(restarted.all('shops').map((row) => row.id)).toEqual(before);
    expect(restarted.get('shops', shop.id)!.name).toBe('Made again');
    await restarted.close();
  });
});
