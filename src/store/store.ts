import { IdSource } from '../ids.js';
import type { Persistence, WriteOp } from './persistence.js';
import { ID_COUNTER } from './tables.js';
import { Table } from './table.js';
import { DATA_VERSION, tableDeclarations, tableNames, type Row, type StateData, type TableName } from './tables.js';
import { deepFreeze, freezeRow, storable } from './rows.js';
import { upgradeRows } from './upgrade.js';

/** Read access to the sandbox data. Rows are frozen: change them only through a transaction. */
export interface ReadView {
  get<T extends TableName>(table: T, id: string): Row<T> | undefined;
  all<T extends TableName>(table: T): readonly Row<T>[];
  find<T extends TableName>(table: T, field: keyof Row<T> & string, value: unknown): readonly Row<T>[];
  count(table: TableName): number;
  /** How many rows of `table` have `field` equal to `value`; indexed fields answer without a scan or a list. */
  countBy<T extends TableName>(table: T, field: keyof Row<T> & string, value: unknown): number;
}

/** A unit of change; everything done through it lands together or not at all. */
export interface Tx extends ReadView {
  insert<T extends TableName>(table: T, row: Row<T>): Row<T>;
  /** Merges `changes` into the row; a key set to `undefined` is removed. */
  update<T extends TableName>(table: T, id: string, changes: Partial<Row<T>>): Row<T>;
  remove(table: TableName, id: string): void;
  /** A fresh id, deterministic for the seed and the number of ids handed out before (see `IdSource`). */
  newId(): string;
  /** A fresh random id (CSPRNG) for something its id alone opens without a token (a logo, a payment). */
  newPublicId(): string;
}

export interface Store extends ReadView {
  readonly seed: number;
  /** Changes whenever any row changes, so anything derived from the data can tell it is stale. */
  readonly version: number;
  /** Where the data lives, for start-up messages ("memory" or a file path). */
  readonly location: string;
  /**
   * Runs `work` synchronously against the data and resolves once its changes are durable.
   * When `work` throws, every change it made is undone and the error is rethrown. When its
   * changes cannot be written (`DataWriteError`), they are undone too, before anyone saw them.
   * When the data is replaced while it waits (a reset), `work` does not run (`DataReplacedError`),
   * nor once the store is closed (`DataClosedError`).
   */
  transact<R>(work: (tx: Tx) => R): Promise<R>;
  /** Replaces all data (sandbox reset), durably; the new data is visible once it is written. */
  replace(data: StateData): Promise<void>;
  /** The whole data set in its persisted form. */
  snapshot(): StateData;
  /** Waits for pending writes and releases the persistence. */
  close(): Promise<void>;
  /** How ids are made from now on (the app sets the data file's secret and the random-ids option). */
  useIds(source: IdSource): void;
  readonly ids: IdSource;
}

/** A change as the store keeps it: with the row's place in its table before it (see `Table.restore`). */
type StoreOp = WriteOp & { place?: number };

type Pending = { ops: WriteOp[]; resolve: () => void; reject: (error: unknown) => void };

/**
 * A transaction that waited while the data was replaced (a sandbox reset) and did not run: its
 * caller read the data that is gone, and a change made from those reads could name rows that no
 * longer exist or put back what the reset removed. Nothing of it was written; sending the request
 * again works on the new data.
 */
export class DataReplacedError extends Error {
  constructor() {
    super('the data was replaced (a sandbox reset) while this change waited; nothing of it was written');
  }
}

/**
 * A change asked for once the store was closed (the sandbox is stopping): nothing of it was
 * written. Work still out when the process stops (a webhook delivery answered late) meets it; what
 * it would have ended stays in the data file, and runs again after a restart.
 */
export class DataClosedError extends Error {
  constructor() {
    super('the data is closed (the sandbox is stopping); nothing of this change was written');
  }
}

class MemoryStore implements Store {
  private readonly tables = new Map<TableName, Table<{ id: string }>>();
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  /** A reset being written; settles without an error either way. */
  private replacing: Promise<void> | undefined;
  /** Set when `close` is called: from then on no change starts (`DataClosedError`). */
  private closed = false;
  version = 0;
  /** Counts the times the data was replaced as a whole (loads), so a waiting transaction can tell. */
  private generation = 0;
  ids: IdSource;

  constructor(
    readonly seed: number,
    private readonly persistence: Persistence,
  ) {
    for (const name of tableNames) this.tables.set(name, new Table(tableDeclarations[name].indexes ?? []));
    this.ids = new IdSource(seed, undefined, false);
  }

