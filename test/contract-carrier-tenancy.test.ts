import { beforeAll, describe, expect, it } from 'vitest';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';

/*
 * A carrier (and its services) that a pack gave one tenant is that tenant's alone: to every other
 * organization it is unknown, on the writes of contracts, rates and surcharges as on reads.
 * Each answer for the foreign id must read exactly as the answer for an id that exists nowhere.
 */

const json = { 'content-type': 'application/json' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let sandbox: TestSandbox;
let token: string;
let organizationId: string;
let brokerId: string;
let carrierId: string;
let serviceId: string;
let ownContractId: string;
let ownerToken: string;

beforeAll(async () => {
  sandbox = await testSandbox();
  const made = await sandbox.request('POST', '/_sandbox/tenants', { body: { pack: 'failing-carrier' }, headers: json });
  expect(made.status, made.text).toBe(201);
  carrierId = made.body.keys.carriers['failing-express'];
  serviceId = made.body.keys.services['failing-express-parcel-nl-nl'];
  const owner = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: made.body.client_id, client_secret: made.body.client_secret, scope: '*' },
    headers: json,
  });
  ownerToken = owner.body.access_token;
  token = await sandbox.token();
  const organization = (await sandbox.get('/organizations', token)).body.data[0];
  organizationId = organization.id;
  brokerId = organization.relationships.broker.data.id;
  const postnl = (await sandbox.get('/carriers', token)).body.data.find((row: Json) => row.attributes.code === 'postnl');
  const created = await sandbox.request('POST', '/contracts', { token, body: contractBody(postnl.id) });
  expect(created.status, created.text).toBe(201);
  ownContractId = created.body.data.id;
});

function contractBody(carrier: string) {
  return {
    data: {
      type: 'contracts',
      attributes: { name: 'Mine', currency: 'EUR', credentials: {} },
      relationships: { carrier: { data: { type: 'carriers', id: carrier } }, owner: { data: { type: 'organizations', id: organizationId } } },
    },
  };
}

/** Status and errors of an answer, the id it names written as `<id>`: the same for a foreign and an unknown id. */
const shapeOf = (answer: { status: number; body: Json }, id: string) => [answer.status, JSON.stringify(answer.body.errors ?? null).replaceAll(id, '<id>')];

describe("another tenant's pack carrier", () => {
  it('is an unknown carrier to POST /contracts, and nothing is stored', async () => {
    const asked = async (id: string) => shapeOf(await sandbox.request('POST', '/contracts', { token, body: contractBody(id) }), id);
    const foreign = await asked(carrierId);
    expect(foreign[0]).toBe(422);
    expect(foreign).toEqual(await asked(UNKNOWN));
    expect(sandbox.store.find('contracts', 'carrier_id', carrierId).filter((row) => row.owner.id === organizationId)).toEqual([]);
  });

  it('has no contracts to list (404) and is not among the carriers the broker offers', async () => {
    const listed = async (id: string) => shapeOf(await sandbox.get(`/carriers/${id}/contracts`, token), id);
    expect(await listed(carrierId)).toEqual(await listed(UNKNOWN));
    expect((await listed(carrierId))[0]).toBe(404);
    const offered = (await sandbox.get(`/brokers/${brokerId}/carriers?page[size]=100`, token)).body.data.map((row: Json) => row.id);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered).not.toContain(carrierId);
  });

  it('is an unknown carrier to POST /carrier-surcharges, its name untold', async () => {
    const asked = async (id: string) =>
      shapeOf(
        await sandbox.request('POST', '/carrier-surcharges', {
          token,
          body: {
            data: {
              type: 'carrier-surcharges',
              attributes: { name: 'Fee', fee: { amount: 100, currency: 'EUR' } },
              relationships: { carrier: { data: { type: 'carriers', id } } },
            },
          },
        }),
        id,
      );
    const foreign = await asked(carrierId);
    expect(foreign[0]).toBe(422);
    expect(foreign).toEqual(await asked(UNKNOWN));
  });

  it('gives its service to no rate of an own contract: POST /service-rates answers as for an unknown service', async () => {
    const asked = async (id: string) =>
      shapeOf(
        await sandbox.request('POST', '/service-rates', {
          token,
          body: {
            data: {
              type: 'service-rates',
              attributes: { weight_min: 0, weight_max: 1000, price: { amount: 100, currency: 'EUR' } },
              relationships: { contract: { data: { type: 'contracts', id: ownContractId } }, service: { data: { type: 'services', id } } },
            },
          },
        }),
        id,
      );
    const foreign = await asked(serviceId);
    expect(foreign[0]).toBe(422);
    expect(foreign).toEqual(await asked(UNKNOWN));
  });

  it('has no pick-up/drop-off locations to search or look up: both answer as for an unknown carrier', async () => {
    // Its own tenant finds them, so the other tenant's 404 is the carrier's tenancy, not an empty map.
    const mine = await sandbox.get(`/carriers/${carrierId}/pickup-dropoff-locations/NL/1012AB`, ownerToken);
    expect(mine.status, mine.text).toBe(200);
    const locationId: string = mine.body.data[0].id;
    // The pack's carrier cannot look locations up by id (pudo.can_get_pudo_by_id false): its owner is told so, not that the carrier is unknown.
    const ownLookup = await sandbox.get(`/carriers/${carrierId}/pickup-dropoff-locations/${locationId}`, ownerToken);
    expect(ownLookup.status, ownLookup.text).toBe(404);
    expect(ownLookup.body.errors[0].detail).toContain('can_get_pudo_by_id is false');

    const searched = async (id: string) => shapeOf(await sandbox.get(`/carriers/${id}/pickup-dropoff-locations/NL/1012AB`, token), id);
    expect(await searched(carrierId)).toEqual(await searched(UNKNOWN));
    expect((await searched(carrierId))[0]).toBe(404);
    const lookedUp = async (id: string) => shapeOf(await sandbox.get(`/carriers/${id}/pickup-dropoff-locations/${locationId}`, token), id);
    expect(await lookedUp(carrierId)).toEqual(await lookedUp(UNKNOWN));
    expect((await lookedUp(carrierId))[0]).toBe(404);
  });
});
