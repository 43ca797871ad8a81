// POST /_sandbox/examples with a tenant's own token makes only what that token could make by
// itself: the rows of the admin's examples (a contract template, system messages, tenants of
// their own) are refused to it when asked for directly, so the control leaves them out too.
import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type TestSandbox } from './support/app.js';

const ADMIN = 'examples-admin';
const json = { 'content-type': 'application/json' };
const ADMIN_ROWS = ['template-to-delete', 'system-message', 'system-message-to-delete', 'organization-to-delete', 'tenant-to-delete', 'tenant-for-pack'];

/** What only the admin can make, counted: the broker's templates, the system messages and the tenants. */
function adminRows(sandbox: TestSandbox) {
  return {
    templates: sandbox.store.count('contractTemplates'),
    messages: sandbox.store.count('systemMessages'),
    organizations: sandbox.store.count('organizations'),
  };
}

const examples = (sandbox: TestSandbox, token?: string) =>
  sandbox.request('POST', '/_sandbox/examples', { body: {}, headers: json, ...(token ? { token } : {}) });

describe("POST /_sandbox/examples with a tenant's own token", () => {
  it('makes none of the rows only the admin token may make, names them, and the direct request is a 403 at the Authorization header', async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
    const made = await sandbox.request('POST', '/_sandbox/tenants', { body: { name: 'ci job' }, token: ADMIN, headers: json });
    expect(made.status, made.text).toBe(201);
    const token = (
      await sandbox.request('POST', '/access-token', {
        body: { grant_type: 'client_credentials', client_id: made.body.client_id, client_secret: made.body.client_secret, scope: '*' },
        headers: json,
      })
    ).body.access_token as string;
    const direct = await sandbox.request('POST', '/_sandbox/tenants', { body: {}, token, headers: json });
    expect(direct.status).toBe(403);
    expect(firstError(direct)).toMatchObject({ code: '10013', source: { header: 'Authorization' } });

    const before = adminRows(sandbox);
    const answer = await examples(sandbox, token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ organization_id: made.body.organization_id, made: true });
    expect(adminRows(sandbox).templates).toBe(before.templates);
    expect(adminRows(sandbox).messages).toBe(before.messages);
    expect((await sandbox.get('/_sandbox/tenants', ADMIN)).body.data.map((row: { organization_id: string }) => row.organization_id)).toEqual([
      made.body.organization_id,
    ]);
    expect([...answer.body.needs_admin_token].sort()).toEqual([...ADMIN_ROWS].sort());
    expect(answer.body.failed).not.toEqual(expect.arrayContaining(ADMIN_ROWS));
    // Asked again with the same token, nothing more is made.
    expect((await examples(sandbox, token)).body).toMatchObject({ made: false, needs_admin_token: [] });
  }, 60000);

  it("leaves the default tenant's admin rows for the admin's request, which the page sends before its first admin example", async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
    const before = adminRows(sandbox);
    const byClient = await examples(sandbox, await sandbox.token());
    expect(byClient.body).toMatchObject({ made: true, failed: [] });
    expect(adminRows(sandbox)).toEqual(before);
    expect([...byClient.body.needs_admin_token].sort()).toEqual([...ADMIN_ROWS].sort());

    const byAdmin = await examples(sandbox, ADMIN);
    expect(byAdmin.body).toMatchObject({ made: true, failed: [], needs_admin_token: [] });
    expect(adminRows(sandbox)).toEqual({ templates: before.templates + 1, messages: before.messages + 2, organizations: before.organizations + 3 });
    expect((await examples(sandbox, ADMIN)).body).toMatchObject({ made: false });
  }, 60000);

  it("makes the admin's rows in the tenant of a client_id the admin names (a docs visitor's), and a tenant's token only in its own", async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
    const tenant = await sandbox.request('POST', '/_sandbox/tenants', { body: { name: 'visitor-like' }, token: ADMIN, headers: json });
    const clientId = tenant.body.client_id as string;
    const before = adminRows(sandbox);
    const named = await sandbox.request('POST', '/_sandbox/examples', { body: { client_id: clientId }, token: ADMIN, headers: json });
    expect(named.status, named.text).toBe(200);
    expect(named.body).toMatchObject({ organization_id: tenant.body.organization_id, made: true, needs_admin_token: [] });
    expect(adminRows(sandbox)).toEqual({ templates: before.templates + 1, messages: before.messages + 2, organizations: before.organizations + 3 });

    const unknown = await sandbox.request('POST', '/_sandbox/examples', { body: { client_id: 'no-such-client' }, token: ADMIN, headers: json });
    expect(unknown.status).toBe(404);
    expect(firstError(unknown)).toMatchObject({ code: '10002', source: { pointer: '/client_id' } });
    // The default client's token cannot reach the tenant of another organization's client.
    const other = await sandbox.request('POST', '/_sandbox/examples', { body: { client_id: clientId }, token: await sandbox.token(), headers: json });
    expect(other.status).toBe(404);
    expect(firstError(other)).toMatchObject({ code: '10002', source: { pointer: '/client_id' } });
  }, 60000);
});

describe('POST /_sandbox/examples for the seeded British organization (other-client)', () => {
  it("makes every row, the returns among them: their consumer lives where the shop's return method is offered", async () => {
    const sandbox = await testSandbox();
    const answer = await examples(sandbox, await sandbox.token('other-client'));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ made: true, failed: [] });
  });
});
