import { expect, it, vi } from 'vitest';
import { firstError, testSandbox } from './support/app.js';
import { tinyPng } from './support/images.js';

// Logos are checked by their content with a library loaded on the first upload; here the load
// waits at a gate, so a test can act while a logo is checked, as a slow first load lets others.
const loading = await vi.hoisted(async () => (await import('./support/module-gate.js')).moduleGate());

vi.mock('file-type', async (importOriginal) => {
  loading.arrived();
  await loading.gate;
  return importOriginal();
});

it("leaves no shop behind for a tenant removed while the shop's logo was checked", async () => {
  const sandbox = await testSandbox();
  const tenant = (await sandbox.request('POST', '/_sandbox/tenants', { body: {} })).body;
  const token = (
    await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: tenant.client_id, client_secret: tenant.client_secret, scope: '*' },
    })
  ).body.access_token;
  const own = (await sandbox.get(`/shops/${tenant.shop_id}`, token)).body.data;
  const creating = sandbox.request('POST', '/shops', {
    token,
    body: {
      data: {
        type: 'shops',
        attributes: { name: 'Second store', sender_address: own.attributes.sender_address, return_address: own.attributes.return_address },
        relationships: { organization: { data: { type: 'organizations', id: tenant.organization_id } } },
      },
      meta: { logo: { mime_type: 'image/png', contents: tinyPng().toString('base64') } },
    },
  });
  await loading.reached;
  const logos = sandbox.store.count('logos');
  expect((await sandbox.request('DELETE', `/_sandbox/tenants/${tenant.organization_id}`)).status).toBe(200);
  loading.release();
  const answer = await creating;
  expect(answer.status).toBe(422);
  expect(firstError(answer).source).toEqual({ pointer: '/data/relationships/organization/data/id' });
  expect(sandbox.store.find('shops', 'organization_id', tenant.organization_id)).toHaveLength(0);
  expect(sandbox.store.count('logos')).toBe(logos);
});
