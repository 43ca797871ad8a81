import { expect, it } from 'vitest';
import { testSandbox, TEST_NOW } from './support/app.js';
import { gatedLibraries } from './support/library-gate.js';
import { carrierSetup } from './support/collections.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

// As in label-download-races.test.ts: the PDF libraries load with the first download and wait
// at a gate here, so a test can act while they load.

it('never serves the manifest of an organization reset while the first download loaded the PDF libraries', async () => {
  const loading = gatedLibraries('labels');
  const sandbox = await testSandbox({ libraries: loading.libraries });
  const w = await world(sandbox);
  const nl = carrierSetup(w, 'NL', 'postnl-parcel-standard');
  const shipment = await createShipment(
    sandbox,
    w.token,
    shipmentBody({ shop: nl.shop, recipient: recipients.NL, service: nl.service, contract: nl.contract, attributes: { register_at: TEST_NOW } }),
  );
  // Registered on the clock without drawing its label, so the libraries are not loaded yet.
  await sandbox.advance(5);
  const made = await sandbox.request('POST', '/manifests', {
    token: w.token,
    body: {
      data: {
        type: 'manifests',
        attributes: { name: 'Evening run', address: nl.shop.attributes.sender_address },
        relationships: { shipments: { data: [{ type: 'shipments', id: shipment.id }] } },
      },
    },
  });
  expect(made.status, made.text).toBe(201);
  const [file] = (await sandbox.get(`/manifests/${made.body.data.id}?include=files`, w.token)).body.included;
  const download = sandbox.request('GET', `/files/${file.id}`, { token: w.token, headers: { accept: 'application/pdf' } });
  await loading.reached;
  // The organization's own reset takes the manifest (made after the seed) away.
  const reset = await sandbox.request('POST', '/_sandbox/reset', { token: w.token, body: {} });
  expect(reset.status, reset.text).toBe(200);
  expect(sandbox.store.get('manifests', made.body.data.id)).toBeUndefined();
  loading.release();
  const answer = await download;
  expect(answer.status, answer.text).toBe(404);
  expect(answer.body.errors[0]).toMatchObject({ status: '404', code: '10002' });
});
