import { describe, expect, it } from 'vitest';
import { firstError, tenantWithToken, testSandbox, type Json } from './support/app.js';

/** Zones: the seeded ones the services ship between, and an organization's own. */

async function setup() {
  const sandbox = await testSandbox();
  const a = await sandbox.token('sandbox-client');
  const b = await sandbox.token('other-client');
  const seeded: Json[] = (await sandbox.get('/zones', a)).body.data;
  return { sandbox, a, b, seeded, byCode: (code: string) => seeded.find((zone) => zone.attributes.code === code)! };
}

const zoneBody = (attributes: Json) => ({ data: { type: 'zones', attributes } });
const benelux = { name: 'Benelux', code: 'BENELUX', description: 'Our home market', country_codes: ['NL', 'BE', 'LU'] };

/** A domestic Dutch parcel service as a fixture pack declares one, starting in the pack's zone `zoneFrom`. */
const packService = (key: string, carrier: string, zoneFrom: string, name: string) => ({
  key,
  carrier,
  region_from: 'nl',
  region_to: 'nl',
  zone_from: zoneFrom,
  zone_to: 'nl',
  name,
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

describe('the seeded zones', () => {
  it('are one per place the services ship from or to, filterable by country and text', async () => {
    const { sandbox, a, seeded } = await setup();
    expect(seeded.map((zone) => zone.attributes.code).sort()).toEqual(['BE', 'DE', 'FR', 'GB', 'GB-NIR', 'NL']);
    expect(seeded.find((zone) => zone.attributes.code === 'GB-NIR').attributes).toMatchObject({
      country_codes: ['GB'],
      postal_code: '^BT[0-9]',
      state_codes: ['NIR'],
    });
    const british = await sandbox.get('/zones?filter[country_code]=GB', a);
    expect(british.body.data.map((zone: Json) => zone.attributes.code).sort()).toEqual(['GB', 'GB-NIR']);
    expect((await sandbox.get('/zones?filter[search]=ireland', a)).body.data).toHaveLength(2);
    expect((await sandbox.get('/zones?filter[search]=nir', a)).body.data.map((zone: Json) => zone.attributes.code)).toEqual(['GB-NIR']);
    expect(firstError(await sandbox.get('/zones?filter[country_code]=XX', a))).toMatchObject({ status: '400', source: { parameter: 'filter[country_code]' } });
  });

  it("are every service's zone_from and zone_to, included on request (with any token, the catalogue's)", async () => {
    const { sandbox, byCode } = await setup();
    const services = await sandbox.read('/services?filter[code]=postnl-parcel-standard&include=zone_from,zone_to');
    expect(services.status, services.text).toBe(200);
    const toBelgium = services.body.data.find((row: Json) => row.attributes.regions_to[0].country_code === 'BE');
    expect(toBelgium.relationships.zone_from.data).toEqual({ type: 'zones', id: byCode('NL').id });
    expect(toBelgium.relationships.zone_to.data).toEqual({ type: 'zones', id: byCode('BE').id });
    expect(toBelgium.relationships.zone_to.links.related).toBe(byCode('BE').links.self);
    expect(services.body.included.map((row: Json) => row.attributes.code).sort()).toEqual(['BE', 'NL']);
    const northernIreland = await sandbox.read(
      '/services?filter[code]=royal-mail-tracked-48&filter[address_to][postal_code]=BT1 5GS&filter[address_to][country_code]=GB',
    );
    expect(northernIreland.body.data.map((row: Json) => row.relationships.zone_to.data.id)).toContain(byCode('GB-NIR').id);
  });

  it('cannot be changed or deleted', async () => {
    const { sandbox, a, byCode } = await setup();
    const nl = byCode('NL');
    expect(
      firstError(
        await sandbox.request('PATCH', `/zones/${nl.id}`, { token: a, body: { data: { type: 'zones', id: nl.id, attributes: { name: 'Holland' } } } }),
      ),
    ).toMatchObject({ status: '403', code: '10013' });
    expect(firstError(await sandbox.request('DELETE', `/zones/${nl.id}`, { token: a }))).toMatchObject({ status: '403', code: '10013' });
    expect(sandbox.store.get('zones', nl.id)?.name).toBe('Netherlands');
  });
});

describe("an organization's own zones", () => {
  it('are created, listed, changed and deleted by their organization, and invisible to others', async () => {
    const { sandbox, a, b } = await setup();
    const created = await sandbox.request('POST', '/zones', { token: a, body: zoneBody({ ...benelux, postal_code: '^[1-9]', created_at: 5 }) });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.attributes).toMatchObject({ ...benelux, postal_code: '^[1-9]' });
    expect(created.body.data.attributes.created_at).not.toBe(5);
    expect((await sandbox.get('/zones?filter[country_code]=LU', a)).body.data.map((zone: Json) => zone.id)).toEqual([id]);
    expect((await sandbox.get(`/zones/${id}`, b)).status).toBe(404);
    expect((await sandbox.get('/zones?filter[country_code]=LU', b)).body.data).toEqual([]);
    expect((await sandbox.request('DELETE', `/zones/${id}`, { token: b })).status).toBe(404);

    const changed = await sandbox.request('PATCH', `/zones/${id}`, {
      token: a,
      body: { data: { type: 'zones', id, attributes: { postal_code: null, country_codes: ['NL', 'BE'] } } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.postal_code).toBeUndefined();
    expect(changed.body.data.attributes.country_codes).toEqual(['NL', 'BE']);
    expect((await sandbox.request('DELETE', `/zones/${id}`, { token: a })).status).toBe(204);
    expect((await sandbox.get(`/zones/${id}`, a)).status).toBe(404);
  });

  it("keeps a zone of the organization's own a service ships from or to (422), and deletes one no service names", async () => {
    const { sandbox } = await setup();
    const pack = {
      carriers: [
        {
          name: 'Home Carrier',
          code: 'home-carrier',
          credentials_format: { type: 'object' },
          label_formats: [{ mime_type: 'application/pdf', size: 'A6' }],
        },
      ],
      zones: [
        { key: 'home', name: 'Home', code: 'HOME', country_codes: ['NL'] },
        { key: 'spare', name: 'Spare', code: 'SPARE', country_codes: ['BE'] },
      ],
      services: [packService('home-parcel', 'home-carrier', 'home', 'Home Parcel')],
      organizations: [{ key: 'home-org', name: 'Home Org', broker: 'broker', country_code: 'NL' }],
      users: [{ key: 'home-user', organization: 'home-org' }],
      clients: [{ id: 'home-client', secret: 'home-secret-home-secret', user: 'home-user' }],
      shops: [{ key: 'home-shop', organization: 'home-org' }],
    };
    const { made, token } = await tenantWithToken(sandbox, { pack });
    const home = made.body.keys.zones.home as string;
    const serviceId = made.body.keys.services['home-parcel'] as string;

    const refused = await sandbox.request('DELETE', `/zones/${home}`, { token });
    expect(refused.status, refused.text).toBe(422);
    expect(firstError(refused)).toMatchObject({ code: '10008', detail: expect.stringContaining('home-parcel') });
    const service = await sandbox.get(`/services/${serviceId}?include=zone_from`, token);
    expect(service.body.data.relationships.zone_from.data.id).toBe(home);
    expect(service.body.included.map((row: Json) => row.id)).toContain(home);

    expect((await sandbox.request('DELETE', `/zones/${made.body.keys.zones.spare}`, { token })).status).toBe(204);
    expect((await sandbox.get(`/zones/${made.body.keys.zones.spare}`, token)).status).toBe(404);
  });

  it("of a pack are seen by every organization of the tenant's group, as the pack's services are, and changed by none of the others", async () => {
    const { sandbox, a } = await setup();
    const pack = {
      zones: [{ key: 'group-home', name: 'Group home', code: 'GROUP-HOME', country_codes: ['NL'] }],
      services: [packService('group-parcel', 'postnl', 'group-home', 'Group Parcel')],
      organizations: [
        { key: 'group-main', name: 'Group Main', broker: 'broker', country_code: 'NL' },
        { key: 'group-member', name: 'Group Member', broker: 'broker', country_code: 'NL' },
      ],
      users: [
        { key: 'main-user', organization: 'group-main' },
        { key: 'member-user', organization: 'group-member' },
      ],
      clients: [
        { id: 'group-main-client', secret: 'group-main-secret-1234', user: 'main-user' },
        { id: 'group-member-client', secret: 'group-member-secret-12', user: 'member-user' },
      ],
      shops: [{ key: 'group-shop', organization: 'group-main' }],
    };
    const { made } = await tenantWithToken(sandbox, { pack });
    const member = made.body.clients.find((row: Json) => row.key === 'group-member-client');
    const token = (
      await sandbox.request('POST', '/access-token', {
        body: { grant_type: 'client_credentials', client_id: member.client_id, client_secret: member.client_secret, scope: '*' },
        headers: { 'content-type': 'application/json' },
      })
    ).body.access_token as string;
    const zoneId = made.body.keys.zones['group-home'] as string;
    const serviceId = made.body.keys.services['group-parcel'] as string;

    // The member sees the service; its zone_from answers, is listed and is included beside it.
    const service = await sandbox.get(`/services/${serviceId}?include=zone_from`, token);
    expect(service.status, service.text).toBe(200);
    expect(service.body.data.relationships.zone_from.data).toEqual({ type: 'zones', id: zoneId });
    expect(service.body.included.map((row: Json) => row.id)).toEqual([zoneId]);
    expect((await sandbox.get(new URL(service.body.data.relationships.zone_from.links.related).pathname, token)).status).toBe(200);
    expect((await sandbox.get('/zones?filter[search]=group-home', token)).body.data.map((row: Json) => row.id)).toEqual([zoneId]);

    // It is the tenant's organization's zone: the member reads it but does not change or delete it.
    const changed = await sandbox.request('PATCH', `/zones/${zoneId}`, { token, body: { data: { type: 'zones', id: zoneId, attributes: { name: 'Mine' } } } });
    expect(changed.status, changed.text).toBe(403);
    expect((await sandbox.request('DELETE', `/zones/${zoneId}`, { token })).status).toBe(403);
    expect(sandbox.store.get('zones', zoneId)?.name).toBe('Group home');

    // Another tenant's organization still does not see it.
    expect((await sandbox.get(`/zones/${zoneId}`, a)).status).toBe(404);
  });

  it('refuses a taken code, a bad pattern, an unknown country and unknown attributes, changing nothing', async () => {
    const { sandbox, a } = await setup();
    const before = sandbox.store.count('zones');
    expect(firstError(await sandbox.request('POST', '/zones', { token: a, body: zoneBody({ ...benelux, code: 'nl' }) }))).toMatchObject({
      status: '422',
      source: { pointer: '/data/attributes/code' },
    });
    expect(firstError(await sandbox.request('POST', '/zones', { token: a, body: zoneBody({ ...benelux, postal_code: '([' }) }))).toMatchObject({
      status: '400',
      source: { pointer: '/data/attributes/postal_code' },
    });
    expect(firstError(await sandbox.request('POST', '/zones', { token: a, body: zoneBody({ ...benelux, country_codes: ['NL', 'QQ'] }) }))).toMatchObject({
      status: '400',
      source: { pointer: '/data/attributes/country_codes/1' },
    });
    expect(firstError(await sandbox.request('POST', '/zones', { token: a, body: zoneBody({ ...benelux, colour: 'red' }) }))).toMatchObject({ status: '400' });
    expect(firstError(await sandbox.request('POST', '/zones', { token: a, body: zoneBody({ ...benelux, country_codes: [] }) }))).toMatchObject({
      status: '400',
      source: { pointer: '/data/attributes/country_codes' },
    });
    expect(sandbox.store.count('zones')).toBe(before);
  });

  it('need organizations.manage', async () => {
    const { sandbox } = await setup();
    const limited = await sandbox.token('limited-client');
    expect(firstError(await sandbox.get('/zones', limited))).toMatchObject({ status: '403', code: '14004' });
  });
});
