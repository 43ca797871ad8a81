import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { recipients, shipmentBody, world, type World } from './support/shipments.js';

/*
 * Some services serve only part of a country: the catalogue narrows their regions by a state code
 * (Evri's Northern Ireland service) or a postal code pattern (Royal Mail's BT postcodes). A
 * catalogue filter that leaves a part out is not narrowed by it, but a shipment's address is
 * where the parcel goes: it must show the part the service is limited to.
 */
let sandbox: TestSandbox;
let w: World;
beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
});

const london = recipients.GB;
const belfast = { ...recipients.GB, street_1: 'Donegall Place', postal_code: 'BT1 5GS', city: 'Belfast' };
const gbSender = { street_1: 'Oxford Street', street_number: 10, postal_code: 'W1D 1AN', city: 'London', country_code: 'GB' };

/** The service with `code` whose destination rules narrow GB by the given part. */
const narrowedBy = (code: string, part: 'state_code' | 'postal_code'): Json => {
  const found = w.services.find((s: Json) => s.attributes.code === code && s.attributes.regions_to.some((rule: Json) => rule[part]));
  if (!found) throw new Error(`fixture has no ${code} narrowed by ${part}`);
  return found;
};

const create = (service: Json, recipient: Json) =>
  sandbox.request('POST', '/shipments', {
    token: w.token,
    body: shipmentBody({
      shop: w.shopIn('NL'),
      recipient,
      service,
      contract: w.contractFor(service),
      attributes: { sender_address: gbSender, return_address: gbSender, physical_properties: { weight: 500 } },
    }),
  });

describe('a shipment on a service that serves part of a country', () => {
  it('is refused when the recipient address leaves out the state the service is limited to, and says which', async () => {
    const northernIreland = narrowedBy('evri-parcelshop-to-door', 'state_code');
    const refused = await create(northernIreland, london);
    expect(refused.status, refused.text).toBe(422);
    expect(firstError(refused)).toMatchObject({ code: '10008', source: { pointer: '/data/relationships/service/data/id' } });
    expect(firstError(refused).detail).toContain('state_code NIR');
    expect(firstError(refused).detail).toContain('recipient address has no state_code');

    const taken = await create(northernIreland, { ...belfast, state_code: 'NIR' });
    expect(taken.status, taken.text).toBe(201);
    expect(taken.body.data.relationships.service.data.id).toBe(northernIreland.id);
  });

  it('names the postal code pattern a refused recipient postal code misses', async () => {
    const btOnly = narrowedBy('royal-mail-tracked-48', 'postal_code');
    const refused = await create(btOnly, london);
    expect(refused.status, refused.text).toBe(422);
    expect(firstError(refused).detail).toContain(`postal codes matching ${btOnly.attributes.regions_to[0].postal_code}`);
    expect(firstError(refused).detail).toContain('postal code NW1 6XE');
    expect((await create(btOnly, belfast)).status).toBe(201);
  });

  it('blames the part of a changed recipient address the service leaves out', async () => {
    for (const [service, inside, part] of [
      [narrowedBy('evri-parcelshop-to-door', 'state_code'), { ...belfast, state_code: 'NIR' }, 'state_code'],
      [narrowedBy('royal-mail-tracked-48', 'postal_code'), belfast, 'postal_code'],
    ] as const) {
      const made = await create(service, inside);
      expect(made.status, made.text).toBe(201);
      const id = made.body.data.id;
      const moved = await sandbox.request('PATCH', `/shipments/${id}`, {
        token: w.token,
        body: { data: { type: 'shipments', id, attributes: { recipient_address: london } } },
      });
      expect(moved.status, moved.text).toBe(422);
      expect(firstError(moved).source).toEqual({ pointer: `/data/attributes/recipient_address/${part}` });
    }
  });
});
