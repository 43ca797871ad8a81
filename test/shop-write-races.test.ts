import { describe, expect, it } from 'vitest';
import { resourceKeys, testSandbox, type Json } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { world } from './support/shipments.js';

// POST and PATCH /shops are acknowledged once the shop is durable. While one waits for the disk,
// its organization is deleted (one without shipments goes, its shops with it); the answer must
// still include the organization the shop was saved in.

async function setup() {
  const gated = gatedPersistence();
  const sandbox = await testSandbox({ persistence: gated.persistence });
  const w = await world(sandbox);
  const nl = w.shopIn('NL');
  const organization: Json = nl.relationships.organization.data;
  /** Runs `write` held at the disk, deletes the organization meanwhile, and answers the write. */
  const raceWithDelete = async (write: () => Promise<Json>) => {
    const [answer, removed] = await gated.race(
      () => write(),
      () => sandbox.request('DELETE', `/organizations/${organization.id}`, { token: w.token }),
    );
    expect(removed.status, removed.text).toBe(204);
    return answer;
  };
  return { sandbox, w, nl, organization, raceWithDelete };
}

describe('a shop saved while its write waits for the disk', () => {
  it('POST answers the shop with its organization included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, nl, organization, raceWithDelete } = await setup();
    const created = await raceWithDelete(() =>
      sandbox.request('POST', '/shops?include=organization', {
        token: w.token,
        body: {
          data: {
            type: 'shops',
            attributes: { name: 'Pop-up store', sender_address: nl.attributes.sender_address, return_address: nl.attributes.return_address },
            relationships: { organization: { data: organization } },
          },
        },
      }),
    );
    expect(created.status, created.text).toBe(201);
    expect(resourceKeys(created.body.included)).toEqual([`organizations:${organization.id}`]);
  });

  it('PATCH answers the shop with its organization included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, nl, organization, raceWithDelete } = await setup();
    const changed = await raceWithDelete(() =>
      sandbox.request('PATCH', `/shops/${nl.id}?include=organization`, {
        token: w.token,
        body: { data: { type: 'shops', id: nl.id, attributes: { name: 'Renamed' }, relationships: { organization: { data: organization } } } },
      }),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.name).toBe('Renamed');
    expect(resourceKeys(changed.body.included)).toEqual([`organizations:${organization.id}`]);
  });
});
