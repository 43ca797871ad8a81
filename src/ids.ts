import { createHash } from 'node:crypto';

/**
 * Turns a namespace and a counter into a stable, lower-case version 4 style UUID, so the same seed
 * and the same sequence of requests always produce the same ids.
 */
export function deterministicUuid(namespace: string, counter: number): string {
  const hex = createHash('sha256').update(`${namespace}:${counter}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
