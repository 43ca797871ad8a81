import { describe, expect, it } from 'vitest';
import { resourceKeys, testSandbox, type Json } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { world } from './support/shipments.js';

// POST and PATCH /service-rates are acknowledged once the rate is durable. While one waits for the
// disk, a DELETE of its own contract runs (an unused contract goes, its rates with it); the answer
// must still include the contract the rate was saved on.

const postnlCredentials = { customer_code: 'RATE', customer_number: '11223344', api_key: 'k'.repeat(32) };

async function setup() {
  const gated = gatedPersistence();
  const sandbox = await testSandbox({ persistence: gated.persistence });
  const w = await world(sandbox);
  const organizationId: string = (await sandbox.get('/organizations', w.token)).body.data[0].id;
  const service = w.service('postnl-parcel-standard', 'NL');
  const created = await sandbox.request('POST', '/contracts', {
    token: w.token,
    body: {
      data: {
        type: 'contracts',
        attributes: { name: 'Own PostNL', currency: 'EUR', credentials: postnlCredentials },
        relationships: {
          carrier: { data: { type: 'carriers', id: service.relationships.carrier.data.id } },
          owner: { data: { type: 'organizations', id: organizationId } },
        },
      },
    },
  });
  expect(created.status, created.text).toBe(201);
  const contract: Json = created.body.data;
  const rate = (attributes: Json, id?: string) => ({
    data: {
      type: 'service-rates',
      ...(id ? { id } : {}),
      attributes,
      relationships: { contract: { data: { type: 'contracts', id: contract.id } }, service: { data: { type: 'services', id: service.id } } },
    },
  });
  /** Runs `write` held at the disk, deletes the contract meanwhile, and answers the write. */
  const raceWithDelete = async (write: () => Promise<Json>) => {
    const [answer, removed] = await gated.race(
      () => write(),
      () => sandbox.request('DELETE', `/contracts/${contract.id}`, { token: w.token }),
    );
    expect(removed.status, removed.text).toBe(204);
    return answer;
  };
  return { sandbox, w, contract, rate, raceWithDelete };
}

const price = { weight_min: 0, weight_max: 10000, price: { amount: 333, currency: 'EUR' } };

describe('a service rate saved while its write waits for the disk', () => {
  it('POST answers the rate with its contract included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, contract, rate, raceWithDelete } = await setup();
    const created = await raceWithDelete(() => sandbox.request('POST', '/service-rates?include=contract', { token: w.token, body: rate(price) }));
    expect(created.status, created.text).toBe(201);
    expect(resourceKeys(created.body.included)).toEqual([`contracts:${contract.id}`]);
  });

  it('PATCH answers the rate with its contract included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, contract, rate, raceWithDelete } = await setup();
    const made = await sandbox.request('POST', '/service-rates', { token: w.token, body: rate(price) });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    const changed = await raceWithDelete(() =>
      sandbox.request('PATCH', `/service-rates/${id}?include=contract`, { token: w.token, body: rate({ price: { amount: 444, currency: 'EUR' } }, id) }),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.price).toEqual({ amount: 444, currency: 'EUR' });
    expect(resourceKeys(changed.body.included)).toEqual([`contracts:${contract.id}`]);
  });
});
