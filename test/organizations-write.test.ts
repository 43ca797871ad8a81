import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world } from './support/shipments.js';

/**
 * Organizations: a client changes and deletes its own organization; creating organizations and
 * sharing the broker's contracts with them is the broker's, done with the admin token.
 */

const ADMIN = 'broker-admin-token';

async function setup(options: { admin?: boolean } = {}) {
  const sandbox = await testSandbox(options.admin === false ? {} : { config: { adminToken: ADMIN } });
  const a = await sandbox.token('sandbox-client');
  const b = await sandbox.token('other-client');
  const orgA: Json = (await sandbox.get('/organizations', a)).body.data[0];
  const orgB: Json = (await sandbox.get('/organizations', b)).body.data[0];
  seededBroker = orgA.relationships.broker.data.id as string;
  return { sandbox, a, b, orgA, orgB, brokerId: seededBroker };
}

/** The broker every seeded organization has (setup reads it): updates send it back. */
let seededBroker = '';
const patchBody = (id: string, attributes: Json, extra: Json = {}) => ({
  data: { type: 'organizations', id, attributes, relationships: { broker: { data: { type: 'brokers', id: seededBroker } } }, ...extra },
});

/** A tenant created through the control API: its token and organization id. */
async function tenant(sandbox: TestSandbox, token = ADMIN) {
  const created = await sandbox.request('POST', '/_sandbox/tenants', {
    token,
    body: { name: 'Fresh tenant', country_code: 'NL' },
    headers: { 'content-type': 'application/json' },
  });
  expect(created.status, created.text).toBe(201);
  const answer = await sandbox.request('POST', '/access-token', {
    body: { grant_type: 'client_credentials', client_id: created.body.client_id, client_secret: created.body.client_secret },
    headers: { 'content-type': 'application/json' },
  });
  return { token: answer.body.access_token as string, organizationId: created.body.organization_id as string, clientId: created.body.client_id as string };
}

