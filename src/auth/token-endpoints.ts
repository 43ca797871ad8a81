import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { appEndpoint } from '../http/app-context.js';
import { plainJson } from '../http/respond.js';
import { ApiError } from '../jsonapi/errors.js';
import { scopes as allScopes, type Scope } from '../model/tenancy.js';
import type { Services } from '../http/services.js';
import { secretMatches } from './secrets.js';
import { expectedDigest, isHeldBackSecret } from './shared-secrets.js';
import { signToken } from './tokens.js';
import { tenantEntry, tenantExpired } from '../domain/tenant-lifetime.js';

const tokenRequest = z
  .object({
    // Required, as the handler requires it: the document said otherwise, and a client generated from it could leave it out.
    grant_type: z.string().describe('Always client_credentials.'),
    client_id: z.string().optional(),
    client_secret: z.string().optional(),
    scope: z.string().optional(),
  })
  .meta({ id: 'AccessTokenRequest' });

const tokenResponse = z.object({ token_type: z.literal('Bearer'), expires_in: z.number().int(), access_token: z.string() }).meta({ id: 'AccessTokenResponse' });

const jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).meta({ id: 'JsonWebKeySet' });

/** The largest body `POST /access-token` reads (413 past it). */
export const TOKEN_REQUEST_MAX_BYTES = 8 * 1024;

/** Compared for an unknown client: a digest no secret hashes to in practice. */
const UNKNOWN_CLIENT_DIGEST = '0'.repeat(64);

/**
 * A refusal of credentials sent as HTTP Basic challenges with the scheme the client used, as RFC
 * 6749 (section 5.2) asks. Credentials in the body get no challenge: a browser would answer a
 * Basic one with a login dialog.
 */
const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="parcel-sandbox"' };

/** Where a refusal of the client's credentials points, and its challenge when they came as HTTP Basic. */
const refusedAt = (where: { header: 'Authorization' } | undefined, pointer: string) =>
  where ? { source: where, headers: BASIC_CHALLENGE } : { source: { pointer } };

/** 401 for Basic credentials that cannot be read: the header is to blame, not the body. */
const unreadableBasic = (why: string) =>
  ApiError.of('invalidClient', `The Authorization header's Basic credentials ${why}; send base64 of client_id:client_secret, each form-encoded.`, {
    source: { header: 'Authorization' },
    headers: BASIC_CHALLENGE,
  });

/** A client id and secret, as one reading of what the client sent. */
type Credentials = { id: string; secret: string };

/**
 * The ways a client may have written its id and secret into a Basic header, most likely first.
 * RFC 6749 (2.3.1) has clients form-encode each before joining them, a space as `+`, as
 * openid-client and simple-oauth2 do; others percent-encode with `%20`; curl -u, axios' `auth`
 * and PHP's HTTP clients send them as they are, where `+` and `%` stand for themselves. Reading
 * them only one way refused the other clients whenever a secret held a space, `+` or `%`. A client
 * writes both the same way, so there are at most three readings.
 */
const READINGS: readonly ((text: string) => string)[] = [
  (text) => decodeURIComponent(text.replace(/\+/g, ' ')),
  (text) => decodeURIComponent(text),
  (text) => text,
];

function readingsOf(id: string, secret: string): Credentials[] {
  const readings = new Map<string, Credentials>();
  for (const read of READINGS) {
    try {
      const reading = { id: read(id), secret: read(secret) };
      readings.set(JSON.stringify(reading), reading);
    } catch {
      // Not percent-encoded (a lone `%`): the text as sent is still a reading.
    }
  }
  return [...readings.values()];
}

/**
 * The readings of the client id and secret in an HTTP Basic header, as plain OAuth 2.0 libraries
 * send them (see `readingsOf`); `undefined` without one (another scheme, such as a leftover Bearer
 * token, is not a credential here). A Basic header that cannot be read is refused, naming the header.
 */
function basicCredentials(header: string | undefined): Credentials[] | undefined {
  const scheme = /^\s*Basic(?:\s+|$)(.*)$/i.exec(header ?? '');
  if (!scheme) return undefined;
  const encoded = scheme[1]!.trim();
  if (encoded === '') throw unreadableBasic('are missing');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw unreadableBasic('are not base64');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unreadableBasic('hold no colon between client_id and client_secret');
  return readingsOf(decoded.slice(0, colon), decoded.slice(colon + 1));
}

