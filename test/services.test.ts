import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

let sandbox: TestSandbox;
let all: Json[];
let carriers: Json[];

const codes = (answer: { body: Json }) => answer.body.data.map((service: Json) => service.attributes.code as string);
const ids = (answer: { body: Json }) => answer.body.data.map((service: Json) => service.id as string).sort();
const idsOf = (services: Json[]) => services.map((service) => service.id as string).sort();

beforeAll(async () => {
  sandbox = await testSandbox();
  all = (await sandbox.read('/services?page[size]=100')).body.data;
  carriers = (await sandbox.read('/carriers')).body.data;
});

describe('GET /services and /services/{id}', () => {
  it('lists the whole catalogue without a token', async () => {
    expect(all.length).toBeGreaterThanOrEqual(25);
    const service = all[0];
    const single = await sandbox.read(`/services/${service.id}`);
    expect(single.status).toBe(200);
    expect(single.body.data).toEqual(service);
  });

  it("includes production's paths: carrier, the service options any rate offers and the zones of the route", async () => {
    const answer = await sandbox.read(`/services/${all[0].id}?include=carrier,service_options,zone_from,zone_to`);
    expect(answer.status).toBe(200);
    const offered = answer.body.data.relationships.service_options.data.map((o: Json) => o.id).sort();
    expect(offered.length).toBeGreaterThan(0);
    const types = answer.body.included.map((resource: Json) => resource.type);
    expect(types.filter((type: string) => type === 'carriers')).toHaveLength(1);
    expect(
      answer.body.included
        .filter((r: Json) => r.type === 'service-options')
        .map((o: Json) => o.id)
        .sort(),
    ).toEqual(offered);
    const zones = answer.body.included.filter((r: Json) => r.type === 'zones');
    const { zone_from: from, zone_to: to } = answer.body.data.relationships;
    expect(zones.map((zone: Json) => zone.id).sort()).toEqual([...new Set([from.data.id, to.data.id])].sort());
    const byId = (id: string) => zones.find((zone: Json) => zone.id === id).attributes.country_codes;
    expect(byId(from.data.id)).toEqual(all[0].attributes.regions_from.map((rule: Json) => rule.country_code));
    expect(byId(to.data.id)).toEqual(all[0].attributes.regions_to.map((rule: Json) => rule.country_code));
  });

  it("counts only the rates the caller can see in service_options: another tenant's own rates are its own", async () => {
    const s = await testSandbox();
    const [a, b] = [await s.token(), await s.token('other-client')];
    const own = (await s.get('/contracts?filter[status]=invalid', a)).body.data[0];
    const serviceId = (await s.get(`/service-rates?filter[contract]=${own.id}`, a)).body.data[0].relationships.service.data.id;
    const offered = async (token: string) =>
      (await s.get(`/services/${serviceId}`, token)).body.data.relationships.service_options.data.map((o: Json) => o.id as string);
    const before = await offered(b);
    const option = (await s.get('/service-options?page[size]=100', a)).body.data.find((o: Json) => !before.includes(o.id));
    expect(option, 'an option the service does not offer yet').toBeDefined();
    const rate = {
      data: {
        type: 'service-rates',
        attributes: { weight_min: 900000, weight_max: 950000, price: { amount: 100, currency: own.attributes.currency } },
        relationships: {
          contract: { data: { type: 'contracts', id: own.id } },
          service: { data: { type: 'services', id: serviceId } },
          service_options: { data: [{ type: 'service-options', id: option.id, meta: { price: { amount: 5, currency: own.attributes.currency } } }] },
        },
      },
    };
    const created = await s.request('POST', '/service-rates', { token: a, body: rate });
    expect(created.status, created.text).toBe(201);
    expect(await offered(a)).toContain(option.id);
    expect(await offered(b)).toEqual(before);
    const included = (await s.get(`/services/${serviceId}?include=service_options`, b)).body.included.map((o: Json) => o.id);
    expect(included).not.toContain(option.id);
  });

  it('filter[strict_consolidation] filters on the flag (no seeded service has it)', async () => {
    expect((await sandbox.read('/services?filter[strict_consolidation]=true')).body.data).toEqual([]);
    expect((await sandbox.read('/services?filter[strict_consolidation]=false&page[size]=100')).body.data).toHaveLength(all.length);
    expect(firstError(await sandbox.read('/services?filter[strict_consolidation]=maybe')).source).toEqual({ parameter: 'filter[strict_consolidation]' });
  });
});

