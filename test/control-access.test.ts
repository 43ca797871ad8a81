/**
 * Who may use the sandbox controls (`/_sandbox/`), and on what (issue 14, finding 1): the admin
 * token acts on everything; a tenant's access token on that tenant only; no token acts globally
 * only on a sandbox without an admin token, and never for a web page of another origin.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';
import { parseCli } from '../src/cli.js';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody } from './support/shipments.js';

interface Tenant {
  client_id: string;
  client_secret: string;
  organization_id: string;
  shop_id: string;
  token: string;
}

async function tenant(sandbox: TestSandbox, name: string, admin?: string): Promise<Tenant> {
  const created = await sandbox.request('POST', '/_sandbox/tenants', { body: { name }, ...(admin ? { token: admin } : {}) });
  expect(created.status, created.text).toBe(201);
  const token = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: created.body.client_id, client_secret: created.body.client_secret },
    headers: { 'content-type': 'application/json' },
  });
  expect(token.status, token.text).toBe(200);
  return { ...created.body, token: token.body.access_token };
}

async function shipmentOf(sandbox: TestSandbox, who: Tenant): Promise<Json> {
  const shop = (await sandbox.get(`/shops/${who.shop_id}`, who.token)).body.data;
  return createShipment(
    sandbox,
    who.token,
    shipmentBody({ shop, recipient: { ...recipients.NL, email: `${who.client_id}@example.com` }, attributes: { description: `parcel of ${who.client_id}` } }),
  );
}

const EVIL = 'https://evil.example';

describe("a tenant's access token on the sandbox controls", () => {
  it("reads only its own tenant's requests", async () => {
    const sandbox = await testSandbox();
    const [a, b] = [await tenant(sandbox, 'A'), await tenant(sandbox, 'B')];
    await shipmentOf(sandbox, a);
    await shipmentOf(sandbox, b);
    const mine = await sandbox.get('/_sandbox/requests?limit=500', a.token);
    expect(mine.status, mine.text).toBe(200);
    const clients = new Set(mine.body.data.map((entry: Json) => entry.client_id));
    expect([...clients]).toEqual([a.client_id]);
    expect(mine.text).not.toContain(`${b.client_id}@example.com`);
    expect(mine.text).toContain(`${a.client_id}@example.com`);
    // Another tenant's client is unknown, as on every control (404, naming the parameter); its own is fine.
    const theirs = await sandbox.get(`/_sandbox/requests?client_id=${b.client_id}`, a.token);
    expect([theirs.status, theirs.body.errors?.[0]?.source]).toEqual([404, { parameter: 'client_id' }]);
    expect((await sandbox.get(`/_sandbox/requests?client_id=${a.client_id}`, a.token)).body.data.length).toBeGreaterThan(0);
    // Without a token (a local sandbox without an admin token) the whole log is there.
    const all = await sandbox.get('/_sandbox/requests?limit=500');
    expect(new Set(all.body.data.map((entry: Json) => entry.client_id))).toEqual(new Set([a.client_id, b.client_id, undefined]));
  });

  it("cannot revoke another tenant's tokens, by client or by token; its own it can", async () => {
    const sandbox = await testSandbox();
    const [a, b] = [await tenant(sandbox, 'A'), await tenant(sandbox, 'B')];
    const byClient = await sandbox.request('POST', '/_sandbox/revoke', { token: a.token, body: { client_id: b.client_id } });
    expect(byClient.status).toBe(404);
    expect(firstError(byClient)).toMatchObject({ code: '10002', source: { pointer: '/client_id' } });
    const byToken = await sandbox.request('POST', '/_sandbox/revoke', { token: a.token, body: { token: b.token } });
    expect(byToken.status).toBe(422);
    expect(firstError(byToken)).toMatchObject({ code: '10008', source: { pointer: '/token' } });
    expect(byToken.text).toContain('not an access token of your organization');
    // A seeded client is another tenant too.
    expect((await sandbox.request('POST', '/_sandbox/revoke', { token: a.token, body: { client_id: 'sandbox-client' } })).status).toBe(404);
    expect((await sandbox.get('/shops', b.token)).status).toBe(200);
    expect((await sandbox.get('/shops', await sandbox.token())).status).toBe(200);

    const own = await sandbox.request('POST', '/_sandbox/revoke', { token: a.token, body: { client_id: a.client_id } });
    expect(own.status, own.text).toBe(200);
    expect((await sandbox.get('/shops', a.token)).status).toBe(401);
  });

  it('resets its own tenant only: without a body, and never another by client_id', async () => {
    const sandbox = await testSandbox();
    const [a, b] = [await tenant(sandbox, 'A'), await tenant(sandbox, 'B')];
    const [mine, theirs] = [await shipmentOf(sandbox, a), await shipmentOf(sandbox, b)];
    const seeded = await sandbox.token();
    const seededShipments = (await sandbox.get('/shipments', seeded)).body.meta.total_records;

    const foreign = await sandbox.request('POST', '/_sandbox/reset', { token: a.token, body: { client_id: b.client_id } });
    expect(foreign.status).toBe(404);
    expect(firstError(foreign)).toMatchObject({ code: '10002', source: { pointer: '/client_id' } });
    expect((await sandbox.request('POST', '/_sandbox/reset', { token: a.token, body: { client_id: 'sandbox-client' } })).status).toBe(404);
    expect((await sandbox.get(`/shipments/${theirs.id}`, b.token)).status).toBe(200);

    const reset = await sandbox.request('POST', '/_sandbox/reset', { token: a.token, body: {} });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ reset: 'tenant', client_id: a.client_id, organization_id: a.organization_id });
    expect((await sandbox.get(`/shipments/${mine.id}`, a.token)).status).toBe(404);
    expect((await sandbox.get(`/shipments/${theirs.id}`, b.token)).status).toBe(200);
    expect((await sandbox.get('/shipments', seeded)).body.meta.total_records).toBe(seededShipments);
    // Tenants created through the API survive: it was no global reset.
    expect((await sandbox.get('/shops', b.token)).status).toBe(200);
  });

  it("reads and moves its own tenant's clock, never the global one; may not create tenants (403, 10013)", async () => {
    const sandbox = await testSandbox();
    const a = await tenant(sandbox, 'A');
    const before = (await sandbox.get('/_sandbox/clock')).body;
    expect((await sandbox.get('/_sandbox/clock', a.token)).body).toEqual({ ...before, organization_id: a.organization_id, follows_global: true });
    const move = await sandbox.request('POST', '/_sandbox/clock', { token: a.token, body: { advance: 3600 } });
    expect(move.status, move.text).toBe(200);
    expect(move.body).toEqual({ now: before.now + 3600, offset: before.offset + 3600, organization_id: a.organization_id, follows_global: false });
    expect((await sandbox.get('/_sandbox/clock')).body).toEqual(before);
    const create = await sandbox.request('POST', '/_sandbox/tenants', { token: a.token, body: {} });
    expect(create.status).toBe(403);
    expect(firstError(create).code).toBe('10013');
  });

  it('acts on its tenant also where an admin token is configured; other bearer tokens are 401', async () => {
    const admin = 'ci-admin-7f3c';
    const sandbox = await testSandbox({ config: { adminToken: admin } });
    const [a, b] = [await tenant(sandbox, 'A', admin), await tenant(sandbox, 'B', admin)];
    await shipmentOf(sandbox, b);
    expect((await sandbox.get('/_sandbox/requests', a.token)).body.data.every((entry: Json) => entry.client_id === a.client_id)).toBe(true);
    expect((await sandbox.request('POST', '/_sandbox/reset', { token: a.token, body: { client_id: b.client_id } })).status).toBe(404);
    const own = await sandbox.request('POST', '/_sandbox/clock', { token: a.token, body: { advance: 1 } });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ organization_id: a.organization_id, follows_global: false });
    const none = await sandbox.request('POST', '/_sandbox/reset', { body: {} });
    expect(none.status).toBe(401);
    expect(firstError(none)).toMatchObject({ code: '14003', source: { header: 'Authorization' } });
    const wrong = await sandbox.get('/_sandbox/requests', `${admin}x`);
    expect(wrong.status).toBe(401);
    expect(firstError(wrong)).toMatchObject({ code: '14002' });
    const global = await sandbox.request('POST', '/_sandbox/clock', { token: admin, body: { advance: 1 } });
    expect(global.status).toBe(200);
    expect(global.body).not.toHaveProperty('organization_id');
  });
});

describe('the sandbox controls and web pages of other origins', () => {
  it('refuse a tokenless request from a page of another origin: no reading, revoking or resetting', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const from = { origin: EVIL };
    const read = await sandbox.request('GET', '/_sandbox/requests', { headers: from });
    expect(read.status).toBe(403);
    expect(firstError(read)).toMatchObject({ code: '10013', source: { header: 'Origin' } });
    expect(read.text).not.toContain('sandbox-client');
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const revoke = await sandbox.request('POST', '/_sandbox/revoke', {
      headers: { ...from, 'content-type': 'application/json' },
      body: { client_id: 'sandbox-client' },
    });
    expect(revoke.status).toBe(403);
    expect((await sandbox.get('/shops', token)).status).toBe(200);
    const a = await tenant(sandbox, 'A');
    const reset = await sandbox.request('POST', '/_sandbox/reset', { headers: { ...from, 'content-type': 'application/json' }, body: {} });
    expect(reset.status).toBe(403);
    expect((await sandbox.get('/shops', a.token)).status).toBe(200);
    // Also when the browser sends no Origin (an <img>, a link), it says where the request comes from.
    const image = await sandbox.request('GET', '/_sandbox/requests', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(image.status).toBe(403);
    expect(firstError(image).source).toEqual({ header: 'Sec-Fetch-Site' });
  });

  it("a page's simple POST (a form: no JSON Content-Type) cannot reset, even from the same origin", async () => {
    const sandbox = await testSandbox();
    for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await sandbox.app.request('http://sandbox.test/_sandbox/reset', {
        method: 'POST',
        headers: type ? { 'content-type': type } : {},
        body: type ? 'a=b' : undefined,
      });
      expect(answer.status, String(type)).toBe(415);
      const body = (await answer.json()) as Json;
      expect(body.errors[0]).toMatchObject({ code: '10004', source: { header: 'Content-Type' } });
    }
  });

  it('refuse preflights from other origins, and answer without CORS headers', async () => {
    const sandbox = await testSandbox();
    const preflight = await sandbox.app.request('http://sandbox.test/_sandbox/reset', {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
    const clock = await sandbox.get('/_sandbox/clock');
    expect(clock.status).toBe(200);
    expect(clock.headers.get('access-control-allow-origin')).toBeNull();
    // The emulated API stays open to browsers.
    const api = await sandbox.app.request('http://sandbox.test/carriers', {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'GET' },
    });
    expect(api.status).toBe(204);
    expect(api.headers.get('access-control-allow-origin')).toBe('*');
    expect((await sandbox.request('GET', '/carriers', { headers: { origin: EVIL } })).headers.get('access-control-allow-origin')).toBe('*');
  });

  it("accept the sandbox's own pages (same origin, or the public URL) and programs that send no Origin", async () => {
    const sandbox = await testSandbox({ config: { publicUrl: 'https://sandbox.example.com' } });
    expect((await sandbox.request('GET', '/_sandbox/clock', { headers: { origin: 'http://sandbox.test' } })).status).toBe(200);
    expect((await sandbox.request('GET', '/_sandbox/clock', { headers: { origin: 'https://sandbox.example.com' } })).status).toBe(200);
    expect((await sandbox.request('GET', '/_sandbox/clock', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect((await sandbox.request('GET', '/_sandbox/clock', { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await sandbox.request('GET', '/_sandbox/clock', { headers: { origin: 'http://sandbox.test:8081' } })).status).toBe(403);
    expect((await sandbox.request('GET', '/_sandbox/clock', { headers: { origin: 'null' } })).status).toBe(403);
    expect((await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 1 } })).status).toBe(200);
  });

  it('a page of another origin with the admin token or a tenant token is no threat: the token decides', async () => {
    const sandbox = await testSandbox({ config: { adminToken: 'admin-9a8b' } });
    const answer = await sandbox.request('GET', '/_sandbox/clock', { token: 'admin-9a8b', headers: { origin: EVIL } });
    expect(answer.status).toBe(200);
  });
});

describe('the admin token at start', () => {
  it('is refused when it cannot be sent as a bearer token', () => {
    for (const bad of ['let me in', 'quote"d', 'tab\there', 'a=b', 'é']) {
      expect(() => parseConfig({ SANDBOX_ADMIN_TOKEN: bad }), bad).toThrow(ConfigError);
    }
    expect(() => parseConfig({ SANDBOX_ADMIN_TOKEN: 'let me in' })).toThrow(/cannot be sent as a bearer token.*no spaces/);
    expect(() => parseCli(['--admin-token', 'two words'], {})).toThrow(/SANDBOX_ADMIN_TOKEN \(--admin-token\) cannot be sent as a bearer token/);
    for (const good of ['let-me-in', 'abc.DEF_123~+/', 'base64+/==']) expect(parseConfig({ SANDBOX_ADMIN_TOKEN: good }).adminToken).toBe(good);
  });

  it('is required in shared mode, which also makes ids random', () => {
    expect(() => parseConfig({ SANDBOX_SHARED: '1' })).toThrow(/SANDBOX_SHARED \(--shared\) needs an admin token/);
    expect(() => parseCli(['--shared'], {})).toThrow(ConfigError);
    const shared = parseConfig({ SANDBOX_SHARED: 'true', SANDBOX_ADMIN_TOKEN: 'admin-0123456789' });
    expect(shared).toMatchObject({ shared: true, randomIds: true });
    expect(parseConfig({}).randomIds).toBe(false);
  });

  it('is compared in full: a prefix, a longer token or another case is refused', async () => {
    const sandbox = await testSandbox({ config: { adminToken: 'Admin-Token-1' } });
    for (const wrong of ['Admin-Token-', 'Admin-Token-12', 'admin-token-1', 'A']) expect((await sandbox.get('/_sandbox/clock', wrong)).status, wrong).toBe(401);
    expect((await sandbox.get('/_sandbox/clock', 'Admin-Token-1')).status).toBe(200);
  });
});

describe('the admin token in the Authorization header', () => {
  /** The status of GET /_sandbox/clock with this Authorization header. */
  const withHeader = async (sandbox: TestSandbox, authorization: string) =>
    (await sandbox.request('GET', '/_sandbox/clock', { headers: { authorization } })).status;

  it('takes the scheme in any case and spaces or tabs around the value (RFC 9110), and nothing else around the token', async () => {
    const admin = 'Admin-Token-1';
    const sandbox = await testSandbox({ config: { adminToken: admin } });
    for (const header of [`Bearer ${admin}`, `bearer ${admin}`, `BEARER ${admin}`, `  Bearer ${admin}  `, `Bearer\t${admin}\t`, `Bearer   ${admin}`]) {
      expect(await withHeader(sandbox, header), JSON.stringify(header)).toBe(200);
    }
    for (const header of [
      `Bearer ${admin}\u00a0`,
      `Bearer\u00a0${admin}`,
      `Bearer ${admin}\u000b`,
      `Bearer ${admin}\u000c`,
      `Bearer ${admin} x`,
      `Bearer ${admin},`,
      `Bearer "${admin}"`,
      `Bearer${admin}`,
      `Basic ${admin}`,
      admin,
    ]) {
      expect(await withHeader(sandbox, header), JSON.stringify(header)).toBe(401);
    }
  });
});
