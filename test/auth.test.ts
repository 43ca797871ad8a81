import { SignJWT, UnsecuredJWT, createLocalJWKSet, decodeJwt, generateKeyPair, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints } from '../src/app.js';
import { scopes } from '../src/model/tenancy.js';
import { firstError, testSandbox, TEST_NOW, type TestSandbox } from './support/app.js';

const credentials = { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' };
const json = { 'content-type': 'application/json' };

describe('POST /access-token', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });

  it('issues a bearer JWT for a JSON body, with the claims a client can read', async () => {
    const answer = await sandbox.request('POST', '/access-token', { body: { ...credentials, scope: '*' }, headers: json });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 86400 });
    const claims = decodeJwt(answer.body.access_token);
    expect(claims).toMatchObject({ sub: 'sandbox-client', iat: TEST_NOW, exp: TEST_NOW + 86400 });
    expect(claims.iss).toBeTypeOf('string');
    expect(claims.aud).toBeTypeOf('string');
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(claims.scope).split(' ').sort()).toEqual([...scopes].sort());
  });

  it('accepts a form-encoded body and HTTP Basic client authentication', async () => {
    const form = await sandbox.request('POST', '/access-token', {
      body: 'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret&scope=shipments.manage',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    expect(decodeJwt(form.body.access_token).scope).toBe('shipments.manage');
    const basic = await sandbox.request('POST', '/access-token', {
      body: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('other-client:other-secret').toString('base64')}` },
    });
    expect(basic.status).toBe(200);
    expect(decodeJwt(basic.body.access_token).sub).toBe('other-client');
  });

  it('refuses a form field sent twice, and names the form among the accepted types', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const twice = await sandbox.request('POST', '/access-token', {
      body: 'grant_type=client_credentials&client_id=limited-client&client_secret=limited-secret&scope=shipments.manage&scope=shops.manage',
      headers: form,
    });
    expect([twice.status, firstError(twice).code, firstError(twice).source]).toEqual([400, '10003', { pointer: '/scope' }]);
    const text = await sandbox.request('POST', '/access-token', { body: 'grant_type=client_credentials', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(firstError(text).detail).toContain('application/x-www-form-urlencoded');
  });

  it('refuses a form that is not UTF-8 as a form, not as JSON', async () => {
    const bytes = Buffer.concat([Buffer.from('grant_type=client_credentials&client_id=sandbox-client&client_secret='), Buffer.from([0xff])]);
    const answer = await sandbox.app.request('http://sandbox.test/access-token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: bytes,
    });
    expect(answer.status).toBe(400);
    const [error] = ((await answer.json()) as { errors: { code: string; title: string; detail: string; source: unknown }[] }).errors;
    expect(error).toMatchObject({ code: '10003', title: 'Invalid JSON Schema', source: { pointer: '' } });
    expect(error!.detail).toContain('not valid UTF-8');
    expect(error!.detail).toContain('form');
    expect(error!.detail).not.toContain('JSON');
  });

  it('refuses Basic credentials it cannot read, or that differ from the body, naming the Authorization header', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
    const ask = (authorization: string, body = 'grant_type=client_credentials') =>
      sandbox.request('POST', '/access-token', { body, headers: { ...form, authorization } });
    const refusals = await Promise.all(
      ['Basic', 'Basic !!!not-base64', basic('no-colon-here'), basic('sandbox-client:wrong'), basic('%zz:x')].map(async (header) => {
        const answer = await ask(header);
        return [answer.status, firstError(answer).code, firstError(answer).source];
      }),
    );
    expect(refusals).toEqual(Array(5).fill([401, '14000', { header: 'Authorization' }]));
    // One way per request (RFC 6749, 2.3): the same credentials twice are fine, different ones are refused.
    const same = await ask(basic('sandbox-client:sandbox-secret'), 'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret');
    expect(same.status).toBe(200);
    const mixed = await ask(basic('sandbox-client:sandbox-secret'), 'grant_type=client_credentials&client_id=other-client&client_secret=wrong');
    expect([mixed.status, firstError(mixed).code, firstError(mixed).source]).toEqual([400, '14000', { header: 'Authorization' }]);
    // Credentials in the body still point at the body.
    const body = await sandbox.request('POST', '/access-token', { body: { ...credentials, client_secret: 'wrong' }, headers: json });
    expect(firstError(body).source).toEqual({ pointer: '/client_id' });
    // A Bearer header left over from an earlier call is no client credential: the body's are used.
    const bearer = await sandbox.request('POST', '/access-token', { body: credentials, headers: { ...json, authorization: 'Bearer leftover' } });
    expect(bearer.status).toBe(200);
  });

  it('publishes the verification key as a JWKS that verifies issued tokens', async () => {
    const token = await sandbox.token();
    const jwks = await sandbox.get('/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256', use: 'sig' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks.body), { currentDate: new Date(TEST_NOW * 1000) });
    expect(payload.sub).toBe('sandbox-client');
  });

  it('grants the requested subset of scopes, and all of them for * or no scope', async () => {
    const subset = await sandbox.token('sandbox-client', 'shops.manage shipments.manage');
    expect(String(decodeJwt(subset).scope).split(' ').sort()).toEqual(['shipments.manage', 'shops.manage']);
    const none = await sandbox.request('POST', '/access-token', { body: credentials, headers: json });
    expect(String(decodeJwt(none.body.access_token).scope).split(' ')).toHaveLength(scopes.length);
    const limited = await sandbox.token('limited-client', '*');
    expect(decodeJwt(limited).scope).toBe('shipments.manage');
  });

  it('refuses an unknown client or a wrong secret with 14000', async () => {
    for (const body of [
      { ...credentials, client_secret: 'wrong' },
      { ...credentials, client_id: 'nobody' },
    ]) {
      const answer = await sandbox.request('POST', '/access-token', { body, headers: json });
      expect(answer.status).toBe(401);
      expect(firstError(answer)).toMatchObject({ status: '401', code: '14000', source: { pointer: '/client_id' } });
      expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
    }
  });

  it('refuses a grant other than client_credentials with 14000', async () => {
    const answer = await sandbox.request('POST', '/access-token', { body: { ...credentials, grant_type: 'password' }, headers: json });
    expect(answer.status).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '14000', source: { pointer: '/grant_type' } });
  });

  it('refuses a scope the client may not have with 14001, naming it', async () => {
    const answer = await sandbox.request('POST', '/access-token', {
      body: { ...credentials, client_id: 'limited-client', client_secret: 'limited-secret', scope: 'shipments.manage organizations.manage' },
      headers: json,
    });
    expect(answer.status).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '14001', source: { pointer: '/scope' } });
    expect(firstError(answer).detail).toContain('organizations.manage');
    // `*` asks for every scope the client has; a scope beside it that the client lacks is still refused.
    const beside = await sandbox.request('POST', '/access-token', {
      body: { ...credentials, client_id: 'limited-client', client_secret: 'limited-secret', scope: '* organizations.manage' },
      headers: json,
    });
    expect([beside.status, firstError(beside).code, firstError(beside).source]).toEqual([400, '14001', { pointer: '/scope' }]);
    expect(decodeJwt(await sandbox.token('limited-client', '* shipments.manage')).scope).toBe('shipments.manage');
  });

  it('names each missing or mistyped field with a pointer', async () => {
    const missing = await sandbox.request('POST', '/access-token', { body: { grant_type: 'client_credentials', client_id: 'sandbox-client' }, headers: json });
    expect(missing.status).toBe(400);
    expect(firstError(missing)).toMatchObject({ code: '10003', source: { pointer: '/client_secret' } });
    const typed = await sandbox.request('POST', '/access-token', { body: { ...credentials, client_id: 42 }, headers: json });
    expect(typed.status).toBe(400);
    expect(firstError(typed)).toMatchObject({ code: '10003', source: { pointer: '/client_id' } });
    const garbage = await sandbox.request('POST', '/access-token', { body: '{"grant_type":', headers: json });
    expect(garbage.status).toBe(400);
    expect(firstError(garbage)).toMatchObject({ code: '10003', source: { pointer: '' } });
  });

  it('uses the configured token lifetime', async () => {
    const short = await testSandbox({ config: { tokenTtl: 60 } });
    const answer = await short.request('POST', '/access-token', { body: credentials, headers: json });
    expect(answer.body.expires_in).toBe(60);
    expect(decodeJwt(answer.body.access_token).exp).toBe(TEST_NOW + 60);
  });
});

describe('bearer tokens on API requests', () => {
  let sandbox: TestSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await testSandbox();
    token = await sandbox.token();
  });

  const expectInvalid = async (bearer: string, path = '/regions') => {
    const answer = await sandbox.get(path, bearer);
    expect(answer.status).toBe(401);
    expect(firstError(answer)).toMatchObject({ status: '401', code: '14002' });
    return answer;
  };

  it('accepts a valid token', async () => {
    expect((await sandbox.get('/regions', token)).status).toBe(200);
  });

  it('answers 14003 when no token is sent to an endpoint that needs one', async () => {
    const answer = await sandbox.get('/regions');
    expect(answer.status).toBe(401);
    expect(firstError(answer)).toMatchObject({ code: '14003', source: { header: 'Authorization' } });
    const basic = await sandbox.request('GET', '/regions', { headers: { authorization: 'Basic abc' } });
    expect(firstError(basic)).toMatchObject({ code: '14003', source: { header: 'Authorization' } });
  });

  it('says what is wrong with an Authorization header that is there but not Bearer <token>, never echoing a token', async () => {
    const detail = async (authorization: string) => firstError(await sandbox.request('GET', '/regions', { headers: { authorization } })).detail as string;
    expect(await detail('Basic abc')).toContain("'Basic' is another scheme");
    expect(await detail(`Bearer ${token} extra`)).toContain('the token is followed by more text');
    expect(await detail('Bearer')).toContain('the token is missing');
    const bare = await detail(token);
    expect(bare).toContain("it does not start with 'Bearer '");
    expect(bare).not.toContain(token.slice(0, 20));
    expect((await sandbox.get('/regions')).body.errors[0].detail).toMatch(/^This endpoint needs an access token; send Authorization: Bearer <token>/);
  });

  it('names the Authorization header as where a refused token was', async () => {
    const answer = await sandbox.get('/regions', 'garbage');
    expect(firstError(answer)).toMatchObject({ status: '401', code: '14002', source: { header: 'Authorization' } });
  });

  it('challenges with the Bearer scheme on a 401 (RFC 6750), saying when the token sent was invalid', async () => {
    expect((await sandbox.get('/regions')).headers.get('www-authenticate')).toBe('Bearer realm="parcel-sandbox"');
    expect((await sandbox.get('/regions', 'garbage')).headers.get('www-authenticate')).toBe('Bearer realm="parcel-sandbox", error="invalid_token"');
    // A token request refused for credentials in its body names no Basic challenge: a browser would answer it with a login dialog.
    const refused = await sandbox.request('POST', '/access-token', { body: { ...credentials, client_secret: 'wrong' }, headers: json });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBeNull();
    // Credentials sent as HTTP Basic are refused with the Basic challenge (RFC 6749, section 5.2).
    for (const authorization of [`Basic ${Buffer.from('sandbox-client:wrong').toString('base64')}`, 'Basic !!!not-base64']) {
      const basic = await sandbox.request('POST', '/access-token', { body: { grant_type: 'client_credentials' }, headers: { ...json, authorization } });
      expect(basic.status).toBe(401);
      expect(basic.headers.get('www-authenticate')).toBe('Basic realm="parcel-sandbox"');
    }
  });

  it('challenges a token without the scope with insufficient_scope (RFC 6750), naming the scope when one is needed', async () => {
    const limited = await sandbox.token('limited-client', '*');
    const hooks = await sandbox.get('/hooks', limited);
    expect(firstError(hooks)).toMatchObject({ status: '403', code: '14004' });
    expect(hooks.headers.get('www-authenticate')).toBe('Bearer realm="parcel-sandbox", error="insufficient_scope", scope="organizations.manage"');
    // Either of two scopes: RFC 6750's scope attribute would mean both, so it is left out.
    const collections = await sandbox.get('/collections', limited);
    expect(firstError(collections).detail).toContain('one of these scopes: collections.manage, collections.view');
    expect(collections.headers.get('www-authenticate')).toBe('Bearer realm="parcel-sandbox", error="insufficient_scope"');
  });

  it('answers 14002 for garbage', async () => {
    await expectInvalid('garbage');
  });

  it('answers 14002 for a token signed by another key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ scope: 'shipments.manage', gen: 0 })
      .setProtectedHeader({ alg: 'ES256' })
      .setSubject('sandbox-client')
      .setIssuer(decodeJwt(token).iss!)
      .setAudience(decodeJwt(token).aud as string)
      .setIssuedAt(TEST_NOW)
      .setJti('f0000000-0000-4000-8000-000000000000')
      .setExpirationTime(TEST_NOW + 3600)
      .sign(privateKey);
    await expectInvalid(forged);
  });

  it('answers 14002 for an unsigned (alg: none) token', async () => {
    const unsigned = new UnsecuredJWT({ ...decodeJwt(token) }).encode();
    await expectInvalid(unsigned);
  });

  it('answers 14002 for an HS256 token keyed with the public key', async () => {
    const jwks = await sandbox.get('/.well-known/jwks.json');
    const secret = new TextEncoder().encode(JSON.stringify(jwks.body.keys[0]));
    const hs = await new SignJWT({ ...decodeJwt(token) }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    await expectInvalid(hs);
  });

  it('answers 14002 for a tampered payload', async () => {
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: 'other-client' })).toString('base64url');
    await expectInvalid(`${header}.${payload}.${signature}`);
  });

  it('answers 14002 once the sandbox clock passes the expiry', async () => {
    const expiring = await testSandbox();
    const fresh = await expiring.token();
    const move = await expiring.request('POST', '/_sandbox/clock', { body: { advance: 86401 } });
    expect(move.status).toBe(200);
    const answer = await expiring.get('/regions', fresh);
    expect(answer.status).toBe(401);
    expect(firstError(answer).detail).toMatch(/expired/);
  });

  it('needs a token on the catalogue too (no scope, but a token: every request carries one), and checks it', async () => {
    expect(firstError(await sandbox.get('/carriers'))).toMatchObject({ status: '401', code: '14003' });
    expect((await sandbox.get('/carriers', token)).status).toBe(200);
    await expectInvalid('garbage', '/carriers');
  });
});

describe('an Authorization header of another scheme', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await testSandbox();
  });

  it('is no bearer token (401/14003) on every endpoint that reads one, the sandbox controls included', async () => {
    const codes = new Map<string, string>();
    for (const endpoint of allEndpoints().filter((endpoint) => endpoint.auth !== 'none')) {
      const path = endpoint.path.replace(/\{[^}]+\}/g, '7c0a3c41-0a5e-4b7e-9d8e-1f2a3b4c5d6e');
      const answer = await sandbox.request(endpoint.method.toUpperCase(), path, {
        headers: { authorization: 'Basic c2FuZGJveDp4', 'content-type': 'application/json' },
        ...(endpoint.method === 'get' ? {} : { body: {} }),
      });
      codes.set(`${endpoint.method.toUpperCase()} ${endpoint.path}`, `${answer.status} ${answer.body?.errors?.[0]?.code}`);
    }
    expect(codes.size).toBeGreaterThan(50);
    expect([...codes].filter(([, code]) => code !== '401 14003')).toEqual([]);
  });
});
