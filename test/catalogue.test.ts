// Named import: under NodeNext the default import of this CommonJS module types as its namespace.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { baseSet } from '../src/fixtures/base-set.js';
import type { Price } from '../src/model/common.js';
import { carrierAttributes } from '../src/model/carrier.js';
import { liabilityCoverageAttributes } from '../src/model/contract.js';
import { regionAttributes } from '../src/model/region.js';
import { returnStatusDefs } from '../src/model/returns/statuses.js';
import { serviceOptionAttributes, serviceOptionCategories } from '../src/model/service-option.js';
import { serviceRateAttributes } from '../src/model/service-rate.js';
import { deliveryMethods, handoverMethods, packageTypes, serviceAttributes } from '../src/model/service.js';
import { statusAttributes, statusLevels } from '../src/model/status.js';
import type { z } from 'zod';
import { testSandbox } from './support/app.js';

const rows = baseSet().rows;
const [carriers, regions, services, serviceOptions, statuses, liabilityCoverages, serviceRates] = [
  rows.carriers!,
  rows.regions!,
  rows.services!,
  rows.service_options!,
  rows.statuses!,
  rows.liability_coverages!,
  rows.service_rates!.map((rate) => ({ ...rate, service_options: rate.service_options ?? [] })),
];
/** Contracts with their owner as one key: the broker, or organization A or B. */
const contracts = rows.contracts!.map((contract) => ({ ...contract, owner: contract.broker !== undefined ? 'broker' : contract.organization! }));

/**
 * Credentials behind each seeded contract, as a user would have entered them: the broker contracts
 * and organization A's pending PostNL contract satisfy their carrier's `credentials_format`; the
 * DPD contract carries the sandbox's `invalid` marker, which is why its verification failed.
 */
const contractCredentials: Record<string, Record<string, string>> = {
  'broker-postnl': { customer_code: 'BRKR', customer_number: '10000001', api_key: 'sandbox-postnl-broker-key-0000000001' },
  'broker-dpd': { delis_id: 'brokerdpd', password: 'sandbox-dpd-1', depot: '0163' },
  'broker-dpd-economy': { delis_id: 'brokereco', password: 'sandbox-dpd-2', depot: '0163' },
  'broker-dhl-express': { account_number: '950000001', api_key: 'brokerdhl', api_secret: 'sandbox-dhl-1' },
  'broker-royal-mail': { api_key: '5a1f0c3e-8b2d-4e6f-9a7b-1c2d3e4f5a6b', posting_location: '9000000001' },
  'broker-bpost': { account_id: '100001', passphrase: 'sandbox-bpost-1' },
  'broker-evri': { client_id: 'broker', client_secret: 'sandbox-evri-secret-1', client_uid: 'BRKR0001' },
  'org-a-postnl': { customer_code: 'ORGA', customer_number: '20000001', api_key: 'sandbox-postnl-org-a-key-000000001' },
  'org-a-dpd': { delis_id: 'orgadpd', password: 'invalid', depot: '0163' },
};

const byKey = <T, K extends keyof T>(list: T[], key: K): Map<T[K], T> => new Map(list.map((item) => [item[key], item]));
const carrierByCode = byKey(carriers, 'code');
const regionByKey = byKey(regions, 'key');
const serviceByKey = byKey(services, 'key');
const optionByCode = byKey(serviceOptions, 'code');
const contractByKey = byKey(contracts, 'key');

/** Looks a key up and fails the test with a readable message when it does not resolve. */
function must<K, V>(map: Map<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`unknown ${what} ${String(key)}`);
  return value;
}

const newAjv = () => new Ajv2020({ allErrors: true });

/** Valid credentials per carrier, as a user would paste them into POST /contracts. */
const validCredentials: Record<string, Record<string, unknown>> = {
  postnl: { customer_code: 'DEVC', customer_number: '11223344', api_key: 'a'.repeat(32) },
  dpd: { delis_id: 'sandbox01', password: 'correct-horse', depot: '0163' },
  'dhl-express': { account_number: '123456789', api_key: 'sandboxuser', api_secret: 'sandboxsecret' },
  'royal-mail': { api_key: '0f4c2a8e-5b1d-4c3e-9a7f-2d6b8e1c3a5f', posting_location: '9000123456' },
  bpost: { account_id: '123456', passphrase: 'open-sesame' },
  evri: { client_id: 'shop', client_secret: 'sandbox-secret-0001', client_uid: 'EVRI12345' },
};

