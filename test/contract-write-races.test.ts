import { describe, expect, it } from 'vitest';
import { resourceKeys, testSandbox, type Json } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { world } from './support/shipments.js';

// POST and PATCH /contracts are acknowledged once the contract is durable. While one waits for the
// disk, its owner organization is deleted (one without shipments goes, its own contracts with it);
// the answer must still include the organization that owns the contract.

async function setup() {
  const gated = gatedPersistence();
  const sandbox = await testSandbox({ persistence: gated.persistence });
  const w = await world(sandbox);
  const organizationId: string = (await sandbox.get('/organizations', w.token)).body.data[0].id;
  const own = w.contracts.find((contract: Json) => contract.relationships.owner.data.type === 'organizations') as Json;
  /** Runs `write` held at the disk, deletes the organization meanwhile, and answers the write. */
  const raceWithDelete = async (write: () => Promise<Json>) => {
    const [answer, removed] = await gated.race(
      () => write(),
      () => sandbox.request('DELETE', `/organizations/${organizationId}`, { token: w.token }),
    );
    expect(removed.status, removed.text).toBe(204);
    return answer;
  };
  return { sandbox, w, organizationId, own, raceWithDelete };
}

describe('a contract saved while its write waits for the disk', () => {
  it('POST answers the contract with its owner included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, organizationId, own, raceWithDelete } = await setup();
    const created = await raceWithDelete(() =>
      sandbox.request('POST', '/contracts?include=owner', {
        token: w.token,
        body: {
          data: {
            type: 'contracts',
            attributes: { name: 'Own PostNL', currency: 'EUR', credentials: { customer_code: 'RACE', customer_number: '11223344', api_key: 'k'.repeat(32) } },
            relationships: { carrier: own.relationships.carrier, owner: { data: { type: 'organizations', id: organizationId } } },
          },
        },
      }),
    );
    expect(created.status, created.text).toBe(201);
    expect(resourceKeys(created.body.included)).toEqual([`organizations:${organizationId}`]);
  });

  it('PATCH answers the contract with its owner included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, organizationId, own, raceWithDelete } = await setup();
    const changed = await raceWithDelete(() =>
      sandbox.request('PATCH', `/contracts/${own.id}?include=owner`, {
        token: w.token,
        body: { data: { type: 'contracts', id: own.id, attributes: { name: 'Renamed' } } },
      }),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.name).toBe('Renamed');
    expect(resourceKeys(changed.body.included)).toEqual([`organizations:${organizationId}`]);
  });
});
