import { expect } from 'vitest';
import { testSandbox, type Json } from './app.js';
import { gatedPersistence } from './gated.js';
import { world } from './shipments.js';

/**
 * A sandbox whose writes wait at the disk until let go, the default client's world, and a race:
 * `raceWithDelete(write)` runs `write` held at the disk, deletes the client's organization (one
 * without shipments goes, with everything it owns) meanwhile, and answers the write.
 */
export async function organizationRemovalRace() {
  const gated = gatedPersistence();
  const sandbox = await testSandbox({ persistence: gated.persistence });
  const w = await world(sandbox);
  const nl = w.shopIn('NL');
  const organization: Json = nl.relationships.organization.data;
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