/**
 * The client's credentials from the Basic header or the body: the readings to try. RFC 6749
 * (section 2.3) lets a client use one way per request; both that say the same thing are taken,
 * and two that differ are refused, rather than one of them silently winning.
 */
function clientCredentials(basic: Credentials[] | undefined, body: { client_id?: string; client_secret?: string }) {
  if (!basic) return { readings: [{ id: required(body.client_id, 'client_id'), secret: required(body.client_secret, 'client_secret') }], where: undefined };
  const agrees = (value: string | undefined, reading: string) => value === undefined || value === '' || value === reading;
  const readings = basic.filter((reading) => agrees(body.client_id, reading.id) && agrees(body.client_secret, reading.secret));
  if (readings.length === 0) {
    throw ApiError.of('invalidClient', 'The client credentials came in the Authorization header and in the body, and they differ; send them one way only.', {
      status: 400,
      source: { header: 'Authorization' },
    });
  }
  return { readings, where: { header: 'Authorization' } as const };
}

/**
 * The first reading whose client exists and whose secret matches; else the first reading, with
 * its client if there is one. Each secret is checked whether or not its client exists, so the
 * time taken tells neither.
 */
function authenticating(services: Services, readings: readonly Credentials[]) {
  for (const reading of readings) {
    const client = services.store.get('clients', reading.id);
    if (secretMatches(reading.secret, client ? expectedDigest(services, client.id, client.secret_sha256) : UNKNOWN_CLIENT_DIGEST) && client) {
      return { ...reading, client, matches: true };
    }
  }
  return { ...readings[0]!, client: services.store.get('clients', readings[0]!.id), matches: false };
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw ApiError.invalid(`'${name}' is required.`, `/${name}`);
  return value;
}

/**
 * The scopes a token request is granted: all of the client's for `*` or nothing, else exactly
 * those asked. A scope the client does not have is refused, also beside `*` (`* bogus`).
 */
function grantedScopes(requested: string | undefined, available: readonly Scope[]): Scope[] {
  const asked = (requested ?? '*').split(/\s+/).filter(Boolean);
  const refused = asked.filter((scope) => scope !== '*' && !available.includes(scope as Scope));
  if (refused.length > 0) {
    throw ApiError.of(
      'invalidScope',
      `Scope ${refused.map((s) => `'${s}'`).join(', ')} is not available to this client. Available: ${available.join(' ') || 'none'}.`,
      { source: { pointer: '/scope' } },
    );
  }
  if (asked.length === 0 || asked.includes('*')) return [...available];
  return asked.filter((scope, index) => asked.indexOf(scope) === index) as Scope[];
}

/**
 * The organization of the client a token request authenticates as (its id and secret match),
 * whose rate limit it counts against; `undefined` otherwise, and the caller's address counts:
 * a request naming another tenant's client without its secret never spends that tenant's window.
 */
function authenticatedOrganization(services: Services, body: z.output<typeof tokenRequest> | undefined, authorization: string | undefined): string | undefined {
  let basic: Credentials[] | undefined;
  try {
    basic = basicCredentials(authorization);
  } catch {
    // Malformed Basic credentials are refused by `issue`; they authenticate no client.
    return undefined;
  }
  const fromBody = body?.client_id !== undefined && body.client_secret !== undefined ? [{ id: body.client_id, secret: body.client_secret }] : [];
  const readings = basic ?? fromBody;
  if (readings.length === 0) return undefined;
  // Checked as `issue` checks it: whether or not the client exists.
  const { client, matches } = authenticating(services, readings);
  if (!matches || !client) return undefined;
  return services.store.get('users', client.user_id)?.organization_id;
}

