/**
 * Token attacks, one table: each row mints a hostile or dead token (on a fresh sandbox, since
 * rows revoke, reset and move the clock) and every row is sent to a token-only endpoint, a scoped
 * list and write, and the public catalogue (list and item). A token that cannot be trusted is
 * 401/14002 everywhere, public endpoints included: sending a token makes it count. Endpoints
 * declared `auth: 'none'` ignore the header, so `/health` still answers 200.
 *
 * test/auth.test.ts already checks several of these against GET /regions only (alg none, HS256
 * keyed with the public JWK, a tampered payload, another key, expiry); here each is a row so it
 * also runs against the public and scoped endpoints, next to what that file lacks: wrong iss and
 * aud, nbf in the future, missing or mistyped claims, `crit` headers, other algorithms, revocation
 * by token and by client, a forged token generation, and tokens of deleted clients and
 * organizations.
 *
 * What src/auth/tokens.ts checks (jose `jwtVerify`): signature with the sandbox's ES256 key and
 * only ES256, iss, aud, exp and nbf on the sandbox clock, and that sub, exp, iat and jti are
 * present; then scope must be a string. `iat` is not compared with the clock (no `maxTokenAge`):
 * a token whose iat lies ahead of the clock is accepted. The API itself hands out such tokens:
 * POST /_sandbox/reset moves the clock back to real time and keeps earlier tokens valid, so a
 * check of iat against the clock would break that documented contract. The last row pins this.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { SignJWT, UnsecuredJWT, decodeJwt, exportSPKI, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { AUDIENCE, ISSUER } from '../src/auth/tokens.js';
import { testSandbox, type Answer, type TestSandbox } from './support/app.js';
import { SCOPES, bearer, errorDocumentProblem, send } from './support/matrix.js';
import { shipmentBody, world } from './support/shipments.js';

type Claims = Record<string, unknown>;

interface Attack {
  sandbox: TestSandbox;
  /** A valid token of sandbox-client with every scope. */
  valid: string;
  /** Signs claims (defaults: a valid sandbox-client token) with the sandbox's own private key. */
  sign(claims?: Claims, options?: { omit?: string[]; header?: Record<string, unknown> }): Promise<string>;
}

interface Row {
  name: string;
  token(attack: Attack): Promise<string>;
  /** What the detail of the 401 says, so each row fails for its own reason. */
  detail?: RegExp;
  /** `accepted`: the row documents a token that is (rightly) still valid. */
  expect?: 'invalid' | 'accepted';
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The token with its payload replaced and the original signature kept. */
function tamper(token: string, change: (claims: Claims) => Claims): string {
  const [header, , signature] = token.split('.');
  return `${header}.${b64(change(decodeJwt(token) as Claims))}.${signature}`;
}

/** Signs any header and payload with the sandbox's ES256 key, bypassing jose's own header checks. */
async function rawSign(sandbox: TestSandbox, header: Claims, payload: Claims): Promise<string> {
  const input = `${b64(header)}.${b64(payload)}`;
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, sandbox.keys.privateKey, new TextEncoder().encode(input));
  return `${input}.${Buffer.from(signature).toString('base64url')}`;
}

