import { gunzipSync, gzipSync, inflateRawSync } from 'node:zlib';
import type { StoredBody } from '../store/tables.js';
import { LEGACY_DICTIONARIES } from './replay-body-legacy.js';

/*
 * Idempotency records keep the response they replay for 24 hours, one per created shipment: as
 * plain text the biggest thing the sandbox stores for a shipment (2-3 KB), in memory, in the
 * journal and in the snapshot. Gzipped it is about a third of that. Records of older data files
 * hold the body as text or deflated against a preset dictionary; both are still read.
 */

/**
 * A 4 KB window and a small hash (windowBits 12, memLevel 4) instead of zlib's 32 KB and 8: every
 * create gzips its answer, and zlib makes and zeroes its whole state (about 260 KB by default,
 * about 30 KB so) for each call. An answer of up to 4 KB, which a created shipment's is (2.2 KB),
 * compresses to the same bytes; a longer one to slightly more. gzipSync of a created shipment's
 * answer: 24.4 -> 20.4 us of CPU (least of 6 rounds of 4,000); in a CPU profile of POST /shipments
 * in-process (bench/store-write.ts style, 10 in flight) it went from 18% to 13% of the request's
 * handling. Any window reads back with gunzipSync.
 */
const GZIP_OPTIONS = { windowBits: 12, memLevel: 4 } as const;

/** The body as a record stores it. */
export function packBody(text: string): StoredBody {
  return { body_gzip: gzipSync(text, GZIP_OPTIONS).toString('base64') };
}

/** The body text a record holds, whichever way it holds it. */
export function unpackBody(stored: StoredBody): string {
  if ('body' in stored) return stored.body;
  if ('body_gzip' in stored) return gunzipSync(Buffer.from(stored.body_gzip, 'base64')).toString('utf8');
  const dictionary = LEGACY_DICTIONARIES[stored.body_dictionary];
  if (!dictionary) throw new Error(`unknown replay body dictionary ${stored.body_dictionary}`);
  return inflateRawSync(Buffer.from(stored.body_deflated, 'base64'), { dictionary, windowBits: 15 }).toString('utf8');
}
