import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 hex digest under which a client secret is stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret with a stored digest. */
export function secretMatches(secret: string, digest: string): boolean {
  const presented = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(digest, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
