import { describe, expect, it } from 'vitest';
import { resourceKeys, type Json } from './support/app.js';
import { organizationRemovalRace } from './support/races.js';

// POST and PATCH /contracts are acknowledged once the contract is durable. While one waits for the
// disk, its owner organization is deleted (one without shipments goes, its own contracts with it);
// the answer must still include the organization that owns the contract.

/** The organization race, and the organization's own contract. */
async function setup() {
  const race = await organizationRemovalRace();
  const own = race.w.contracts.find((contract: Json) => contract.relationships.owner.data.type === 'organizations') as Json;
  return { ...race, organizationId: race.organization.id as string, own };
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
