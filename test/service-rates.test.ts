import { beforeAll, describe, expect, it } from 'vitest';
import { dynamicPrice } from '../src/domain/dynamic-rates.js';
import type { ServiceRateRecord } from '../src/model/service-rate.js';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

let sandbox: TestSandbox;
let tokenA: string;
let tokenB: string;
let limited: string;
/** Every rate organization A sees, as the unfiltered list answers them: the oracle of the filters. */
let all: Json[];

const ATTRIBUTES = [
  'weight_min',
  'weight_max',
  'weight_bracket',
  'length_max',
  'width_max',
  'height_max',
  'volume_max',
  'is_dynamic',
  'price',
  'fuel_surcharge',
  'oversize_surcharge',
  'includes_vat',
  'step_price',
  'step_size',
];

/** Every page of a list, so oracles never depend on the page size. */
async function list(query: string, token = tokenA): Promise<Json[]> {
  const rows: Json[] = [];
  for (let page = 1; ; page++) {
    const answer = await sandbox.get(`/service-rates?page[size]=100&page[number]=${page}${query ? `&${query}` : ''}`, token);
    expect(answer.status, answer.text).toBe(200);
    rows.push(...answer.body.data);
    if (!answer.body.links.next) return rows;
  }
}

const ids = (rows: Json[]) => rows.map((row) => row.id as string).sort();
const contractOf = (rate: Json) => sandbox.store.get('contracts', rate.relationships.contract.data.id)!;
const serviceOf = (rate: Json) => sandbox.store.get('services', rate.relationships.service.data.id)!;
const contractId = (name: string) => sandbox.store.all('contracts').find((c) => c.name === name)!.id;
const serviceId = (code: string, from: string, to: string) =>
  sandbox.store
    .all('services')
    .find(
      (s) =>
        s.code === code &&
        s.regions_from[0]!.country_code === from &&
        s.regions_to[0]!.country_code === to &&
        !s.regions_to[0]!.postal_code &&
        !s.regions_to[0]!.state_code,
    )!.id;
/** Organization A: the owner of the organization-owned contracts (B has none). */
const orgA = () => sandbox.store.all('contracts').find((c) => c.owner.type === 'organizations')!.owner.id;
const covers = (rate: Json, weight: number) => rate.attributes.weight_min <= weight && weight <= rate.attributes.weight_max;
/** The one rate of a service on a contract that covers `weight`, read from the oracle. */
const band = (contract: string, service: string, weight: number) =>
  all.find((r) => contractOf(r).id === contract && serviceOf(r).id === service && covers(r, weight))!.id as string;

beforeAll(async () => {
  sandbox = await testSandbox();
  [tokenA, tokenB, limited] = await Promise.all([sandbox.token(), sandbox.token('other-client'), sandbox.token('limited-client')]);
  all = await list('');
});

