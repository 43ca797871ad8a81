// The examples and the served document when a tenant deleted what they act on: its shops, or (the
// default client's secret being public) the default client's whole organization.
import { describe, expect, it } from 'vitest';
import { firstError, tenantWithToken, testSandbox, type TestSandbox } from './support/app.js';

const json = { 'content-type': 'application/json' };

/** Deletes every shop of the token's organization. */
async function deleteShops(sandbox: TestSandbox, token: string): Promise<void> {
  const shops = await sandbox.get('/shops', token);
  expect(shops.body.data.length).toBeGreaterThan(0);
  for (const shop of shops.body.data as { id: string }[]) expect((await sandbox.request('DELETE', `/shops/${shop.id}`, { token })).status).toBe(204);
}

describe('the examples of a tenant without a shop', () => {
  it("are refused with 422 at the tenant's Authorization header, and nothing is made", async () => {
    const sandbox = await testSandbox();
    const { token } = await tenantWithToken(sandbox);
    await deleteShops(sandbox, token);
    const answer = await sandbox.request('POST', '/_sandbox/examples', { token, body: {}, headers: json });
    expect(answer.status, answer.text).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '10008', source: { header: 'Authorization' } });
    expect(firstError(answer).detail).toContain('POST /shops');
    expect((await sandbox.get('/shipments', token)).body.data).toEqual([]);
  });

  it('of the default client: the document is served, and POST /_sandbox/examples without a token is a 422 naming the reset that restores them', async () => {
    const sandbox = await testSandbox();
    await deleteShops(sandbox, await sandbox.token());
    const document = await sandbox.get('/openapi.json');
    expect(document.status, document.text).toBe(200);
    const answer = await sandbox.request('POST', '/_sandbox/examples', { body: {}, headers: json });
    expect(answer.status, answer.text).toBe(422);
    expect(firstError(answer).detail).toContain('POST /_sandbox/reset {"client_id": "sandbox-client"}');
    expect((await sandbox.request('POST', '/_sandbox/reset', { body: { client_id: 'sandbox-client' }, headers: json })).status).toBe(200);
    expect((await sandbox.request('POST', '/_sandbox/examples', { body: {}, headers: json })).body).toMatchObject({ made: true });
  }, 60000);

  it('of a deleted default organization: the document is served, and POST /_sandbox/examples is a 422', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const organization = (await sandbox.get('/organizations', token)).body.data[0].id as string;
    expect((await sandbox.request('DELETE', `/organizations/${organization}`, { token })).status).toBe(204);
    expect((await sandbox.get('/openapi.json')).status).toBe(200);
    const answer = await sandbox.request('POST', '/_sandbox/examples', { body: {}, headers: json });
    expect(answer.status, answer.text).toBe(422);
    expect(firstError(answer).detail).toContain('was deleted');
  });
});
