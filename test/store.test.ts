import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileError, filePersistence, memoryPersistence } from '../src/store/persistence.js';
import { openStore } from '../src/store/store.js';
import { Table } from '../src/store/table.js';
import { seededState } from './support/app.js';

const tempFile = async () => join(await mkdtemp(join(tmpdir(), 'parcel-sandbox-store-')), 'sandbox.json');

describe('the store', () => {
  it('finds rows by an index in the order they were added, also after one of them changed or moved to another value', () => {
    const table = new Table<{ id: string; shop_id?: string; name: string }>(['shop_id']);
    for (const id of ['a', 'b', 'c']) table.put({ id, shop_id: 's1', name: id });
    const ids = () => table.find('shop_id', 's1').map((row) => row.id);
    expect(ids()).toEqual(['a', 'b', 'c']);
    table.put({ id: 'a', shop_id: 's1', name: 'renamed' });
    expect(ids()).toEqual(['a', 'b', 'c']);
    expect(table.find('shop_id', 's1')[0]!.name).toBe('renamed');
    // A row that moves to another value leaves the first and takes its place in the second by
    // the order the rows were added, as a data file loaded again indexes them.
    table.put({ id: 'd', shop_id: 's2', name: 'd' });
    table.put({ id: 'b', shop_id: 's2', name: 'b' });
    expect(ids()).toEqual(['a', 'c']);
    expect(table.find('shop_id', 's2').map((row) => row.id)).toEqual(['b', 'd']);
    table.put({ id: 'c', name: 'no shop' });
    expect(ids()).toEqual(['a']);
    expect(table.all().map((row) => row.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('undoes every change of a transaction that throws', async () => {
    const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => seededState() });
    const shop = store.all('shops')[0]!;
    const count = store.count('shops');
    await expect(
      store.transact((tx) => {
        tx.update('shops', shop.id, { name: 'Renamed' });
        tx.insert('shops', { ...shop, id: tx.newId(), name: 'New shop' });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    expect(store.get('shops', shop.id)!.name).toBe(shop.name);
    expect(store.count('shops')).toBe(count);
    expect(store.find('shops', 'organization_id', shop.organization_id).map((row) => row.name)).not.toContain('New shop');
  });

  it('hands out ids that depend only on the seed and how many came before', async () => {
    const ids = async (seed: number) => {
      const store = await openStore({ persistence: memoryPersistence(), seed, initial: () => seededState(seed) });
      return store.transact((tx) => [tx.newId(), tx.newId()]);
    };
    expect(await ids(1)).toEqual(await ids(1));
    expect(await ids(2)).not.toEqual(await ids(1));
    const [first, second] = await ids(1);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first).not.toBe(second);
  });

  it('keeps rows frozen so nothing changes them behind the store', async () => {
    const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => seededState() });
    const shop = store.all('shops')[0]!;
    expect(() => {
      (shop as { name: string }).name = 'x';
    }).toThrow();
  });

  it('freezes what a write hands over at every depth, and later changes to the objects handed over do not reach it', async () => {
    const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => seededState() });
    const shop = store.all('shops')[0]!;
    const address = { ...shop.return_address!, city: 'Utrecht' };
    const written = await store.transact((tx) => tx.update('shops', shop.id, { return_address: address }));
    expect(Object.isFrozen(written.return_address)).toBe(true);
    expect(() => {
      (written.return_address! as { city: string }).city = 'x';
    }).toThrow();
    address.city = 'Changed afterwards';
    expect(store.get('shops', shop.id)!.return_address!.city).toBe('Utrecht');
  });

  it('stores an own `__proto__` member of nested data as a member, never as a prototype', async () => {
    const store = await openStore({ persistence: memoryPersistence(), seed: 1, initial: () => seededState() });
    const shop = store.all('shops')[0]!;
    const address = JSON.parse(`{"__proto__": {"polluted": true}, "city": "Utrecht"}`) as Record<string, unknown>;
    const written = await store.transact((tx) => tx.update('shops', shop.id, { return_address: address as never }));
    const stored = written.return_address as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.keys(stored)).toEqual(['__proto__', 'city']);
    expect(stored.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('writes a new data file from the seed and has a change on disk when the transaction resolves', async () => {
    const file = await tempFile();
    const store = await openStore({ persistence: filePersistence(file), seed: 1, initial: () => seededState() });
    const onDisk = JSON.parse(await readFile(file, 'utf8'));
    expect(onDisk.tables.carriers.length).toBe(store.count('carriers'));
    const shop = store.all('shops')[0]!;
    await store.transact((tx) => tx.update('shops', shop.id, { name: 'Durable name' }));
    // On disk is the snapshot plus the journal: read them as the next start would.
    const after = (await filePersistence(file).load())!;
    expect(after.tables.shops!.find((row) => row.id === shop.id)!.name).toBe('Durable name');
    await store.close();
    const reopened = await openStore({ persistence: filePersistence(file), seed: 99, initial: () => seededState() });
    expect(reopened.get('shops', shop.id)!.name).toBe('Durable name');
    expect(reopened.seed).toBe(1);
    await reopened.close();
  });

  it('persists every one of many concurrent transactions', async () => {
    const file = await tempFile();
    const store = await openStore({ persistence: filePersistence(file), seed: 1, initial: () => seededState() });
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.transact((tx) => tx.insert('settings', { id: `s${i}`, value: i }))));
    const onDisk = (await filePersistence(file).load())!;
    expect(onDisk.tables.settings!.filter((row) => row.id.startsWith('s'))).toHaveLength(50);
    await store.close();
  });

  it('refuses a corrupt data file with a message naming it, and leaves it untouched', async () => {
    const file = await tempFile();
    await writeFile(file, '{"format": "parcel-sandbox", "tables": {');
    const open = openStore({ persistence: filePersistence(file), seed: 1, initial: () => seededState() });
    await expect(open).rejects.toBeInstanceOf(DataFileError);
    await expect(open).rejects.toThrow(file);
    expect(await readFile(file, 'utf8')).toBe('{"format": "parcel-sandbox", "tables": {');
    await writeFile(file, '{"something": "else"}');
    await expect(openStore({ persistence: filePersistence(file), seed: 1, initial: () => seededState() })).rejects.toThrow(/not a parcel-sandbox data file/);
  });

  it('says what to do with a data file it will not read, which a reset (--reset) leaves untouched too', async () => {
    const file = await tempFile();
    const hint = `the sandbox leaves it as it is, also with --reset: repair it, or move it away (with any ${basename(file)}.journal-* beside it) to start from a new one, or use another data file`;
    for (const [text, reason] of [
      ['{"format": "parcel-sandbox", "tables": {', 'it is not valid JSON'],
      ['{"name": "my-project", "version": "1.0.0"}', 'it is not a parcel-sandbox data file'],
    ]) {
      await writeFile(file, text!);
      const open = openStore({ persistence: filePersistence(file), seed: 1, fresh: true, initial: () => seededState() });
      await expect(open).rejects.toThrow(new RegExp(`^cannot use data file ${file}: ${reason}.*; ${hint.replace(/[.*()]/g, '\\$&')}$`));
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });

  it('refuses a data file whose tables it would lose rows of, naming what, and leaves it untouched', async () => {
    const file = await tempFile();
    const shop = seededState().tables.shops![0]!;
    const cases: [unknown, RegExp][] = [
      // Rows are kept by id: numbers would be one row, and the second of two rows with one id would replace the first.
      [{ shipments: [1, 2] }, /row 1 of table "shipments" is not an object with a string id/],
      [{ shops: [shop, { ...shop, name: 'Copy' }] }, new RegExp(`table "shops" has two rows with the id "${shop.id}"`)],
      // A newer sandbox's table (tables are only ever added), which writing the file again would drop.
      [{ shops: [shop], parcelLockers: [] }, /it has a table "parcelLockers" this parcel-sandbox does not know/],
    ];
    for (const [tables, reason] of cases) {
      const text = JSON.stringify({ format: 'parcel-sandbox', version: 1, seed: 1, tables });
      await writeFile(file, text);
      const open = openStore({ persistence: filePersistence(file), seed: 1, initial: () => seededState() });
      await expect(open).rejects.toBeInstanceOf(DataFileError);
      await expect(open).rejects.toThrow(reason);
      expect(await readFile(file, 'utf8')).toBe(text);
    }
  });
});