describe('GET /service-rates: visibility and scopes', () => {
  it('shows organization A its own and the broker-shared rates, and B only the shared ones', async () => {
    expect(all.length).toBe(sandbox.store.all('serviceRates').length);
    const seenByB = await list('', tokenB);
    expect(ids(seenByB)).toEqual(ids(all.filter((rate) => contractOf(rate).owner.type === 'brokers')));
    const ownOfA = all.filter((rate) => contractOf(rate).owner.type === 'organizations');
    expect(new Set(ownOfA.map((rate) => contractOf(rate).status))).toEqual(new Set(['pending', 'invalid']));
    for (const rate of ownOfA.slice(0, 3)) {
      const answer = await sandbox.get(`/service-rates/${rate.id}`, tokenB);
      expect(answer.status).toBe(404);
      expect(firstError(answer).code).toBe('10002');
    }
  });

  it('lets shipments.manage list but only organizations.manage read one', async () => {
    expect((await list('', limited)).length).toBe(all.length);
    const one = await sandbox.get(`/service-rates/${all[0].id}`, limited);
    expect(one.status).toBe(403);
    expect(firstError(one).code).toBe('14004');
    expect((await sandbox.get('/service-rates')).status).toBe(401);
  });

  it('answers a single rate exactly as the list shows it, with the documented attributes only', async () => {
    const single = await sandbox.get(`/service-rates/${all[0].id}`, tokenA);
    expect(single.body.data).toEqual(all[0]);
    for (const rate of all) {
      for (const [key, value] of Object.entries(rate.attributes)) {
        expect(ATTRIBUTES).toContain(key);
        expect(value).not.toBeNull();
      }
      expect(rate.relationships.contract.links.related).toMatch(/\/contracts\/[0-9a-f-]{36}$/);
      expect(rate.relationships.service.links.related).toMatch(/\/services\/[0-9a-f-]{36}$/);
      expect('price' in rate.attributes).toBe(!rate.attributes.weight_bracket && !rate.attributes.is_dynamic);
      expect(rate.meta).toBeUndefined();
    }
  });

  it('gives every service option its included flag, and its price when the rate has one', () => {
    const entries = all.flatMap((rate) => rate.relationships.service_options.data);
    expect(entries.every((entry: Json) => typeof entry.meta.included === 'boolean' && entry.type === 'service-options')).toBe(true);
    const stored = sandbox.store.all('serviceRates').flatMap((rate) => rate.service_options);
    expect(entries.filter((entry: Json) => entry.meta.price).length).toBe(stored.filter((option) => option.price).length);
    expect(entries.some((entry: Json) => entry.meta.included && !('price' in entry.meta))).toBe(true);
  });

  it('includes contract, contract.carrier, service, service.carrier and service_options', async () => {
    const rate = all.find((r) => r.relationships.service_options.data.length > 1)!;
    const answer = await sandbox.get(`/service-rates/${rate.id}?include=contract,contract.carrier,service,service.carrier,service_options`, tokenA);
    const included = answer.body.included.map((r: Json) => `${r.type}:${r.id}`).sort();
    const expected = [
      `contracts:${rate.relationships.contract.data.id}`,
      `services:${rate.relationships.service.data.id}`,
      `carriers:${contractOf(rate).carrier_id}`,
      ...rate.relationships.service_options.data.map((o: Json) => `service-options:${o.id}`),
    ].sort();
    expect(included).toEqual(expected);
    expect((await sandbox.get('/service-rates?include=owner', tokenA)).status).toBe(400);
  });
});

