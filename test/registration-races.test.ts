import { expect, it } from 'vitest';
import { firstError, testSandbox } from './support/app.js';
import { gatedLibraries } from './support/library-gate.js';
import { newShop, shipmentBody, world } from './support/shipments.js';

// The label libraries load with the first registration in the request; here they wait at a gate,
// so a test can act while they load, as a slow first load on a server lets other requests run.

it('never registers a shipment for a shop deleted while the first registration loads its label libraries', async () => {
  const loading = gatedLibraries('labels');
  const sandbox = await testSandbox({ libraries: loading.libraries });
  const w = await world(sandbox);
  const shop = await newShop(sandbox, w);
  const service = w.service('postnl-parcel-standard', 'NL');
  const registering = sandbox.request('POST', '/registered-shipments', {
    token: w.token,
    body: shipmentBody({ shop, service, contract: w.contractFor(service) }),
  });
  await loading.reached;
  // The shop has no shipment yet, so it may go.
  expect((await sandbox.request('DELETE', `/shops/${shop.id}`, { token: w.token })).status).toBe(204);
  loading.release();
  const answer = await registering;
  expect(answer.status).toBe(422);
  expect(firstError(answer).source).toEqual({ pointer: '/data/relationships/shop/data/id' });
  expect(sandbox.store.find('shipments', 'shop_id', shop.id)).toHaveLength(0);
});
