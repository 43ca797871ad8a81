import { beforeAll, describe, expect, it } from 'vitest';
import { findPickupLocation, pickupLocations } from '../src/domain/pickup/locations.js';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

let sandbox: TestSandbox;
let token: string;
let carriers: Record<string, Json>;

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  carriers = Object.fromEntries((await sandbox.read('/carriers')).body.data.map((c: Json) => [c.attributes.code, c]));
});

const path = (carrier: string, country: string, postalCode: string, query = '') =>
  `/carriers/${carriers[carrier].id}/pickup-dropoff-locations/${country}/${encodeURIComponent(postalCode)}${query ? `?${query}` : ''}`;

async function locations(carrier: string, country: string, postalCode: string, query = '', t = token): Promise<Json> {
  const answer = await sandbox.get(path(carrier, country, postalCode, query), t);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** Rough bounding boxes (latitude, longitude) of the countries searched below. */
const boxes: Record<string, [number, number, number, number]> = {
  NL: [50.7, 53.6, 3.3, 7.3],
  DE: [47.2, 55.1, 5.8, 15.1],
  GB: [49.8, 60.9, -8.7, 1.8],
};

describe('pick-up/drop-off locations', () => {
  it('are the same for the same carrier, country and postal code', async () => {
    const first = await locations('postnl', 'NL', '1012 AB');
    const second = await locations('postnl', 'NL', '1012 AB');
    expect(second).toEqual(first);
    // Independent of the sandbox seed and of the notation of the postal code.
    const other = await testSandbox({ seed: 7 });
    const otherPostnl = (await other.read('/carriers')).body.data.find((c: Json) => c.attributes.code === 'postnl');
    const seeded = await other.get(`/carriers/${otherPostnl.id}/pickup-dropoff-locations/nl/1012ab`, await other.token());
    expect(seeded.body.data.map((l: Json) => [l.id, l.attributes.position, l.meta])).toEqual(
      first.data.map((l: Json) => [l.id, l.attributes.position, l.meta]),
    );
  });

  it('differ between postal codes and between carriers', async () => {
    const codes = async (carrier: string, postalCode: string) => (await locations(carrier, 'NL', postalCode)).data.map((l: Json) => l.id);
    const amsterdam = await codes('postnl', '1012AB');
    expect(await codes('postnl', '1017CD')).not.toEqual(amsterdam);
    expect(await codes('dpd', '1012AB')).not.toEqual(amsterdam);
  });

  it('look like real locations near the postal code', async () => {
    for (const [carrier, country, postalCode, prefix] of [
      ['postnl', 'NL', '3511 AB', '35'],
      ['dpd', 'DE', '80331', '80'],
      ['royal-mail', 'GB', 'SW1A 1AA', 'SW1A'],
      ['evri', 'GB', 'M1 1AE', 'M1'],
    ] as const) {
      const body = await locations(carrier, country, postalCode);
      const list = body.data;
      expect(list.length).toBeGreaterThanOrEqual(5);
      expect(list.length).toBeLessThanOrEqual(10);
      expect(body.meta).toEqual({ total_pages: 1, total_records: list.length });
      const distances = list.map((l: Json) => l.meta.distance);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(new Set(list.map((l: Json) => l.id)).size).toBe(list.length);
      const [south, north, west, east] = boxes[country]!;
      for (const location of list) {
        const { attributes: a } = location;
        expect(location.type).toBe('pickup-dropoff-locations');
        // The id names the search (country, postal code without spaces) and the carrier's code.
        expect(location.id).toBe(`${country}-${postalCode.replace(/ /g, '')}-${a.code}`);
        expect(location.links.self).toBe(`http://sandbox.test/carriers/${carriers[carrier].id}/pickup-dropoff-locations/${location.id}`);
        expect(a.code).toMatch(/^\d{6}$/);
        expect(location.relationships.carrier.data).toEqual({ type: 'carriers', id: carriers[carrier].id });
        expect(location.relationships.carrier.links.related).toBe(`http://sandbox.test/carriers/${carriers[carrier].id}`);
        expect(location.links.self).toMatch(/^http:\/\/sandbox\.test\/carriers\//);
        expect(a.address).toMatchObject({ country_code: country, company: expect.any(String), street_1: expect.any(String), city: expect.any(String) });
        expect(a.address.street_number).toBeGreaterThan(0);
        expect(a.address.postal_code.startsWith(prefix)).toBe(true);
        expect(['locker', 'office', 'office-agency', 'office-postal', 'office-shop']).toContain(a.location_type);
        expect(a.categories.length).toBeGreaterThan(0);
        for (const category of a.categories) expect(['pick-up', 'drop-off']).toContain(category);
        for (const feature of a.features) expect(feature).toBe('print-label-in-store');
        expect(a.position.latitude).toBeGreaterThan(south);
        expect(a.position.latitude).toBeLessThan(north);
        expect(a.position.longitude).toBeGreaterThan(west);
        expect(a.position.longitude).toBeLessThan(east);
        expect(a.opening_hours.length).toBeGreaterThan(0);
        for (const hours of a.opening_hours) {
          expect(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']).toContain(hours.day);
          expect(hours.open).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
          expect(hours.closed).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
          expect(hours.closed > hours.open).toBe(true);
        }
        if (a.location_type === 'locker') {
          expect(a.opening_hours).toHaveLength(7);
          expect(a.opening_hours.every((h: Json) => h.open === '00:00' && h.closed === '23:59')).toBe(true);
          expect(a.features).toEqual([]);
        }
      }
    }
  });

  it('filter by category, feature and location type', async () => {
    const all = (await locations('dhl-express', 'DE', '10115', 'page[size]=100')).data;
    const check = async (query: string, keep: (l: Json) => boolean) => {
      const filtered = (await locations('dhl-express', 'DE', '10115', query)).data;
      expect(
        filtered.map((l: Json) => l.id),
        query,
      ).toEqual(all.filter(keep).map((l: Json) => l.id));
    };
    await check('filter[categories]=pick-up', (l) => l.attributes.categories.includes('pick-up'));
    await check('filter[categories]=drop-off', (l) => l.attributes.categories.includes('drop-off'));
    await check('filter[categories]=pick-up,drop-off', (l) => l.attributes.categories.length === 2);
    await check('filter[features]=print-label-in-store', (l) => l.attributes.features.includes('print-label-in-store'));
    await check('filter[location_type]=locker', (l) => l.attributes.location_type === 'locker');
    await check('filter[location_type]=office-shop,office', (l) => ['office-shop', 'office'].includes(l.attributes.location_type));
    await check(
      'filter[location_type]=locker&filter[categories]=drop-off',
      (l) => l.attributes.location_type === 'locker' && l.attributes.categories.includes('drop-off'),
    );
  });

  it('rejects bad filter values with the parameter named', async () => {
    for (const [query, parameter] of [
      ['filter[categories]=delivery', 'filter[categories]'],
      ['filter[features]=wifi', 'filter[features]'],
      ['filter[location_type]=kiosk', 'filter[location_type]'],
      ['filter[radius]=500', 'filter[radius]'],
      [`street=${'x'.repeat(256)}`, 'street'],
    ]) {
      const answer = await sandbox.get(path('postnl', 'NL', '1012AB', query), token);
      expect(answer.status, query).toBe(400);
      expect(firstError(answer), query).toMatchObject({ code: '10003', source: { parameter } });
    }
  });

  it('take street, street_number and city as any string, as production: an empty one is left out, a number it cannot read places none', async () => {
    const plain = (await locations('postnl', 'NL', '1012AB')).data;
    // A form's empty fields, as a checkout sends them.
    const empty = await sandbox.get(path('postnl', 'NL', '1012AB', 'street=&street_number=&city=%20'), token);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual(plain);
    for (const number of ['abc', '0', '12A-3', 'z/n']) {
      const answer = await sandbox.get(path('postnl', 'NL', '1012AB', `street=Damrak&street_number=${encodeURIComponent(number)}`), token);
      expect(answer.status, number).toBe(200);
      expect(answer.body.data[0].attributes.address.street_1, number).toBe('Damrak');
    }
    const suffixed = (await locations('postnl', 'NL', '1012AB', 'street=Damrak&street_number=70-2')).data;
    expect(Math.abs(suffixed[0].attributes.address.street_number - 70)).toBeLessThanOrEqual(10);
  });

  it('move the nearest location to the given street and take the given city', async () => {
    const plain = (await locations('postnl', 'NL', '1012AB')).data;
    const shifted = (await locations('postnl', 'NL', '1012AB', 'street=Damrak&street_number=70&city=Utrecht')).data;
    expect(shifted.map((l: Json) => l.id)).toEqual(plain.map((l: Json) => l.id));
    expect(shifted[0].attributes.address.street_1).toBe('Damrak');
    expect(Math.abs(shifted[0].attributes.address.street_number - 70)).toBeLessThanOrEqual(10);
    expect(shifted.every((l: Json) => l.attributes.address.city === 'Utrecht')).toBe(true);
    // Utrecht is about 35 km south-east of Amsterdam; the positions follow.
    expect(shifted[0].attributes.position.latitude).toBeLessThan(plain[0].attributes.position.latitude);
    expect(shifted[0].attributes.position.longitude).toBeGreaterThan(plain[0].attributes.position.longitude);
  });

  it('paginate with links that keep the query', async () => {
    const all = (await locations('postnl', 'NL', '1012AB')).data;
    const page = await locations('postnl', 'NL', '1012AB', 'filter[categories]=drop-off&page[size]=2&page[number]=2');
    const dropOff = all.filter((l: Json) => l.attributes.categories.includes('drop-off'));
    expect(page.meta).toEqual({ total_pages: Math.ceil(dropOff.length / 2), total_records: dropOff.length });
    expect(page.data.map((l: Json) => l.id)).toEqual(dropOff.slice(2, 4).map((l: Json) => l.id));
    const base = `http://sandbox.test${path('postnl', 'NL', '1012AB')}?filter[categories]=drop-off`;
    expect(page.links.self).toBe(`${base}&page[number]=2&page[size]=2`);
    expect(page.links.first).toBe(`${base}&page[number]=1&page[size]=2`);
    expect(page.links.prev).toBe(`${base}&page[number]=1&page[size]=2`);
    if (dropOff.length > 4) expect(page.links.next).toBe(`${base}&page[number]=3&page[size]=2`);
  });

  it('offer no include, as production documents none for the search', async () => {
    const answer = await sandbox.get(path('dpd', 'DE', '80331', 'include=carrier'), token);
    expect(answer.status).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '10003', source: { parameter: 'include' } });
  });

  it('are none in a country the sandbox has no map of', async () => {
    const body = await locations('dpd', 'EE', '10111');
    expect(body.data).toEqual([]);
    expect(body.meta).toEqual({ total_pages: 0, total_records: 0 });
  });

  it('answer 404 for an unknown carrier or a country code that is not ISO 3166-1', async () => {
    const unknown = await sandbox.get('/carriers/00000000-0000-4000-8000-000000000000/pickup-dropoff-locations/NL/1012AB', token);
    expect(unknown.status).toBe(404);
    expect(firstError(unknown).code).toBe('10002');
    for (const country of ['XX', 'NLD', '12']) {
      const answer = await sandbox.get(path('postnl', country, '1012AB'), token);
      expect(answer.status, country).toBe(404);
      expect(firstError(answer).code).toBe('10002');
    }
  });

  it('need a valid token, but no particular scope', async () => {
    const none = await sandbox.get(path('postnl', 'NL', '1012AB'));
    expect(none.status).toBe(401);
    expect(firstError(none).code).toBe('14003');
    const bad = await sandbox.get(path('postnl', 'NL', '1012AB'), 'not-a-token');
    expect(bad.status).toBe(401);
    expect(firstError(bad).code).toBe('14002');
    const shopsOnly = await sandbox.token('sandbox-client', 'shops.manage');
    expect((await sandbox.get(path('postnl', 'NL', '1012AB'), shopsOnly)).status).toBe(200);
    expect((await sandbox.get(path('postnl', 'NL', '1012AB'), await sandbox.token('other-client'))).status).toBe(200);
  });
});

describe('findPickupLocation', () => {
  it('finds a listed code again, whatever the notation of the postal code', async () => {
    const listed = (await locations('royal-mail', 'GB', 'SW1A 1AA')).data[2];
    const found = findPickupLocation('royal-mail', 'GB', 'sw1a1aa', listed.attributes.code);
    expect(found?.address.street_1).toBe(listed.attributes.address.street_1);
    expect(found?.position).toEqual(listed.attributes.position);
    expect(findPickupLocation('royal-mail', 'GB', 'SW1A 1AA', '000000')).toBeUndefined();
    expect(findPickupLocation('evri', 'GB', 'SW1A 1AA', listed.attributes.code)).toBeUndefined();
  });

  it('agrees with the list for many postal codes', () => {
    for (let n = 1000; n < 1100; n += 7) {
      const list = pickupLocations('postnl', 'NL', `${n}XY`);
      expect(list.length).toBeGreaterThanOrEqual(5);
      for (const location of list) expect(findPickupLocation('postnl', 'NL', `${n} xy`, location.code)?.code).toBe(location.code);
    }
  });
});
