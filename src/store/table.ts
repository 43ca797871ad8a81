/** One in-memory table: rows by id in insertion order, plus secondary indexes on chosen fields. */
export class Table<R extends { id: string }> {
  private readonly rows = new Map<string, R>();
  private readonly indexes = new Map<string, Map<unknown, Set<string>>>();
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
    const cache = this.found.get(field)!;
    let rows = cache.get(value);
    if (!rows) {
      rows = [];
      for (const id of index.get(value) ?? []) rows.push(this.rows.get(id)!);
      cache.set(value, rows);
    }
    return rows;
  }

  /** Puts `row` in place of the row with the same id (or adds it), keeping indexes current. */
  put(row: R): void {
    const previous = this.rows.get(row.id);
    if (previous) this.unindex(previous);
    this.rows.set(row.id, row);
    this.index(row);
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
    for (const [field, index] of this.indexes) {
      const value = (row as Record<string, unknown>)[field];
      if (value === undefined) continue;
      this.found.get(field)!.delete(value);
      let ids = index.get(value);
      if (!ids) index.set(value, (ids = new Set()));
      ids.add(row.id);
    }
  }

  private unindex(row: R): void {
    for (const [field, index] of this.indexes) {
      this.found.get(field)!.delete((row as Record<string, unknown>)[field]);
      const ids = index.get((row as Record<string, unknown>)[field]);
      ids?.delete(row.id);
      if (ids?.size === 0) index.delete((row as Record<string, unknown>)[field]);
    }
  }
}
