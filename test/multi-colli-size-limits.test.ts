import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { dynamicRatesBody, shipmentBody, world, type World } from './support/shipments.js';

/**
 * A multi-colli shipment is several parcels: the size limits of the rate that carries it bind
 * each collo as they bind a single parcel (sides ranked, `volume_max`, and a longest side above
 * `length_max` only for the rate's oversize surcharge). Before, only the master's weight was held
 * against the rate, and a collo of any size was registered.
 */

let sandbox: TestSandbox;
let w: World;
let rate: Json;

const colloPointer = (index: number, member?: string) => `/meta/colli/${index}/physical_properties${member ? `/${member}` : ''}`;

function body(colli: Json[], service = w.service('postnl-multi-colli', 'NL'), contract = w.contractFor(service)) {
  const made = shipmentBody({ shop: w.shopIn('NL'), service, contract, meta: { colli: colli.map((physical_properties) => ({ physical_properties })) } });
  delete made.data.attributes.physical_properties;
  return made;
}

const post = (payload: Json) => sandbox.request('POST', '/multi-colli-shipments', { token: w.token, body: payload });
const shipmentCount = async () => (await sandbox.get('/shipments?page[size]=1', w.token)).body.meta.total_records;

beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
  const service = w.service('postnl-multi-colli', 'NL');
  const contract = w.contractFor(service);
  // The rate that carries two colli of 2 kg (4 kg together).
  const rates = await sandbox.get(`/service-rates?filter[service]=${service.id}&filter[contract]=${contract.id}&filter[weight]=4000`, w.token);
  [rate] = rates.body.data;
});

describe('the size limits of the rate of a multi-colli shipment', () => {
  it('are there to hold against, without an oversize surcharge', () => {
    const { length_max, width_max, height_max, volume_max, oversize_surcharge } = rate.attributes;
    expect([length_max, width_max, height_max, volume_max].every((limit) => typeof limit === 'number')).toBe(true);
    expect(oversize_surcharge).toBeUndefined();
  });

  it('refuse a collo wider than width_max with a 422 at that collo, and make nothing', async () => {
    const { length_max, width_max } = rate.attributes;
    const before = await shipmentCount();
    const answer = await post(body([{ weight: 2000 }, { weight: 2000, length: length_max - 10, width: width_max + 1, height: 10 }]));
    expect(answer.status, answer.body.errors?.[0]?.detail).toBe(422);
    expect(firstError(answer).code).toBe('10008');
    expect(answer.body.errors.map((error: Json) => error.source.pointer)).toEqual([colloPointer(1, 'width')]);
    expect(firstError(answer).detail).toContain(`width_max of ${width_max} mm`);
    expect(await shipmentCount()).toBe(before);
  });

  it('rank the sides of each collo, name every collo at fault, and take a turned collo that fits', async () => {
    const { length_max, width_max } = rate.attributes;
    const turned = { weight: 2000, length: 10, width: length_max, height: width_max };
    const fits = await post(body([turned, { weight: 2000, length: 100, width: 100, height: 100 }]));
    expect(fits.status, fits.body.errors?.[0]?.detail).toBe(201);
    const long = { weight: 2000, length: 10, width: 10, height: length_max + 1 };
    // Its second-longest side is its length: held against width_max.
    const flat = { weight: 2000, length: width_max + 1, width: width_max + 2, height: 10 };
    const refused = await post(body([long, { weight: 1000 }, flat]));
    expect(refused.status, refused.body.errors?.[0]?.detail).toBe(422);
    expect(refused.body.errors.map((error: Json) => error.source.pointer)).toEqual([colloPointer(0, 'height'), colloPointer(2, 'length')]);
    expect(refused.body.errors[1].detail).toMatch(/^Collo 3: .*second-longest side/);
  });

  it('refuse a collo above volume_max: its volume, or else its sides multiplied', async () => {
    const { volume_max, height_max } = rate.attributes;
    const given = await post(body([{ weight: 2000, volume: volume_max + 1 }, { weight: 2000 }]));
    expect(given.status, given.body.errors?.[0]?.detail).toBe(422);
    expect(given.body.errors.map((error: Json) => error.source.pointer)).toEqual([colloPointer(0, 'volume')]);
    const side = Math.ceil(Math.cbrt(volume_max * 1_000_000)) + 1;
    expect(side).toBeLessThanOrEqual(height_max);
    const cube = await post(body([{ weight: 2000 }, { weight: 2000, length: side, width: side, height: side }]));
    expect(cube.status, cube.body.errors?.[0]?.detail).toBe(422);
    expect(firstError(cube).source.pointer).toBe(colloPointer(1));
    expect(firstError(cube).detail).toContain(`volume_max of ${volume_max} l`);
  });
});

