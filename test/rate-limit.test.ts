import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testSandbox, type Answer, type Json, type TestSandbox } from './support/app.js';
import { RateLimiter } from '../src/http/rate-limiter.js';
import { authOnly } from '../src/app.js';

/*
 * The requests-per-minute limit of each tenant. It runs on real time (Date), which these tests
 * fake; the sandbox clock is another clock and does not refill it.
 */

const json = { 'content-type': 'application/json' };

/** Sets the limit of one tenant (or the default) through the control, as the admin. */
async function limit(sandbox: TestSandbox, body: Json, admin?: string): Promise<void> {
  const answer = await sandbox.request('PATCH', '/_sandbox/quotas', { body, token: admin, headers: json });
  if (answer.status !== 200) throw new Error(`quota change failed: ${answer.text}`);
}

const headersOf = (answer: Answer) => ({
  limit: answer.headers.get('ratelimit-limit'),
  remaining: answer.headers.get('ratelimit-remaining'),
  reset: answer.headers.get('ratelimit-reset'),
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-02T10:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the rate limit of a tenant', () => {
  it('counts every request of its organization, tells where it stands in RateLimit-* headers and refuses past the limit with 429 and Retry-After', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token(); // 1
    await limit(sandbox, { client_id: 'sandbox-client', requests_per_minute: 4 });
    const shop = (await sandbox.get('/shops', token)).body.data[0]; // 2
    expect(shop).toBeDefined();
    vi.advanceTimersByTime(10_000);
    const third = await sandbox.get(`/shops/${shop.id}`, token); // 3
    expect(third.status).toBe(200);
    expect(headersOf(third)).toEqual({ limit: '4', remaining: '1', reset: '50' });
    // Errors after the caller is known carry the headers too.
    const missing = await sandbox.get('/shipments/does-not-exist', token); // 4
    expect(missing.status).toBe(404);
    expect(headersOf(missing)).toEqual({ limit: '4', remaining: '0', reset: '50' });

    const refused = await sandbox.get(`/shops/${shop.id}`, token); // 5
    expect(refused.status).toBe(429);
    expect(refused.body.errors).toEqual([
      {
        status: '429',
        code: '10011',
        title: 'Too many requests.',
        detail: expect.stringContaining('4 requests per minute'),
        meta: { quota: 'requests_per_minute', limit: 4, retry_after: 50 },
      },
    ]);
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(headersOf(refused)).toEqual({ limit: '4', remaining: '0', reset: '50' });
    // Browsers may read them (the docs page's try-it-out).
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(third.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');

    // Moving the sandbox clock does not refill it: the limit runs on real time.
    await sandbox.advance(3600);
    expect((await sandbox.get(`/shops/${shop.id}`, token)).status).toBe(429);
    // The same token requests nothing new while refused: a fresh minute of real time does.
    vi.advanceTimersByTime(50_000);
    const later = await sandbox.get(`/shops/${shop.id}`, token);
    expect(later.status).toBe(200);
    expect(headersOf(later)).toEqual({ limit: '4', remaining: '3', reset: '60' });
  });

  it("does not let one tenant's burst limit another tenant", async () => {
    const sandbox = await testSandbox();
    const mine = await sandbox.token();
    const theirs = await sandbox.token('other-client');
    await limit(sandbox, { client_id: 'sandbox-client', requests_per_minute: 3 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => sandbox.get('/shops', mine)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429, 429, 429, 429, 429, 429, 429]);
    const other = await sandbox.get('/shops', theirs);
    expect(other.status).toBe(200);
    expect(headersOf(other)).toMatchObject({ limit: '30000', remaining: '29998' });
    // A client of the same organization shares its window.
    const sibling = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: 'limited-client', client_secret: 'limited-secret' },
      headers: json,
    });
    expect(sibling.status).toBe(429);
  });

  it('counts token requests against the organization of the client they name, and anonymous requests by address', async () => {
    const sandbox = await testSandbox();
    await limit(sandbox, { requests_per_minute: 2 });
    await sandbox.token(); // sandbox-client's organization: 1
    await sandbox.token(); // 2
    await expect(sandbox.token()).rejects.toThrow(/429/);
    // Another tenant's client still gets its tokens.
    expect(await sandbox.token('other-client')).toMatch(/\./);
    // Without a token, the caller's address counts (here: one for every in-process request).
    expect((await sandbox.get('/.well-known/jwks.json')).status).toBe(200);
    expect((await sandbox.get('/.well-known/jwks.json')).status).toBe(200);
    const anonymous = await sandbox.get('/.well-known/jwks.json');
    expect(anonymous.status).toBe(429);
    expect(anonymous.body.errors[0].detail).toContain('this address');
    // A token request naming no known client counts by address too.
    const unknown = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' },
      headers: json,
    });
    expect(unknown.status).toBe(429);
  });

  it('never limits the health check, nor the admin token, nor controls acting on the whole sandbox', async () => {
    const admin = 'rate-admin';
    const sandbox = await testSandbox({ config: { adminToken: admin } });
    await limit(sandbox, { requests_per_minute: 1 }, admin);
    const organization = sandbox.store.all('organizations')[0]!.id;
    for (let i = 0; i < 5; i++) {
      const health = await sandbox.get('/health');
      expect(health.status).toBe(200);
      expect(health.headers.get('ratelimit-limit')).toBeNull();
      const contracts = await sandbox.get(`/organizations/${organization}/contracts`, admin);
      expect(contracts.status).toBe(200);
      expect(contracts.headers.get('ratelimit-limit')).toBeNull();
      expect((await sandbox.get('/_sandbox/quotas', admin)).status).toBe(200);
    }
  });

  it('applies a changed limit at once, to the window already running', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    await limit(sandbox, { client_id: 'sandbox-client', requests_per_minute: 2 });
    expect((await sandbox.get('/shops', token)).status).toBe(200);
    expect((await sandbox.get('/shops', token)).status).toBe(429);
    await limit(sandbox, { client_id: 'sandbox-client', requests_per_minute: 10 });
    const answer = await sandbox.get('/shops', token);
    expect(answer.status).toBe(200);
    expect(headersOf(answer)).toMatchObject({ limit: '10', remaining: '6' });
  });
});

