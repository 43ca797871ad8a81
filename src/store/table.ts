/** What `find` answers for a value no row has; frozen, as callers must not change it anyway. */
const NONE: readonly never[] = Object.freeze([]);

/** One in-memory table: rows by id in insertion order, plus secondary indexes on chosen fields. */
export class Table<R extends { id: string }> {
  private readonly rows = new Map<string, R>();
  /**
   * Per indexed field, the ids of the rows with each value: the id itself while there is one (a
   * shipment's statuses, files and hook logs are indexed by its id, one entry each at first), a
   * Set once there are more. A Set per shipment would cost it more than a hundred bytes.
   */
  private readonly indexes = new Map<string, Map<unknown, string | Set<string>>>();
  /** Rows of an index value, built on demand and dropped when one of them changes. */
  private readonly found = new Map<string, Map<unknown, R[]>>();
  private cached: R[] | undefined;

  constructor(indexed: readonly string[] = []) {
    for (const field of indexed) {
      this.indexes.set(field, new Map());
      this.found.set(field, new Map());
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
   * updated, and reads as a data file loaded again would); with a new value it joins that value's
   * rows last.
   */
  put(row: R): void {
    const previous = this.rows.get(row.id);
    if (previous) this.reindex(previous, row);
    this.rows.set(row.id, row);
    if (!previous) this.index(row);
    this.cached = undefined;
  }

  delete(id: string): void {
    const previous = this.rows.get(id);
    if (!previous) return;
    this.unindex(previous);
    this.rows.delete(id);
    this.cached = undefined;
  }

  clear(): void {
    this.rows.clear();
    for (const index of this.indexes.values()) index.clear();
    for (const cache of this.found.values()) cache.clear();
    this.cached = undefined;
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
  }
}
