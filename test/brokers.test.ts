import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json } from './support/app.js';
import { pngLogo } from './support/matrix.js';

/** Brokers, the carriers they offer and their contract templates: changed with the admin token only. */

const ADMIN = 'broker-admin-token';
const STYLE = { background_color: '#ffffff', foreground_color: '#000000', primary_color: '#123456', secondary_color: '#654321', accent_color: '#abcdef' };

async function setup() {
  const sandbox = await testSandbox({ config: { adminToken: ADMIN } });
  const a = await sandbox.token('sandbox-client');
  const broker: Json = (await sandbox.get('/brokers', a)).body.data[0];
  const carriers: Json[] = (await sandbox.read('/carriers')).body.data;
  const carrier = (code: string) => carriers.find((row) => row.attributes.code === code)!;
  const organizationId: string = (await sandbox.get('/organizations', a)).body.data[0].id;
  return { sandbox, a, broker, carrier, organizationId };
}

const brokerBody = (attributes: Json) => ({
  data: { type: 'brokers', attributes, relationships: { enterprise: { data: { type: 'enterprises', id: '11111111-2222-4333-8444-555555555555' } } } },
});

describe('POST and PATCH /brokers', () => {
  it('creates a broker with an uploaded logo (admin token); a tenant is refused', async () => {
    const { sandbox, a } = await setup();
    const body = brokerBody({ name: 'Second Broker', favicon_url: 'https://b2.example.com/favicon.ico', style: STYLE, logo: pngLogo(), domain: null });
    expect(firstError(await sandbox.request('POST', '/brokers', { token: a, body }))).toMatchObject({ status: '403', code: '10013' });
    const created = await sandbox.request('POST', '/brokers', { token: ADMIN, body });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.attributes).toMatchObject({
      name: 'Second Broker',
      favicon_url: 'https://b2.example.com/favicon.ico',
      style: STYLE,
      domain: null,
    });
    expect(created.body.data.relationships.enterprise.data.id).toBe('11111111-2222-4333-8444-555555555555');
    const logo = await sandbox.app.request(created.body.data.attributes.logo_url);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
  });

  it('keeps an uploaded logo when the broker is sent back as it was read, and replaces it for another logo_url', async () => {
    const { sandbox, a, broker } = await setup();
    const patch = (attributes: Json) =>
      sandbox.request('PATCH', `/brokers/${broker.id}`, {
        token: ADMIN,
        body: { data: { type: 'brokers', id: broker.id, attributes, relationships: broker.relationships } },
      });
    // Production's Image is closed: a member it does not know is refused, not dropped (it was a silent 200).
    const misspelt = await patch({ logo: { ...pngLogo(), mimetype: 'image/png' } });
    expect(firstError(misspelt)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/logo/mimetype' } });
    const uploaded = await patch({ logo: pngLogo() });
    expect(uploaded.status, uploaded.text).toBe(200);
    const logoUrl: string = uploaded.body.data.attributes.logo_url;

    const read = (await sandbox.get(`/brokers/${broker.id}`, a)).body.data.attributes;
    const resent = await patch({ ...read, name: 'Renamed Broker' });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.body.data.attributes).toMatchObject({ name: 'Renamed Broker', logo_url: logoUrl });
    expect((await sandbox.app.request(logoUrl)).status).toBe(200);

    const replaced = await patch({ logo_url: 'https://broker.example.com/new-logo.png' });
    expect(replaced.body.data.attributes.logo_url).toBe('https://broker.example.com/new-logo.png');
    expect((await sandbox.app.request(logoUrl)).status).toBe(404);
  });

  it('needs a logo or logo_url, and the whole style', async () => {
    const { sandbox } = await setup();
    const noLogo = await sandbox.request('POST', '/brokers', { token: ADMIN, body: brokerBody({ name: 'X', favicon_url: 'f', style: STYLE }) });
    expect(firstError(noLogo)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/logo_url' } });
    const { accent_color: _gone, ...partial } = STYLE;
    const noAccent = await sandbox.request('POST', '/brokers', {
      token: ADMIN,
      body: brokerBody({ name: 'X', favicon_url: 'f', logo_url: 'l', style: partial }),
    });
    expect(firstError(noAccent)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/style/accent_color' } });
  });

  it('changes a broker with the admin token; a tenant may not, and sees no other broker', async () => {
    const { sandbox, a, broker } = await setup();
    const patch = { data: { type: 'brokers', id: broker.id, attributes: { support_url: null, name: 'Renamed Broker' }, relationships: broker.relationships } };
    expect(firstError(await sandbox.request('PATCH', `/brokers/${broker.id}`, { token: a, body: patch }))).toMatchObject({ status: '403', code: '10013' });
    const changed = await sandbox.request('PATCH', `/brokers/${broker.id}`, { token: ADMIN, body: patch });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.name).toBe('Renamed Broker');
    expect(changed.body.data.attributes.support_url).toBeUndefined();
    // An enterprise sent as `{"data": null}` is none: refused (it was a silent 200).
    const cleared = await sandbox.request('PATCH', `/brokers/${broker.id}`, {
      token: ADMIN,
      body: { data: { ...patch.data, attributes: { name: 'Not kept' }, relationships: { enterprise: { data: null } } } },
    });
    expect(firstError(cleared)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/relationships/enterprise' } });
    expect((await sandbox.get(`/brokers/${broker.id}`, a)).body.data.attributes.name).toBe('Renamed Broker');
    const other = await sandbox.request('POST', '/brokers', {
      token: ADMIN,
      body: brokerBody({ name: 'Other', favicon_url: 'f', logo_url: 'l', style: STYLE }),
    });
    expect((await sandbox.get(`/brokers/${other.body.data.id}`, a)).status).toBe(404);
    expect((await sandbox.get(`/brokers/${other.body.data.id}/carriers`, a)).status).toBe(404);
  });
});

describe("a broker's carriers", () => {
  it('lists every carrier until the broker narrows its offer; own contracts need an offered carrier', async () => {
    const { sandbox, a, broker, carrier, organizationId } = await setup();
    const path = `/brokers/${broker.id}/carriers`;
    expect((await sandbox.get(`${path}?page[size]=100`, a)).body.data).toHaveLength(6);
    const dpd = carrier('dpd');
    const removed = await sandbox.request('DELETE', `/brokers/${broker.id}/relationships/carriers`, {
      token: ADMIN,
      body: { data: [{ type: 'carriers', id: dpd.id }] },
    });
    expect(removed.status, removed.text).toBe(204);
    const listed = (await sandbox.get(`${path}?page[size]=100`, a)).body.data.map((row: Json) => row.attributes.code);
    expect(listed).toHaveLength(5);
    expect(listed).not.toContain('dpd');
    const contract = {
      data: {
        type: 'contracts',
        attributes: { name: 'Own DPD', currency: 'EUR', credentials: { delis_id: 'x', password: 'y', depot: '0163' } },
        relationships: { carrier: { data: { type: 'carriers', id: dpd.id } }, owner: { data: { type: 'organizations', id: organizationId } } },
      },
    };
    expect(firstError(await sandbox.request('POST', '/contracts', { token: a, body: contract }))).toMatchObject({
      status: '422',
      source: { pointer: '/data/relationships/carrier/data/id' },
    });
    expect(
      (await sandbox.request('POST', `/brokers/${broker.id}/relationships/carriers`, { token: ADMIN, body: { data: [{ type: 'carriers', id: dpd.id }] } }))
        .status,
    ).toBe(204);
    expect((await sandbox.request('POST', '/contracts', { token: a, body: contract })).status).toBe(201);
  });

  it('refuses an unknown carrier with a pointer and changes nothing; a tenant may not change the offer', async () => {
    const { sandbox, a, broker, carrier } = await setup();
    const before = sandbox.store.snapshot();
    const unknown = await sandbox.request('POST', `/brokers/${broker.id}/relationships/carriers`, {
      token: ADMIN,
      body: {
        data: [
          { type: 'carriers', id: carrier('dpd').id },
          { type: 'carriers', id: '00000000-0000-4000-8000-000000000000' },
        ],
      },
    });
    expect(firstError(unknown)).toMatchObject({ status: '422', source: { pointer: '/data/1/id' } });
    const tenant = await sandbox.request('DELETE', `/brokers/${broker.id}/relationships/carriers`, {
      token: a,
      body: { data: [{ type: 'carriers', id: carrier('dpd').id }] },
    });
    expect(firstError(tenant)).toMatchObject({ status: '403', code: '10013' });
    expect(sandbox.store.snapshot()).toEqual(before);
  });
});

describe('contract templates', () => {
  it("lists the broker's templates, with filters and includes, and contracts name theirs", async () => {
    const { sandbox, a, carrier } = await setup();
    const list = await sandbox.get('/contracts/v1/templates?include=carrier,services,broker', a);
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toHaveLength(6);
    const postnl = list.body.data.find((row: Json) => row.relationships.carrier.data.id === carrier('postnl').id);
    expect(postnl.attributes).toMatchObject({ currency: 'EUR', countries_from: ['NL'] });
    expect(list.body.included.map((row: Json) => row.type)).toEqual(expect.arrayContaining(['carriers', 'services', 'brokers']));
    const fromBelgium = await sandbox.get('/contracts/v1/templates?filter[countries_from]=BE', a);
    expect(fromBelgium.body.data.map((row: Json) => row.attributes.name).sort()).toEqual(['DPD Classic and Pickup', 'bpost']);
    // A code that can match nothing is a mistake to name, not an empty list.
    for (const code of ['be', 'XX']) {
      const wrong = await sandbox.get(`/contracts/v1/templates?filter[countries_from]=BE,${code}`, a);
      expect([wrong.status, wrong.body.errors?.[0].source], code).toEqual([400, { parameter: 'filter[countries_from]' }]);
    }
    const byCarrier = await sandbox.get(`/contracts/v1/templates?filter[carrier]=${carrier('evri').id}`, a);
    expect(byCarrier.body.data).toHaveLength(1);
    const contracts = await sandbox.get(`/contracts?filter[carrier]=${carrier('postnl').id}&include=contract_template`, a);
    const shared = contracts.body.data.find((row: Json) => row.relationships.owner.data.type === 'brokers');
    expect(shared.relationships.contract_template.data).toEqual({ type: 'contract-templates', id: postnl.id });
    expect(contracts.body.included.map((row: Json) => row.id)).toContain(postnl.id);
    expect((await sandbox.get(`/contracts/v1/templates/${postnl.id}?include=services`, a)).body.included.length).toBe(
      postnl.relationships.services.data.length,
    );
  });

  it('creates and deletes templates with the admin token; services must be of the carrier', async () => {
    const { sandbox, a, broker, carrier } = await setup();
    const services: Json[] = (await sandbox.get(`/services?filter[carrier]=${carrier('bpost').id}`, a)).body.data;
    const dpdService: Json = (await sandbox.get(`/services?filter[carrier]=${carrier('dpd').id}`, a)).body.data[0];
    const body = (serviceIds: string[]) => ({
      data: {
        type: 'contract-templates',
        attributes: { name: 'bpost parcels only', currency: 'EUR' },
        relationships: {
          broker: { data: { type: 'brokers', id: broker.id } },
          carrier: { data: { type: 'carriers', id: carrier('bpost').id } },
          services: { data: serviceIds.map((id) => ({ type: 'services', id })) },
        },
      },
    });
    const mixed = await sandbox.request('POST', '/contracts/v1/templates', { token: ADMIN, body: body([services[0].id, dpdService.id]) });
    expect(firstError(mixed)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/services/data/1/id' } });
    expect(firstError(await sandbox.request('POST', '/contracts/v1/templates', { token: a, body: body([services[0].id]) }))).toMatchObject({ status: '403' });
    const created = await sandbox.request('POST', '/contracts/v1/templates', { token: ADMIN, body: body([services[0].id]) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.attributes.countries_from).toEqual(['BE']);
    const id = created.body.data.id;
    expect((await sandbox.get(`/contracts/v1/templates/${id}`, a)).status).toBe(200);
    expect(firstError(await sandbox.request('DELETE', `/contracts/v1/templates/${id}`, { token: a }))).toMatchObject({ status: '403', code: '10013' });
    expect((await sandbox.request('DELETE', `/contracts/v1/templates/${id}`, { token: ADMIN })).status).toBe(204);
    expect((await sandbox.get(`/contracts/v1/templates/${id}`, a)).status).toBe(404);
  });

  it('an own contract made from a template names it; a template of another carrier is refused', async () => {
    const { sandbox, a, carrier, organizationId } = await setup();
    const templates: Json[] = (await sandbox.get('/contracts/v1/templates', a)).body.data;
    const of = (code: string) => templates.find((row) => row.relationships.carrier.data.id === carrier(code).id)!;
    const body = (templateId: string) => ({
      data: {
        type: 'contracts',
        attributes: {
          name: 'Own PostNL from template',
          currency: 'EUR',
          credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) },
        },
        relationships: {
          carrier: { data: { type: 'carriers', id: carrier('postnl').id } },
          owner: { data: { type: 'organizations', id: organizationId } },
          contract_template: { data: { type: 'contract-templates', id: templateId } },
        },
      },
    });
    const wrong = await sandbox.request('POST', '/contracts', { token: a, body: body(of('dpd').id) });
    expect(firstError(wrong)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/contract_template/data/id' } });
    const made = await sandbox.request('POST', '/contracts', { token: a, body: body(of('postnl').id) });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.relationships.contract_template.data.id).toBe(of('postnl').id);
  });
});