/** A request from `address` (what the node server reads off the socket), for callers that must not share a window. */
async function from(sandbox: TestSandbox, address: string, method: string, path: string, init: { body?: Json; headers?: Record<string, string> } = {}) {
  const response = await sandbox.app.request(
    `http://sandbox.test${path}`,
    { method, headers: init.headers ?? {}, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) },
    { incoming: { socket: { remoteAddress: address } } },
  );
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text } as Answer;
}

const ATTACKER = '203.0.113.66';
const VICTIM = '198.51.100.7';

describe("nobody spends another tenant's budget", () => {
  it("counts failed token requests naming a victim's client_id for the caller's address, never for the victim's organization", async () => {
    const sandbox = await testSandbox();
    await limit(sandbox, { requests_per_minute: 5 });
    const credentials = { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' };
    const issued = await from(sandbox, VICTIM, 'POST', '/access-token', { body: credentials, headers: json }); // victim's organization: 1
    expect(issued.status).toBe(200);
    expect(headersOf(issued)).toMatchObject({ limit: '5', remaining: '4' });
    const victim = issued.body.access_token as string;

    const basic = `Basic ${Buffer.from('sandbox-client:guessed').toString('base64')}`;
    const burst = [];
    for (let i = 0; i < 12; i++) {
      const wrong =
        i % 2 === 0
          ? { body: { ...credentials, client_secret: `guess-${i}` }, headers: json }
          : { body: { grant_type: 'client_credentials' }, headers: { ...json, authorization: basic } };
      burst.push(await from(sandbox, ATTACKER, 'POST', '/access-token', wrong));
    }
    expect(burst.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
    expect(burst[5]!.body.errors[0].detail).toContain('this address');
    expect(burst[5]!.headers.get('retry-after')).toBe('60');

    // The victim's window is as the victim left it: nothing the attacker sent was counted there.
    const shops = await from(sandbox, VICTIM, 'GET', '/shops', { headers: { authorization: `Bearer ${victim}` } });
    expect(shops.status).toBe(200);
    expect(headersOf(shops)).toMatchObject({ limit: '5', remaining: '3' });
    const again = await from(sandbox, VICTIM, 'POST', '/access-token', { body: credentials, headers: json });
    expect(again.status).toBe(200);
    expect(headersOf(again)).toMatchObject({ remaining: '2' });
    // A used-up address is refused before its credentials are looked at: right ones too.
    expect((await from(sandbox, ATTACKER, 'POST', '/access-token', { body: credentials, headers: json })).status).toBe(429);
  });

  it("counts a bad or revoked bearer token for the caller's address, never for the organization it names", async () => {
    const sandbox = await testSandbox();
    await limit(sandbox, { requests_per_minute: 4 });
    const victim = await sandbox.token(); // victim's organization: 1
    const stolen = await sandbox.token(); // 2
    expect((await sandbox.request('POST', '/_sandbox/revoke', { body: { token: stolen }, headers: json })).status).toBe(200);
    const [header, payload] = victim.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;

    const statuses = [];
    for (const token of [stolen, forged, 'not-a-token', stolen, forged, stolen]) {
      statuses.push((await from(sandbox, ATTACKER, 'GET', '/shops', { headers: { authorization: `Bearer ${token}` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    const shops = await from(sandbox, VICTIM, 'GET', '/shops', { headers: { authorization: `Bearer ${victim}` } });
    expect(shops.status).toBe(200);
    expect(headersOf(shops)).toMatchObject({ limit: '4', remaining: '1' });
    // The sandbox controls too: a refused token there counts for the address.
    const control = await from(sandbox, ATTACKER, 'GET', '/_sandbox/clock', { headers: { authorization: `Bearer ${stolen}` } });
    expect(control.status).toBe(429);
  });

  it('keeps the addresses apart on the auth-only port (--auth-port) too: a flood there does not lock other clients out of tokens', async () => {
    const sandbox = await testSandbox();
    await limit(sandbox, { requests_per_minute: 3 });
    const auth = authOnly(sandbox.app);
    const token = (address: string, secret: string) =>
      auth(
        new Request('http://sandbox.test/access-token', {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: secret }),
        }),
        { incoming: { socket: { remoteAddress: address } } },
      );
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await token(ATTACKER, `guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect((await token(VICTIM, 'sandbox-secret')).status).toBe(200);
  });
});

describe('RateLimiter', () => {
  it('keeps one window per key and forgets keys idle for a minute', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    expect(limiter.take('a', 2)).toEqual({ count: 1, limit: 2, resetMs: 60_000 });
    now = 59_999;
    expect(limiter.take('a', 2)).toEqual({ count: 2, limit: 2, resetMs: 1 });
    expect(limiter.take('b', 2).count).toBe(1);
    expect(limiter.peek('a')).toBe(2);
    now = 60_000;
    expect(limiter.peek('a')).toBe(0);
    expect(limiter.take('a', 2)).toEqual({ count: 1, limit: 2, resetMs: 60_000 });
    now = 200_000;
    limiter.take('c', 1);
    expect((limiter as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });
});
