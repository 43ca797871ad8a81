import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** The public pages a capability opens; each signs its own message, so one page's token opens no other. */
export type CapabilityPage = 'broker-logo' | 'carrier-logo' | 'payment-page' | 'return-portal' | 'tracking-page';

/** A token as `token` writes it: a row id, a dot, and 43 base64url characters of HMAC-SHA256. */
export const TOKEN = /^([0-9a-z-]{1,64})\.([A-Za-z0-9_-]{43})$/;

/**
 * The capabilities of public pages (pages anyone may open without an access token): a token names
 * its row by id and carries an HMAC-SHA256 of the page and the id under a secret of this sandbox
 * (derived from its key file, or made at start in memory). The seed, the id counter and the code
 * give nothing to forge one with, and a token of another sandbox opens nothing here. The secret is
 * kept with the data, so a token keeps working after a restart; it is computed, never stored.
 */
export class Capabilities {
  constructor(private readonly key: Buffer) {}

  /** The token that opens `page` of row `id`. */
  token(page: CapabilityPage, id: string): string {
    return `${id}.${this.signature(page, id)}`;
  }

  /**
   * The row id `token` names when this sandbox made it for `page`, else `undefined`. The signature
   * is checked (in constant time) before any row is looked up, so a refusal says nothing of
   * whether the row exists.
   */
  open(page: CapabilityPage, token: string): string | undefined {
    const match = TOKEN.exec(token);
    if (!match) return undefined;
    const [, id, given] = match as unknown as [string, string, string];
    // Compared as text: a base64url decoder skips characters it does not know, which would let a changed token pass.
    const expected = Buffer.from(this.signature(page, id));
    return timingSafeEqual(expected, Buffer.from(given)) ? id : undefined;
  }

  private signature(page: CapabilityPage, id: string): string {
    return createHmac('sha256', this.key).update(`${page}\u0000${id}`).digest('base64url');
  }
}

/** The capability secret of a sandbox, derived from its credentials key (random, one per key file). */
export function capabilityKey(credentialsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', credentialsKey, 'parcel-sandbox', 'public page capabilities', 32));
}
