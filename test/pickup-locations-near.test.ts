import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { readmeBlocks } from './support/readme.js';

/** Searches around coordinates: `GET /carriers/{id}/pickup-dropoff-locations/{latitude}/{longitude}`. */

let sandbox: TestSandbox;
let token: string;
let carriers: Record<string, Json>;

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  carriers = Object.fromEntries((await sandbox.get('/carriers')).body.data.map((c: Json) => [c.attributes.code, c]));
});

const AMSTERDAM = ['52.3728', '4.8936'] as const;

const path = (carrier: string, latitude: string, longitude: string, query = '') =>
  `/carriers/${carriers[carrier].id}/pickup-dropoff-locations/${latitude}/${longitude}${query ? `?${query}` : ''}`;

async function near(carrier: string, latitude: string, longitude: string, query = ''): Promise<Json> {
  const answer = await sandbox.get(path(carrier, latitude, longitude, query), token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** Great-circle distance in metres. */
function metres(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

const ids = (body: Json): string[] => body.data.map((l: Json) => l.id);

describe('pick-up/drop-off locations around coordinates', () => {
  it("find the locker of README.md's radius example, as its comment says", async () => {
    const line = readmeBlocks()
      .flatMap((block) => block.code.split('\n'))
      .find((text) => text.includes('filter[location_type]=locker&filter[radius]='));
    const query = /\/pickup-dropoff-locations\/52\.3728\/4\.8936\?([^"]+)"/.exec(line ?? '')?.[1];
    expect(query, 'README.md searches for lockers around 52.3728/4.8936 with a radius').toBeDefined();
    const body = await near('postnl', ...AMSTERDAM, query);
    expect(body.data.map((location: Json) => location.attributes.location_type)).toEqual(['locker']);
    expect(body.data[0].meta.distance).toBe(2618);
  });

  it('near Amsterdam are Dutch, within a few km, nearest first', async () => {
    const body = await near('postnl', ...AMSTERDAM);
    const list = body.data;
    expect(list.length).toBeGreaterThanOrEqual(5);
    expect(list.length).toBeLessThanOrEqual(10);
    expect(body.meta).toEqual({ total_pages: 1, total_records: list.length });
    const point = { latitude: 52.3728, longitude: 4.8936 };
    const distances = list.map((l: Json) => l.meta.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    for (const location of list) {
      const { attributes: a } = location;
      expect(location.id).toBe(`N52.3728-E4.8936-${a.code}`);
      expect(location.links.self).toBe(`http://sandbox.test/carriers/${carriers.postnl.id}/pickup-dropoff-locations/${location.id}`);
      expect(location.relationships.carrier.data).toEqual({ type: 'carriers', id: carriers.postnl.id });
      expect(a.address).toMatchObject({ country_code: 'NL', city: 'Amsterdam' });
      // Amsterdam's postal codes: 10xx AB.
      expect(a.address.postal_code).toMatch(/^10\d\d [A-Z]{2}$/);
      // Placed around the point, `meta.distance` metres from it.
      const away = metres(point, a.position);
      expect(away).toBeLessThan(4000);
      expect(Math.abs(away - location.meta.distance)).toBeLessThan(10);
    }
    // A Dutch carrier's Dutch names.
    expect(
      list.some((l: Json) =>
        /Postkantoor|Pakketautomaat|Tabakszaak|Boekhandel|Supermarkt|Drogisterij|Bloemenhuis|Buurtwinkel/.test(l.attributes.address.company),
      ),
    ).toBe(true);
  });

  it('are the same for the same carrier and rounded coordinates, whatever the seed', async () => {
    const first = await near('postnl', ...AMSTERDAM);
    expect(await near('postnl', ...AMSTERDAM)).toEqual(first);
    // Rounded to 4 decimals; an explicit + sign is the same number.
    expect(ids(await near('postnl', '52.37284', '+4.89361'))).toEqual(ids(first));
    const other = await testSandbox({ seed: 7 });
    const postnl = (await other.get('/carriers')).body.data.find((c: Json) => c.attributes.code === 'postnl');
    const seeded = await other.get(`/carriers/${postnl.id}/pickup-dropoff-locations/52.3728/4.8936`, await other.token());
    expect(seeded.body.data.map((l: Json) => [l.id, l.attributes, l.meta])).toEqual(first.data.map((l: Json) => [l.id, l.attributes, l.meta]));
    // Another point or another carrier is another search.
    expect(ids(await near('postnl', '52.3600', '4.8800'))).not.toEqual(ids(first));
    expect(ids(await near('dpd', ...AMSTERDAM))).not.toEqual(ids(first));
  });

  it('take the country and city of the nearest city the sandbox knows, in every hemisphere', async () => {
    for (const [latitude, longitude, country, city, postal, id] of [
      ['48.14', '11.58', 'DE', 'München', /^80\d{3}$/, /^N48\.1400-E11\.5800-\d{6}$/],
      ['51.51', '-0.13', 'GB', 'London', /^[A-Z]{1,2}\d{1,2} \d[A-Z]{2}$/, /^N51\.5100-W0\.1300-\d{6}$/],
      ['-33.87', '151.2', 'AU', 'Sydney', /^20\d\d$/, /^S33\.8700-E151\.2000-\d{6}$/],
      ['40.71', '-74.01', 'US', 'New York', /^100\d\d$/, /^N40\.7100-W74\.0100-\d{6}$/],
      // Haarlem, 18 km west of Amsterdam: nearer to Haarlem.
      ['52.38', '4.64', 'NL', 'Haarlem', /^20\d\d [A-Z]{2}$/, /^N52\.3800-E4\.6400-\d{6}$/],
    ] as const) {
      const list = (await near('dpd', latitude, longitude)).data;
      expect(list.length, `${latitude}/${longitude}`).toBeGreaterThanOrEqual(5);
      for (const location of list) {
        expect(location.attributes.address).toMatchObject({ country_code: country, city });
        expect(location.attributes.address.postal_code).toMatch(postal);
        expect(location.id).toMatch(id);
        expect(metres({ latitude: Number(latitude), longitude: Number(longitude) }, location.attributes.position)).toBeLessThan(4000);
      }
    }
  });

  it('filter by category, feature, location type and radius', async () => {
    const all = (await near('dhl-express', ...AMSTERDAM, 'page[size]=100')).data;
    const check = async (query: string, keep: (l: Json) => boolean) => {
      const filtered = (await near('dhl-express', ...AMSTERDAM, query)).data;
      expect(
        filtered.map((l: Json) => l.id),
        query,
      ).toEqual(all.filter(keep).map((l: Json) => l.id));
    };
    await check('filter[categories]=pick-up', (l) => l.attributes.categories.includes('pick-up'));
    await check('filter[categories]=pick-up,drop-off', (l) => l.attributes.categories.length === 2);
    await check('filter[features]=print-label-in-store', (l) => l.attributes.features.includes('print-label-in-store'));
    await check('filter[location_type]=locker,office-shop', (l) => ['locker', 'office-shop'].includes(l.attributes.location_type));
    const radius = all[Math.floor(all.length / 2)].meta.distance;
    await check(`filter[radius]=${radius}`, (l) => l.meta.distance <= radius);
    await check('filter[radius]=0', () => false);
    await check(`filter[radius]=${radius}&filter[categories]=drop-off`, (l) => l.meta.distance <= radius && l.attributes.categories.includes('drop-off'));
  });

  it('paginate with links that keep the query', async () => {
    const all = (await near('postnl', ...AMSTERDAM)).data;
    const page = await near('postnl', ...AMSTERDAM, 'filter[radius]=5000&page[size]=2&page[number]=2');
    expect(page.meta).toEqual({ total_pages: Math.ceil(all.length / 2), total_records: all.length });
    expect(ids(page)).toEqual(all.slice(2, 4).map((l: Json) => l.id));
    const base = `http://sandbox.test${path('postnl', ...AMSTERDAM)}?filter[radius]=5000`;
    expect(page.links.self).toBe(`${base}&page[number]=2&page[size]=2`);
    expect(page.links.first).toBe(`${base}&page[number]=1&page[size]=2`);
  });

  it('have ids that GET .../{pudo_id} resolves, for the same carrier only', async () => {
    const listed = (await near('postnl', '-33.87', '151.2')).data;
    for (const location of [listed[0], listed[listed.length - 1]]) {
      const one = await sandbox.get(`/carriers/${carriers.postnl.id}/pickup-dropoff-locations/${location.id}`, token);
      expect(one.status, one.text).toBe(200);
      expect(one.body.data).toEqual(location);
      expect(one.body.links.self).toBe(location.links.self);
    }
    const otherCarrier = await sandbox.get(`/carriers/${carriers.dpd.id}/pickup-dropoff-locations/${listed[0].id}`, token);
    expect(otherCarrier.status).toBe(404);
    for (const id of ['S33.8700-E151.2000-000000', 'N95.0000-E4.8936-123456', 'N52.3728-E4.8936', 'n52.3728-e4.8936-123456', 'N52.37-E4.89-123456']) {
      const answer = await sandbox.get(`/carriers/${carriers.postnl.id}/pickup-dropoff-locations/${id}`, token);
      expect(answer.status, id).toBe(404);
      expect(firstError(answer).code).toBe('10002');
    }
  });

  it('are none far from every city the sandbox knows', async () => {
    // The North Sea (70 km off Middelburg), the Gulf of Guinea, the middle of the Atlantic.
    for (const [latitude, longitude] of [
      ['52.0', '3.0'],
      ['0', '0'],
      ['-30.5', '-20.25'],
    ]) {
      const body = await near('postnl', latitude!, longitude!);
      expect(body.data, `${latitude}/${longitude}`).toEqual([]);
      expect(body.meta).toEqual({ total_pages: 0, total_records: 0 });
    }
  });

  it('refuse the address hints of the postal code search, and bad radius values, naming the parameter', async () => {
    for (const [query, parameter] of [
      ['street=Damrak', 'street'],
      ['street_number=70', 'street_number'],
      ['city=Utrecht', 'city'],
      ['filter[radius]=abc', 'filter[radius]'],
      ['filter[radius]=-5', 'filter[radius]'],
      ['radius=500', 'radius'],
    ]) {
      const answer = await sandbox.get(path('postnl', ...AMSTERDAM, query), token);
      expect(answer.status, query).toBe(400);
      expect(firstError(answer), query).toMatchObject({ code: '10003', source: { parameter } });
    }
    const contract = await sandbox.get(path('postnl', ...AMSTERDAM, 'contract=00000000-0000-4000-8000-000000000000'), token);
    expect(contract.status).toBe(422);
    expect(firstError(contract).source).toEqual({ parameter: 'contract' });
  });

  it('answer 404 for segments that are neither coordinates nor a country code and postal code', async () => {
    for (const [first, second] of [
      ['95.0', '4.8936'],
      ['52.3728', '181'],
      ['-90.5', '0'],
      ['52,3728', '4,8936'],
      ['52.3728', 'abc'],
      ['1e1', '4.89'],
      ['52.', '4.89'],
    ]) {
      const answer = await sandbox.get(path('postnl', first!, encodeURIComponent(second!)), token);
      expect(answer.status, `${first}/${second}`).toBe(404);
      expect(firstError(answer).code).toBe('10002');
      expect(firstError(answer).detail).toContain('latitude (-90 to 90) and a longitude (-180 to 180)');
    }
    // The limits themselves are coordinates (no locations there).
    for (const [first, second] of [
      ['90', '180'],
      ['-90.0', '-180.000'],
    ])
      expect((await near('postnl', first!, second!)).data).toEqual([]);
    const unknown = await sandbox.get(`/carriers/00000000-0000-4000-8000-000000000000/pickup-dropoff-locations/${AMSTERDAM.join('/')}`, token);
    expect(unknown.status).toBe(404);
  });

  it('need a valid token', async () => {
    expect((await sandbox.get(path('postnl', ...AMSTERDAM))).status).toBe(401);
  });
});
