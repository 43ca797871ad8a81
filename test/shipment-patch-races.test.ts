import { describe, expect, it } from 'vitest';
import { resourceKeys, testSandbox, type Json } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

// A PATCH is acknowledged once its change is durable. While it waits for the disk, other requests
// run; the answer must still show the shipment as the PATCH left it, with what it includes.

async function setup() {
  const gated = gatedPersistence();
  const sandbox = await testSandbox({ persistence: gated.persistence });
  const w = await world(sandbox);
  const service = w.service('postnl-parcel-standard', 'NL');
  const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) }));
  const patch = (attributes: Json) =>
    sandbox.request('PATCH', `/shipments/${shipment.id}?include=shipment_status,files`, {
      token: w.token,
      body: { data: { type: 'shipments', id: shipment.id, attributes } },
    });
  return { gated, sandbox, w, shipment, patch };
}

describe('PATCH /shipments/{id} while its write waits for the disk', () => {
  it('answers the shipment with the status it names included, though a DELETE removed it meanwhile', async () => {
    const { gated, sandbox, w, shipment, patch } = await setup();
    const [patched, removed] = await gated.race(
      () => patch({ customer_reference: 'ORDER-5' }),
      () => sandbox.request('DELETE', `/shipments/${shipment.id}`, { token: w.token }),
    );
    expect(removed.status).toBe(204);
    expect(patched.status).toBe(200);
    const { data, included } = patched.body;
    expect(data.attributes.customer_reference).toBe('ORDER-5');
    expect(resourceKeys(included)).toEqual([`shipment-statuses:${data.relationships.shipment_status.data.id}`]);
  });
});