describe('catalogue keys and references', () => {
  it('uses unique keys within each list', () => {
    const unique = (values: unknown[]) => expect(new Set(values).size).toBe(values.length);
    unique(carriers.map((c) => c.code));
    unique(regions.map((r) => r.key));
    unique(services.map((s) => s.key));
    unique(serviceOptions.map((o) => o.code));
    unique(statuses.map((s) => s.code));
    unique(contracts.map((c) => c.key));
  });

  it('resolves every key reference', () => {
    for (const r of regions) if (r.parent !== undefined) must(regionByKey, r.parent, 'region');
    for (const s of services) {
      must(carrierByCode, s.carrier, 'carrier');
      must(regionByKey, s.region_from, 'region');
      must(regionByKey, s.region_to, 'region');
    }
    for (const c of contracts) must(carrierByCode, c.carrier, 'carrier');
    for (const l of liabilityCoverages) must(contractByKey, l.contract, 'contract');
    for (const rate of serviceRates) {
      must(contractByKey, rate.contract, 'contract');
      must(serviceByKey, rate.service, 'service');
      for (const o of rate.service_options) must(optionByCode, o.option, 'service option');
    }
  });

  it('is answered, row by row, in the attribute schemas of the API', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const lists: [string, z.ZodType, number][] = [
      ['/carriers', carrierAttributes, carriers.length],
      ['/regions', regionAttributes, regions.length],
      ['/services', serviceAttributes, services.length],
      ['/service-options', serviceOptionAttributes, serviceOptions.length],
      // The catalogue's statuses, with those of returns and their reports.
      ['/statuses', statusAttributes, statuses.length],
    ];
    for (const [path, schema, count] of lists) {
      const answer = await sandbox.get(`${path}?page[size]=100`, token);
      expect(answer.body.meta.total_records, path).toBe(count);
      for (const row of answer.body.data) schema.parse(row.attributes);
    }
    for (const rate of (await sandbox.get('/service-rates?page[size]=100', token)).body.data) serviceRateAttributes.parse(rate.attributes);
    const coverage = liabilityCoverages[0]!;
    expect(liabilityCoverageAttributes.safeParse({ name: coverage.name, price: coverage.price, coverage_max: coverage.coverage_max }).success).toBe(true);
  });
});

describe('regions', () => {
  it('form one tree rooted at Earth', () => {
    const roots = regions.filter((r) => r.parent === undefined);
    expect(roots.map((r) => [r.key, r.category, r.name])).toEqual([['earth', 'world', 'Earth']]);
    for (const r of regions) {
      const seen = new Set<string>();
      for (let at: string | undefined = r.key; at !== undefined; at = must(regionByKey, at, 'region').parent) {
        expect(seen.has(at)).toBe(false);
        seen.add(at);
      }
      expect(seen.has('earth')).toBe(true);
    }
  });

  it('give countries and subdivisions their codes', () => {
    for (const r of regions.filter((x) => x.category === 'country' || x.category === 'subdivision')) {
      expect(r.country_code).toMatch(/^[A-Z]{2}$/);
      expect(r.region_code).toMatch(/^[A-Z]{3}$/);
      expect(r.currency).toMatch(/^(EUR|GBP)$/);
    }
    expect(regionByKey.get('gb-nir')).toMatchObject({ parent: 'gb', country_code: 'GB', region_code: 'NIR' });
  });
});

describe('carriers', () => {
  it('offer several label formats, always including an A6 PDF', () => {
    expect(carriers.length).toBeGreaterThanOrEqual(5);
    for (const c of carriers) {
      expect(c.label_formats).toContainEqual({ mime_type: 'application/pdf', size: 'A6' });
    }
  });

  it.each(carriers.map((c) => [c.code, c] as const))('%s credentials_format is a working JSON Schema', (code, carrier) => {
    const schema = carrier.credentials_format;
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
    const validate = newAjv().compile(schema);
    const example = validCredentials[code];
    expect(example, `no example credentials for ${code}`).toBeDefined();
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    const required = schema.required as string[];
    expect(required.length).toBeGreaterThan(0);
    for (const field of required) {
      const { [field]: _dropped, ...missing } = example!;
      expect(validate(missing)).toBe(false);
    }
    expect(validate({ ...example, unexpected: 'x' })).toBe(false);
  });

  it('each have a different credentials format', () => {
    const formats = carriers.map((c) => JSON.stringify(c.credentials_format));
    expect(new Set(formats).size).toBe(carriers.length);
  });
});

