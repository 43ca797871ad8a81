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
 * same ids), so tests can rely on them. Ids that open a page anyone may open without a token
 * (logos, payments) are drawn from the CSPRNG whatever the seed says, and tracking codes are
 * derived with a secret of the data file. With `random`, every id is random.
 */
export class IdSource {
  /**
   * @param key the data file's secret for digests such as tracking codes (derived from its key
   *   file), or `undefined` when there is none (a store used without the app): digests are then random.
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

  /** An id that opens a public page by itself: random (CSPRNG), so neither the seed nor the data file's secret gives it. */
  publicId(): string {
    return randomUUID();
  }

  /** A hex digest of `text` keyed with the data file's secret: stable for it, unguessable without it. */
  digest(text: string): string {
    if (!this.key) return createHash('sha256').update(`${randomUUID()}:${text}`).digest('hex');
    return createHmac('sha256', this.key).update(text).digest('hex');
  }
}

/** The secret for digests (tracking codes), derived from the key that seals credentials (one per data file). */
export function publicIdKey(credentialsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', credentialsKey, 'parcel-sandbox', 'public ids', 32));
}
