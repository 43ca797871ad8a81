import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

/** GET .../pickup-dropoff-locations/{pudo_id}, and the search's parameters as production lists them. */

let sandbox: TestSandbox;
let token: string;
let carriers: Record<string, Json>;
let contracts: Json[];

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  carriers = Object.fromEntries((await sandbox.read('/carriers')).body.data.map((c: Json) => [c.attributes.code, c]));
  contracts = (await sandbox.get('/contracts?page[size]=100', token)).body.data;
});

const base = (carrier: string) => `/carriers/${carriers[carrier].id}/pickup-dropoff-locations`;
const search = (carrier: string, country: string, postalCode: string, query = '') =>
  sandbox.get(`${base(carrier)}/${country}/${encodeURIComponent(postalCode)}${query ? `?${query}` : ''}`, token);
const byId = (carrier: string, id: string, query = '') => sandbox.get(`${base(carrier)}/${encodeURIComponent(id)}${query ? `?${query}` : ''}`, token);

describe('GET /carriers/{carrier_id}/pickup-dropoff-locations/{pudo_id}', () => {
  it('answers a listed location exactly as the search showed it, at its links.self', async () => {
    const listed = (await search('postnl', 'NL', '1012 AB')).body.data;
    for (const location of listed) {
      const answer = await byId('postnl', location.id);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ data: location, meta: {}, links: { self: location.links.self } });
      expect(location.links.self).toBe(`http://sandbox.test${base('postnl')}/${location.id}`);
    }
  });

  it('gives a location one id, however the search wrote the postal code', async () => {
    const ids = async (country: string, postalCode: string) => (await search('royal-mail', country, postalCode)).body.data.map((l: Json) => l.id);
    const spaced = await ids('GB', 'SW1A 1AA');
    expect(await ids('gb', 'sw1a1aa')).toEqual(spaced);
    expect(spaced[0]).toMatch(/^GB-SW1A1AA-\d{6}$/);
    // The addresses use the country's notation either way.
    const addresses = (await search('royal-mail', 'GB', 'sw1a1aa')).body.data.map((l: Json) => l.attributes.address.postal_code);
    expect(addresses.every((code: string) => /^SW1A \d[A-Z]{2}$/.test(code))).toBe(true);
  });

  it('answers 404 (10002) for anything a search did not answer', async () => {
    const listed = (await search('postnl', 'NL', '1012AB')).body.data[0];
    const code = listed.attributes.code;
    for (const [carrier, id] of [
      ['postnl', code],
      ['postnl', 'NL-1012AB-000000'],
      ['postnl', `NL-1013AB-${code}`],
      ['postnl', `nl-1012ab-${code}`],
      ['postnl', `EE-10111-${code}`],
      ['dpd', listed.id],
      ['postnl', '../../contracts'],
    ] as const) {
      const answer = await byId(carrier, id);
      expect(answer.status, `${carrier} ${id}`).toBe(404);
      expect(firstError(answer), id).toMatchObject({ status: '404', code: '10002' });
    }
    expect((await sandbox.get(`/carriers/00000000-0000-4000-8000-000000000000/pickup-dropoff-locations/${listed.id}`, token)).status).toBe(404);
  });

  it('is refused for a carrier whose pudo.can_get_pudo_by_id is false, though its search answers', async () => {
    for (const carrier of Object.values(carriers).filter((c: Json) => !c.attributes.pudo.can_get_pudo_by_id)) {
      const code: string = carrier.attributes.code;
      const listed = (await search(code, 'GB', 'SW1A 1AA')).body.data;
      expect(listed.length, code).toBeGreaterThan(0);
      const answer = await byId(code, listed[0].id);
      expect(answer.status, code).toBe(404);
      // The carrier is a path segment: no source member names it (source.parameter is a query parameter), the detail does.
      expect(firstError(answer), code).toMatchObject({ code: '10002' });
      expect(firstError(answer).source, code).toBeUndefined();
      expect(firstError(answer).detail, code).toContain(`carrier ${carrier.id} in the path`);
      expect(firstError(answer).detail, code).toContain('pudo.can_get_pudo_by_id is false');
    }
    // Both seeded carriers without the look-up were tried.
    expect(
      Object.values(carriers)
        .filter((c: Json) => !c.attributes.pudo.can_get_pudo_by_id)
        .map((c: Json) => c.attributes.code)
        .sort(),
    ).toEqual(['dhl-express', 'royal-mail']);
  });

  it('needs a valid token and takes only `contract` as query parameter', async () => {
    const listed = (await search('postnl', 'NL', '1012AB')).body.data[0];
    expect(firstError(await sandbox.get(`${base('postnl')}/${listed.id}`))).toMatchObject({ status: '401', code: '14003' });
    for (const parameter of ['page[size]', 'street', 'filter[categories]']) {
      const answer = await byId('postnl', listed.id, `${parameter}=2`);
      expect(answer.status, parameter).toBe(400);
      expect(firstError(answer), parameter).toMatchObject({ code: '10003', source: { parameter } });
    }
  });
});

