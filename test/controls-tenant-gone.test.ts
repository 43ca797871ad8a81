import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';

/*
 * A control request that names a tenant looks it up, then waits for its turn to write (behind a
 * sandbox reset being written, a named pack being read). The tenant may be gone by then: deleted,
 * expired, or reset away. The request is then answered as if it had come after the removal (404
 * naming the member that named the tenant), never with a 500, and leaves nothing of the tenant.
 */

const json = { 'content-type': 'application/json' };

let sandbox: TestSandbox;

beforeEach(async () => {
  sandbox = await testSandbox();
});

async function newTenant(): Promise<{ tenant: Json; token: string }> {
  const made = await sandbox.request('POST', '/_sandbox/tenants', { body: {}, headers: json });
  expect(made.status, made.text).toBe(201);
  const granted = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: made.body.client_id, client_secret: made.body.client_secret, scope: '*' },
    headers: json,
  });
  return { tenant: made.body, token: granted.body.access_token };
}

/** Deletes the tenant just before the next write lands, as a removal that got its turn first would. */
function deletedBeforeNextWrite(tenant: Json): void {
  const { store } = sandbox;
  const transact = store.transact.bind(store);
  vi.spyOn(store, 'transact').mockImplementationOnce(async (work) => {
    const deleted = await sandbox.request('DELETE', `/_sandbox/tenants/${tenant.organization_id}`);
    expect(deleted.status, deleted.text).toBe(200);
    return transact(work);
  });
}

describe('a tenant removed while a control request waits to write', () => {
  it('makes loading a pack into it a 404 naming the client, with nothing of the pack loaded', async () => {
    const { tenant } = await newTenant();
    const shops = sandbox.store.count('shops');
    deletedBeforeNextWrite(tenant);
    const answer = await sandbox.request('POST', '/_sandbox/fixtures', {
      body: { client_id: tenant.client_id, pack: { shops: [{ key: 'late-shop', name: 'Late shop' }] } },
      headers: json,
    });
    expect(answer.status, answer.text).toBe(404);
    expect(answer.body.errors[0].source).toEqual({ pointer: '/client_id' });
    // Its one shop went with it, and the pack's never came.
    expect(sandbox.store.count('shops')).toBe(shops - 1);
  });

  it('makes resetting it a 404 naming the client', async () => {
    const { tenant } = await newTenant();
    deletedBeforeNextWrite(tenant);
    const answer = await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: tenant.client_id }, headers: json });
    expect(answer.status, answer.text).toBe(404);
    expect(answer.body.errors[0].source).toEqual({ pointer: '/client_id' });
    expect(sandbox.store.get('organizations', tenant.organization_id)).toBeUndefined();
  });

  it("makes revoking its client's tokens a 404 naming the client", async () => {
    const { tenant } = await newTenant();
    deletedBeforeNextWrite(tenant);
    const answer = await sandbox.request('POST', '/_sandbox/revoke', { body: { client_id: tenant.client_id }, headers: json });
    expect(answer.status, answer.text).toBe(404);
    expect(answer.body.errors[0].source).toEqual({ pointer: '/client_id' });
  });

  it('makes changing its quotas a 404 naming the client, with no override of it kept', async () => {
    const { tenant } = await newTenant();
    deletedBeforeNextWrite(tenant);
    const answer = await sandbox.request('PATCH', '/_sandbox/quotas', { body: { client_id: tenant.client_id, shipments: 5 }, headers: json });
    expect(answer.status, answer.text).toBe(404);
    expect(answer.body.errors[0].source).toEqual({ pointer: '/client_id' });
    expect((await sandbox.get('/_sandbox/quotas')).body.organizations).toEqual({});
  });

  it('leaves no clock of it behind when it was moving its own clock', async () => {
    const { tenant, token } = await newTenant();
    deletedBeforeNextWrite(tenant);
    const answer = await sandbox.request('POST', '/_sandbox/clock', { token, body: { advance: 3600 }, headers: json });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.removed).toBe(true);
    expect(sandbox.store.get('tenantClocks', tenant.organization_id)).toBeUndefined();
  });
});