async function hs256(claims: Claims, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

const rows: Row[] = [
  { name: 'alg none (unsigned)', token: async ({ valid }) => new UnsecuredJWT(decodeJwt(valid)).encode() },
  {
    name: 'alg none with the original signature kept',
    token: async ({ valid }) => `${b64({ alg: 'none', typ: 'JWT' })}.${valid.split('.')[1]}.${valid.split('.')[2]}`,
  },
  {
    name: 'HS256 keyed with the public JWK',
    token: async ({ valid, sandbox }) => hs256(decodeJwt(valid), JSON.stringify((await sandbox.get('/.well-known/jwks.json')).body.keys[0])),
    detail: /algorithm/,
  },
  {
    name: 'HS256 keyed with the public key as PEM',
    token: async ({ valid, sandbox }) => hs256(decodeJwt(valid), await exportSPKI(sandbox.keys.publicKey)),
    detail: /algorithm/,
  },
  {
    name: 'HS256 keyed with the public key as DER',
    token: async ({ valid, sandbox }) => {
      const der = createPublicKey(await exportSPKI(sandbox.keys.publicKey)).export({ type: 'spki', format: 'der' });
      return new SignJWT(decodeJwt(valid)).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(der));
    },
    detail: /algorithm/,
  },
  {
    name: 'RS256 signed by an attacker key',
    token: async ({ valid }) => {
      const { privateKey } = await generateKeyPair('RS256');
      return new SignJWT(decodeJwt(valid)).setProtectedHeader({ alg: 'RS256' }).sign(privateKey);
    },
    detail: /algorithm/,
  },
  {
    name: 'ES256 signed by an attacker key, with the sandbox kid',
    token: async ({ valid, sandbox }) => {
      const { privateKey } = await generateKeyPair('ES256');
      return new SignJWT(decodeJwt(valid)).setProtectedHeader({ alg: 'ES256', kid: sandbox.keys.kid }).sign(privateKey);
    },
    detail: /signature/,
  },
  {
    name: 'tampered payload (sub switched to other-client)',
    token: async ({ valid }) => tamper(valid, (c) => ({ ...c, sub: 'other-client' })),
    detail: /signature/,
  },
  {
    name: 'tampered payload (limited-client scope widened)',
    token: async ({ sandbox }) => tamper(await sandbox.token('limited-client'), (c) => ({ ...c, scope: SCOPES.join(' ') })),
    detail: /signature/,
  },
  {
    name: 'tampered payload after the original was accepted (the verified token is remembered; its signature kept)',
    token: async ({ sandbox }) => {
      const limited = await sandbox.token('limited-client');
      if ((await sandbox.get('/regions', limited)).status !== 200) throw new Error('the original token should be accepted');
      return tamper(limited, (c) => ({ ...c, scope: SCOPES.join(' ') }));
    },
    detail: /signature/,
  },
  {
    name: 'tampered payload (exp pushed a year out)',
    token: async ({ valid }) => tamper(valid, (c) => ({ ...c, exp: Number(c.exp) + 365 * 86400 })),
    detail: /signature/,
  },
  { name: 'signature stripped', token: async ({ valid }) => `${valid.split('.').slice(0, 2).join('.')}.`, detail: /signature|verified/ },
  { name: 'extra segment', token: async ({ valid }) => `${valid}.${valid.split('.')[2]}` },
  { name: 'wrong iss', token: ({ sign }) => sign({ iss: 'https://evil.example.com' }), detail: /iss claim/ },
  { name: 'missing iss', token: ({ sign }) => sign({}, { omit: ['iss'] }), detail: /iss claim/ },
  { name: 'wrong aud', token: ({ sign }) => sign({ aud: 'some-other-api' }), detail: /aud claim/ },
  { name: 'aud list without this API', token: ({ sign }) => sign({ aud: ['some-other-api', 'another'] }), detail: /aud claim/ },
  { name: 'missing sub', token: ({ sign }) => sign({}, { omit: ['sub'] }), detail: /sub claim/ },
  { name: 'sub of no client', token: ({ sign }) => sign({ sub: 'nobody' }), detail: /no longer exists/ },
  { name: 'missing exp', token: ({ sign }) => sign({}, { omit: ['exp'] }), detail: /exp claim/ },
  { name: 'exp not a number', token: ({ sign }) => sign({ exp: 'tomorrow' }), detail: /exp claim/ },
  { name: 'missing iat', token: ({ sign }) => sign({}, { omit: ['iat'] }), detail: /iat claim/ },
  { name: 'missing jti', token: ({ sign }) => sign({}, { omit: ['jti'] }), detail: /jti claim/ },
  { name: 'scope not a string', token: ({ sign }) => sign({ scope: SCOPES }), detail: /scope claim/ },
  { name: 'missing scope', token: ({ sign }) => sign({}, { omit: ['scope'] }), detail: /scope claim/ },
  { name: 'nbf in the future', token: ({ sign, sandbox }) => sign({ nbf: sandbox.clock.now() + 3600 }), detail: /nbf claim/ },
  {
    name: 'control: the raw signer with a plain header makes a good token',
    token: async ({ valid, sandbox }) => rawSign(sandbox, { alg: 'ES256', kid: sandbox.keys.kid, typ: 'JWT' }, decodeJwt(valid)),
    expect: 'accepted',
  },
  {
    name: 'unknown crit header (validly signed)',
    token: async ({ valid, sandbox }) => rawSign(sandbox, { alg: 'ES256', kid: sandbox.keys.kid, crit: ['x-evil'], 'x-evil': true }, decodeJwt(valid)),
    detail: /^The access token could not be verified/,
  },
  {
    name: 'b64: false header (validly signed)',
    token: async ({ valid, sandbox }) => rawSign(sandbox, { alg: 'ES256', b64: false, crit: ['b64'] }, decodeJwt(valid)),
    detail: /^The access token could not be verified/,
  },
  {
    name: 'expired (sandbox clock moved past exp)',
    token: async ({ valid, sandbox }) => {
      await sandbox.advance(sandbox.config.tokenTtl + 1);
      return valid;
    },
    detail: /expired/,
  },
  {
    name: 'expired (signed with an exp in the past)',
    token: ({ sign, sandbox }) => sign({ iat: sandbox.clock.now() - 7200, exp: sandbox.clock.now() - 3600 }),
    detail: /expired/,
  },
  {
    name: 'revoked by token',
    token: async ({ valid, sandbox }) => {
      const answer = await sandbox.request('POST', '/_sandbox/revoke', { body: { token: valid } });
      if (answer.status !== 200) throw new Error(answer.text);
      return valid;
    },
    detail: /revoked/,
  },
  {
    name: 'revoked by client id',
    token: async ({ valid, sandbox }) => {
      const answer = await sandbox.request('POST', '/_sandbox/revoke', { body: { client_id: 'sandbox-client' } });
      if (answer.status !== 200) throw new Error(answer.text);
      return valid;
    },
    detail: /revoked/,
  },
  {
    name: 'revoked, then the clock moved past its expiry and POST /_sandbox/reset moved it back',
    token: async ({ valid, sandbox }) => {
      if ((await sandbox.request('POST', '/_sandbox/revoke', { body: { token: valid } })).status !== 200) throw new Error('revoke failed');
      // Past the token's expiry the revocation is obsolete on the clock, and dropped; the reset brings that moment back.
      await sandbox.advance(sandbox.config.tokenTtl + 1);
      if ((await sandbox.request('POST', '/_sandbox/reset', { body: {} })).status !== 200) throw new Error('reset failed');
      if (!(decodeJwt(valid).exp! > sandbox.clock.now())) throw new Error('the reset should have moved the clock back before the expiry');
      return valid;
    },
    detail: /revoked|expired/,
  },
  {
    name: 'revoked after it expired on the moved clock, then POST /_sandbox/reset moved the clock back',
    token: async ({ valid, sandbox }) => {
      await sandbox.advance(sandbox.config.tokenTtl + 1);
      if ((await sandbox.request('POST', '/_sandbox/revoke', { body: { token: valid } })).status !== 200) throw new Error('revoke failed');
      if ((await sandbox.request('POST', '/_sandbox/reset', { body: {} })).status !== 200) throw new Error('reset failed');
      return valid;
    },
    detail: /revoked/,
  },
  { name: 'a token generation the client never had', token: ({ sign }) => sign({ gen: 7 }), detail: /revoked/ },
  {
    name: 'client deleted (API tenant removed by a sandbox reset)',
    token: async ({ sandbox }) => {
      const tenant = await sandbox.request('POST', '/_sandbox/tenants', { body: {} });
      const issued = await sandbox.request('POST', '/access-token', {
        body: { grant_type: 'client_credentials', client_id: tenant.body.client_id, client_secret: tenant.body.client_secret },
        headers: { 'content-type': 'application/json' },
      });
      const token = issued.body.access_token as string;
      if ((await sandbox.get('/regions', token)).status !== 200) throw new Error('the tenant token should work before the reset');
      if ((await sandbox.request('POST', '/_sandbox/reset', { body: {} })).status !== 200) throw new Error('reset failed');
      return token;
    },
    detail: /client of this access token no longer exists/,
  },
  {
    name: 'organization deleted (row removed from the store; no endpoint deletes one)',
    token: async ({ valid, sandbox }) => {
      const user = sandbox.store.get('users', sandbox.store.get('clients', 'sandbox-client')!.user_id)!;
      await sandbox.store.transact((tx) => tx.remove('organizations', user.organization_id));
      return valid;
    },
    detail: /organization of this access token no longer exists/,
  },
  {
    name: 'iat ahead of the clock: issued before POST /_sandbox/reset moved the clock back',
    token: async ({ sandbox }) => {
      await sandbox.advance(30 * 86400);
      const token = await sandbox.token();
      if ((await sandbox.request('POST', '/_sandbox/reset', { body: {} })).status !== 200) throw new Error('reset failed');
      const claims = decodeJwt(token);
      if (!(claims.iat! > sandbox.clock.now())) throw new Error('the token should have been issued ahead of the clock');
      return token;
    },
    detail: /issued at a later time than the sandbox clock/,
  },
];

