import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors.js';

/**
 * The key the sandbox signs consumer links with (checkout URLs, recovery-shipment requests).
 * Production signs with a secret of its own; the sandbox's is public on purpose, so a return
 * portal under test can compute a signature the way it would receive one. That is safe only
 * because both routes need the shop's access token and find only its own returns: a page that
 * opens without a token is signed with the sandbox's secret instead (`capabilities.ts`).
 */
const RETURNS_HMAC_KEY = 'parcel-sandbox-returns';

/** Hex HMAC-SHA256 of `message` under the sandbox key. */
export const sign = (message: string): string => createHmac('sha256', RETURNS_HMAC_KEY).update(message).digest('hex');

/** 403 unless `hmac` signs `message`. */
export function checkSignature(message: string, hmac: string): void {
  const expected = Buffer.from(sign(message), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(hmac) ? Buffer.from(hmac, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new DomainError('not-allowed', [
      { detail: 'The hmac does not sign this request: the link was changed or is not from this sandbox.', field: { parameter: 'hmac' } },
    ]);
  }
}
