import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { banner } from '../src/server/banner.js';
import { createSandbox } from '../src/index.js';
import { testSandbox } from './support/app.js';

/*
 * A shared sandbox (`--shared`, a docs site's or a team's) is reached by people who have read the
 * README, so the seeded clients' published secrets would let any of them change the seeded data
 * everyone sees. There each seeded client takes a secret derived from the admin token instead:
 * the first 32 hex digits of HMAC-SHA256(admin token, client id), as README shows with openssl.
 */

const ADMIN = 'admin-token-of-the-operator-0123456789';
const derived = (clientId: string) => createHmac('sha256', ADMIN).update(clientId).digest('hex').slice(0, 32);
const tokenBody = (clientId: string, secret: string) => ({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
const json = { 'content-type': 'application/json' };

describe('seeded clients in shared mode', () => {
  it('refuse their published secrets, saying why, and take the ones derived from the admin token', async () => {
    const s = await testSandbox({ config: { shared: true, adminToken: ADMIN } });
    for (const [id, published] of [
      ['sandbox-client', 'sandbox-secret'],
      ['other-client', 'other-secret'],
      ['limited-client', 'limited-secret'],
    ] as const) {
      const refused = await s.request('POST', '/access-token', { body: tokenBody(id, published), headers: json });
      expect(refused.status).toBe(401);
      expect(refused.body.errors[0].detail).toMatch(/shared mode/);
      expect(refused.body.errors[0].source).toEqual({ pointer: '/client_secret' });
      const taken = await s.request('POST', '/access-token', { body: tokenBody(id, derived(id)), headers: json });
      expect(taken.status).toBe(200);
    }
    const token = (await s.request('POST', '/access-token', { body: tokenBody('sandbox-client', derived('sandbox-client')), headers: json })).body.access_token;
    expect((await s.get('/shops', token)).status).toBe(200);
  });

  it('refuse the published secret as HTTP Basic credentials too, naming the header', async () => {
    const s = await testSandbox({ config: { shared: true, adminToken: ADMIN } });
    const basic = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`;
    const refused = await s.request('POST', '/access-token', { body: { grant_type: 'client_credentials' }, headers: { ...json, authorization: basic } });
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].source).toEqual({ header: 'Authorization' });
  });

  it("leave a tenant's own secret alone, and a wrong secret is the plain refusal", async () => {
    const s = await testSandbox({ config: { shared: true, adminToken: ADMIN } });
    const made = await s.request('POST', '/_sandbox/tenants', { body: { name: 'ci job' }, headers: { ...json, authorization: `Bearer ${ADMIN}` } });
    expect(made.status).toBe(201);
    const own = await s.request('POST', '/access-token', { body: tokenBody(made.body.client_id, made.body.client_secret), headers: json });
    expect(own.status).toBe(200);
    const wrong = await s.request('POST', '/access-token', { body: tokenBody('sandbox-client', 'guessed'), headers: json });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].detail).not.toMatch(/shared mode/);
  });

  it('take their published secrets when the sandbox is not shared, even with an admin token', async () => {
    const s = await testSandbox({ config: { adminToken: ADMIN } });
    expect((await s.request('POST', '/access-token', { body: tokenBody('sandbox-client', 'sandbox-secret'), headers: json })).status).toBe(200);
    expect((await s.request('POST', '/access-token', { body: tokenBody('sandbox-client', derived('sandbox-client')), headers: json })).status).toBe(401);
  });

  it('are printed by the banner with the secret they take there', async () => {
    const s = await testSandbox({ config: { shared: true, adminToken: ADMIN } });
    const text = banner({ local: 'http://127.0.0.1:8080', authUrl: undefined, config: s.services.config, store: s.store, fixtures: undefined, seeded: true });
    expect(text).toMatch(new RegExp(`sandbox-client\\s+${derived('sandbox-client')}`));
    expect(text).not.toMatch(/sandbox-secret/);
    const local = await testSandbox();
    expect(
      banner({ local: 'http://127.0.0.1:8080', authUrl: undefined, config: local.services.config, store: local.store, fixtures: undefined, seeded: true }),
    ).toMatch(/sandbox-client\s+sandbox-secret/);
  });

  it("are not prefilled with a secret on the docs page, and createSandbox's token() still works", async () => {
    const s = await testSandbox({ config: { shared: true, adminToken: ADMIN } });
    const page = await s.request('GET', '/docs');
    expect(page.text).toContain('value="sandbox-client"');
    expect(page.text).not.toContain('sandbox-secret');
    expect(page.text).toMatch(/shared sandbox/);
    const sandbox = await createSandbox({ config: { shared: true, adminToken: ADMIN } });
    try {
      const token = await sandbox.token();
      expect((await sandbox.request('/shops', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});
