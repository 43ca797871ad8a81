import { describe, expect, it } from 'vitest';
import { resourceKeys, testSandbox, type Json } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

// The shared create and update of write-endpoints.ts, through shipment surcharges (?include=shipment):
// while a write waits for the disk, a DELETE of the shipment runs. The answer must still show the
// surcharge as its own write left it, with the shipment it names included.

async function setup() {
  const gated = gatedPersistence();
  const sandbox = await testSandbox({ persistence: gated.persistence });
  const w = await world(sandbox);
  const service = w.service('postnl-parcel-standard', 'NL');
  const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) }));
  const surcharge = (attributes: Json, id?: string) => ({
    data: {
      type: 'shipment-surcharges',
      ...(id ? { id } : {}),
      attributes,
      relationships: { shipment: { data: { type: 'shipments', id: shipment.id } } },
    },
  });
  /** Runs `write` held at the disk, deletes the shipment meanwhile, and answers both. */
  const raceWithDelete = async (write: () => Promise<Json>) => {
    const [answer, removed] = await gated.race(
      () => write(),
      () => sandbox.request('DELETE', `/shipments/${shipment.id}`, { token: w.token }),
    );
    expect(removed.status).toBe(204);
    return answer;
  };
  return { sandbox, w, shipment, surcharge, raceWithDelete };
}

describe('a write of the shared write endpoints while it waits for the disk', () => {
  it('POST answers the new surcharge with its shipment included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, shipment, surcharge, raceWithDelete } = await setup();
    const created = await raceWithDelete(() =>
      sandbox.request('POST', '/shipment-surcharges?include=shipment', {
        token: w.token,
        body: surcharge({ name: 'Remote area', fee: { amount: 750, currency: 'EUR' } }),
      }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.relationships.shipment.data).toEqual({ type: 'shipments', id: shipment.id });
    expect(resourceKeys(created.body.included)).toEqual([`shipments:${shipment.id}`]);
  });

  it('PATCH answers the changed surcharge with its shipment included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, shipment, surcharge, raceWithDelete } = await setup();
    const made = await sandbox.request('POST', '/shipment-surcharges', {
      token: w.token,
      body: surcharge({ name: 'Remote area', fee: { amount: 750, currency: 'EUR' } }),
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    const changed = await raceWithDelete(() =>
      sandbox.request('PATCH', `/shipment-surcharges/${id}?include=shipment`, { token: w.token, body: surcharge({ name: 'Island' }, id) }),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.name).toBe('Island');
    expect(resourceKeys(changed.body.included)).toEqual([`shipments:${shipment.id}`]);
  });
});
