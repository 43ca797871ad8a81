import { createHash } from 'node:crypto';
import { z } from 'zod';
import { textResponse } from './response-text.js';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';
import { ApiError } from '../jsonapi/errors.js';
import { apiErrorOf } from './domain-errors.js';
import { DomainError } from '../domain/errors.js';
import type { Ctx } from './context.js';
import type { Tx } from '../store/store.js';
import type { IdempotencyRecord } from '../store/tables.js';
import { canonicalJson } from '../domain/canonical-json.js';
import { packBody, unpackBody } from '../domain/replay-body.js';

/** How long a finished request is replayed for its key: 24 hours on the clock of the caller's tenant. */
export const REPLAY_WINDOW = 24 * 3600;
const MAX_KEY_LENGTH = 255;

/** The declared `Idempotency-Key` request header of the creates that take one. */
export const idempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .min(1, 'must be 1 to 255 characters long')
    .max(MAX_KEY_LENGTH, 'must be 1 to 255 characters long')
    .optional()
    .describe('Makes retries safe: a repeat within 24 hours replays the first answer.'),
});

/**
 * How a create takes an Idempotency-Key: the endpoint its fingerprint names (none for
 * `POST /shipments`, whose stored fingerprints were made without one) and the status of a repeat
 * while the first request still runs.
 */
export interface KeyedCreate {
  endpoint?: string;
  inFlightStatus: 409 | 423;
}

/** Writes the outcome of the guarded request inside the transaction that produced it. */
export type Remember = (tx: Tx, status: number, body: string) => void;

/** A fingerprint of a request body that ignores key order and whitespace. */
function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/**
 * A fingerprint of what makes a request: its body as sent (every member, also those the API
 * ignores), its query (`include` changes the answer) and, for every create but `POST /shipments`,
 * its endpoint, so a different request never replays another's answer: one key holds one entry
 * per client, and a key first used to create a concept must not answer a retried registration
 * with that concept. Key order, whitespace and the order of query parameters do not count.
 * `POST /shipments` passes no endpoint and, without a query, gets the fingerprint of the body
 * alone, as stored fingerprints were made.
 */
export function requestFingerprint(rawBody: unknown, query: Iterable<[string, string]>, endpoint?: string): string {
  const parameters = [...query].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  if (parameters.length === 0 && endpoint === undefined) return fingerprint(rawBody);
  const hash = createHash('sha256').update(canonicalJson(rawBody)).update('\u0000').update(canonicalJson(parameters));
  if (endpoint !== undefined) hash.update('\u0000').update(endpoint);
  return hash.digest('hex');
}

/**
 * The `Location` the first answer of a create carried: the `self` link of the resource it made
 * (the creates build both from the same URL). Derived rather than stored, so records written
 * before replays carried it give it too.
 */
function locationOf(status: number, text: string): Record<string, string> {
  if (status !== 201) return {};
  const self = (JSON.parse(text) as { data?: { links?: { self?: unknown } } }).data?.links?.self;
  return typeof self === 'string' ? { location: self } : {};
}

/** The first answer again: its status, body and `Location`, marked as a replay. */
function replay(record: IdempotencyRecord): Response {
  const text = unpackBody(record);
  return textResponse(text, {
    status: record.status,
    headers: { 'content-type': JSONAPI_MEDIA_TYPE, ...locationOf(record.status, text), 'idempotency-replay': 'true' },
  });
}

/**
 * Runs `work` at most once per client and key. While it runs, the same key answers 409; once it
 * finished (success or a 4xx error), the same key and request (body and query, see
 * `requestFingerprint`) replay its status and body for 24 hours, and the same key with another
 * request is 422. `work` calls `remember` in the transaction
 * that makes its effect durable, so an acknowledged create and its key can never part.
 */
export async function idempotent(
  ctx: Ctx,
  clientId: string,
  key: string,
  bodyFingerprint: string,
  work: (remember: Remember) => Promise<Response>,
  /**
   * The status of a repeat while the first still runs: 409 on POST /shipments, where the seed's
   * spec records its conflict with production (423) and wins; 423 on the two creates production documents.
   */
  inFlightStatus = 409,
): Promise<Response> {
  // The replay window runs on the clock of the caller's tenant.
  const { store, clock, inFlight } = ctx;
  const id = createHash('sha256').update(`${clientId}\u0000${key}`).digest('hex');
  if (inFlight.has(id)) {
    // A 423 carries the code and title every other 423 has (10005), not those of the 409.
    throw ApiError.of(
      inFlightStatus === 423 ? 'cannotModify' : 'conflict',
      'A request with this Idempotency-Key is still being processed; retry when it has finished.',
      {
        source: { header: 'Idempotency-Key' },
        status: inFlightStatus,
      },
    );
  }
  const stored = store.get('idempotencyKeys', id);
  const fresh = stored && stored.created_at + REPLAY_WINDOW > clock.now();
  if (stored && fresh) {
    if (stored.fingerprint !== bodyFingerprint) {
      throw ApiError.of('unprocessable', 'This Idempotency-Key was already used with a different request (endpoint, body or query).', {
        source: { header: 'Idempotency-Key' },
      });
    }
    return replay(stored);
  }
  inFlight.add(id);
  const remember: Remember = (tx, status, body) => {
    if (tx.get('idempotencyKeys', id)) tx.remove('idempotencyKeys', id);
    tx.insert('idempotencyKeys', { id, client_id: clientId, fingerprint: bodyFingerprint, status, created_at: clock.now(), ...packBody(body) });
  };
  try {
    return await work(remember);
  } catch (thrown) {
    const error = thrown instanceof DomainError ? apiErrorOf(thrown) : thrown;
    // Refusals are part of the outcome and replay too; unexpected failures may be retried, and so
    // may a full quota (429): the same key must be able to succeed once there is room.
    if (error instanceof ApiError && error.status < 500 && error.status !== 429) {
      await store.transact((tx) => remember(tx, error.status, JSON.stringify({ errors: error.errors })));
    }
    throw error;
  } finally {
    inFlight.delete(id);
  }
}

/** Runs a keyed create's `work` once per client and key (see `idempotent`). */
export function keyedCreate(
  ctx: Ctx,
  create: KeyedCreate,
  clientId: string,
  key: string,
  rawBody: unknown,
  query: Iterable<[string, string]>,
  work: (remember: Remember) => Promise<Response>,
): Promise<Response> {
  return idempotent(ctx, clientId, key, requestFingerprint(rawBody, query, create.endpoint), work, create.inFlightStatus);
}

/**
 * A keyed create refused before its handler ran (a body its schema refuses, an unknown include
 * path) is an outcome of its key like a refusal of the handler: stored, replayed for the same
 * request, and another request under the key is 422. Answers the replay, or throws.
 */
export function refusedOnce(
  ctx: Ctx,
  create: KeyedCreate,
  clientId: string,
  key: string,
  rawBody: unknown,
  query: Iterable<[string, string]>,
  refusal: ApiError,
): Promise<Response> {
  return keyedCreate(ctx, create, clientId, key, rawBody, query, () => Promise.reject(refusal));
}

/** The request's Idempotency-Key when it is one the creates take. */
export function validKey(value: string | undefined): string | undefined {
  return value !== undefined && idempotencyHeaders.shape['Idempotency-Key'].safeParse(value).success ? value : undefined;
}