  useIds(source: IdSource): void {
    this.ids = source;
  }

  get location(): string {
    return this.persistence.location;
  }

  load(stored: StateData): void {
    const data = upgradeRows(stored);
    this.version += 1;
    this.generation += 1;
    for (const table of this.tables.values()) table.clear();
    for (const name of tableNames) {
      const table = this.table(name);
      for (const row of data.tables[name] ?? []) table.put(deepFreeze(storable(row)));
    }
  }

  get<T extends TableName>(table: T, id: string): Row<T> | undefined {
    return this.table(table).get(id) as Row<T> | undefined;
  }

  all<T extends TableName>(table: T): readonly Row<T>[] {
    return this.table(table).all() as readonly Row<T>[];
  }

  find<T extends TableName>(table: T, field: keyof Row<T> & string, value: unknown): readonly Row<T>[] {
    return this.table(table).find(field, value) as readonly Row<T>[];
  }

  count(table: TableName): number {
    return this.table(table).size;
  }

  countBy<T extends TableName>(table: T, field: keyof Row<T> & string, value: unknown): number {
    return this.table(table).count(field, value);
  }

  async transact<R>(work: (tx: Tx) => R): Promise<R> {
    if (this.replacing) {
      const generation = this.generation;
      while (this.replacing) await this.replacing;
      // A replace that failed left the data as it was: the caller's reads still hold.
      if (this.generation !== generation) throw new DataReplacedError();
    }
    if (this.closed) throw new DataClosedError();
    const ops: StoreOp[] = [];
    const tx = this.createTx(ops);
    let result: R;
    try {
      result = work(tx);
      // In the same turn as the changes: no other request runs before they are in the journal,
      // or undone because they could not be written there.
      if (ops.length > 0) this.persistence.append(ops);
    } catch (error) {
      this.undo(ops);
      throw error;
    }
    if (ops.length > 0) await this.enqueue(ops);
    return result;
  }

  async replace(data: StateData): Promise<void> {
    while (this.replacing) await this.replacing;
    if (this.closed) throw new DataClosedError();
    const running = this.replaceNow(data);
    this.replacing = running.then(
      () => undefined,
      () => undefined,
    );
    try {
      await running;
    } finally {
      this.replacing = undefined;
    }
  }

  /** Transactions wait meanwhile; readers see the old data until the new is written. */
  private async replaceNow(data: StateData): Promise<void> {
    while (this.flushing) await this.flushing;
    const upgraded = upgradeRows(data);
    const tables: StateData['tables'] = {};
    for (const name of tableNames) (tables as Record<string, unknown>)[name] = upgraded.tables[name] ?? [];
    const stored: StateData = { format: 'parcel-sandbox', version: DATA_VERSION, seed: this.seed, tables };
    await this.persistence.replace(stored);
    this.load(stored);
  }

  snapshot(): StateData {
    const tables: StateData['tables'] = {};
    for (const name of tableNames) (tables as Record<string, unknown>)[name] = [...this.all(name)];
    return { format: 'parcel-sandbox', version: DATA_VERSION, seed: this.seed, tables };
  }

  async close(): Promise<void> {
    // Changes already made are made durable below; none starts from now on.
    this.closed = true;
    while (this.flushing || this.replacing) await (this.flushing ?? this.replacing);
    await this.persistence.close();
  }

  private table(name: TableName): Table<{ id: string }> {
    const table = this.tables.get(name);
    if (!table) throw new Error(`unknown table ${name}`);
    return table;
  }