describe('GET /service-rates filters', () => {
  it('filter[has_active_contract] splits rates by contract status', async () => {
    const active = await list('filter[has_active_contract]=true');
    const others = await list('filter[has_active_contract]=false');
    expect(ids(active)).toEqual(ids(all.filter((r) => contractOf(r).status === 'active')));
    expect(ids(others)).toEqual(ids(all.filter((r) => contractOf(r).status !== 'active')));
    expect(others.length).toBeGreaterThan(0);
    expect(await list('filter[has_active_contract]=false', tokenB)).toEqual([]);
  });

  it('filter[organization] keeps the rates the caller’s organization can use; another tenant’s organization is an unknown id', async () => {
    const own = (await sandbox.get('/organizations', tokenA)).body.data[0].id;
    const seededOther = (await sandbox.get('/organizations', tokenB)).body.data[0].id;
    const tenant = await sandbox.request('POST', '/_sandbox/tenants', { body: {} });
    expect(tenant.status, tenant.text).toBe(201);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(ids(await list(`filter[organization]=${own}`))).toEqual(ids(all));
    expect(await list(`filter[organization]=${unknown}`)).toEqual([]);
    for (const foreign of [seededOther, tenant.body.organization_id]) {
      expect(foreign).not.toBe(own);
      expect(await list(`filter[organization]=${foreign}`), foreign).toEqual([]);
      expect(ids(await list(`filter[organization]=${foreign},${own}`)), foreign).toEqual(ids(all));
    }
  });

  it('filter[service] and filter[contract] take comma separated ids', async () => {
    const [s1, s2] = [all[0].relationships.service.data.id, all[all.length - 1].relationships.service.data.id];
    expect(ids(await list(`filter[service]=${s1},${s2}`))).toEqual(ids(all.filter((r) => [s1, s2].includes(serviceOf(r).id))));
    const economy = contractId('DPD Economy (broker)');
    const pending = contractId('Organization A own PostNL contract');
    expect(ids(await list(`filter[contract]=${economy},${pending}`))).toEqual(ids(all.filter((r) => [economy, pending].includes(contractOf(r).id))));
  });

  it('filter[weight] keeps rates with weight_min <= w <= weight_max', async () => {
    for (const weight of [0, 2000, 2001, 31500, 100000]) {
      expect(ids(await list(`filter[weight]=${weight}`)), `${weight} g`).toEqual(ids(all.filter((r) => covers(r, weight))));
    }
  });

  it('filter[weight] takes a decimal number of grams, as production types it (number)', async () => {
    // 1500.5 g sits inside the ranges that hold 1500 g; 2000.5 g lies above a range ending at 2000 and below one starting at 2001.
    for (const weight of [1500.5, 2000.5]) {
      expect(ids(await list(`filter[weight]=${weight}`)), `${weight} g`).toEqual(ids(all.filter((r) => covers(r, weight))));
    }
    expect(ids(await list('filter[weight]=1500.5'))).toEqual(ids(await list('filter[weight]=1500')));
    // A bracket rate prices a started step for the half gram above its start.
    const [rate] = await list(
      `filter[weight]=2000.5&filter[contract]=${contractId('PostNL (broker)')}&filter[service]=${serviceId('postnl-parcel-business', 'NL', 'NL')}`,
    );
    expect(rate.meta).toEqual({ bracket_price: { amount: 670, currency: 'EUR' } });
  });

  it('computes meta.bracket_price at the bracket boundaries', async () => {
    // PostNL Business on the broker contract: start 2000 / 625 cents, then 45 per started 1000 g.
    const contract = contractId('PostNL (broker)');
    const service = serviceId('postnl-parcel-business', 'NL', 'NL');
    for (const [weight, amount] of [
      [2000, 625],
      [2001, 670],
      [3000, 670],
      [3001, 715],
    ] as const) {
      const [rate] = await list(`filter[weight]=${weight}&filter[contract]=${contract}&filter[service]=${service}`);
      expect(rate.meta, `${weight} g`).toEqual({ bracket_price: { amount, currency: 'EUR' } });
    }
    const plain = await list(`filter[weight]=2000&filter[contract]=${contract}`);
    expect(plain.filter((r) => !r.attributes.weight_bracket).every((r) => r.meta === undefined)).toBe(true);
  });

  it('moves a heavy-by-volume parcel up a range on volumetric services only', async () => {
    // 20 litres: 3334 g with DPD's divisor 6000, 2667 g with DPD Economy's 6000 x 1.25 = 7500.
    const europe = serviceId('dpd-classic', 'NL', 'DE');
    const domestic = serviceId('dpd-classic', 'DE', 'DE');
    const dpd = contractId('DPD (broker)');
    const economy = contractId('DPD Economy (broker)');
    const found = ids(await list(`filter[weight]=1000&filter[volume]=20&filter[service]=${europe},${domestic}&filter[contract]=${dpd},${economy}`));
    expect(found).toEqual([band(dpd, europe, 3334), band(economy, europe, 2667), band(dpd, domestic, 1000), band(economy, domestic, 1000)].sort());
    expect(band(dpd, europe, 3334)).not.toBe(band(dpd, europe, 1000));
    expect(band(economy, europe, 2667)).toBe(band(economy, europe, 1000));
  });

  it('filter[volume] alone selects volumetric services by volume and leaves the others unfiltered', async () => {
    const litres = 30;
    const expected = all.filter((r) => !serviceOf(r).uses_volumetric_weight || covers(r, Math.ceil((litres * 1e6) / divisorOf(r))));
    const found = await list(`filter[volume]=${litres}`);
    expect(ids(found)).toEqual(ids(expected));
    expect(found.length).toBeLessThan(all.length);
  });

  it('filter[volumetric_weight] picks the higher weight, on volumetric services only', async () => {
    const combined = await list('filter[weight]=1000&filter[volumetric_weight]=12000');
    expect(ids(combined)).toEqual(ids(all.filter((r) => covers(r, serviceOf(r).uses_volumetric_weight ? 12000 : 1000))));
    const alone = await list('filter[volumetric_weight]=12000');
    expect(ids(alone)).toEqual(ids(all.filter((r) => !serviceOf(r).uses_volumetric_weight || covers(r, 12000))));
  });

  it('prices a volumetric bracket by the chargeable weight, with the contract factor', async () => {
    // DPD Classic DE-NL brackets: 30 l is 5000 g at divisor 6000 and 4000 g at 7500.
    const service = serviceId('dpd-classic', 'DE', 'NL');
    const rates = await list(`filter[weight]=1000&filter[volume]=30&filter[service]=${service}`);
    const price = (name: string) => rates.find((r) => contractOf(r).id === contractId(name))!.meta.bracket_price;
    expect(price('DPD (broker)')).toEqual({ amount: 850 + 2 * 35, currency: 'EUR' });
    expect(price('DPD Economy (broker)')).toEqual({ amount: 790 + 32, currency: 'EUR' });
  });

  it('combines every filter with AND', async () => {
    const dpd = contractId('DPD (broker)');
    const found = await list(
      `filter[has_active_contract]=true&filter[weight]=5000&filter[volume]=40&filter[contract]=${dpd},${contractId('Organization A own DPD contract')}`,
    );
    expect(ids(found)).toEqual(
      ids(
        all.filter((r) => contractOf(r).id === dpd && covers(r, serviceOf(r).uses_volumetric_weight ? Math.max(5000, Math.ceil(40e6 / divisorOf(r))) : 5000)),
      ),
    );
    expect(found.length).toBeGreaterThan(0);
  });

  it('rejects bad filter values with 400/10003 naming the parameter', async () => {
    const bad = [
      'filter[weight]=-1',
      'filter[weight]=abc',
      'filter[weight]=1.',
      'filter[volume]=-0.5',
      'filter[volume]=lots',
      'filter[volumetric_weight]=-3',
      'filter[service]=not-a-uuid',
      'filter[contract]=ABC',
      'filter[has_active_contract]=maybe',
    ];
    for (const query of bad) {
      const answer = await sandbox.get(`/service-rates?${query}`, tokenA);
      expect(answer.status, query).toBe(400);
      expect(firstError(answer).code).toBe('10003');
      expect(firstError(answer).source.parameter).toBe(query.split('=')[0]);
    }
  });
});