describe('the search and by-id parameters production lists', () => {
  it('take street_number as a string with a suffix, placing the nearest location a few doors away', async () => {
    const plain = (await search('postnl', 'NL', '1012AB')).body.data;
    for (const value of ['221B', '221 b', '221-223', '221']) {
      const answer = await search('postnl', 'NL', '1012AB', `street=Damrak&street_number=${encodeURIComponent(value)}`);
      expect(answer.status, value).toBe(200);
      const nearest = answer.body.data[0].attributes.address;
      expect(nearest.street_1).toBe('Damrak');
      expect(Math.abs(nearest.street_number - 221), value).toBeLessThanOrEqual(10);
      expect(answer.body.data.map((l: Json) => l.id)).toEqual(plain.map((l: Json) => l.id));
    }
    // Production types street_number as any string: one that does not start with a house number places none.
    for (const value of ['B221', '0', '', 'abc']) {
      const answer = await search('postnl', 'NL', '1012AB', `street_number=${encodeURIComponent(value)}`);
      expect(answer.status, value).toBe(200);
      expect(
        answer.body.data.map((l: Json) => l.id),
        value,
      ).toEqual(plain.map((l: Json) => l.id));
    }
  });

  it('refuse any parameter production does not list for the search, naming it', async () => {
    for (const parameter of ['postcode', 'filter[radius]', 'streetnumber', 'sort']) {
      const answer = await search('postnl', 'NL', '1012AB', `${parameter}=1`);
      expect(answer.status, parameter).toBe(400);
      expect(firstError(answer), parameter).toMatchObject({ code: '10003', source: { parameter } });
    }
  });

  it('use `contract` when it is an active contract of the carrier the caller may use, else 422 on the parameter', async () => {
    const postnl = carriers.postnl.id;
    const usable = contracts.find((c: Json) => c.attributes.status === 'active' && c.relationships.carrier.data.id === postnl);
    const otherCarrier = contracts.find((c: Json) => c.attributes.status === 'active' && c.relationships.carrier.data.id !== postnl);
    const pending = contracts.find((c: Json) => c.attributes.status === 'pending');
    const listed = (await search('postnl', 'NL', '1012AB')).body.data;
    expect((await search('postnl', 'NL', '1012AB', `contract=${usable.id}`)).body.data).toEqual(listed);
    expect((await byId('postnl', listed[0].id, `contract=${usable.id}`)).status).toBe(200);

    const other = await sandbox.token('other-client');
    const organizationId = (await sandbox.get('/organizations', other)).body.data[0].id;
    const foreign = await sandbox.request('POST', '/contracts', {
      token: other,
      body: {
        data: {
          type: 'contracts',
          attributes: { name: 'Theirs', currency: 'EUR', credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'k'.repeat(32) } },
          relationships: { carrier: { data: { type: 'carriers', id: postnl } }, owner: { data: { type: 'organizations', id: organizationId } } },
        },
      },
    });
    expect(foreign.status).toBe(201);
    const unknownDetail = (id: string) => `No contract with id '${id}' is available to you.`;
    for (const [id, detail] of [
      [foreign.body.data.id, unknownDetail(foreign.body.data.id)],
      ['00000000-0000-4000-8000-000000000000', unknownDetail('00000000-0000-4000-8000-000000000000')],
      [otherCarrier.id, expect.stringMatching(/not a contract of carrier postnl/)],
      [pending.id, expect.stringMatching(/is pending; only an active contract/)],
    ]) {
      for (const answer of [await search('postnl', 'NL', '1012AB', `contract=${id}`), await byId('postnl', listed[0].id, `contract=${id}`)]) {
        expect(firstError(answer)).toEqual({ status: '422', code: '10008', title: 'Unprocessable Entity', detail, source: { parameter: 'contract' } });
      }
    }
    expect(firstError(await search('postnl', 'NL', '1012AB', 'contract=nope'))).toMatchObject({ status: '400', source: { parameter: 'contract' } });
  });
});

describe("the API reference's example location", () => {
  it('is the first PostNL point a search near Anna de Vries (NL 1012PH) lists', async () => {
    const { EXAMPLE_PICKUP_POINT } = await import('../src/docs/examples/shipping.js');
    const listed = (await search('postnl', 'NL', '1012PH')).body.data;
    expect(listed[0].id).toBe(EXAMPLE_PICKUP_POINT);
  });
});
