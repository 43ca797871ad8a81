/**
 * Rendered GET documents, valid while the store is unchanged: any write anywhere (it bumps the
 * store version) empties the cache, so a hit is exactly what rendering again would give. Pays
 * off for clients that poll a resource, which is how integrators wait for a registration, and
 * for lists, which integrations and the docs page ask for again and again: a 30-shipment page
 * costs ~230 us of CPU to render and serialise (npm run bench:attribution) and a hit none.
 */
export interface Rendered {
  text: string;
  /** The document `text` is the JSON of, for the request log (it shortens a large answer from it rather than parsing the text). */
  value?: unknown;
}

export class RenderCache {
  private version = -1;
  private readonly entries = new Map<string, Rendered>();
  private chars = 0;

  /**
   * At most `capacity` documents and `budgetChars` characters of text (lists are large: 30
   * shipments are ~40k characters, and the parsed document beside the text weighs more), so the
   * cache never holds more than a few tens of MB whatever the clients ask for.
   */
  constructor(
    private readonly capacity = 2000,
    private readonly budgetChars = 4_000_000,
  ) {}

  get(version: number, key: string): Rendered | undefined {
    if (version !== this.version) return undefined;
    return this.entries.get(key);
  }

  /** Empties the cache now rather than at the next write (a removed tenant's documents go at once). */
  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  set(version: number, key: string, rendered: Rendered): void {
    if (version !== this.version || this.entries.size >= this.capacity || this.chars + rendered.text.length > this.budgetChars) {
      this.clear();
      this.version = version;
    }
    this.entries.set(key, rendered);
    this.chars += rendered.text.length;
  }
}
