import { describe, expect, it } from 'vitest';
import { resourceKeys } from './support/app.js';
import { organizationRemovalRace } from './support/races.js';
import { shopLike } from './support/shipments.js';

// POST and PATCH /shops are acknowledged once the shop is durable. While one waits for the disk,
// its organization is deleted (one without shipments goes, its shops with it); the answer must
// still include the organization the shop was saved in.

describe('a shop saved while its write waits for the disk', () => {
  it('POST answers the shop with its organization included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, nl, organization, raceWithDelete } = await organizationRemovalRace();
    const created = await raceWithDelete(() =>
      sandbox.request('POST', '/shops?include=organization', {
        token: w.token,
        body: shopLike(nl),
      }),
    );
    expect(created.status, created.text).toBe(201);
    expect(resourceKeys(created.body.included)).toEqual([`organizations:${organization.id}`]);
  });

  it('PATCH answers the shop with its organization included, though a DELETE removed both meanwhile', async () => {
    const { sandbox, w, nl, organization, raceWithDelete } = await organizationRemovalRace();
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