describe('PATCH /organizations/{organization_id}', () => {
  it('changes the attributes sent, removes those sent as null, and ignores read-only ones', async () => {
    const { sandbox, a, orgA } = await setup();
    // A null description, as production's schema lets it be (and answers it), is kept.
    const numbers = [
      { type: 'ioss', country_code: 'NL', number: 'IM5280001234' },
      { type: 'vat', country_code: 'NL', number: 'NL000099998B57', description: null },
    ];
    const answer = await sandbox.request('PATCH', `/organizations/${orgA.id}`, {
      token: a,
      body: patchBody(
        orgA.id,
        { name: 'Renamed B.V.', reference: 'ref-9', company_registration_number: null, tax_identification_numbers: numbers, created_at: 1 },
        { relationships: orgA.relationships },
      ),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.attributes).toMatchObject({
      name: 'Renamed B.V.',
      reference: 'ref-9',
      tax_identification_numbers: numbers,
      created_at: orgA.attributes.created_at,
    });
    expect(answer.body.data.attributes.company_registration_number).toBeUndefined();
    expect((await sandbox.get(`/organizations/${orgA.id}`, a)).body.data.attributes.name).toBe('Renamed B.V.');
  });

  it('takes several tax identification numbers of one type for different countries, and refuses a second one for the same type and country at its entry', async () => {
    const { sandbox, a, orgA } = await setup();
    const eori = (country_code: string, number: string) => ({ type: 'eori', country_code, number });
    const kept = [eori('GB', 'XI123456789'), eori('NL', 'NL763452495378'), { type: 'vat', country_code: 'GB', number: 'GB123456789' }];
    const ok = await sandbox.request('PATCH', `/organizations/${orgA.id}`, { token: a, body: patchBody(orgA.id, { tax_identification_numbers: kept }) });
    expect(ok.status, ok.text).toBe(200);
    // Registration merges these into a shipment's sender numbers by type and country: which GB EORI would the carrier get? (Was a 200 that kept both.)
    const twice = [...kept, eori('GB', 'GB987654321000'), eori('NL', 'NL1')];
    const answer = await sandbox.request('PATCH', `/organizations/${orgA.id}`, { token: a, body: patchBody(orgA.id, { tax_identification_numbers: twice }) });
    expect(answer.status, answer.text).toBe(422);
    expect(answer.body.errors.map((error: Json) => [error.code, error.source.pointer])).toEqual([
      ['10008', '/data/attributes/tax_identification_numbers/3/country_code'],
      ['10008', '/data/attributes/tax_identification_numbers/4/country_code'],
    ]);
    expect(firstError(answer).detail).toContain('Entry 0');
    expect((await sandbox.get(`/organizations/${orgA.id}`, a)).body.data.attributes.tax_identification_numbers).toEqual(kept);
  });

  it("answers 404 for another tenant's organization and changes nothing", async () => {
    const { sandbox, a, orgB } = await setup();
    const answer = await sandbox.request('PATCH', `/organizations/${orgB.id}`, { token: a, body: patchBody(orgB.id, { name: 'Taken over' }) });
    expect(firstError(answer)).toMatchObject({ status: '404', code: '10002' });
    expect(sandbox.store.get('organizations', orgB.id)?.name).toBe(orgB.attributes.name);
  });

  it('refuses another broker, a bad billing address and a mismatched id, each with a pointer', async () => {
    const { sandbox, a, orgA } = await setup();
    const otherBroker = { data: { type: 'brokers', id: '00000000-0000-4000-8000-000000000000' } };
    const moved = await sandbox.request('PATCH', `/organizations/${orgA.id}`, {
      token: a,
      body: patchBody(orgA.id, {}, { relationships: { broker: otherBroker } }),
    });
    expect(firstError(moved)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/broker/data/id' } });
    // A broker sent as `{"data": null}` is none: refused, as a shop's organization is (it was a silent 200).
    const cleared = await sandbox.request('PATCH', `/organizations/${orgA.id}`, {
      token: a,
      body: patchBody(orgA.id, { name: 'Not kept' }, { relationships: { broker: { data: null } } }),
    });
    expect(firstError(cleared)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/relationships/broker' } });
    expect((await sandbox.get(`/organizations/${orgA.id}`, a)).body.data.attributes.name).toBe(orgA.attributes.name);
    const address = await sandbox.request('PATCH', `/organizations/${orgA.id}`, {
      token: a,
      body: patchBody(orgA.id, { billing_address: { street_1: 'Dam', city: 'Amsterdam', country_code: 'XX' } }),
    });
    expect(firstError(address)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/billing_address/country_code' } });
    const mismatch = await sandbox.request('PATCH', `/organizations/${orgA.id}`, { token: a, body: patchBody('00000000-0000-4000-8000-000000000000', {}) });
    expect(firstError(mismatch)).toMatchObject({ status: '409', code: '10007', source: { pointer: '/data/id' } });
  });

  it("takes a style with some of its colours, as production's Style shape has none required; a colour of the wrong length is 400 at it", async () => {
    const { sandbox, a, orgA } = await setup();
    const answer = await sandbox.request('PATCH', `/organizations/${orgA.id}`, { token: a, body: patchBody(orgA.id, { style: { primary_color: '#0f766e' } }) });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.attributes.style).toEqual({ primary_color: '#0f766e' });
    expect((await sandbox.get(`/organizations/${orgA.id}`, a)).body.data.attributes.style).toEqual({ primary_color: '#0f766e' });
    const long = await sandbox.request('PATCH', `/organizations/${orgA.id}`, { token: a, body: patchBody(orgA.id, { style: { accent_color: '#0f766e00' } }) });
    expect(firstError(long)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/style/accent_color' } });
  });

  it('lets the admin token change any organization', async () => {
    const { sandbox, orgB } = await setup();
    const answer = await sandbox.request('PATCH', `/organizations/${orgB.id}`, { token: ADMIN, body: patchBody(orgB.id, { reference: 'set by the broker' }) });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.attributes.reference).toBe('set by the broker');
  });
});

describe('POST /organizations', () => {
  const createBody = (brokerId: string, attributes: Json = {}) => ({
    data: {
      type: 'organizations',
      attributes: {
        name: 'New Merchant Ltd',
        billing_address: { street_1: 'High Street', street_number: 1, city: 'Leeds', postal_code: 'LS1 1AA', country_code: 'GB' },
        ...attributes,
      },
      relationships: { broker: { data: { type: 'brokers', id: brokerId } } },
    },
  });

  it("is the broker's: the admin token creates one, a tenant's token is refused with 403", async () => {
    const { sandbox, a, brokerId } = await setup();
    const refused = await sandbox.request('POST', '/organizations', { token: a, body: createBody(brokerId) });
    expect(firstError(refused)).toMatchObject({ status: '403', code: '10013' });
    const created = await sandbox.request('POST', '/organizations', { token: ADMIN, body: createBody(brokerId, { reference: 'merchant-7' }) });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.data.links.self);
    expect(created.body.data.attributes).toMatchObject({ name: 'New Merchant Ltd', reference: 'merchant-7', tax_identification_numbers: [] });
    expect(created.body.data.relationships.broker.data).toEqual({ type: 'brokers', id: brokerId });
    // An organization never sees another: the new one is not the caller's.
    expect((await sandbox.get(`/organizations/${created.body.data.id}`, a)).status).toBe(404);
    // It has no contracts until the broker shares some.
    const contracts = await sandbox.get(`/organizations/${created.body.data.id}/contracts`, ADMIN);
    expect(contracts.body.data).toEqual([]);
  });

  it('needs no token on a sandbox without an admin token, like the sandbox controls, and what is made so is changed and deleted so', async () => {
    const { sandbox, brokerId } = await setup({ admin: false });
    const created = await sandbox.request('POST', '/organizations', { body: createBody(brokerId) });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const listed = await sandbox.request('GET', `/organizations/${id}/contracts`);
    expect(listed.status, listed.text).toBe(200);
    const changed = await sandbox.request('PATCH', `/organizations/${id}`, { body: patchBody(id, { name: 'Renamed Ltd' }) });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.name).toBe('Renamed Ltd');
    // A web page of another origin is refused, as at the sandbox controls.
    const foreign = await sandbox.request('DELETE', `/organizations/${id}`, { headers: { origin: 'https://evil.example' } });
    expect(firstError(foreign)).toMatchObject({ status: '403', code: '10013' });
    const deleted = await sandbox.request('DELETE', `/organizations/${id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(sandbox.store.get('organizations', id)).toBeUndefined();
  });

  it('with an admin token configured, no token creates, changes or deletes nothing (401)', async () => {
    const { sandbox, brokerId, orgA } = await setup();
    const before = sandbox.store.snapshot();
    for (const [method, path, body] of [
      ['POST', '/organizations', createBody(brokerId)],
      ['PATCH', `/organizations/${orgA.id}`, patchBody(orgA.id, { name: 'Anonymous' })],
      ['DELETE', `/organizations/${orgA.id}`, undefined],
      ['GET', `/organizations/${orgA.id}/contracts`, undefined],
    ] as const) {
      const answer = await sandbox.request(method, path, { body });
      expect(firstError(answer), `${method} ${path}`).toMatchObject({ status: '401', code: '14003' });
    }
    expect(sandbox.store.snapshot()).toEqual(before);
  });

  it('refuses an unknown broker, and two tax numbers of one type and country, with a pointer and creates nothing', async () => {
    const { sandbox } = await setup();
    const before = sandbox.store.count('organizations');
    const answer = await sandbox.request('POST', '/organizations', { token: ADMIN, body: createBody('00000000-0000-4000-8000-000000000000') });
    expect(firstError(answer)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/broker/data/id' } });
    const nameless = await sandbox.request('POST', '/organizations', { token: ADMIN, body: createBody(sandbox.store.all('brokers')[0]!.id, { name: '' }) });
    expect(firstError(nameless)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/name' } });
    const vat = { type: 'vat', country_code: 'GB', number: 'GB123456789' };
    const twoVats = createBody(sandbox.store.all('brokers')[0]!.id, { tax_identification_numbers: [vat, { ...vat, number: 'GB987654321' }] });
    const doubled = await sandbox.request('POST', '/organizations', { token: ADMIN, body: twoVats });
    expect(firstError(doubled)).toMatchObject({ status: '422', source: { pointer: '/data/attributes/tax_identification_numbers/1/country_code' } });
    expect(sandbox.store.count('organizations')).toBe(before);
  });
});

describe('DELETE /organizations/{organization_id}', () => {
  it('refuses an organization with shipments and leaves it whole', async () => {
    const { sandbox, orgA } = await setup();
    const w = await world(sandbox);
    const shop = w.shopIn('NL');
    const service = w.service('postnl-parcel-standard');
    await createShipment(sandbox, w.token, shipmentBody({ shop, recipient: recipients.NL, service, contract: w.contractFor(service) }));
    const before = sandbox.store.snapshot();
    const answer = await sandbox.request('DELETE', `/organizations/${orgA.id}`, { token: w.token });
    expect(firstError(answer)).toMatchObject({ status: '422', code: '10008' });
    expect(firstError(answer).detail).toContain('1 shipment');
    expect(sandbox.store.snapshot()).toEqual(before);
  });

  it('deletes an organization without shipments with everything that is its alone; its clients stop working', async () => {
    const { sandbox, b, orgB } = await setup();
    const fresh = await tenant(sandbox);
    const address = await sandbox.request('POST', '/addresses', {
      token: fresh.token,
      body: {
        data: {
          type: 'addresses',
          attributes: { street_1: 'Dam', street_number: 1, city: 'Amsterdam', country_code: 'NL' },
          relationships: { organization: { data: { type: 'organizations', id: fresh.organizationId } } },
        },
      },
    });
    expect(address.status, address.text).toBe(201);
    // A tenant is made with the broker's contracts shared with it; the shares go with it.
    expect(sandbox.store.find('contractShares', 'organization_id', fresh.organizationId).length).toBeGreaterThan(0);
    expect((await sandbox.request('DELETE', `/organizations/${orgB.id}`, { token: fresh.token })).status).toBe(404);
    const answer = await sandbox.request('DELETE', `/organizations/${fresh.organizationId}`, { token: fresh.token });
    expect(answer.status, answer.text).toBe(204);
    expect(sandbox.store.get('organizations', fresh.organizationId)).toBeUndefined();
    expect(sandbox.store.find('shops', 'organization_id', fresh.organizationId)).toEqual([]);
    expect(sandbox.store.find('addresses', 'organization_id', fresh.organizationId)).toEqual([]);
    expect(sandbox.store.get('clients', fresh.clientId)).toBeUndefined();
    expect(sandbox.store.find('contractShares', 'organization_id', fresh.organizationId)).toEqual([]);
    expect(firstError(await sandbox.get('/shops', fresh.token))).toMatchObject({ status: '401', code: '14002' });
    expect((await sandbox.get('/organizations', b)).body.data[0].id).toBe(orgB.id);
  });
});

describe("contracts of an organization, and sharing the broker's", () => {
  it("lists the organization's own contracts and those shared with it; another's is 404", async () => {
    const { sandbox, a, orgA, orgB } = await setup();
    const listed = await sandbox.get(`/organizations/${orgA.id}/contracts?page[size]=100`, a);
    expect(listed.status).toBe(200);
    const seen = (await sandbox.get('/contracts?page[size]=100', a)).body.data.map((c: Json) => c.id).sort();
    expect(listed.body.data.map((c: Json) => c.id).sort()).toEqual(seen);
    expect((await sandbox.get(`/organizations/${orgB.id}/contracts`, a)).status).toBe(404);
  });

  it('a contract shared with an organization is usable for its shipments at once, and not before', async () => {
    const { sandbox } = await setup();
    const fresh = await tenant(sandbox);
    const w = await world(sandbox);
    const service = w.service('postnl-parcel-standard');
    const contract = w.contractFor(service);
    const unshare = await sandbox.request('DELETE', `/organizations/${fresh.organizationId}/relationships/contracts`, {
      token: ADMIN,
      body: { data: [{ type: 'contracts', id: contract.id }] },
    });
    expect(unshare.status, unshare.text).toBe(204);
    const shops = (await sandbox.get('/shops', fresh.token)).body.data;
    const body = shipmentBody({ shop: shops[0], recipient: recipients.NL, service, contract });
    const refused = await sandbox.request('POST', '/shipments', { token: fresh.token, body });
    expect(firstError(refused)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/contract/data/id' } });
    expect((await sandbox.get(`/contracts/${contract.id}`, fresh.token)).status).toBe(404);

    const share = await sandbox.request('POST', `/organizations/${fresh.organizationId}/relationships/contracts`, {
      token: ADMIN,
      body: { data: [{ type: 'contracts', id: contract.id }] },
    });
    expect(share.status, share.text).toBe(204);
    const shipped = await sandbox.request('POST', '/shipments', { token: fresh.token, body });
    expect(shipped.status, shipped.text).toBe(201);
    expect(shipped.body.data.attributes.price.amount).toBeGreaterThan(0);
  });

  it('a shipment keeps a contract no longer shared: its contract link still answers, the list and new shipments no longer have it', async () => {
    const { sandbox } = await setup();
    const fresh = await tenant(sandbox);
    const w = await world(sandbox);
    const service = w.service('postnl-parcel-standard');
    const contract = w.contractFor(service);
    const shops = (await sandbox.get('/shops', fresh.token)).body.data;
    const body = shipmentBody({ shop: shops[0], recipient: recipients.NL, service, contract });
    const shipped = await sandbox.request('POST', '/shipments', { token: fresh.token, body });
    expect(shipped.status, shipped.text).toBe(201);
    const unshare = await sandbox.request('DELETE', `/organizations/${fresh.organizationId}/relationships/contracts`, {
      token: ADMIN,
      body: { data: [{ type: 'contracts', id: contract.id }] },
    });
    expect(unshare.status, unshare.text).toBe(204);

    const read = await sandbox.get(`/shipments/${shipped.body.data.id}?include=contract`, fresh.token);
    expect(read.body.data.relationships.contract.data.id).toBe(contract.id);
    expect(read.body.included.map((row: Json) => row.id)).toContain(contract.id);
    const related = await sandbox.get(new URL(read.body.data.relationships.contract.links.related).pathname, fresh.token);
    expect(related.status, related.text).toBe(200);
    expect(related.body.data.id).toBe(contract.id);
    const coverages = related.body.data.relationships.liability_coverages.data;
    expect(coverages.length).toBeGreaterThan(0);
    for (const coverage of coverages) expect((await sandbox.get(`/liability-coverages/${coverage.id}`, fresh.token)).status).toBe(200);
    const listed = (await sandbox.get('/contracts?page[size]=100', fresh.token)).body.data.map((row: Json) => row.id);
    expect(listed).not.toContain(contract.id);
    const refused = await sandbox.request('POST', '/shipments', { token: fresh.token, body });
    expect(firstError(refused)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/contract/data/id' } });
    // Another tenant, whose shipments do not name it, still gets the 404 of an unknown id.
    const other = await tenant(sandbox);
    await sandbox.request('DELETE', `/organizations/${other.organizationId}/relationships/contracts`, {
      token: ADMIN,
      body: { data: [{ type: 'contracts', id: contract.id }] },
    });
    expect((await sandbox.get(`/contracts/${contract.id}`, other.token)).status).toBe(404);
  });

  it('checks every contract before changing anything, and a tenant may not share', async () => {
    const { sandbox, a, orgA, orgB } = await setup();
    const broker = sandbox.store.all('contracts').find((row) => row.owner.type === 'brokers')!;
    const ownOfA = sandbox.store.all('contracts').find((row) => row.owner.type === 'organizations' && row.owner.id === orgA.id)!;
    const before = sandbox.store.snapshot();
    const foreign = await sandbox.request('POST', `/organizations/${orgB.id}/relationships/contracts`, {
      token: ADMIN,
      body: {
        data: [
          { type: 'contracts', id: broker.id },
          { type: 'contracts', id: ownOfA.id },
        ],
      },
    });
    expect(firstError(foreign)).toMatchObject({ status: '422', source: { pointer: '/data/1/id' } });
    const typed = await sandbox.request('POST', `/organizations/${orgB.id}/relationships/contracts`, {
      token: ADMIN,
      body: { data: [{ type: 'shops', id: broker.id }] },
    });
    expect(firstError(typed)).toMatchObject({ status: '409', source: { pointer: '/data/0/type' } });
    const ownUnlink = await sandbox.request('DELETE', `/organizations/${orgA.id}/relationships/contracts`, {
      token: ADMIN,
      body: { data: [{ type: 'contracts', id: ownOfA.id }] },
    });
    expect(firstError(ownUnlink)).toMatchObject({ status: '422', source: { pointer: '/data/0/id' } });
    const byTenant = await sandbox.request('POST', `/organizations/${orgA.id}/relationships/contracts`, {
      token: a,
      body: { data: [{ type: 'contracts', id: broker.id }] },
    });
    expect(firstError(byTenant)).toMatchObject({ status: '403', code: '10013' });
    const otherTenant = await sandbox.request('POST', `/organizations/${orgB.id}/relationships/contracts`, {
      token: a,
      body: { data: [{ type: 'contracts', id: broker.id }] },
    });
    expect(firstError(otherTenant)).toMatchObject({ status: '404', code: '10002' });
    expect(sandbox.store.snapshot()).toEqual(before);
  });

  it('a tenant reset shares the seeded contracts again', async () => {
    const { sandbox, a, orgA } = await setup();
    const broker = sandbox.store.all('contracts').find((row) => row.owner.type === 'brokers')!;
    await sandbox.request('DELETE', `/organizations/${orgA.id}/relationships/contracts`, {
      token: ADMIN,
      body: { data: [{ type: 'contracts', id: broker.id }] },
    });
    // The list shows what the organization can use (GET by id also answers one its rows still name).
    const listed = async () => (await sandbox.get('/contracts?page[size]=100', a)).body.data.map((row: Json) => row.id);
    expect(await listed()).not.toContain(broker.id);
    const reset = await sandbox.request('POST', '/_sandbox/reset', { token: a, body: {}, headers: { 'content-type': 'application/json' } });
    expect(reset.status, reset.text).toBe(200);
    expect(await listed()).toContain(broker.id);
  });
});
