import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { testSandbox, type Json, type TestSandbox } from './support/app.js';
import { createShipment, shipmentBody, world } from './support/shipments.js';

/*
 * Production's address schema lets street_2, street_number, street_number_suffix, postal_code,
 * state_code, company, email and phone_number be null: a client that fills addresses from its
 * database sends them so. Wherever an address goes, null there is taken as the member left out.
 */

const nulls = { street_2: null, street_number_suffix: null, state_code: null, company: null, email: null, phone_number: null };
const address = { street_1: 'Damrak', street_number: 1, postal_code: '1012 LG', city: 'Amsterdam', country_code: 'NL' };
const stored = (value: Json) => Object.keys(value).sort();

describe('null in the nullable members of an address', () => {
  it('is taken as left out in a shipment, a shop and an organization billing address, and in a new address book entry', async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0].id as string;

    const shipment = await createShipment(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), recipient: { ...address, first_name: 'Anna', last_name: 'de Vries', ...nulls } }),
    );
    expect(stored(shipment.attributes.recipient_address)).toEqual([
      'city',
      'country_code',
      'first_name',
      'last_name',
      'postal_code',
      'street_1',
      'street_number',
    ]);

    const shop = await sandbox.request('POST', '/shops', {
      token: w.token,
      body: {
        data: {
          type: 'shops',
          attributes: { name: 'Nulls', sender_address: { ...address, ...nulls }, return_address: { ...address, postal_code: null, street_number: null } },
          relationships: { organization: { data: { type: 'organizations', id: organization } } },
        },
      },
    });
    expect(shop.status, shop.text).toBe(201);
    expect(stored(shop.body.data.attributes.sender_address)).toEqual(stored(address));
    expect(stored(shop.body.data.attributes.return_address)).toEqual(['city', 'country_code', 'street_1']);

    const broker = (await sandbox.get(`/organizations/${organization}`, w.token)).body.data.relationships.broker;
    const billing = await sandbox.request('PATCH', `/organizations/${organization}`, {
      token: w.token,
      body: { data: { type: 'organizations', id: organization, attributes: { billing_address: { ...address, ...nulls } }, relationships: { broker } } },
    });
    expect(billing.status, billing.text).toBe(200);
    expect(stored(billing.body.data.attributes.billing_address)).toEqual(stored(address));

    const entry = await sandbox.request('POST', '/addresses', {
      token: w.token,
      body: {
        data: {
          type: 'addresses',
          attributes: { ...address, ...nulls },
          relationships: { organization: { data: { type: 'organizations', id: organization } } },
        },
      },
    });
    expect(entry.status, entry.text).toBe(201);
    expect(stored(entry.body.data.attributes)).toEqual(stored(address));
  });

  it('still removes a member on PATCH /addresses, where the attributes are the address, and first_name stays not nullable', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const organization = (await sandbox.get('/organizations', token)).body.data[0].id as string;
    const relationships = { organization: { data: { type: 'organizations', id: organization } } };
    const created = await sandbox.request('POST', '/addresses', {
      token,
      body: { data: { type: 'addresses', attributes: { ...address, company: 'Tulip' }, relationships } },
    });
    const id = created.body.data.id as string;
    const cleared = await sandbox.request('PATCH', `/addresses/${id}`, {
      token,
      body: { data: { type: 'addresses', id, attributes: { company: null }, relationships } },
    });
    expect(cleared.body.data.attributes.company).toBeUndefined();
    const person = await sandbox.request('POST', '/addresses', {
      token,
      body: { data: { type: 'addresses', attributes: { ...address, first_name: null }, relationships } },
    });
    expect([person.status, person.body.errors?.[0]?.source]).toEqual([400, { pointer: '/data/attributes/first_name' }]);
  });
});

/** Checks request bodies against the request schemas of the document the sandbox serves, as a validator in front of it would. */
async function documentedRequests(sandbox: TestSandbox) {
  const document = (await sandbox.get('/openapi.json')).body;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'document.json', components: document.components }, 'document.json');
  return (method: string, path: string, body: Json): string[] => {
    const schema = document.paths[path][method].requestBody.content['application/vnd.api+json'].schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"document.json#/components/')));
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
}

describe("the API reference's request schemas", () => {
  it('let those members be null in the addresses of a shipment, a shop, a billing address and an address book entry, bodies the sandbox takes', async () => {
    const sandbox = await testSandbox();
    const problems = await documentedRequests(sandbox);
    const w = await world(sandbox);
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0].id as string;
    const organizationRef = { data: { type: 'organizations', id: organization } };

    const shipment = shipmentBody({
      shop: w.shopIn('NL'),
      recipient: { ...address, first_name: 'Anna', last_name: 'de Vries', ...nulls, street_number: null, postal_code: null },
      attributes: { sender_address: { ...address, ...nulls }, return_address: { ...address, ...nulls } },
    });
    expect(problems('post', '/shipments', shipment)).toEqual([]);
    expect((await sandbox.request('POST', '/shipments', { token: w.token, body: shipment })).status).toBe(201);

    const shop = {
      data: {
        type: 'shops',
        attributes: { name: 'Nulls', sender_address: { ...address, ...nulls }, return_address: { ...address, ...nulls } },
        relationships: { organization: organizationRef },
      },
    };
    expect(problems('post', '/shops', shop)).toEqual([]);
    expect((await sandbox.request('POST', '/shops', { token: w.token, body: shop })).status).toBe(201);

    const broker = (await sandbox.get(`/organizations/${organization}`, w.token)).body.data.relationships.broker;
    const billing = { data: { type: 'organizations', id: organization, attributes: { billing_address: { ...address, ...nulls } }, relationships: { broker } } };
    expect(problems('patch', '/organizations/{organization_id}', billing)).toEqual([]);
    expect((await sandbox.request('PATCH', `/organizations/${organization}`, { token: w.token, body: billing })).status).toBe(200);

    const entry = { data: { type: 'addresses', attributes: { ...address, ...nulls }, relationships: { organization: organizationRef } } };
    expect(problems('post', '/addresses', entry)).toEqual([]);
    expect((await sandbox.request('POST', '/addresses', { token: w.token, body: entry })).status).toBe(201);
  });

  it('still refuse null in first_name, as the sandbox does', async () => {
    const sandbox = await testSandbox();
    const problems = await documentedRequests(sandbox);
    const w = await world(sandbox);
    const shipment = shipmentBody({ shop: w.shopIn('NL'), recipient: { ...address, first_name: null, last_name: 'de Vries' } });
    expect(problems('post', '/shipments', shipment)).toContain('/data/attributes/recipient_address/first_name must be string');
    expect((await sandbox.request('POST', '/shipments', { token: w.token, body: shipment })).status).toBe(400);
  });
});
