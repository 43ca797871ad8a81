import { compactVerify } from 'jose';
import { z } from 'zod';
import { TOKEN_ALG, type Keys } from '../auth/keys.js';
import type { ClockView } from '../clock.js';
import { REPLAY_WINDOW } from '../http/idempotency.js';
import { appEndpoint } from '../http/app-context.js';
import { ApiError } from '../jsonapi/errors.js';
import type { Services } from '../http/services.js';
import type { Tx } from '../store/store.js';
import { errorResponse } from './responses.js';
import { clientsOf, tenantOf } from './tenant-reset.js';
import { plainJson } from '../http/respond.js';

const revokeRequest = z
  .strictObject({
    token: z.string().optional().describe('An access token to revoke (its jti is revoked until the token would expire)'),
    client_id: z.string().optional().describe('A client whose every token issued so far is revoked'),
  })
  .meta({ id: 'SandboxRevokeRequest' });

const revokeResult = z
  .union([
    z.object({ revoked: z.literal('token'), client_id: z.string(), jti: z.string(), expires_at: z.number().int() }),
    z.object({ revoked: z.literal('client'), client_id: z.string(), token_generation: z.number().int() }),
  ])
  .meta({ id: 'SandboxRevokeResult' });

/** The claims of an access token this sandbox signed (expired or not), or 422 on `/token`. */
async function claimsOf(keys: Keys, token: string): Promise<{ jti: string; exp: number; sub: string }> {
  const refuse = (why: string) => ApiError.unprocessable(`The token cannot be revoked: ${why}.`, '/token');
  let payload: Record<string, unknown>;
  try {
    const verified = await compactVerify(token.trim(), keys.publicKey, { algorithms: [TOKEN_ALG] });
    payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
  } catch {
    throw refuse('it is not an access token signed by this sandbox');
  }
  const { jti, exp, sub } = payload;
  if (typeof jti !== 'string' || typeof exp !== 'number' || typeof sub !== 'string') throw refuse('it has no jti, exp or sub claim');
  return { jti, exp, sub };
}

/**
 * The earliest second the global clock can show from now on: real time. A reset moves the clock
 * back to it (never earlier), so a token that has expired on the clock as moved ahead lives again
 * after a reset until its `exp` comes round on real time; its revocation must last as long.
 */
function earliestSecond(clock: ClockView): number {
  return Math.floor((clock.nowMs() - clock.offsetMs()) / 1000);
}

/**
 * Drops what the clock made obsolete: revoked-token entries past their token's expiry on real
 * time (see `earliestSecond`: past it only on the moved clock, a reset would bring the token back)
 * and idempotency entries past the replay window. `clock` is the global clock: no tenant's clock
 * is behind it, so what is obsolete on it is obsolete for every tenant (an entry obsolete only on
 * a tenant's clock that ran ahead waits, and is ignored there).
 */
export function purgeExpired(tx: Tx, clock: ClockView): number {
  let count = 0;
  const earliest = earliestSecond(clock);
  for (const row of tx.all('revokedTokens')) {
    if (row.expires_at <= earliest) {
      tx.remove('revokedTokens', row.id);
      count += 1;
    }
  }
  const now = clock.now();
  for (const row of tx.all('idempotencyKeys')) {
    if (row.created_at + REPLAY_WINDOW <= now) {
      tx.remove('idempotencyKeys', row.id);
      count += 1;
    }
  }
  return count;
}

/**
 * Revokes what the body names. `within` is the organization of a tenant's token: then only
 * tokens and clients of that organization can be revoked.
 */
async function revoke(services: Services, body: z.output<typeof revokeRequest>, within?: string) {
  const { store, clock, keys } = services;
  if ((body.token === undefined) === (body.client_id === undefined)) {
    throw ApiError.invalid("Send exactly one of 'token' (an access token) or 'client_id' (revokes all of that client's tokens).", '');
  }
  if (body.token !== undefined) {
    const { jti, exp, sub } = await claimsOf(keys, body.token);
    if (within !== undefined && !clientsOf(services, within).has(sub)) {
      throw ApiError.unprocessable('The token cannot be revoked: it is not an access token of your organization.', '/token');
    }
    await store.transact((tx) => {
      purgeExpired(tx, clock);
      if (tx.get('revokedTokens', jti)) tx.update('revokedTokens', jti, { expires_at: exp });
      // Also a token expired on the moved clock: a reset would bring it back to life.
      else if (exp > earliestSecond(clock)) tx.insert('revokedTokens', { id: jti, expires_at: exp });
    });
    return { revoked: 'token' as const, client_id: sub, jti, expires_at: exp };
  }
  const { client } = tenantOf(services, body.client_id!, within);
  const generation = await store.transact((tx) => {
    // Read in the transaction: the client may have gone with its tenant while a reset or removal was written.
    const current = tenantOf(services, client.id, within).client;
    purgeExpired(tx, clock);
    return tx.update('clients', client.id, { token_generation: current.token_generation + 1 }).token_generation;
  });
  return { revoked: 'client' as const, client_id: client.id, token_generation: generation };
}

const json = ['application/json'] as const;

export const revokeEndpoints = [
  appEndpoint({
    method: 'post',
    path: '/_sandbox/revoke',
    operationId: 'revokeSandboxTokens',
    summary: 'Revoke an access token, or every token of a client',
    description:
      'Send exactly one of `{"token": "<access token>"}` (revokes that token) or `{"client_id": "..."}` (revokes every token the client was issued so far). Revoked tokens answer 401 (14002); tokens requested afterwards work. With a tenant\'s access token only tokens and clients of its own organization can be revoked (another organization\'s client is unknown, 404; its token is refused, 422).',
    tag: 'Sandbox',
    auth: 'control',
    body: revokeRequest,
    produces: json,
    responses: {
      200: { description: 'What was revoked.', schema: revokeResult, contentTypes: json },
      404: errorResponse('No client with that client_id (10002, pointer /client_id).'),
      422: errorResponse("The token is not an access token of this sandbox, or (with a tenant's token) not one of its organization (10008, pointer /token)."),
    },
    handler: async (ctx, { body }) => plainJson(await revoke(ctx.services, body, ctx.principal?.organizationId)),
  }),
];
