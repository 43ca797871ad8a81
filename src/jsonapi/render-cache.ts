/**
 * Rendered GET documents, valid while the store is unchanged: any write anywhere (it bumps the
 * store version) empties the cache, so a hit is exactly what rendering again would give. Pays
 * off for clients that poll a resource, which is how integrators wait for a registration.
 */
export class RenderCache {
  private version = -1;
  private readonly texts = new Map<string, string>();

  constructor(private readonly capacity = 2000) {}

  get(version: number, key: string): string | undefined {
    if (version !== this.version) return undefined;
    return this.texts.get(key);
  }

  /** Empties the cache now rather than at the next write (a removed tenant's documents go at once). */
  clear(): void {
    this.texts.clear();
  }

  set(version: number, key: string, text: string): void {
    if (version !== this.version || this.texts.size >= this.capacity) {
      this.texts.clear();
      this.version = version;
    }
    this.texts.set(key, text);
  }
}