/** Divisor of a rate's service times its contract's factor. */
function divisorOf(rate: Json): number {
  return serviceOf(rate).volumetric_weight_divisor! * contractOf(rate).volumetric_weight_divisor_factor;
}

describe('POST /get-dynamic-service-rates', () => {
  const address = (country_code: string) => ({ first_name: 'Sam', last_name: 'Jansen', street_1: 'Main Street 1', city: 'Somewhere', country_code });
  const ref = (type: string, id: string) => ({ data: { type, id } });
  /** The shop production requires, one of organization A's, unless `relationships` names another. */
  const ownShop = () => ref('shops', sandbox.store.all('shops').find((s) => s.organization_id === orgA())!.id);
  const body = (from: string, to: string, physical_properties: Json, relationships?: Json) => ({
    data: {
      type: 'shipments',
      attributes: { sender_address: address(from), recipient_address: address(to), physical_properties },
      relationships: { shop: ownShop(), ...relationships },
    },
  });
  const post = (payload: unknown, token = tokenA) => sandbox.request('POST', '/get-dynamic-service-rates', { body: payload, token });
  const stored = (id: string) => sandbox.store.get('serviceRates', id) as ServiceRateRecord;

  it('prices the dynamic rates that cover the route and weight, the same way every time', async () => {
    const first = await post(body('NL', 'GB', { weight: 2500 }));
    expect(first.status, first.text).toBe(200);
    expect(first.body.meta).toEqual({});
    expect(first.body.links).toEqual({});
    const [rate] = first.body.data;
    expect(first.body.data).toHaveLength(1);
    expect(stored(rate.id)).toMatchObject({ is_dynamic: true, service_id: serviceId('dhl-express-worldwide', 'NL', 'GB'), weight_min: 0 });
    expect(rate.attributes.price).toEqual(dynamicPrice({ carrierCode: 'dhl-express', weight: 2500, crossBorder: true, currency: 'EUR' }));
    expect((await post(body('NL', 'GB', { weight: 2500 }))).body).toEqual(first.body);
    expect((await sandbox.request('POST', '/get-dynamic-service-rates', { body: body('NL', 'GB', { weight: 2500 }), token: limited })).status).toBe(200);
  });

  it("takes null dimensions and a null contract or service relationship as left out, as production's schema lets them be", async () => {
    const plain = await post(body('NL', 'GB', { weight: 2500 }));
    const nulls = await post(body('NL', 'GB', { weight: 2500, length: null, width: null, height: null }, { contract: null, service: null }));
    expect(nulls.status, nulls.text).toBe(200);
    expect(nulls.body).toEqual(plain.body);
    expect(plain.body.data).toHaveLength(1);
  });

  it('matches the route and selects the range by chargeable weight', async () => {
    const nlGb = serviceId('dhl-express-worldwide', 'NL', 'GB');
    const heavy = (await post(body('NL', 'GB', { weight: 40000 }))).body.data;
    expect(heavy.map((r: Json) => [r.attributes.weight_min, r.relationships.service.data.id])).toEqual([[30001, nlGb]]);
    // 610 x 500 x 500 mm at divisor 5000 is 30500 g: the heavier range, although the parcel weighs 1 kg.
    const bulky = (await post(body('NL', 'GB', { weight: 1000, length: 610, width: 500, height: 500 }))).body.data;
    expect(bulky.map((r: Json) => r.attributes.weight_min)).toEqual([30001]);
    expect(bulky[0].attributes.price.amount).toBe(dynamicPrice({ carrierCode: 'dhl-express', weight: 30500, crossBorder: true, currency: 'EUR' }).amount);
    const gbDe = (await post(body('GB', 'DE', { weight: 1000 }))).body.data;
    expect(gbDe.map((r: Json) => r.relationships.service.data.id)).toEqual([serviceId('dhl-express-worldwide', 'GB', 'DE')]);
    expect((await post(body('NL', 'NL', { weight: 1000 }))).body.data).toEqual([]);
    const narrowed = await post(body('NL', 'GB', { weight: 1000 }, { service: ref('services', serviceId('dhl-express-worldwide', 'GB', 'DE')) }));
    expect(narrowed.body.data).toEqual([]);
  });

  it('accepts a visible active contract and an own shop in the relationships', async () => {
    const shop = sandbox.store.all('shops').find((s) => s.organization_id === orgA())!;
    const answer = await post(
      body('NL', 'GB', { weight: 1000 }, { contract: ref('contracts', contractId('DHL Express (broker)')), shop: ref('shops', shop.id) }),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toHaveLength(1);
  });

  it('answers 422/10008 for unknown, invisible or inactive relationships', async () => {
    const cases: [Json, string][] = [
      [{ contract: ref('contracts', '00000000-0000-4000-8000-000000000000') }, 'contract'],
      [{ contract: ref('contracts', contractId('Organization A own PostNL contract')) }, 'contract'],
      [{ service: ref('services', '00000000-0000-4000-8000-000000000000') }, 'service'],
      [{ shop: ref('shops', sandbox.store.all('shops').find((s) => s.organization_id !== orgA())!.id) }, 'shop'],
    ];
    for (const [relationships, name] of cases) {
      const answer = await post(body('NL', 'GB', { weight: 1000 }, relationships));
      expect(answer.status, name).toBe(422);
      expect(firstError(answer).code).toBe('10008');
      expect(firstError(answer).source.pointer).toBe(`/data/relationships/${name}/data/id`);
    }
    const foreign = await post(body('NL', 'GB', { weight: 1000 }, { contract: ref('contracts', contractId('Organization A own DPD contract')) }), tokenB);
    expect(foreign.status).toBe(422);
  });

  it('answers 400/10003 with pointers for schema violations', async () => {
    const missing = await post({
      data: {
        type: 'shipments',
        attributes: { sender_address: address('NL'), recipient_address: { city: 'X', country_code: 'XX' }, physical_properties: { weight: 0 } },
        relationships: { shop: ownShop() },
      },
    });
    expect(missing.status).toBe(400);
    const pointers = missing.body.errors.map((e: Json) => e.source.pointer).sort();
    expect(pointers).toEqual([
      '/data/attributes/physical_properties/weight',
      '/data/attributes/recipient_address/country_code',
      // The recipient is a person, as on a shipment (production checks this body against its shipment schema).
      '/data/attributes/recipient_address/first_name',
      '/data/attributes/recipient_address/last_name',
      '/data/attributes/recipient_address/street_1',
    ]);
    // Another type is a conflict with the endpoint (409), as on every other write; it was a 400.
    expect(firstError(await post({ ...body('NL', 'GB', { weight: 1 }), data: { ...body('NL', 'GB', { weight: 1 }).data, type: 'parcels' } }))).toMatchObject({
      status: '409',
      code: '10007',
      source: { pointer: '/data/type' },
    });
  });

  it("requires what production's contract requires of the body: data.type, the shop relationship and colli in a meta", async () => {
    const { type, ...untyped } = body('NL', 'GB', { weight: 2500 }).data;
    expect(type).toBe('shipments');
    const cases = [
      [{ data: untyped }, '/data/type'],
      [{ data: { ...untyped, type, relationships: undefined } }, '/data/relationships'],
      [{ data: { ...untyped, type, relationships: { contract: null, service: null } } }, '/data/relationships/shop'],
      // The meta is optional, but one without colli is refused as production's.
      [{ data: { ...untyped, type }, meta: {} }, '/meta/colli'],
    ] as const;
    for (const [payload, pointer] of cases) {
      const answer = await post(payload);
      expect(answer.status, `${pointer}: ${answer.text}`).toBe(400);
      expect(answer.body.errors.map((error: Json) => error.source.pointer)).toEqual([pointer]);
    }
  });

  it("holds the physical properties to production's bounds: whole numbers up to 2147483647, a volume of at least 0.01 litres", async () => {
    expect((await post(body('NL', 'GB', { weight: 2500, volume: 0.01 }))).status).toBe(200);
    const outside = [
      [{ weight: 2147483648 }, 'weight'],
      [{ weight: 2500, length: 2147483648 }, 'length'],
      [{ weight: 2500, volume: 0.005 }, 'volume'],
    ] as const;
    for (const [physical, member] of outside) {
      const answer = await post(body('NL', 'GB', physical));
      expect(answer.status, `${member}: ${answer.text}`).toBe(400);
      expect(firstError(answer).source).toEqual({ pointer: `/data/attributes/physical_properties/${member}` });
    }
    const collo = await post({ ...body('NL', 'GB', { weight: 2500 }), meta: { colli: [{ physical_properties: { weight: 2500, volume: 0.001 } }] } });
    expect([collo.status, firstError(collo).source]).toEqual([400, { pointer: '/meta/colli/0/physical_properties/volume' }]);
  });

  it("takes a shipment's service options and coverage and ignores them, but refuses them in a shape a shipment's are refused in", async () => {
    const plain = await post(body('NL', 'GB', { weight: 2500 }));
    const [option] = sandbox.store.all('serviceOptions');
    const coverage = sandbox.store.all('liabilityCoverages')[0]!;
    const taken = await post(
      body(
        'NL',
        'GB',
        { weight: 2500 },
        {
          service_options: { data: [{ type: 'service-options', id: option!.id, meta: { values: { amount: 1000 } } }] },
          liability_coverage: ref('liability-coverages', coverage.id),
        },
      ),
    );
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body).toEqual(plain.body);
    const refused = [
      [{ service_options: { data: 'signature' } }, '/data/relationships/service_options/data'],
      [
        { service_options: { data: [{ type: 'service-options', id: option!.id, meta: { values: 1000 } }] } },
        '/data/relationships/service_options/data/0/meta/values',
      ],
      [{ liability_coverage: { data: { type: 'liability-coverages' } } }, '/data/relationships/liability_coverage/data/id'],
    ] as const;
    for (const [relationships, pointer] of refused) {
      const answer = await post(body('NL', 'GB', { weight: 2500 }, relationships));
      expect([answer.status, firstError(answer).code, firstError(answer).source], pointer).toEqual([400, '10003', { pointer }]);
    }
  });

  it("takes a shipment's other attributes and ignores them, but refuses what production's closed shipment schema does not know", async () => {
    const plain = await post(body('NL', 'GB', { weight: 2500 }));
    const plainBody = body('NL', 'GB', { weight: 2500, volume: 2 });
    const withShipment = {
      ...plainBody,
      data: {
        ...plainBody.data,
        attributes: {
          ...plainBody.data.attributes,
          description: 'Shoes',
          total_value: { amount: 5000, currency: 'EUR' },
          customs: { content_type: 'merchandise', invoice_number: 'INV-1', non_delivery: 'return', incoterm: 'DAP' },
          tags: ['a'],
        },
      },
    };
    const taken = await post(withShipment);
    expect(taken.status, taken.text).toBe(200);
    expect(taken.body).toEqual(plain.body);
    const unknown = (attributes: Json) =>
      post({ ...withShipment, data: { ...withShipment.data, attributes: { ...withShipment.data.attributes, ...attributes } } });
    const refused = [
      [await unknown({ descripton: 'Shoes' }), '/data/attributes/descripton'],
      [await unknown({ total_value: { amount: 5000, currency: 'EUR', cents: true } }), '/data/attributes/total_value/cents'],
      [
        await unknown({ customs: { content_type: 'merchandise', non_delivery: 'return', incoterm: 'DAP', incoterms: 'DAP' } }),
        '/data/attributes/customs/incoterms',
      ],
      [await unknown({ physical_properties: { weight: 2500, wieght: 1 } }), '/data/attributes/physical_properties/wieght'],
    ] as const;
    for (const [answer, pointer] of refused) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.errors.map((error: Json) => error.source.pointer)).toContain(pointer);
    }
  });
});