  private createTx(ops: StoreOp[]): Tx {
    // One op per row and transaction: a row changed twice (the id counter, a shipment and then
    // its status) is persisted once, with its final value; undo restores its first value.
    const opOf = new Map<string, StoreOp>();
    const put = (table: TableName, before: { id: string } | undefined, after: { id: string } | undefined, id: string) => {
      this.version += 1;
      const place = before && this.table(table).placeOf(id);
      if (after) this.table(table).put(after);
      else this.table(table).delete(id);
      const key = `${table}\u0000${id}`;
      const earlier = opOf.get(key);
      // A row deleted and put again comes last in its table; one op setting it would leave it at
      // its old place when the journal is replayed, so the delete and the new row are two ops.
      if (earlier && !(earlier.before && !earlier.after && after)) {
        earlier.after = after;
        return;
      }
      const op: StoreOp = { kind: 'row' as const, table, id, before, after, ...(place !== undefined ? { place } : {}) };
      opOf.set(key, op);
      ops.push(op);
    };
    const nextCounter = () => {
      const row = this.get('settings', ID_COUNTER);
      const counter = (row?.value as number | undefined) ?? 0;
      if (row) tx.update('settings', ID_COUNTER, { value: counter + 1 });
      else tx.insert('settings', { id: ID_COUNTER, value: counter + 1 });
      return counter;
    };
    const tx: Tx = {
      get: (t, id) => this.get(t, id),
      all: (t) => this.all(t),
      find: (t, f, v) => this.find(t, f, v),
      count: (t) => this.count(t),
      countBy: (t, f, v) => this.countBy(t, f, v),
      insert: (table, row) => {
        if (this.get(table, row.id)) throw new Error(`duplicate id ${row.id} in ${table}`);
        // Frozen in place (nested objects as copies): callers hand over fresh objects and must not keep changing them.
        const frozen = freezeRow(storable(row));
        put(table, undefined, frozen, row.id);
        return frozen;
      },
      update: (table, id, changes) => {
        const before = this.get(table, id);
        if (!before) throw new Error(`no row ${id} in ${table}`);
        const after = freezeRow(storable({ ...before, ...changes, id })) as Row<typeof table>;
        put(table, before, after, id);
        return after;
      },
      remove: (table, id) => {
        const before = this.get(table, id);
        if (before) put(table, before, undefined, id);
      },
      newId: () => this.ids.id(nextCounter()),
      // The counter moves all the same, so the ids made after a public one are those earlier versions made.
      newPublicId: () => (nextCounter(), this.ids.publicId()),
    };
    return tx;
  }

  /** Takes `ops` back, newest first; deleted rows go back to their places, so no list changes order. */
  private undo(ops: readonly StoreOp[]): void {
    this.version += 1;
    const deleted = new Map<TableName, { row: { id: string }; place: number }[]>();
    for (let i = ops.length - 1; i >= 0; i--) {
      const op = ops[i]!;
      const table = this.table(op.table);
      if (op.before && op.place !== undefined && !table.get(op.id)) {
        let rows = deleted.get(op.table);
        if (!rows) deleted.set(op.table, (rows = []));
        rows.push({ row: op.before, place: op.place });
      } else if (op.before) table.put(op.before);
      else table.delete(op.id);
    }
    for (const [name, rows] of deleted) this.table(name).restore(rows);
  }

  /** Group commit: every transaction appended while a flush runs is made durable by the next flush. */
  private enqueue(ops: WriteOp[]): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.pending.push({ ops, resolve, reject }));
    this.flushing ??= this.flushLoop();
    return done;
  }

  private async flushLoop(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.persistence.flush(() => this.snapshot());
        for (const entry of batch) entry.resolve();
      } catch (error) {
        // Every append since the last durable flush is void, also those made while this one ran:
        // they may have read what is lost. Undone newest first, back to what is durable.
        this.persistence.revert();
        const lost = [...batch, ...this.pending];
        this.pending = [];
        for (let i = lost.length - 1; i >= 0; i--) this.undo(lost[i]!.ops);
        for (const entry of lost) entry.reject(error);
      }
    }
    this.flushing = undefined;
  }
}

/**
 * Opens a store on `persistence`: loads what it holds, or seeds it with `initial()` and writes
 * that out first, so a fresh data file exists as soon as the store is open. `fresh` (`--reset`)
 * seeds it whatever it holds, under `seed`: the data file's own seed would go on drawing the ids
 * and make a later reset go back to the data of that seed.
 */
export async function openStore(options: {
  persistence: Persistence;
  seed: number;
  initial: () => StateData | Promise<StateData>;
  fresh?: boolean;
}): Promise<Store> {
  // Read even when it is replaced: a data file that cannot be read (a newer version's) stops the start.
  const loaded = await options.persistence.load();
  const store = new MemoryStore(options.fresh ? options.seed : (loaded?.seed ?? options.seed), options.persistence);
  const upgraded = loaded && !options.fresh && upgradeRows(loaded);
  if (options.fresh) {
    await store.replace(await options.initial());
  } else if (upgraded && upgraded !== loaded) {
    // Written out at once in the new shape: journal lines written from now on assume it.
    await store.replace(upgraded);
  } else if (loaded) {
    store.load(loaded);
  } else {
    await store.replace(await options.initial());
  }
  return store;
}
