import { expect, it } from 'vitest';
import { testSandbox, TEST_NOW } from './support/app.js';
import { gatedLibraries } from './support/library-gate.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

// The label libraries load with the first download; here they wait at a gate, so a test can act
// while they load, as a slow first load on a server lets other requests run.

it('never serves the label of a shipment voided while the first download loaded its label libraries', async () => {
  const loading = gatedLibraries('labels');
  const sandbox = await testSandbox({ libraries: loading.libraries });
  const w = await world(sandbox);
  const service = w.service('postnl-parcel-standard', 'NL');
  const body = shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { register_at: TEST_NOW } });
  const created = await createShipment(sandbox, w.token, body);
  // A queued registration makes the label file without drawing it, so the libraries are not loaded yet.
  await sandbox.advance(2);
  const [label] = (await sandbox.get(`/shipments/${created.id}/files`, w.token)).body.data;
  expect(label.attributes.document_type).toBe('label');
  const download = sandbox.request('GET', `/files/${label.id}`, { token: w.token, headers: { accept: 'application/pdf' } });
  await loading.reached;
  expect((await sandbox.request('POST', '/void-shipment', { token: w.token, body: { data: { shipment_id: created.id } } })).status).toBe(204);
  loading.release();
  const answer = await download;
  // Voiding takes the label away: the download that waited finds it gone, as a later one does.
  expect(answer.status).toBe(404);
  expect(answer.body.errors[0]).toMatchObject({ status: '404', code: '10002' });
});
