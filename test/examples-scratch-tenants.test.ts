// The tenants the admin's examples act on (the tenant and organization deletions, loading a pack)
// are made for a tenant by POST /_sandbox/examples with the admin token: the default tenant's, or
// the one of the body's client_id (a docs visitor's, whose page sends it). They end with the tenant they were made for, however it
// goes, also when made without a ttl: none is left holding a place under the cap.
import { describe, expect, it } from 'vitest';
import { testSandbox, type TestSandbox } from './support/app.js';

const json = { 'content-type': 'application/json' };
const ADMIN = 'scratch-admin';

const tenants = async (sandbox: TestSandbox) =>
  ((await sandbox.get('/_sandbox/tenants', ADMIN)).body.data as { organization_id: string }[]).map((row) => row.organization_id);

/** A docs visitor's tenant, and the admin's examples made in it, as its page has them made before the admin token's first Execute. */
async function visitor(sandbox: TestSandbox) {
  const answer = await sandbox.request('POST', '/_sandbox/visitor', { headers: { origin: 'http://sandbox.test' } });
  expect(answer.status, answer.text).toBe(201);
  const made = answer.body as { organization_id: string; client_id: string; access_token: string };
  // The visitor's own rows, not the admin's: an anonymous page load makes no scratch tenants.
  expect(await tenants(sandbox)).toEqual([made.organization_id]);
  const admins = await sandbox.request('POST', '/_sandbox/examples', { token: ADMIN, body: { client_id: made.client_id }, headers: json });
  expect(admins.body, admins.text).toMatchObject({ organization_id: made.organization_id, needs_admin_token: [] });
  expect((await tenants(sandbox)).length, 'the examples made scratch tenants').toBe(4);
  return made;
}

describe("the scratch tenants of a tenant's examples", () => {
  it('go when the tenant deletes itself (DELETE /_sandbox/tenants/{id})', async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN, tenantPerVisitor: true } });
    const { client_id, access_token } = await visitor(sandbox);
    const deleted = await sandbox.request('DELETE', `/_sandbox/tenants/${client_id}`, { token: access_token });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await tenants(sandbox)).toEqual([]);
  }, 60000);

  it('go when the tenant deletes its organization through the API (DELETE /organizations/{id})', async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN, tenantPerVisitor: true } });
    const { organization_id, access_token } = await visitor(sandbox);
    // The examples register shipments, which keep an organization: a reset of the tenant clears them.
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token: access_token, body: {}, headers: json });
    expect(reset.status, reset.text).toBe(200);
    const deleted = await sandbox.request('DELETE', `/organizations/${organization_id}`, { token: access_token });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await tenants(sandbox)).toEqual([]);
  }, 60000);

  it('made without a ttl for the default tenant, go when the admin deletes its organization', async () => {
    const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
    const made = await sandbox.request('POST', '/_sandbox/examples', { token: ADMIN, body: {}, headers: json });
    expect(made.body, made.text).toMatchObject({ made: true, needs_admin_token: [] });
    expect((await tenants(sandbox)).length, 'the examples made scratch tenants').toBe(3);
    const client = 'sandbox-client';
    const organization = sandbox.store.get('clients', client)!;
    const organizationId = sandbox.store.get('users', organization.user_id)!.organization_id;
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token: ADMIN, body: { client_id: client }, headers: json });
    expect(reset.status, reset.text).toBe(200);
    const deleted = await sandbox.request('DELETE', `/organizations/${organizationId}`, { token: ADMIN });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await tenants(sandbox)).toEqual([]);
  }, 60000);
});