describe('meta.service_code of a multi-colli shipment', () => {
  it('passes over a rate a collo is too large for, and says so naming the colli', async () => {
    const { width_max } = rate.attributes;
    const coded = (colli: Json[]) => {
      const made = body(colli);
      delete made.data.relationships.service;
      delete made.data.relationships.contract;
      made.meta.service_code = 'postnl-multi-colli';
      return made;
    };
    const fits = await post(coded([{ weight: 2000 }, { weight: 2000, length: 100, width: 100, height: 100 }]));
    expect(fits.status, fits.body.errors?.[0]?.detail).toBe(201);
    // Two sides above width_max: however it is turned, its second-longest side is too long.
    const wide = await post(coded([{ weight: 2000 }, { weight: 2000, length: 100, width: width_max + 1, height: width_max + 1 }]));
    expect(wide.status, wide.body.errors?.[0]?.detail).toBe(422);
    expect(firstError(wide).source.pointer).toBe('/meta/service_code');
    expect(firstError(wide).detail).toContain(`in 2 colli: 2000 g; 2000 g, 100 x ${width_max + 1} x ${width_max + 1} mm`);
  });
});

describe('POST /get-dynamic-service-rates with meta.colli', () => {
  it('leaves out a dynamic rate a collo is too large for', async () => {
    const rates = (colli: Json[]) =>
      sandbox.request('POST', '/get-dynamic-service-rates', {
        token: w.token,
        body: dynamicRatesBody(w.shopIn('NL'), { weight: 2000 }, { colli: colli.map((physical_properties) => ({ physical_properties })) }),
      });
    const small = { weight: 1000, length: 100, width: 100, height: 100 };
    const fits = await rates([small, small]);
    expect(fits.status, fits.text).toBe(200);
    const [dynamic] = fits.body.data;
    const { width_max } = sandbox.store.get('serviceRates', dynamic.id) as Json;
    expect(width_max).toBeTypeOf('number');
    const wide = await rates([small, { ...small, width: width_max + 1, height: width_max + 1 }]);
    expect(wide.status, wide.text).toBe(200);
    expect(wide.body.data.map((row: Json) => row.id)).not.toContain(dynamic.id);
  });
});

describe('a multi-colli rate with an oversize surcharge', () => {
  it('takes a collo whose longest side exceeds length_max and charges the surcharge once for each such collo', async () => {
    sandbox = await testSandbox();
    w = await world(sandbox);
    const service = w.service('postnl-multi-colli', 'NL');
    const organizationId: string = (await sandbox.get('/organizations', w.token)).body.data[0].id;
    const made = await sandbox.request('POST', '/contracts', {
      token: w.token,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'Own PostNL', currency: 'EUR', credentials: { customer_code: 'RATE', customer_number: '11223344', api_key: 'k'.repeat(32) } },
          relationships: { carrier: service.relationships.carrier, owner: { data: { type: 'organizations', id: organizationId } } },
        },
      },
    });
    expect(made.status, made.body.errors?.[0]?.detail).toBe(201);
    const contract = made.body.data;
    expect((await sandbox.request('POST', `/contracts/${contract.id}/validate`, { token: w.token })).body.data.valid).toBe(true);
    const limits = { length_max: 1000, width_max: 600, height_max: 600 };
    const rateMade = await sandbox.request('POST', '/service-rates', {
      token: w.token,
      body: {
        data: {
          type: 'service-rates',
          attributes: {
            weight_min: 0,
            weight_max: 30000,
            price: { amount: 2000, currency: 'EUR' },
            oversize_surcharge: { amount: 700, currency: 'EUR' },
            ...limits,
          },
          relationships: { contract: { data: { type: 'contracts', id: contract.id } }, service: { data: { type: 'services', id: service.id } } },
        },
      },
    });
    expect(rateMade.status, rateMade.body.errors?.[0]?.detail).toBe(201);

    const small = { weight: 1000, length: 300, width: 200, height: 100 };
    const long = { weight: 1000, length: 200, width: limits.length_max + 1, height: 100 };
    const plain = await post(body([small, small], service, contract));
    expect(plain.status, plain.body.errors?.[0]?.detail).toBe(201);
    expect(plain.body.data.attributes.price).toEqual({ amount: 2000, currency: 'EUR' });
    const two = await post(body([long, small, long], service, contract));
    expect(two.status, two.body.errors?.[0]?.detail).toBe(201);
    expect(two.body.data.attributes.price).toEqual({ amount: 2000 + 2 * 700, currency: 'EUR' });
    const lines = (await sandbox.get(`/shipments/${two.body.data.id}/surcharges`, w.token)).body.data;
    expect(lines.map((line: Json) => [line.attributes.name, line.attributes.fee.amount])).toEqual([['Oversize surcharge', 1400]]);
    expect(lines[0].attributes.description).toContain('Colli 1, 3');
    // The surcharge carries the length only: a collo wider than width_max is still refused.
    const wide = await post(body([small, { ...small, width: limits.width_max + 1, length: limits.width_max + 2 }], service, contract));
    expect(wide.status, JSON.stringify([wide.body.errors, wide.body.data?.relationships?.service, wide.body.data?.relationships?.colli?.data?.length])).toBe(
      422,
    );
    expect(wide.body.errors.map((error: Json) => error.source.pointer)).toEqual([colloPointer(1, 'width')]);
  });
});
