/**
 * What a page of another origin may send: Swagger UI or another API tool loading /openapi.json
 * from its own origin asks for a token and calls the API with the headers the reference
 * declares, each one a preflight must allow.
 */
import { describe, expect, it } from 'vitest';
import { BASE, testSandbox, type TestSandbox } from './support/app.js';
import { authOnly } from '../src/app.js';

const origin = 'https://editor.example.com';

/** The header names (lower case) a preflight for `method path` with `requested` allows. */
async function allowed(sandbox: TestSandbox, method: string, path: string, requested: string[]): Promise<{ status: number; names: string[] }> {
  // Sent to the app itself: preflights are answered before routing and are no documented operation.
  const answer = await sandbox.app.request(`${BASE}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requested.join(',') },
  });
  const names = (answer.headers.get('access-control-allow-headers') ?? '').split(',').map((name) => name.trim().toLowerCase());
  return { status: answer.status, names };
}

describe('preflights of pages of another origin', () => {
  it("let Swagger UI's Authorize get a token: its request sends X-Requested-With and Basic credentials", async () => {
    const sandbox = await testSandbox();
    const requested = ['authorization', 'content-type', 'x-requested-with'];
    const preflight = await allowed(sandbox, 'POST', '/access-token', requested);
    expect(preflight.status).toBe(204);
    expect(requested.filter((name) => !preflight.names.includes(name))).toEqual([]);
    const token = await sandbox.request('POST', '/access-token', {
      body: 'grant_type=client_credentials&scope=shipments.manage',
      headers: {
        origin,
        'content-type': 'application/x-www-form-urlencoded',
        'x-requested-with': 'XMLHttpRequest',
        authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`,
      },
    });
    expect([token.status, token.headers.get('access-control-allow-origin')]).toEqual([200, '*']);
  });

  it('allow every request header the API reference declares that a page may set', async () => {
    const sandbox = await testSandbox();
    const document = (await sandbox.get('/openapi.json')).body;
    // Browsers set these themselves and refuse a page's value (the Fetch standard's forbidden request headers).
    const forbidden = (name: string) => ['accept-encoding', 'origin'].includes(name) || name.startsWith('sec-');
    const declared = new Map<string, string>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>)) {
      if (path.startsWith('/_sandbox/')) continue;
      for (const [method, operation] of Object.entries(item)) {
        for (const parameter of operation.parameters ?? []) {
          const name = parameter.name.toLowerCase();
          if (parameter.in === 'header' && !forbidden(name)) declared.set(name, `${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect([...declared.keys()].sort()).toEqual(['accept-language', 'idempotency-key', 'if-none-match']);
    for (const [name, where] of declared) {
      const [method, path] = where.split(' ') as [string, string];
      const preflight = await allowed(sandbox, method, path.replace(/\{[^}]+\}/g, 'x'), [name]);
      expect([where, preflight.status, preflight.names.includes(name)]).toEqual([where, 204, true]);
    }
  });

  it('let a page that sends a method the API does not take read the 405 naming the ones it does', async () => {
    const sandbox = await testSandbox();
    const preflight = await sandbox.app.request(`${BASE}/shipments/x`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
    });
    const methods = (preflight.headers.get('access-control-allow-methods') ?? '').split(',').map((name) => name.trim());
    expect([preflight.status, methods.includes('PUT')]).toEqual([204, true]);
    const token = await sandbox.token();
    const answer = await sandbox.request('PUT', '/shipments/x', { token, body: {}, headers: { origin } });
    expect([answer.status, answer.headers.get('access-control-allow-origin')]).toEqual([405, '*']);
    // The page reads Allow (exposed) and the errors document, and learns to send PATCH.
    expect(answer.headers.get('allow')).toContain('PATCH');
  });

  it('on the auth-only port (--auth-port), let a page read the 404 of a path it does not serve', async () => {
    const sandbox = await testSandbox();
    const auth = authOnly(sandbox.app);
    // A page calling the API on the token's port: its Authorization header needs a preflight.
    const preflight = await auth(
      new Request('http://sandbox.test/carriers', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      }),
    );
    const names = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), names.includes('authorization')]).toEqual([204, '*', true]);
    const answer = await auth(new Request('http://sandbox.test/carriers', { headers: { origin, authorization: 'Bearer x' } }));
    expect([answer.status, answer.headers.get('access-control-allow-origin')]).toEqual([404, '*']);
    expect(((await answer.json()) as { errors: { detail: string }[] }).errors[0]!.detail).toMatch(/only \/access-token/);
  });
});
