import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, dynamicRatesBody, shipmentBody, world, type World } from './support/shipments.js';

/**
 * A service rate's size limits (`length_max`, `width_max`, `height_max` in mm, `volume_max` in
 * litres) bind a shipment as its weight range does: a parcel too large for the rate that carries
 * its weight is a 422 at the member, on create and on update. Before, only the weight was held
 * against the rate and any size was taken.
 */

let sandbox: TestSandbox;
let w: World;
let service: Json;
let contract: Json;
let rate: Json;

const pointer = (member: string) => `/data/attributes/physical_properties/${member}`;
const post = (physical: Json) =>
  sandbox.request('POST', '/shipments', {
    token: w.token,
    body: shipmentBody({ shop: w.shopIn('NL'), service, contract, attributes: { physical_properties: physical } }),
  });

beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
  service = w.service('postnl-parcel-standard', 'NL');
  contract = w.contractFor(service);
  const rates = await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[contract]=${contract.id}&filter[weight]=1500`, w.token);
  [rate] = rates.body.data;
});

describe('the size limits of the rate that carries a shipment', () => {
  it('are there to hold against: every limit, and no oversize surcharge', () => {
    const { length_max, width_max, height_max, volume_max, oversize_surcharge } = rate.attributes;
    expect([length_max, width_max, height_max, volume_max].every((limit) => typeof limit === 'number')).toBe(true);
    expect(oversize_surcharge).toBeUndefined();
  });

  it('refuse a parcel wider than width_max with a 422 at its width, where it was taken', async () => {
    const { length_max, width_max } = rate.attributes;
    const answer = await post({ weight: 1500, length: length_max - 10, width: width_max + 1, height: 10 });
    expect(answer.status, answer.text).toBe(422);
    expect(firstError(answer).code).toBe('10008');
    expect(answer.body.errors.map((error: Json) => error.source.pointer)).toEqual([pointer('width')]);
    expect(firstError(answer).detail).toContain(`width_max of ${width_max} mm`);
  });

  it('measure the sides by rank: the shortest side against height_max, and a turned parcel that fits is taken', async () => {
    const { length_max, width_max, height_max } = rate.attributes;
    // Written with its shortest side as the width: the height is the second-longest side.
    const turned = await post({ weight: 1500, length: width_max, width: 10, height: length_max });
    expect(turned.status, turned.text).toBe(201);
    const tall = await post({ weight: 1500, length: 10, width: 20, height: Math.min(length_max, width_max, height_max) + 1 });
    expect(tall.status, tall.text).toBe(201);
    const cube = height_max + 1;
    const refused = await post({ weight: 1500, length: cube + 2, width: cube + 1, height: cube });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.errors.map((error: Json) => error.source.pointer)).toEqual(
      [cube + 2 > length_max && pointer('length'), cube + 1 > width_max && pointer('width'), pointer('height')].filter(Boolean),
    );
  });

  it('refuse a longest side above length_max where the rate has no oversize surcharge', async () => {
    const answer = await post({ weight: 1500, length: rate.attributes.length_max + 1, width: 10, height: 10 });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.errors.map((error: Json) => error.source.pointer)).toEqual([pointer('length')]);
  });

  it('refuse a volume above volume_max: the one given, or else the sides multiplied', async () => {
    const { volume_max } = rate.attributes;
    const given = await post({ weight: 1500, volume: volume_max + 1 });
    expect(given.status, given.text).toBe(422);
    expect(given.body.errors.map((error: Json) => error.source.pointer)).toEqual([pointer('volume')]);
    expect((await post({ weight: 1500, volume: volume_max })).status).toBe(201);
    // Sides within their limits whose product (in litres) is above volume_max.
    const side = Math.ceil(Math.cbrt(volume_max * 1_000_000)) + 1;
    expect(side).toBeLessThanOrEqual(rate.attributes.height_max);
    const sides = await post({ weight: 1500, length: side, width: side, height: side });
    expect(sides.status, sides.text).toBe(422);
    expect(firstError(sides).source.pointer).toBe('/data/attributes/physical_properties');
    expect(firstError(sides).detail).toContain(`volume_max of ${volume_max} l`);
  });

  it('bind an update as they bind a create, and leave the shipment as it was', async () => {
    const shipment = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), service, contract }));
    const wide = { weight: 1500, length: rate.attributes.length_max, width: rate.attributes.width_max + 1, height: 10 };
    const answer = await sandbox.request('PATCH', `/shipments/${shipment.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: shipment.id, attributes: { physical_properties: wide } } },
    });
    expect(answer.status, answer.text).toBe(422);
    expect(firstError(answer).source.pointer).toBe(pointer('width'));
    const after = await sandbox.get(`/shipments/${shipment.id}`, w.token);
    expect(after.body.data.attributes.physical_properties).toEqual(shipment.attributes.physical_properties);
  });
});

describe('meta.service_code', () => {
  it('passes over a service whose rate the parcel is too large for, as over one whose weight range it misses', async () => {
    const body = (physical: Json) =>
      shipmentBody({ shop: w.shopIn('NL'), attributes: { physical_properties: physical }, meta: { service_code: 'postnl-parcel-standard' } });
    const fits = await sandbox.request('POST', '/shipments', { token: w.token, body: body({ weight: 1500, length: 300, width: 200, height: 100 }) });
    expect(fits.status, fits.text).toBe(201);
    expect(fits.body.data.relationships.service.data.id).toBe(service.id);
    // POST /shipments keeps a code it cannot resolve, as production documents, and says why.
    const wide = { weight: 1500, length: rate.attributes.length_max, width: rate.attributes.width_max + 1, height: 10 };
    const kept = await sandbox.request('POST', '/shipments', { token: w.token, body: body(wide) });
    expect(kept.status, kept.text).toBe(201);
    expect(kept.body.data.relationships.service).toBeUndefined();
    expect(kept.body.meta.warnings.map((warning: Json) => warning.code)).toEqual(['service-code-not-resolved']);
    expect(kept.body.meta.warnings[0].detail).toContain(`${wide.length} x ${wide.width} x ${wide.height} mm`);
  });
});

describe('POST /get-dynamic-service-rates', () => {
  it('leaves out a dynamic rate the parcel is too large for', async () => {
    const rates = (physical_properties: Json) =>
      sandbox.request('POST', '/get-dynamic-service-rates', { token: w.token, body: dynamicRatesBody(w.shopIn('NL'), physical_properties) });
    const fits = await rates({ weight: 1000, length: 100, width: 100, height: 100 });
    expect(fits.status, fits.text).toBe(200);
    const [dynamic] = fits.body.data;
    const stored = sandbox.store.get('serviceRates', dynamic.id) as Json;
    expect(stored.width_max).toBeTypeOf('number');
    const wide = await rates({ weight: 1000, length: 100, width: stored.width_max + 1, height: stored.width_max + 1 });
    expect(wide.status, wide.text).toBe(200);
    expect(wide.body.data.map((row: Json) => row.id)).not.toContain(dynamic.id);
  });
});
