import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, dynamicRatesBody, shipmentBody, world, type World } from './support/shipments.js';

/**
 * The bounds production's PhysicalProperties put on a parcel: a volume of at least 0.01 litre,
 * and numbers of at most 2147483647. A request the sandbox took beyond them would be refused by
 * production, so code that worked here would fail there.
 */

let sandbox: TestSandbox;
let w: World;
beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
});

const parcel = (physical_properties: Json) => shipmentBody({ shop: w.shopIn('NL'), attributes: { physical_properties } });

describe('the volume of a shipment', () => {
  it('takes 0.01 litre, the least production takes', async () => {
    const answer = await sandbox.request('POST', '/shipments', { token: w.token, body: parcel({ weight: 500, volume: 0.01 }) });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.attributes.physical_properties.volume).toBe(0.01);
  });

  it.each([0.009, 0.001, 0])('refuses %s litre on POST, as production does', async (volume) => {
    const answer = await sandbox.request('POST', '/shipments', { token: w.token, body: parcel({ weight: 500, volume }) });
    expect(answer.status, answer.text).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '10003', source: { pointer: '/data/attributes/physical_properties/volume' } });
    expect(firstError(answer).detail).toContain('0.01');
  });

  it('refuses it on PATCH too, and the shipment keeps its volume', async () => {
    const made = await createShipment(sandbox, w.token, parcel({ weight: 500, volume: 2 }));
    const body = { data: { type: 'shipments', id: made.id, attributes: { physical_properties: { weight: 500, volume: 0.005 } } } };
    const answer = await sandbox.request('PATCH', `/shipments/${made.id}`, { token: w.token, body });
    expect(answer.status, answer.text).toBe(400);
    expect(firstError(answer).source).toEqual({ pointer: '/data/attributes/physical_properties/volume' });
    const read = await sandbox.get(`/shipments/${made.id}`, w.token);
    expect(read.body.data.attributes.physical_properties.volume).toBe(2);
  });
});

describe('POST /get-dynamic-service-rates', () => {
  const rates = (physical_properties: Json) =>
    sandbox.request('POST', '/get-dynamic-service-rates', { token: w.token, body: dynamicRatesBody(w.shopIn('NL'), physical_properties) });

  it('takes the bounds themselves', async () => {
    const answer = await rates({ weight: 1000, volume: 0.01 });
    expect(answer.status, answer.text).toBe(200);
  });

  it.each([
    ['volume', { weight: 1000, volume: 0.001 }],
    ['weight', { weight: 2147483648 }],
    ['length', { weight: 1000, length: 2147483648 }],
    ['volume', { weight: 1000, volume: 2147483648 }],
  ])('refuses a %s beyond production’s bound', async (member, physical) => {
    const answer = await rates(physical);
    expect(answer.status, answer.text).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '10003', source: { pointer: `/data/attributes/physical_properties/${member}` } });
  });
});