describe('GET /services filters', () => {
  it('filter[package_type] takes a comma separated list', async () => {
    const letters = await sandbox.read('/services?page[size]=100&filter[package_type]=letter,letterbox');
    expect(ids(letters)).toEqual(idsOf(all.filter((s) => ['letter', 'letterbox'].includes(s.attributes.package_type))));
    expect(letters.body.data.length).toBeGreaterThan(0);
  });

  it('filter[carrier] takes carrier ids', async () => {
    const [first, second] = carriers;
    const answer = await sandbox.read(`/services?page[size]=100&filter[carrier]=${first.id},${second.id}`);
    expect(ids(answer)).toEqual(idsOf(all.filter((s) => [first.id, second.id].includes(s.relationships.carrier.data.id))));
  });

  it('filter[address_from] and filter[address_to] select routes by country', async () => {
    const answer = await sandbox.read('/services?page[size]=100&filter[address_from][country_code]=NL&filter[address_to][country_code]=GB');
    expect(answer.body.data.length).toBeGreaterThan(0);
    for (const service of answer.body.data) {
      expect(service.attributes.regions_from.map((rule: Json) => rule.country_code)).toContain('NL');
      expect(service.attributes.regions_to.map((rule: Json) => rule.country_code)).toContain('GB');
    }
    const domestic = await sandbox.read('/services?page[size]=100&filter[address_from][country_code]=DE&filter[address_to][country_code]=DE');
    expect(domestic.body.data.length).toBeGreaterThan(0);
  });

  it('filter[address_to][postal_code] matches postal code rules', async () => {
    const belfast = codes(await sandbox.read('/services?page[size]=100&filter[address_to][country_code]=GB&filter[address_to][postal_code]=BT1 5GS'));
    const london = codes(await sandbox.read('/services?page[size]=100&filter[address_to][country_code]=GB&filter[address_to][postal_code]=SW1A 1AA'));
    const northernIrelandOnly = all.filter((s) => s.attributes.regions_to.some((rule: Json) => rule.postal_code));
    expect(northernIrelandOnly.length).toBeGreaterThan(0);
    for (const service of northernIrelandOnly) {
      expect(belfast).toContain(service.attributes.code);
    }
    expect(london.length).toBeLessThan(belfast.length);
  });

  it('filter[address_to][state_code] matches subdivision rules', async () => {
    const byState = all.filter((s) => s.attributes.regions_to.some((rule: Json) => rule.state_code === 'NIR'));
    expect(byState.length).toBeGreaterThan(0);
    const nir = await sandbox.read('/services?page[size]=100&filter[address_to][country_code]=GB&filter[address_to][state_code]=NIR');
    const scotland = await sandbox.read('/services?page[size]=100&filter[address_to][country_code]=GB&filter[address_to][state_code]=SCT');
    for (const service of byState) {
      expect(ids(nir)).toContain(service.id);
      expect(ids(scotland)).not.toContain(service.id);
    }
  });

  it('filter[address_from][postal_code] and [state_code] narrow the origin the same way', async () => {
    const answer = await sandbox.read(
      '/services?page[size]=100&filter[address_from][country_code]=GB&filter[address_from][postal_code]=EC1A 1BB&filter[address_from][state_code]=ENG',
    );
    expect(answer.body.data.length).toBeGreaterThan(0);
    for (const service of answer.body.data) expect(service.attributes.regions_from[0].country_code).toBe('GB');
  });

  it('filter[delivery_method] separates pick-up from delivery services', async () => {
    const pickUp = await sandbox.read('/services?page[size]=100&filter[delivery_method]=pick-up');
    const delivery = await sandbox.read('/services?page[size]=100&filter[delivery_method]=delivery');
    expect(pickUp.body.data.length).toBeGreaterThan(0);
    expect(pickUp.body.data.every((s: Json) => s.attributes.delivery_method === 'pick-up')).toBe(true);
    expect(pickUp.body.meta.total_records + delivery.body.meta.total_records).toBe(all.length);
  });

  it('filter[code] matches the service code exactly', async () => {
    const code = all[0].attributes.code;
    const answer = await sandbox.read(`/services?page[size]=100&filter[code]=${code}`);
    expect(ids(answer)).toEqual(idsOf(all.filter((s) => s.attributes.code === code)));
    expect((await sandbox.read(`/services?filter[code]=${code.slice(0, -1)}`)).body.data).toEqual([]);
  });

  it('filter[region_from] and filter[region_to] take region ids', async () => {
    const region = all[0].relationships.region_to.data.id;
    const answer = await sandbox.read(`/services?page[size]=100&filter[region_to]=${region}`);
    expect(ids(answer)).toEqual(idsOf(all.filter((s) => s.relationships.region_to.data.id === region)));
    const from = all[0].relationships.region_from.data.id;
    const origin = await sandbox.read(`/services?page[size]=100&filter[region_from]=${from}`);
    expect(ids(origin)).toEqual(idsOf(all.filter((s) => s.relationships.region_from.data.id === from)));
  });

  it('combines filters with AND', async () => {
    const answer = await sandbox.read(
      '/services?page[size]=100&filter[package_type]=parcel&filter[delivery_method]=pick-up&filter[address_to][country_code]=NL',
    );
    expect(ids(answer)).toEqual(
      idsOf(
        all.filter(
          (s) =>
            s.attributes.package_type === 'parcel' &&
            s.attributes.delivery_method === 'pick-up' &&
            s.attributes.regions_to.some((rule: Json) => rule.country_code === 'NL'),
        ),
      ),
    );
  });
});