async function attackOn(): Promise<Attack> {
  const sandbox = await testSandbox();
  const valid = await sandbox.token();
  const sign: Attack['sign'] = async (claims = {}, options = {}) => {
    const now = sandbox.clock.now();
    const payload: Claims = {
      iss: ISSUER,
      aud: AUDIENCE,
      sub: 'sandbox-client',
      jti: randomUUID(),
      iat: now,
      exp: now + 3600,
      scope: SCOPES.join(' '),
      gen: 0,
      ...claims,
    };
    for (const name of options.omit ?? []) delete payload[name];
    return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: sandbox.keys.kid, typ: 'JWT', ...options.header }).sign(sandbox.keys.privateKey);
  };
  return { sandbox, valid, sign };
}

/** The endpoints every row is sent to: token-only, scoped read and write, public list and item, and one that ignores tokens. */
async function targets(sandbox: TestSandbox) {
  const w = await world(sandbox);
  const carrier = (await sandbox.read('/carriers')).body.data[0].id as string;
  const write = JSON.stringify(shipmentBody({ shop: w.shopIn('NL') }));
  return [
    { name: 'token GET /regions', method: 'GET', path: '/regions' },
    { name: 'scoped GET /shipments', method: 'GET', path: '/shipments' },
    { name: 'scoped POST /shipments', method: 'POST', path: '/shipments', body: write },
    { name: 'public GET /carriers', method: 'GET', path: '/carriers' },
    { name: `public GET /carriers/{id}`, method: 'GET', path: `/carriers/${carrier}` },
    { name: 'public GET /services', method: 'GET', path: '/services' },
    { name: 'none GET /health', method: 'GET', path: '/health', ignoresTokens: true },
  ];
}

