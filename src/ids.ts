import { createHash, createHmac, hkdfSync, randomUUID } from 'node:crypto';

/** 32 hex digits as a lower-case version 4 style UUID. */
function uuidOf(hex: string): string {
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Turns a namespace and a counter into a stable, lower-case version 4 style UUID, so the same seed
 * and the same sequence of requests always produce the same ids.
 */
export function deterministicUuid(namespace: string, counter: number): string {
  return uuidOf(createHash('sha256').update(`${namespace}:${counter}`).digest('hex'));
}

/**
 * How the sandbox makes ids. By default from the seed and a counter (same seed, same requests,
 * same ids), so tests can rely on them. Ids that reach pages anyone may open without a token
 * (logo URLs, tracking codes) are derived with a secret of the data file instead, so knowing the
 * seed does not find them. With `random`, every id is random.
 */
export class IdSource {
  /**
   * @param key the data file's secret for public ids (derived from its key file), or `undefined`
   *   when there is none (a store used without the app): public ids are then random.
   */
  constructor(
    private readonly seed: number,
    private readonly key: Buffer | undefined,
    readonly random: boolean,
  ) {}

  /** The id of the `counter`-th row made. */
  id(counter: number): string {
    return this.random ? randomUUID() : deterministicUuid(`parcel-sandbox:${this.seed}`, counter);
  }

  /** An id that is shown on public pages: not derivable from the seed. */
  publicId(counter: number): string {
    if (this.random || !this.key) return randomUUID();
    return uuidOf(this.digest(`public-id:${this.seed}:${counter}`));
  }

  /** A hex digest of `text` keyed with the data file's secret: stable for it, unguessable without it. */
  digest(text: string): string {
    if (!this.key) return createHash('sha256').update(`${randomUUID()}:${text}`).digest('hex');
    return createHmac('sha256', this.key).update(text).digest('hex');
  }
}

/** The secret for public ids, derived from the key that seals credentials (one per data file). */
export function publicIdKey(credentialsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', credentialsKey, 'parcel-sandbox', 'public ids', 32));
}