describe('GET /services filter[has_active_contract]', () => {
  const byCode = (code: string, to?: string) =>
    all.filter((s) => s.attributes.code === code && (!to || s.attributes.regions_to[0].country_code === to)).map((s) => s.id as string);

  it('splits the catalogue into services with and without an active contract', async () => {
    const withContract = ids(await sandbox.read('/services?page[size]=100&filter[has_active_contract]=true'));
    const without = ids(await sandbox.read('/services?page[size]=100&filter[has_active_contract]=false'));
    expect(withContract.length + without.length).toBe(all.length);
    expect(withContract).toEqual(expect.arrayContaining(byCode('postnl-parcel-standard')));
    // Rated only on the pending contract of organization A, and not rated at all.
    expect(without).toEqual(expect.arrayContaining(byCode('postnl-parcel-extra-at-home')));
    expect(without).toEqual(expect.arrayContaining(byCode('royal-mail-international-tracked', 'DE')));
  });

  it("counts an organization's own active contract only for that organization", async () => {
    const own = await testSandbox();
    const pending = own.store.all('contracts').find((contract) => contract.status === 'pending')!;
    await own.store.transact((tx) => tx.update('contracts', pending.id, { status: 'active' }));
    const mine = await own.token('sandbox-client');
    const theirs = await own.token('other-client');
    const extra = byCode('postnl-parcel-extra-at-home');
    expect(ids(await own.get('/services?page[size]=100&filter[has_active_contract]=true', mine))).toEqual(expect.arrayContaining(extra));
    const other = ids(await own.get('/services?page[size]=100&filter[has_active_contract]=true', theirs));
    for (const id of extra) expect(other).not.toContain(id);
  });
});

describe('GET /services bad filter values', () => {
  const cases: [string, string][] = [
    ['filter[package_type]=boxes', 'filter[package_type]'],
    ['filter[carrier]=postnl', 'filter[carrier]'],
    ['filter[address_from][country_code]=XX', 'filter[address_from][country_code]'],
    ['filter[address_to][country_code]=nl', 'filter[address_to][country_code]'],
    ['filter[address_to][state_code]=TOOLONG', 'filter[address_to][state_code]'],
    // Production's pattern is upper case only; a lower-case code matched here.
    ['filter[address_from][state_code]=nir', 'filter[address_from][state_code]'],
    ['filter[has_active_contract]=maybe', 'filter[has_active_contract]'],
    ['filter[delivery_method]=drone', 'filter[delivery_method]'],
    ['filter[colour]=red', 'filter[colour]'],
    ['sort=name', 'sort'],
  ];
  it.each(cases)('%s is a 400 naming the parameter', async (query, parameter) => {
    const answer = await sandbox.read(`/services?${query}`);
    expect(answer.status).toBe(400);
    expect(firstError(answer)).toMatchObject({ status: '400', code: '10003', source: { parameter } });
    expect(firstError(answer).detail.length).toBeGreaterThan(10);
  });
});
