import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json } from './support/app.js';

/** The address book (/addresses) and POST /suggest-address. */

async function setup() {
  const sandbox = await testSandbox();
  const a = await sandbox.token('sandbox-client');
  const b = await sandbox.token('other-client');
  const orgA: string = (await sandbox.get('/organizations', a)).body.data[0].id;
  const orgB: string = (await sandbox.get('/organizations', b)).body.data[0].id;
  return { sandbox, a, b, orgA, orgB };
}

const addressBody = (organizationId: string, attributes: Json) => ({
  data: { type: 'addresses', attributes, relationships: { organization: { data: { type: 'organizations', id: organizationId } } } },
});
const warehouse = {
  company: 'Warehouse West',
  street_1: 'Kalverstraat',
  street_number: 92,
  postal_code: '1012 PH',
  city: 'Amsterdam',
  country_code: 'NL',
  email: 'dock@example.com',
};

describe('the address book', () => {
  it('adds, lists, searches, changes and removes addresses of the own organization', async () => {
    const { sandbox, a, orgA } = await setup();
    const created = await sandbox.request('POST', '/addresses', { token: a, body: addressBody(orgA, warehouse) });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    expect(created.headers.get('location')).toBe(created.body.data.links.self);
    expect(created.body.data.attributes).toEqual(warehouse);
    expect(created.body.data.relationships.organization.data).toEqual({ type: 'organizations', id: orgA });
    await sandbox.request('POST', '/addresses', { token: a, body: addressBody(orgA, { street_1: 'Baker Street', city: 'London', country_code: 'GB' }) });

    expect((await sandbox.get('/addresses', a)).body.meta.total_records).toBe(2);
    const found = await sandbox.get('/addresses?filter[search]=warehouse', a);
    expect(found.body.data.map((row: Json) => row.id)).toEqual([id]);
    expect((await sandbox.get(`/addresses?filter[organization]=${orgA}`, a)).body.data).toHaveLength(2);

    const changed = await sandbox.request('PATCH', `/addresses/${id}`, {
      token: a,
      body: {
        data: {
          type: 'addresses',
          id,
          attributes: { company: null, street_number: 94 },
          relationships: { organization: { data: { type: 'organizations', id: orgA } } },
        },
      },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.attributes.company).toBeUndefined();
    expect(changed.body.data.attributes.street_number).toBe(94);
    expect((await sandbox.get(`/addresses/${id}`, a)).body.data.attributes.street_number).toBe(94);

    expect((await sandbox.request('DELETE', `/addresses/${id}`, { token: a })).status).toBe(204);
    expect((await sandbox.get(`/addresses/${id}`, a)).status).toBe(404);
  });

  it('validates like shipment addresses: an unknown country, a missing city, a bad e-mail, each with a pointer', async () => {
    const { sandbox, a, orgA } = await setup();
    const answer = await sandbox.request('POST', '/addresses', {
      token: a,
      body: addressBody(orgA, { street_1: 'Dam', country_code: 'XX', email: 'not-an-email' }),
    });
    expect(answer.status).toBe(400);
    const pointers = answer.body.errors.map((error: Json) => error.source.pointer).sort();
    expect(pointers).toEqual(['/data/attributes/city', '/data/attributes/country_code', '/data/attributes/email']);
    const nulled = await sandbox.request(
      'PATCH',
      `/addresses/${(await sandbox.request('POST', '/addresses', { token: a, body: addressBody(orgA, warehouse) })).body.data.id}`,
      {
        token: a,
        body: {
          data: { type: 'addresses', id: 'x', attributes: { city: null }, relationships: { organization: { data: { type: 'organizations', id: orgA } } } },
        },
      },
    );
    expect(firstError(nulled)).toMatchObject({ status: '400', source: { pointer: '/data/attributes/city' } });
    expect(sandbox.store.count('addresses')).toBe(1);
  });

  it("keeps tenants apart: another organization's address is 404, naming another organization is 422", async () => {
    const { sandbox, a, b, orgA, orgB } = await setup();
    const theirs = await sandbox.request('POST', '/addresses', { token: b, body: addressBody(orgB, warehouse) });
    const id = theirs.body.data.id;
    expect((await sandbox.get(`/addresses/${id}`, a)).status).toBe(404);
    expect(
      (
        await sandbox.request('PATCH', `/addresses/${id}`, {
          token: a,
          body: { data: { type: 'addresses', id, attributes: { city: 'X' }, relationships: { organization: { data: { type: 'organizations', id: orgA } } } } },
        })
      ).status,
    ).toBe(404);
    expect((await sandbox.request('DELETE', `/addresses/${id}`, { token: a })).status).toBe(404);
    expect((await sandbox.get('/addresses', a)).body.data).toEqual([]);
    const foreign = await sandbox.request('POST', '/addresses', { token: a, body: addressBody(orgB, warehouse) });
    expect(firstError(foreign)).toMatchObject({ status: '422', source: { pointer: '/data/relationships/organization/data/id' } });
    expect(sandbox.store.get('addresses', id)?.city).toBe('Amsterdam');
    expect(orgA).not.toBe(orgB);
  });

  it('reads with shipments.manage, writes with organizations.manage only', async () => {
    const { sandbox, orgA } = await setup();
    const limited = await sandbox.token('limited-client');
    expect((await sandbox.get('/addresses', limited)).status).toBe(200);
    expect(firstError(await sandbox.request('POST', '/addresses', { token: limited, body: addressBody(orgA, warehouse) }))).toMatchObject({
      status: '403',
      code: '14004',
      // The token that lacks the scope is what the client must change.
      source: { header: 'Authorization' },
    });
  });
});

describe('POST /suggest-address', () => {
  const suggest = async (data: Json) => {
    const { sandbox, a } = await setup();
    return sandbox.request('POST', '/suggest-address', { token: a, body: { data }, headers: { 'content-type': 'application/json' } });
  };

  it('turns a Dutch postal code and number into the street and city', async () => {
    const answer = await suggest({ country_code: 'NL', postal_code: '1012ph', street_number: 92, street_number_suffix: 'A' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      data: [{ country_code: 'NL', postal_code: '1012 PH', street_1: 'Kalverstraat', city: 'Amsterdam', street_number: 92, street_number_suffix: 'A' }],
    });
  });

  it("answers the API documentation's example request (2131 BC, 679, A1) with the street and city its example response shows", async () => {
    // Sent as the documentation shows it; before, the table had no such street and the answer was an empty list.
    const answer = await suggest({ country_code: 'NL', postal_code: '2131 BC', street_number: 679, street_number_suffix: 'A1' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      data: [{ country_code: 'NL', postal_code: '2131 BC', street_1: 'Hoofdweg', city: 'Hoofddorp', street_number: 679, street_number_suffix: 'A1' }],
    });
  });

  it('answers the same for the same input, lists every street of a shared postal code, and finds postal codes by street and city', async () => {
    const first = await suggest({ country_code: 'DE', postal_code: '10117' });
    expect(first.body.data.map((row: Json) => row.street_1)).toEqual(['Unter den Linden', 'Friedrichstraße', 'Gendarmenmarkt']);
    expect((await suggest({ country_code: 'DE', postal_code: '10117' })).body).toEqual(first.body);
    const byNumber = await suggest({ country_code: 'DE', postal_code: '10117', street_number: 150 });
    expect(byNumber.body.data.map((row: Json) => row.street_1)).toEqual(['Friedrichstraße']);
    const byStreet = await suggest({ country_code: 'DE', street_1: 'monckeberg', city: 'Hamburg' });
    expect(byStreet.body.data).toEqual([{ country_code: 'DE', postal_code: '20095', street_1: 'Mönckebergstraße', city: 'Hamburg' }]);
  });

  it('answers an empty list when nothing fits (a number off the street, an unknown postal code)', async () => {
    expect((await suggest({ country_code: 'NL', postal_code: '1012 PH', street_number: 5 })).body).toEqual({ data: [] });
    expect((await suggest({ country_code: 'GB', postal_code: 'ZZ9 9ZZ' })).body).toEqual({ data: [] });
  });

  it('names what is missing, refuses a country without a table and an oversized query', async () => {
    const missing = await suggest({ street_number: 1 });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((error: Json) => error.source.pointer)).toEqual(['/data/country_code', '/data/postal_code']);
    const halfStreet = await suggest({ country_code: 'NL', city: 'Amsterdam' });
    expect(halfStreet.body.errors.map((error: Json) => error.source.pointer)).toEqual(['/data/street_1']);
    expect(firstError(await suggest({ country_code: 'JP', postal_code: '100-0001' }))).toMatchObject({
      status: '422',
      source: { pointer: '/data/country_code' },
    });
    expect(firstError(await suggest({ country_code: 'NL', city: 'x'.repeat(10 * 1024), street_1: 'Dam' }))).toMatchObject({
      status: '400',
      source: { pointer: '/data/city' },
    });
    expect(firstError(await suggest({ country_code: 'NL', postal_code: '1'.repeat(10 * 1024) }))).toMatchObject({
      status: '400',
      source: { pointer: '/data/postal_code' },
    });
  });
});
