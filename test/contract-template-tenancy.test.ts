import { beforeAll, describe, expect, it } from 'vitest';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';

/*
 * A contract template is seen by every organization of its broker, so a carrier or service a pack
 * gave one tenant cannot be named in the template of a broker other tenants share: that would show
 * it to all of them. POST /contracts/v1/templates answers such an id exactly as an id that exists
 * nowhere, and so does adding such a carrier to a shared broker's offer. A broker the same pack
 * made for the tenant is the tenant's own and may name them.
 */

const json = { 'content-type': 'application/json' };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let sandbox: TestSandbox;
let sharedBrokerId: string;
let postnlId: string;

/** A PostNL service of a tenant's own, as a pack gives one. */
const ownService = (key: string) => ({
  key,
  carrier: 'postnl',
  region_from: 'nl',
  region_to: 'nl',
  zone_from: 'nl',
  zone_to: 'nl',
  name: 'PostNL Own Special',
  code: key,
  package_type: 'parcel',
  handover_method: 'drop-off',
  delivery_method: 'delivery',
  uses_volumetric_weight: false,
  delivery_days: ['Monday'],
  transit_time: { min: 1, max: 1 },
  regions_from: [{ country_code: 'NL' }],
  regions_to: [{ country_code: 'NL' }],
});

const ownBroker = {
  key: 'own-broker',
  name: 'Own Broker',
  domain: 'own.example.com',
  style: { background_color: '#ffffff', foreground_color: '#1f2937', primary_color: '#1d4ed8', secondary_color: '#475569', accent_color: '#f59e0b' },
};

async function tenant(pack: Json): Promise<Json> {
  const made = await sandbox.request('POST', '/_sandbox/tenants', { body: { pack }, headers: json });
  expect(made.status, made.text).toBe(201);
  return made.body;
}

function templateBody(broker: string, carrier: string, services: string[]) {
  return {
    data: {
      type: 'contract-templates',
      attributes: { name: 'Template', currency: 'EUR' },
      relationships: {
        broker: { data: { type: 'brokers', id: broker } },
        carrier: { data: { type: 'carriers', id: carrier } },
        services: { data: services.map((id) => ({ type: 'services', id })) },
      },
    },
  };
}

/** Status and errors of an answer, the id it names written as `<id>`: the same for a tenant-only and an unknown id. */
const shapeOf = (answer: { status: number; body: Json }, id: string) => [answer.status, JSON.stringify(answer.body.errors ?? null).replaceAll(id, '<id>')];
const post = (body: Json) => sandbox.request('POST', '/contracts/v1/templates', { body });

beforeAll(async () => {
  sandbox = await testSandbox();
  const token = await sandbox.token();
  sharedBrokerId = (await sandbox.get('/organizations', token)).body.data[0].relationships.broker.data.id;
  postnlId = (await sandbox.get('/carriers', token)).body.data.find((row: Json) => row.attributes.code === 'postnl').id;
});

describe("a template naming one tenant's pack service or carrier", () => {
  it('of a broker other tenants share: the service is answered as an unknown one, and nothing is stored', async () => {
    const serviceId = (await tenant({ services: [ownService('own-special')] })).keys.services['own-special'];
    const seeded = sandbox.store.find('services', 'carrier_id', postnlId).find((row) => row.organization_id === undefined)!;
    const before = sandbox.store.all('contractTemplates').length;
    const foreign = shapeOf(await post(templateBody(sharedBrokerId, postnlId, [seeded.id, serviceId])), serviceId);
    expect(foreign[0]).toBe(404);
    expect(foreign).toEqual(shapeOf(await post(templateBody(sharedBrokerId, postnlId, [seeded.id, UNKNOWN])), UNKNOWN));
    expect(sandbox.store.all('contractTemplates')).toHaveLength(before);
  });

  it('of a broker other tenants share: the carrier is answered as an unknown one', async () => {
    const keys = (await tenant('failing-carrier')).keys;
    const carrierId = keys.carriers['failing-express'];
    const serviceId = keys.services['failing-express-parcel-nl-nl'];
    const foreign = shapeOf(await post(templateBody(sharedBrokerId, carrierId, [serviceId])), carrierId);
    expect(foreign[0]).toBe(404);
    expect(foreign).toEqual(shapeOf(await post(templateBody(sharedBrokerId, UNKNOWN, [serviceId])), UNKNOWN));
  });

  it("of the broker the tenant's own pack made: taken", async () => {
    const keys = (
      await tenant({
        brokers: [ownBroker],
        organizations: [{ key: 'mine', broker: 'own-broker', country_code: 'NL', name: 'Mine B.V.' }],
        services: [ownService('own-broker-special')],
      })
    ).keys;
    const made = await post(templateBody(keys.brokers['own-broker'], postnlId, [keys.services['own-broker-special']]));
    expect(made.status, made.text).toBe(201);
  });
});

describe("a shared broker's offer of carriers", () => {
  const offer = (broker: string, carrier: string) =>
    sandbox.request('POST', `/brokers/${broker}/relationships/carriers`, { body: { data: [{ type: 'carriers', id: carrier }] } });

  it("answers one tenant's pack carrier as an unknown one, and leaves the offer as it was", async () => {
    const carrierId = (await tenant('failing-carrier')).keys.carriers['failing-express'];
    const before = sandbox.store.get('brokers', sharedBrokerId)!.carrier_ids;
    const foreign = shapeOf(await offer(sharedBrokerId, carrierId), carrierId);
    expect(foreign[0]).toBe(422);
    expect(foreign).toEqual(shapeOf(await offer(sharedBrokerId, UNKNOWN), UNKNOWN));
    expect(sandbox.store.get('brokers', sharedBrokerId)!.carrier_ids).toEqual(before);
  });
});