async function call(sandbox: TestSandbox, target: Awaited<ReturnType<typeof targets>>[number], token: string): Promise<Answer> {
  const headers: Record<string, string> = { ...bearer(token) };
  if (target.body) headers['content-type'] = 'application/vnd.api+json';
  return send(sandbox, { method: target.method, path: target.path, headers, body: target.body });
}

describe('token attacks', () => {
  it.each(rows.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const attack = await attackOn();
    const endpoints = await targets(attack.sandbox);
    // The targets take a good token (a write is not made here: it would change what later rows see).
    for (const target of endpoints.filter((t) => t.method === 'GET')) {
      expect((await call(attack.sandbox, target, attack.valid)).status, target.name).toBe(200);
    }
    const token = await row.token(attack);
    const failures: string[] = [];
    for (const target of endpoints) {
      const before = attack.sandbox.store.snapshot();
      const answer = await call(attack.sandbox, target, token);
      const code = answer.body?.errors?.[0]?.code;
      const detail: string = answer.body?.errors?.[0]?.detail ?? '';
      if (target.ignoresTokens || row.expect === 'accepted') {
        if (answer.status < 200 || answer.status > 299) failures.push(`${target.name}: expected success, got ${answer.status} ${answer.text.slice(0, 200)}`);
        continue;
      }
      if (answer.status !== 401 || code !== '14002')
        failures.push(`${target.name}: expected 401/14002, got ${answer.status} ${code ?? ''} ${answer.text.slice(0, 200)}`);
      const problem = errorDocumentProblem(answer);
      if (problem) failures.push(`${target.name}: ${problem}`);
      if (row.detail && !row.detail.test(detail)) failures.push(`${target.name}: detail '${detail}' does not match ${row.detail}`);
      if (detail.includes(token) || answer.text.includes(token)) failures.push(`${target.name}: the answer echoes the token`);
      if (before.tables.shipments!.length !== attack.sandbox.store.snapshot().tables.shipments!.length) failures.push(`${target.name}: a shipment was created`);
    }
    expect(failures).toEqual([]);
  });
});