describe('services', () => {
  it('cover domestic and cross-border routes in at least four countries', () => {
    expect(services.length).toBeGreaterThanOrEqual(25);
    const country = (key: string) => must(regionByKey, key, 'region').country_code;
    const domestic = new Set(services.filter((s) => country(s.region_from) === country(s.region_to)).map((s) => country(s.region_from)));
    const crossFrom = new Set(services.filter((s) => country(s.region_from) !== country(s.region_to)).map((s) => country(s.region_from)));
    expect(domestic.size).toBeGreaterThanOrEqual(4);
    expect(crossFrom.size).toBeGreaterThanOrEqual(4);
  });

  it('use every package type, handover method and delivery method several times', () => {
    const count = (values: string[], of: string) => values.filter((v) => v === of).length;
    for (const t of packageTypes)
      expect(
        count(
          services.map((s) => s.package_type),
          t,
        ),
        t,
      ).toBeGreaterThanOrEqual(3);
    for (const h of handoverMethods)
      expect(
        count(
          services.map((s) => s.handover_method),
          h,
        ),
        h,
      ).toBeGreaterThanOrEqual(3);
    for (const d of deliveryMethods)
      expect(
        count(
          services.map((s) => s.delivery_method),
          d,
        ),
        d,
      ).toBeGreaterThanOrEqual(3);
  });

  it('have codes made of the carrier slug and the service name', () => {
    for (const s of services) {
      expect(s.code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(s.code.startsWith(`${s.carrier}-`), s.code).toBe(true);
    }
  });

  it('have address rules that agree with their regions', () => {
    for (const s of services) {
      const from = must(regionByKey, s.region_from, 'region');
      const to = must(regionByKey, s.region_to, 'region');
      expect(s.regions_from.map((r) => r.country_code)).toEqual([from.country_code]);
      expect(s.regions_to.map((r) => r.country_code)).toEqual([to.country_code]);
      for (const rule of [...s.regions_from, ...s.regions_to]) {
        if (rule.postal_code !== undefined) expect(() => new RegExp(rule.postal_code!)).not.toThrow();
      }
      expect(s.transit_time.min).toBeLessThanOrEqual(s.transit_time.max);
      expect(s.delivery_days.length).toBeGreaterThan(0);
    }
  });

  it('reach Northern Ireland by postal code and by state code', () => {
    const toNi = services.filter((s) => s.region_to === 'gb-nir');
    const postal = toNi.flatMap((s) => s.regions_to).find((r) => r.postal_code !== undefined);
    expect(postal).toBeDefined();
    expect(new RegExp(postal!.postal_code!).test('BT1 5GS')).toBe(true);
    expect(new RegExp(postal!.postal_code!).test('SW1A 1AA')).toBe(false);
    expect(toNi.flatMap((s) => s.regions_to)).toContainEqual({ country_code: 'GB', state_code: 'NIR' });
  });

  it('give a volumetric weight divisor exactly to the services that use volumetric weight', () => {
    const volumetric = services.filter((s) => s.uses_volumetric_weight);
    expect(volumetric.length).toBeGreaterThanOrEqual(3);
    for (const s of services) {
      if (s.uses_volumetric_weight) expect([4000, 5000, 6000]).toContain(s.volumetric_weight_divisor);
      else expect('volumetric_weight_divisor' in s, s.key).toBe(false);
    }
  });
});

describe('service options and statuses', () => {
  it("have at least two options in every category, and each option one of production's categories", () => {
    for (const category of serviceOptionCategories) {
      expect(serviceOptions.filter((o) => o.category === category).length, category).toBeGreaterThanOrEqual(2);
      for (const o of serviceOptions.filter((x) => x.category === category)) expect(o.code.startsWith(`${category}:`)).toBe(true);
    }
    for (const o of serviceOptions) expect(serviceOptionCategories, o.code).toContain(o.category);
  });

  it('have values formats that are working JSON Schemas', () => {
    const withValues = serviceOptions.filter((o) => o.values_format !== undefined);
    expect(withValues.length).toBeGreaterThan(0);
    for (const o of withValues) newAjv().compile(o.values_format!);
    const insured = newAjv().compile(must(optionByCode, 'proof-of-delivery:insured', 'option').values_format!);
    expect(insured({ amount: 1250 })).toBe(true);
    expect(insured({ amount: 12.5 })).toBe(false);
    expect(insured({})).toBe(false);
    const scheduled = newAjv().compile(must(optionByCode, 'delivery-window:scheduled', 'option').values_format!);
    expect(scheduled({ date: '2026-12-01' })).toBe(true);
    expect(scheduled({ date: 'tomorrow' })).toBe(false);
  });

  it('hold the return and report statuses the rules add to data files written before returns existed', () => {
    const returnsAndReports = statuses.filter((s) => s.resource_type === 'returns' || s.resource_type === 'reports');
    expect(returnsAndReports).toEqual(returnStatusDefs);
  });

  it('include every shipment status of production, every level and the collection statuses', () => {
    const shipmentCodes = statuses.filter((s) => s.resource_type === 'shipments').map((s) => s.code);
    expect(shipmentCodes).toHaveLength(16);
    for (const level of statusLevels)
      expect(
        statuses.some((s) => s.level === level),
        level,
      ).toBe(true);
    const levelOf = (code: string) => statuses.find((s) => s.code === code)?.level;
    expect(levelOf('shipment-concept')).toBe('pending');
    expect(levelOf('shipment-registered')).toBe('in-progress');
    expect(levelOf('shipment-delivered')).toBe('success');
    expect(levelOf('shipment-registration-failed')).toBe('failed');
    expect(levelOf('shipment-voided')).toBe('cancelled');
    for (const code of ['concept', 'registered', 'registration-failed', 'collected', 'voided']) {
      expect(statuses.find((s) => s.code === `collection-${code}`)?.resource_type).toBe('collections');
    }
    for (const s of statuses) expect(s.description.length).toBeGreaterThan(20);
  });
});

describe('contracts and liability coverages', () => {
  it('share one active broker contract per carrier, and a second cheaper one for one carrier', () => {
    const broker = contracts.filter((c) => c.owner === 'broker');
    for (const c of broker) expect(c.status).toBe('active');
    for (const carrier of carriers)
      expect(
        broker.some((c) => c.carrier === carrier.code),
        carrier.code,
      ).toBe(true);
    expect(broker.length).toBeGreaterThan(carriers.length);
    expect(broker.some((c) => c.volumetric_weight_divisor_factor === 1.25)).toBe(true);
  });

  it('give organization A one pending and one invalid contract, and organization B none', () => {
    const orgA = contracts.filter((c) => c.owner === 'organization-a');
    expect(orgA.map((c) => c.status).sort()).toEqual(['invalid', 'pending']);
    expect(contracts.filter((c) => c.owner === 'organization-b')).toEqual([]);
  });

  it('come with credentials that explain their status', () => {
    expect(Object.keys(contractCredentials).sort()).toEqual(contracts.map((c) => c.key).sort());
    for (const c of contracts) {
      const credentials = must(new Map(Object.entries(contractCredentials)), c.key, 'credentials');
      const validate = newAjv().compile(must(carrierByCode, c.carrier, 'carrier').credentials_format);
      const usable = validate(credentials) && !Object.values(credentials).includes('invalid');
      expect(usable, c.key).toBe(c.status !== 'invalid');
    }
  });

  it('offer coverages on broker contracts only, in the contract currency', () => {
    for (const c of contracts) {
      const count = liabilityCoverages.filter((l) => l.contract === c.key).length;
      if (c.owner === 'broker') expect(count, c.key).toBeGreaterThanOrEqual(3);
      else expect(count, c.key).toBe(0);
    }
    for (const l of liabilityCoverages) {
      const currency = must(contractByKey, l.contract, 'contract').currency;
      expect([l.price.currency, l.coverage_max.currency]).toEqual([currency, currency]);
      expect(l.coverage_max.amount).toBeGreaterThan(l.price.amount);
    }
  });
});

describe('service rates', () => {
  const serviceOf = (rate: (typeof serviceRates)[number]) => must(serviceByKey, rate.service, 'service');
  const contractOf = (rate: (typeof serviceRates)[number]) => must(contractByKey, rate.contract, 'contract');

  it('tie a contract and a service of the same carrier', () => {
    for (const r of serviceRates) expect(contractOf(r).carrier, `${r.contract} / ${r.service}`).toBe(serviceOf(r).carrier);
  });

  it('never overlap in weight within one contract and service', () => {
    const groups = new Map<string, typeof serviceRates>();
    for (const r of serviceRates) {
      expect(r.weight_min).toBeLessThanOrEqual(r.weight_max);
      const key = `${r.contract} ${r.service}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
    for (const [key, rates] of groups) {
      const sorted = [...rates].sort((a, b) => a.weight_min - b.weight_min);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.weight_min, key).toBeGreaterThan(sorted[i - 1]!.weight_max);
    }
  });

  it('price bracket and dynamic rates without a fixed price, and all others with one', () => {
    const brackets = serviceRates.filter((r) => r.weight_bracket !== undefined);
    const dynamic = serviceRates.filter((r) => r.is_dynamic);
    expect(brackets.length).toBeGreaterThanOrEqual(3);
    expect(dynamic.length).toBeGreaterThanOrEqual(2);
    for (const r of [...brackets, ...dynamic]) expect('price' in r, r.service).toBe(false);
    for (const r of serviceRates.filter((x) => !x.weight_bracket && !x.is_dynamic)) expect(r.price, r.service).toBeDefined();
  });

  it('use the contract currency for every amount', () => {
    for (const r of serviceRates) {
      const currency = contractOf(r).currency;
      const prices = [r.price, r.fuel_surcharge, r.oversize_surcharge, r.step_price, ...r.service_options.map((o) => o.price)];
      for (const p of prices.filter((x): x is Price => x !== undefined)) {
        expect(p.currency, r.service).toBe(currency);
        expect(Number.isInteger(p.amount) && p.amount >= 0).toBe(true);
      }
    }
  });

  it('cover surcharges, steps, size limits, volumetric services and VAT-inclusive letters', () => {
    expect(serviceRates.filter((r) => r.fuel_surcharge).length).toBeGreaterThanOrEqual(3);
    expect(serviceRates.filter((r) => r.oversize_surcharge && r.length_max).length).toBeGreaterThanOrEqual(3);
    expect(serviceRates.filter((r) => r.oversize_surcharge && !r.length_max)).toEqual([]);
    expect(serviceRates.filter((r) => r.step_price && r.step_size).length).toBeGreaterThanOrEqual(3);
    expect(serviceRates.filter((r) => r.volume_max).length).toBeGreaterThanOrEqual(3);
    expect(serviceRates.filter((r) => serviceOf(r).uses_volumetric_weight).length).toBeGreaterThanOrEqual(3);
    const vat = serviceRates.filter((r) => r.includes_vat);
    expect(vat.length).toBeGreaterThan(0);
    expect(vat.length).toBeLessThan(serviceRates.length / 4);
    for (const r of vat) expect(['letter', 'letterbox']).toContain(serviceOf(r).package_type);
  });

  it('offer options that fit the service', () => {
    for (const r of serviceRates) {
      const service = serviceOf(r);
      const codes = r.service_options.map((o) => o.option);
      expect(new Set(codes).size, r.service).toBe(codes.length);
      const includedPerCategory = new Map<string, number>();
      for (const o of r.service_options) {
        const option = must(optionByCode, o.option, 'service option');
        if (option.category === 'delivery-window') expect(service.delivery_method, r.service).toBe('delivery');
        if (o.included && option.category) {
          includedPerCategory.set(option.category, (includedPerCategory.get(option.category) ?? 0) + 1);
        }
      }
      for (const [category, n] of includedPerCategory) expect(n, `${r.service} ${category}`).toBe(1);
    }
    const offered = new Set(serviceRates.flatMap((r) => r.service_options.map((o) => o.option)));
    for (const o of serviceOptions) expect(offered.has(o.code), o.code).toBe(true);
  });

  it('leave some services unrated or rated only on contracts that are not active', () => {
    const active = (r: (typeof serviceRates)[number]) => contractOf(r).status === 'active';
    const rated = new Set(serviceRates.map((r) => r.service));
    const ratedActive = new Set(serviceRates.filter(active).map((r) => r.service));
    const unrated = services.filter((s) => !rated.has(s.key));
    const onlyInactive = services.filter((s) => rated.has(s.key) && !ratedActive.has(s.key));
    expect(unrated.length).toBeGreaterThanOrEqual(1);
    expect(onlyInactive.length).toBeGreaterThanOrEqual(2);
    expect(ratedActive.size).toBeGreaterThanOrEqual(services.length - 5);
    for (const status of ['pending', 'invalid'] as const) {
      expect(
        serviceRates.some((r) => contractOf(r).status === status),
        status,
      ).toBe(true);
    }
  });
});