async function issue(services: Services, body: z.output<typeof tokenRequest>, authorization: string | undefined) {
  const grant = required(body.grant_type, 'grant_type');
  if (grant !== 'client_credentials') {
    throw ApiError.of('invalidClient', `Grant type '${grant}' is not supported; use client_credentials.`, {
      status: 400,
      source: { pointer: '/grant_type' },
    });
  }
  const { readings, where } = clientCredentials(basicCredentials(authorization), body);
  const { secret, client, matches } = authenticating(services, readings);
  if (client && !matches && isHeldBackSecret(services, client.id, client.secret_sha256, secret)) {
    throw ApiError.of(
      'invalidClient',
      "This sandbox runs in shared mode, where the seeded clients do not take the secrets the README and fixture files publish: ask its operator for the client's secret (the start banner prints it) or for a tenant of your own.",
      refusedAt(where, '/client_secret'),
    );
  }
  if (!client || !matches) {
    throw ApiError.of('invalidClient', 'Client authentication failed: unknown client_id or wrong client_secret.', refusedAt(where, '/client_id'));
  }
  const scopes = grantedScopes(body.scope, client.scopes);
  // Issued and expiring on the clock of the client's organization (the global clock if it has none).
  const organizationId = services.store.get('users', client.user_id)?.organization_id;
  const clock = organizationId === undefined ? services.clock : services.clocks.of(organizationId);
  // An expired tenant's token would be refused from its first use (authenticate.ts), before the job that removes the tenant has run.
  const tenant = organizationId === undefined ? undefined : tenantEntry(services.store, organizationId);
  if (tenant && tenantExpired(clock, tenant)) {
    throw ApiError.of(
      'invalidClient',
      `The tenant of this client expired at ${new Date(tenant.expires_at! * 1000).toISOString()} (sandbox clock) and is being removed.`,
      refusedAt(where, '/client_id'),
    );
  }
  return signToken(services.keys, clock, services.config, {
    clientId: client.id,
    scopes,
    jti: randomUUID(),
    generation: client.token_generation,
  });
}

export const tokenEndpoints = [
  appEndpoint({
    method: 'post',
    path: '/access-token',
    operationId: 'createAccessToken',
    summary: 'Get an access token (OAuth 2.0 client credentials)',
    description: `JSON or form-encoded body of at most ${TOKEN_REQUEST_MAX_BYTES / 1024} KiB; client credentials may also come as HTTP Basic auth. \`scope\` lists scopes separated by spaces, or \`*\` (the default) for every scope of the client: ${allScopes.join(', ')}.`,
    tag: 'Authentication',
    auth: 'none',
    body: tokenRequest,
    bodyFormat: 'json-or-form',
    // Anyone may call it, with no token: a token request is a few hundred bytes, so more is refused early.
    maxBodyBytes: TOKEN_REQUEST_MAX_BYTES,
    // Tenants ask for tokens without one: a client that authenticates counts for its organization, anything else for the address.
    rateLimit: (ctx, { body, headers }) => authenticatedOrganization(ctx.services, body, headers.Authorization),
    produces: ['application/json'],
    headers: z.object({
      Authorization: z.string().optional().describe('`Basic base64(client_id:client_secret)`: client credentials as HTTP Basic auth, instead of in the body.'),
    }),
    responses: {
      200: { description: 'A signed JWT bearer token.', schema: tokenResponse, contentTypes: ['application/json'] },
      400: {
        description:
          'No grant_type, client_id or client_secret, or a body against the schema (10003); a grant type other than client_credentials, or client credentials in the Authorization header and in the body that differ (14000); a scope the client does not have (14001). `source` names the member or header.',
      },
      401: {
        description:
          'Client authentication failed (14000): an unknown client_id, a wrong client_secret, Basic credentials that cannot be read, or a client whose sandbox tenant has expired.',
      },
    },
    handler: async (ctx, { body, headers }) => {
      const { token, expiresIn } = await issue(ctx.services, body, headers.Authorization);
      return plainJson({ token_type: 'Bearer', expires_in: expiresIn, access_token: token }, 200, { 'cache-control': 'no-store', pragma: 'no-cache' });
    },
  }),
  appEndpoint({
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'getJsonWebKeySet',
    summary: 'Public key that verifies access tokens',
    tag: 'Authentication',
    auth: 'none',
    produces: ['application/json'],
    responses: { 200: { description: 'The JSON Web Key Set.', schema: jwks, contentTypes: ['application/json'] } },
    handler: (ctx) => plainJson({ keys: [ctx.services.keys.publicJwk] }),
  }),
];
