import { gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import type { StoredBody } from '../store/tables.js';
import { LEGACY_DICTIONARIES } from './replay-body-legacy.js';

/*
 * Idempotency records keep the response they replay for 24 hours, one per created shipment: as
 * plain text the biggest thing the sandbox stores for a shipment (2-3 KB), in memory, in the
 * journal and in the snapshot. Gzipped it is about a third of that. Records of older data files
 * hold the body as text or deflated against a preset dictionary; both are still read.
 */

/** The body as a record stores it. */
export function packBody(text: string): StoredBody {
  return { body_gzip: gzipSync(text).toString('base64') };
}

/** The body text a record holds, whichever way it holds it. */
export function unpackBody(stored: StoredBody): string {
  if ('body' in stored) return stored.body;
  if ('body_gzip' in stored) return gunzipSync(Buffer.from(stored.body_gzip, 'base64')).toString('utf8');
  const dictionary = LEGACY_DICTIONARIES[stored.body_dictionary];
  if (!dictionary) throw new Error(`unknown replay body dictionary ${stored.body_dictionary}`);
  return inflateRawSync(Buffer.from(stored.body_deflated, 'base64'), { dictionary, windowBits: 15 }).toString('utf8');
}
