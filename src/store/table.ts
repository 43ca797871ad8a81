/** What `find` answers for a value no row has; frozen, as callers must not change it anyway. */
const NONE: readonly never[] = Object.freeze([]);

/** One in-memory table: rows by id in insertion order, plus secondary indexes on chosen fields. */
export class Table<R extends { id: string }> {
  private readonly rows = new Map<string, R>();
  /**
   * Each row's place in the table, ascending in `rows`' order: a row taken back after a delete
   * that failed (`restore`) goes back to its place, as the data file still has it there.
   */
  private readonly places = new Map<string, number>();
  private nextPlace = 0;
  /**
   * Per indexed field, the ids of the rows with each value: the id itself while there is one (a
   * shipment's statuses, files and hook logs are indexed by its id, one entry each at first), a
   * Set once there are more. A Set per shipment would cost it more than a hundred bytes.
   */
  private readonly indexes = new Map<string, Map<unknown, string | Set<string>>>();
  /** Rows of an index value, built on demand and dropped when one of them changes. */
  private readonly found = new Map<string, Map<unknown, R[]>>();
  /**
   * Per indexed field, the values a row joined after others: their ids may no longer be in table
   * order and are put back in it on the next `find` of the field. A data file loaded again
   * indexes rows in table order, so `find` must answer in that order too, or a collection's
   * shipments would change order on a restart.
   */
  private readonly unordered = new Map<string, Set<unknown>>();
  private cached: R[] | undefined;

  constructor(indexed: readonly string[] = []) {
    for (const field of indexed) {
      this.indexes.set(field, new Map());
      this.found.set(field, new Map());
      this.unordered.set(field, new Set());
    }
  }

  get size(): number {
    return this.rows.size;
  }

  get(id: string): R | undefined {
    return this.rows.get(id);
  }

  /** Every row in insertion order; the array is shared until the next write, so never mutate it. */
  all(): readonly R[] {
    this.cached ??= [...this.rows.values()];
    return this.cached;
  }

  /**
   * Rows whose `field` equals `value`, in insertion order; indexed fields answer without a scan.
   * The array of an indexed field is shared until one of its rows changes: never mutate it.
   */
  find(field: string, value: unknown): readonly R[] {
    const index = this.indexes.get(field);
    if (!index) return this.all().filter((row) => (row as Record<string, unknown>)[field] === value);
    if (this.unordered.get(field)!.size > 0) this.reorder(field, index);
    const ids = index.get(value);
    // A value no row has is not remembered: the ids of removed tenants would otherwise stay as keys.
    if (ids === undefined) return NONE;
    const cache = this.found.get(field)!;
    let rows = cache.get(value);
    if (!rows) {
      rows = [];
      if (typeof ids === 'string') rows.push(this.rows.get(ids)!);
      else for (const id of ids) rows.push(this.rows.get(id)!);
      cache.set(value, rows);
    }
    return rows;
  }

  /**
   * How many rows have `field` equal to `value`: without building the list when the field is
   * indexed (the quotas count a tenant's rows on every create).
   */
  count(field: string, value: unknown): number {
    const index = this.indexes.get(field);
    if (!index) return this.find(field, value).length;
    const ids = index.get(value);
    return ids === undefined ? 0 : typeof ids === 'string' ? 1 : ids.size;
  }

  /**
   * Puts `row` in place of the row with the same id (or adds it), keeping indexes current. A
   * changed row keeps its place in `all()` and, where an indexed field keeps its value, in what
   * `find` answers for that value (a list read by index does not reorder when one of its rows is
   * updated); with a new value it takes its place among that value's rows in table order. Either
   * way `find` reads as a data file loaded again would.
   */
  put(row: R): void {
    const previous = this.rows.get(row.id);
    if (previous) this.reindex(previous, row);
    this.rows.set(row.id, row);
    if (!previous) {
      this.places.set(row.id, this.nextPlace++);
      this.index(row);
    }
    this.cached = undefined;
  }

