/**
 * The sandbox controls answer only for hosts the sandbox knows (issue 25, "Host checked"). A
 * DNS-rebinding page is served under the attacker's own name with a matching Origin, so the
 * Origin check alone lets it through; the Host it names is what gives it away.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli.js';
import { ConfigError, parseConfig } from '../src/config.js';
import { seededState, testSandbox, type Json, type TestSandbox } from './support/app.js';

/** Where a rebinding page lives: the attacker's name, resolved to the sandbox's address. */
const REBIND = 'http://rebind.attacker.example:8080';

interface Reply {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

/** A request to `base` + `path`: the URL's host is the Host the sandbox sees. */
async function at(
  sandbox: TestSandbox,
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await sandbox.app.request(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}

/** What a page at `REBIND` sends along: its own origin, which matches the Host it calls. */
const fromRebind = { origin: REBIND };

describe('the Host of a control request without the admin token', () => {
  it('refuses a rebinding page (foreign Host, matching Origin) with 421: no clock moved, no log read, no tenant made', async () => {
    const sandbox = await testSandbox();
    await sandbox.token(); // something in the request log
    const clock = (await sandbox.get('/_sandbox/clock')).body;
    const organizations = sandbox.store.count('organizations');

    const move = await at(sandbox, REBIND, 'POST', '/_sandbox/clock', { headers: fromRebind, body: { advance: 86400 } });
    expect(move.status).toBe(421);
    expect(move.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(move.headers.get('access-control-allow-origin')).toBeNull();
    expect(move.body.errors).toHaveLength(1);
    const error = move.body.errors[0];
    expect(error).toMatchObject({ status: '421', code: '10013', source: { header: 'Host' } });
    for (const words of ['rebind.attacker.example', 'localhost', 'ALLOWED_HOSTS', '--allowed-hosts']) expect(error.detail).toContain(words);
    expect((await sandbox.get('/_sandbox/clock')).body).toEqual(clock);

    const log = await at(sandbox, REBIND, 'GET', '/_sandbox/requests', { headers: fromRebind });
    expect(log.status).toBe(421);
    expect(log.text).not.toContain('sandbox-client');

    const tenant = await at(sandbox, REBIND, 'POST', '/_sandbox/tenants', { headers: fromRebind, body: {} });
    expect(tenant.status).toBe(421);
    const reset = await at(sandbox, REBIND, 'POST', '/_sandbox/reset', { headers: fromRebind, body: {} });
    expect(reset.status).toBe(421);
    expect(sandbox.store.count('organizations')).toBe(organizations);
  });

  it("answers loopback names, IP addresses and the public URL's host, on any port", async () => {
    const sandbox = await testSandbox({ config: { publicUrl: 'https://sandbox.example.com', allowedHosts: undefined } });
    for (const base of [
      'http://localhost',
      'http://localhost:3000',
      'http://LocalHost:8080',
      'http://docs.localhost:8080',
      'http://127.0.0.1:8080',
      'http://127.1.2.3',
      'http://[::1]:8080',
      'http://10.0.0.7:8080',
      'http://172.18.0.2:8080',
      'http://[2001:db8::1]',
      'https://sandbox.example.com',
      'http://sandbox.example.com:8080',
    ]) {
      expect((await at(sandbox, base, 'GET', '/_sandbox/clock')).status, base).toBe(200);
    }
    for (const base of [
      REBIND,
      'http://sandbox.test',
      'http://localhost.attacker.example',
      'http://127.0.0.1.attacker.example',
      'http://sandbox.example.com.attacker.example',
      'http://example.com',
    ]) {
      const answer = await at(sandbox, base, 'GET', '/_sandbox/clock');
      expect(answer.status, base).toBe(421);
      expect(answer.body.errors[0].detail, base).toContain('sandbox.example.com');
    }
  });

  it('answers the hosts ALLOWED_HOSTS adds: names, *.domain and host:port; * answers every host', async () => {
    const sandbox = await testSandbox({ config: { allowedHosts: 'sandbox, *.ci.internal, docs.example:8443' } });
    const expected: [string, number][] = [
      ['http://sandbox:8080', 200],
      ['http://sandbox', 200],
      ['http://job-1.ci.internal:8080', 200],
      ['http://ci.internal', 421],
      ['https://docs.example:8443', 200],
      ['http://docs.example:8080', 421],
      ['http://docs.example', 421],
      ['http://sandbox.attacker.example', 421],
    ];
    for (const [base, status] of expected) expect((await at(sandbox, base, 'GET', '/_sandbox/clock')).status, base).toBe(status);
    const refused = await at(sandbox, 'http://docs.example:8080', 'GET', '/_sandbox/clock');
    expect(refused.body.errors[0].detail).toContain('sandbox, *.ci.internal, docs.example:8443');

    const open = await testSandbox({ config: { allowedHosts: '*' } });
    expect((await at(open, REBIND, 'GET', '/_sandbox/clock')).status).toBe(200);
  });

  it('leaves the emulated API reachable under any Host', async () => {
    const sandbox = await testSandbox();
    expect((await at(sandbox, REBIND, 'GET', '/health')).status).toBe(200);
    const token = await at(sandbox, REBIND, 'POST', '/access-token', {
      headers: fromRebind,
      body: { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' },
    });
    expect(token.status).toBe(200);
    expect((await at(sandbox, REBIND, 'GET', '/carriers', { token: token.body.access_token, headers: fromRebind })).status).toBe(200);
    expect((await at(sandbox, REBIND, 'GET', '/shops', { token: token.body.access_token })).status).toBe(200);
  });

  it("applies to a tenant's access token too (a seeded client's secret is public), never to the admin token", async () => {
    const sandbox = await testSandbox();
    // A rebinding page can get a seeded client's token through the API, which answers any Host...
    const token = await sandbox.token();
    const shipments = (await sandbox.get('/shipments', token)).body.meta.total_records;
    // ...but cannot use the controls with it.
    const reset = await at(sandbox, REBIND, 'POST', '/_sandbox/reset', { headers: fromRebind, token, body: {} });
    expect(reset.status).toBe(421);
    expect((await at(sandbox, REBIND, 'GET', '/_sandbox/clock', { token })).status).toBe(421);
    expect((await sandbox.get('/shipments', token)).body.meta.total_records).toBe(shipments);
    // From an allowed host the same token acts on its tenant as before.
    expect((await at(sandbox, 'http://localhost:8080', 'GET', '/_sandbox/clock', { token })).body).toMatchObject({ follows_global: true });

    const admin = 'host-admin-5e1f';
    const guarded = await testSandbox({ config: { adminToken: admin } });
    const global = await at(guarded, REBIND, 'POST', '/_sandbox/clock', { token: admin, body: { advance: 60 } });
    expect(global.status, global.text).toBe(200);
    for (const other of [undefined, `${admin}x`]) {
      const answer = await at(guarded, REBIND, 'GET', '/_sandbox/clock', other ? { token: other } : {});
      expect(answer.status, String(other)).toBe(421);
    }
    // On an allowed host, a missing or wrong token is the 401 it always was.
    expect((await guarded.get('/_sandbox/clock')).status).toBe(401);
    expect((await guarded.get('/_sandbox/clock', `${admin}x`)).status).toBe(401);
  });

  it('refuses a visitor tenant to a rebinding page, and makes one for the page at the public URL', async () => {
    const publicUrl = 'https://docs.example.com';
    const sandbox = await testSandbox({ config: { tenantPerVisitor: true, adminToken: 'docs-admin', publicUrl, allowedHosts: undefined } });
    const refused = await at(sandbox, REBIND, 'POST', '/_sandbox/visitor', { headers: fromRebind });
    expect(refused.status).toBe(421);
    expect(refused.body.errors[0]).toMatchObject({ code: '10013', source: { header: 'Host' } });
    expect(sandbox.store.count('organizations')).toBe(seededState().tables.organizations!.length);
    const made = await at(sandbox, publicUrl, 'POST', '/_sandbox/visitor', { headers: { origin: publicUrl } });
    expect(made.status, made.text).toBe(201);
    // The visitor's alone: the three its API reference's admin examples act on come with its examples' rows, on its first Execute.
    expect(sandbox.store.count('organizations')).toBe(seededState().tables.organizations!.length + 1);
  });
});

describe('ALLOWED_HOSTS (--allowed-hosts)', () => {
  it('is read from the environment and the command line, and is listed in --help', () => {
    expect(parseConfig({}).allowedHosts).toBeUndefined();
    expect(parseConfig({ ALLOWED_HOSTS: 'sandbox,*.ci.internal' }).allowedHosts).toBe('sandbox,*.ci.internal');
    const cli = parseCli(['--allowed-hosts', 'sandbox:8080'], {});
    expect(cli.action === 'serve' && cli.config.allowedHosts).toBe('sandbox:8080');
    const help = parseCli(['--help'], {});
    expect(help.action === 'print' && help.text).toMatch(/--allowed-hosts <hosts>\s+ALLOWED_HOSTS\s+\S/);
  });

  it('stops the start on an entry that is not a host, *.domain or host:port', () => {
    for (const bad of ['http://sandbox', 'two words', 'sandbox:99999', 'sandbox/path', 'a,*.,b']) {
      expect(() => parseConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(ConfigError);
      expect(() => parseConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(/ALLOWED_HOSTS \(--allowed-hosts\)/);
    }
  });

  it('is set in compose.yaml for the tests service, which reaches the sandbox as http://sandbox:8080', () => {
    const compose = readFileSync(new URL('../compose.yaml', import.meta.url), 'utf8');
    expect(compose).toMatch(/^\s+ALLOWED_HOSTS: .*\bsandbox\b/m);
  });
});
