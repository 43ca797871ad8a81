// The tenants POST /_sandbox/examples makes for the tenant and organization deletions end with the
// tenant they were made for, also one made without a ttl: none is left holding a place under the cap.
import { describe, expect, it } from 'vitest';
import { tenantWithToken, testSandbox } from './support/app.js';

const json = { 'content-type': 'application/json' };

describe("the scratch tenants of a tenant's examples", () => {
  it('go when the tenant (made without a ttl) deletes itself', async () => {
    const sandbox = await testSandbox();
    const { made, token } = await tenantWithToken(sandbox, { name: 'ci job' });
    const examples = await sandbox.request('POST', '/_sandbox/examples', { token, body: {}, headers: json });
    expect(examples.body, examples.text).toMatchObject({ made: true });
    const before = (await sandbox.get('/_sandbox/tenants')).body.data as { name: string }[];
    expect(before.length, 'the examples made scratch tenants').toBeGreaterThan(1);
    const deleted = await sandbox.request('DELETE', `/_sandbox/tenants/${made.body.client_id}`, { token });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await sandbox.get('/_sandbox/tenants')).body.data).toEqual([]);
  }, 60000);

  it('go when the tenant deletes its organization through the API (DELETE /organizations/{id})', async () => {
    const sandbox = await testSandbox();
    const { made, token } = await tenantWithToken(sandbox, { name: 'ci job' });
    const examples = await sandbox.request('POST', '/_sandbox/examples', { token, body: {}, headers: json });
    expect(examples.body, examples.text).toMatchObject({ made: true });
    expect((await sandbox.get('/_sandbox/tenants')).body.data.length, 'the examples made scratch tenants').toBeGreaterThan(1);
    // The examples register shipments, which keep an organization: a reset of the tenant clears them.
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token, body: {}, headers: json });
    expect(reset.status, reset.text).toBe(200);
    const deleted = await sandbox.request('DELETE', `/organizations/${made.body.organization_id}`, { token });
    expect(deleted.status, deleted.text).toBe(204);
    expect((await sandbox.get('/_sandbox/tenants')).body.data).toEqual([]);
  }, 60000);
});