  /** The place of a row (see `restore`), `undefined` when there is no such row. */
  placeOf(id: string): number | undefined {
    return this.places.get(id);
  }

  /**
   * Puts deleted rows back at the places `placeOf` gave for them before they were deleted, as if
   * they had never been: a write taken back leaves the order of the table and its indexes as it
   * was. One pass for all of them, however many: this runs only when a write is taken back.
   */
  restore(entries: readonly { row: R; place: number }[]): void {
    if (entries.length === 0) return;
    for (const { row, place } of entries) {
      this.delete(row.id);
      this.rows.set(row.id, row);
      this.places.set(row.id, place);
      this.index(row);
      for (const [field, index] of this.indexes) {
        const value = (row as Record<string, unknown>)[field];
        if (typeof index.get(value) === 'object') this.unordered.get(field)!.add(value);
      }
    }
    const ordered = [...this.rows.values()].sort((a, b) => this.places.get(a.id)! - this.places.get(b.id)!);
    this.rows.clear();
    for (const row of ordered) this.rows.set(row.id, row);
    this.cached = undefined;
  }

  delete(id: string): void {
    const previous = this.rows.get(id);
    if (!previous) return;
    this.unindex(previous);
    this.rows.delete(id);
    this.places.delete(id);
    this.cached = undefined;
  }

  clear(): void {
    this.rows.clear();
    this.places.clear();
    for (const index of this.indexes.values()) index.clear();
    for (const cache of this.found.values()) cache.clear();
    for (const values of this.unordered.values()) values.clear();
    this.cached = undefined;
  }

  /** Puts the ids of every value rows joined back in table order (their places). */
  private reorder(field: string, index: Map<unknown, string | Set<string>>): void {
    const values = this.unordered.get(field)!;
    for (const value of values) {
      const ids = index.get(value);
      if (typeof ids !== 'object') continue;
      index.set(value, new Set([...ids].sort((a, b) => this.places.get(a)! - this.places.get(b)!)));
      this.found.get(field)!.delete(value);
    }
    values.clear();
  }

  private index(row: R): void {
    for (const [field, index] of this.indexes) this.indexField(field, index, row);
  }

  private unindex(row: R): void {
    for (const [field, index] of this.indexes) this.unindexField(field, index, row);
  }

  /** Moves a changed row between index values only where its value changed; elsewhere it keeps its place. */
  private reindex(previous: R, row: R): void {
    for (const [field, index] of this.indexes) {
      const before = (previous as Record<string, unknown>)[field];
      const after = (row as Record<string, unknown>)[field];
      if (before === after) {
        // Same place; the rows built for the value hold the previous row.
        this.found.get(field)!.delete(after);
        continue;
      }
      this.unindexField(field, index, previous);
      this.indexField(field, index, row);
      // Joining rows that were there before it, the row may belong before some of them.
      if (typeof index.get(after) === 'object') this.unordered.get(field)!.add(after);
    }
  }

  private indexField(field: string, index: Map<unknown, string | Set<string>>, row: R): void {
    const value = (row as Record<string, unknown>)[field];
    if (value === undefined) return;
    this.found.get(field)!.delete(value);
    const ids = index.get(value);
    if (ids === undefined) index.set(value, row.id);
    else if (typeof ids !== 'string') ids.add(row.id);
    else if (ids !== row.id) index.set(value, new Set([ids, row.id]));
  }

  private unindexField(field: string, index: Map<unknown, string | Set<string>>, row: R): void {
    const value = (row as Record<string, unknown>)[field];
    this.found.get(field)!.delete(value);
    const ids = index.get(value);
    if (ids === row.id) index.delete(value);
    else if (typeof ids === 'object') {
      ids.delete(row.id);
      if (ids.size === 0) index.delete(value);
    }
    if (!index.has(value)) this.unordered.get(field)!.delete(value);
  }
}
