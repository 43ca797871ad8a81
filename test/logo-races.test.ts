import { expect, it } from 'vitest';
import { firstError, testSandbox } from './support/app.js';
import { gatedLibraries } from './support/library-gate.js';
import { tinyPng } from './support/images.js';

// Logos are checked by their content with a library loaded on the first upload; here the load
// waits at a gate, so a test can act while logos are checked, as a slow first load lets others.

// Both races share the one gated first load: each request waits at it while its tenant goes.
it('leaves nothing behind for tenants removed while logos were checked: no shop of the tenant, no organization under its broker', async () => {
  const loading = gatedLibraries('imageSniffers');
  const sandbox = await testSandbox({ libraries: loading.libraries });
  const tenant = (await sandbox.request('POST', '/_sandbox/tenants', { body: {} })).body;
  const token = (
    await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: tenant.client_id, client_secret: tenant.client_secret, scope: '*' },
    })
  ).body.access_token;
  const own = (await sandbox.get(`/shops/${tenant.shop_id}`, token)).body.data;
  // A broker a pack made goes with the pack's tenant; the admin (no token here) makes an organization under it.
  const packed = await sandbox.request('POST', '/_sandbox/tenants', { body: { pack: 'broker-three-organizations' } });
  expect(packed.status, packed.text).toBe(201);
  const brokerId = packed.body.keys.brokers['parcel-partners'] as string;
  const logo = { logo: { mime_type: 'image/png', contents: tinyPng().toString('base64') } };
  const creatingShop = sandbox.request('POST', '/shops', {
    token,
    body: {
      data: {
        type: 'shops',
        attributes: { name: 'Second store', sender_address: own.attributes.sender_address, return_address: own.attributes.return_address },
        relationships: { organization: { data: { type: 'organizations', id: tenant.organization_id } } },
      },
      meta: logo,
    },
  });
  const creatingOrganization = sandbox.request('POST', '/organizations', {
    body: {
      data: {
        type: 'organizations',
        attributes: { name: 'Made while its broker went' },
        relationships: { broker: { data: { type: 'brokers', id: brokerId } } },
        meta: logo,
      },
    },
  });
  await loading.reached;
  const logos = sandbox.store.count('logos');
  expect((await sandbox.request('DELETE', `/_sandbox/tenants/${tenant.organization_id}`)).status).toBe(200);
  const removed = await sandbox.request('DELETE', `/_sandbox/tenants/${packed.body.organization_id}`);
  expect(removed.status, removed.text).toBe(200);
  expect(sandbox.store.get('brokers', brokerId)).toBeUndefined();
  const organizations = sandbox.store.count('organizations');
  loading.release();

  const shop = await creatingShop;
  expect(shop.status).toBe(422);
  expect(firstError(shop).source).toEqual({ pointer: '/data/relationships/organization/data/id' });
  expect(sandbox.store.find('shops', 'organization_id', tenant.organization_id)).toHaveLength(0);

  const organization = await creatingOrganization;
  expect(organization.status, organization.text).toBe(422);
  expect(firstError(organization).source).toEqual({ pointer: '/data/relationships/broker/data/id' });
  expect(sandbox.store.all('organizations').filter((row) => row.broker_id === brokerId)).toEqual([]);
  expect(sandbox.store.count('organizations')).toBe(organizations);
  expect(sandbox.store.count('logos')).toBe(logos);
});
