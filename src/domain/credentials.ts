import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealedCredentials } from '../model/contract.js';
import { canonicalJson } from './canonical-json.js';

/** Encrypts contract credentials with AES-256-GCM under the sandbox's credentials key. */
export function sealCredentials(key: Buffer, credentials: Record<string, unknown>): SealedCredentials {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
}

/** Decrypts sealed credentials; throws when the key is wrong or the data was tampered with. */
export function openCredentials(key: Buffer, sealed: SealedCredentials): Record<string, unknown> {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  const plain = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as Record<string, unknown>;
}

/** Whether two credential objects hold the same values, whatever the key order. */
export function sameCredentials(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
