import { describe, expect, it } from 'vitest';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';
import { world } from './support/shipments.js';

const postnlCredentials = { customer_code: 'SAME', customer_number: '11223344', api_key: 'k'.repeat(32) };

/** The resource as read, its read-only members included: what a client sends back unchanged. */
const asRead = (resource: Json) => ({
  type: resource.type,
  id: resource.id,
  attributes: resource.attributes,
  relationships: Object.fromEntries(Object.entries(resource.relationships ?? {}).map(([name, value]) => [name, { data: (value as Json).data }])),
});

/**
 * Sends `resource` back as read and with `attributes: {}`, each a minute later on the sandbox
 * clock: both answer 200 with the resource as stored, updated_at included; a real change then moves it.
 */
async function expectUnchanged(sandbox: TestSandbox, token: string, path: string, change: Json) {
  // Past the verification of a new contract, which would change what was read.
  await sandbox.advance(600);
  const before = (await sandbox.get(path, token)).body.data;
  for (const data of [asRead(before), { type: before.type, id: before.id, attributes: {} }]) {
    await sandbox.advance(60);
    const answer = await sandbox.request('PATCH', path, { token, body: { data } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.attributes).toEqual(before.attributes);
    expect((await sandbox.get(path, token)).body.data.attributes).toEqual(before.attributes);
  }
  const changed = await sandbox.request('PATCH', path, { token, body: { data: { type: before.type, id: before.id, attributes: change } } });
  expect(changed.body.data.attributes.updated_at).toBeGreaterThan(before.attributes.updated_at);
}

describe('a PATCH that changes nothing', () => {
  it('leaves a carrier surcharge and a contract as stored, updated_at included', async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const postnl = w.service('postnl-parcel-standard', 'NL').relationships.carrier.data;
    const surcharge = await sandbox.request('POST', '/carrier-surcharges', {
      token: w.token,
      body: {
        data: { type: 'carrier-surcharges', attributes: { name: 'Peak', fee: { amount: 150, currency: 'EUR' } }, relationships: { carrier: { data: postnl } } },
      },
    });
    expect(surcharge.status, surcharge.text).toBe(201);
    await expectUnchanged(sandbox, w.token, `/carrier-surcharges/${surcharge.body.data.id}`, { name: 'Peak season' });

    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    const contract = await sandbox.request('POST', '/contracts', {
      token: w.token,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'Own PostNL', currency: 'EUR', credentials: postnlCredentials },
          relationships: { carrier: { data: postnl }, owner: { data: { type: 'organizations', id: organization.id } } },
        },
      },
    });
    expect(contract.status, contract.text).toBe(201);
    await expectUnchanged(sandbox, w.token, `/contracts/${contract.body.data.id}`, { name: 'Own PostNL, renamed' });
  });
});
