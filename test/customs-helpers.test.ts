import { describe, expect, it } from 'vitest';
import { allocate } from '../src/domain/landed-costs.js';
import { firstError, testSandbox, type Json } from './support/app.js';

/** POST /suggest-hscode, POST /calculate-landed-costs and GET /locales/v1/locales. */

async function setup() {
  const sandbox = await testSandbox();
  const token = await sandbox.token('sandbox-client');
  const post = (path: string, body: Json) => sandbox.request('POST', path, { token, body, headers: { 'content-type': 'application/json' } });
  return { sandbox, token, post };
}

const gbp = (amount: number) => ({ amount, currency: 'GBP' });
const landed = (data: Json, meta?: Json) => ({
  data: { sender_country_code: 'NL', sender_postal_code: '1012 PH', recipient_country_code: 'GB', recipient_postal_code: 'NW1 6XE', weight: 800, ...data },
  ...(meta ? { meta } : {}),
});
const shirtAndBook = [
  { description: 'Cotton T-shirt', item_value: gbp(10000), hs_code: '6109.10' },
  { description: 'Paperback novel', item_value: gbp(5000), sku: 'BK-1' },
];

describe('POST /suggest-hscode', () => {
  it('suggests HS codes by the words of the description, best first, the same every time', async () => {
    const { post } = await setup();
    const answer = await post('/suggest-hscode', { data: { sku: 'TS-1', description: "Men's cotton T-shirt, blue", origin_country_code: 'PT' } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body.data[0]).toMatchObject({ hs_code: '6109.10', commodity_code: '6109100010', product_description: expect.stringContaining('T-shirts') });
    const weights = answer.body.data.map((row: Json) => row.vector_weight);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(weights.every((weight: number) => weight > 0 && weight <= 1)).toBe(true);
    expect((await post('/suggest-hscode', { data: { sku: 'TS-1', description: "Men's cotton T-shirt, blue" } })).body).toEqual(answer.body);
    expect((await post('/suggest-hscode', { data: { sku: 'H-1', description: 'Wireless noise-cancelling headphones' } })).body.data[0].hs_code).toBe('8518.30');
    // A product without a SKU: production requires the member, a string, and takes an empty one.
    expect((await post('/suggest-hscode', { data: { sku: '', description: "Men's cotton T-shirt, blue", origin_country_code: 'PT' } })).body).toEqual(
      answer.body,
    );
  });

  it('answers an empty list for a description it cannot place, and refuses bad input with pointers', async () => {
    const { post } = await setup();
    expect((await post('/suggest-hscode', { data: { sku: 'X', description: 'qwertz' } })).body).toEqual({ data: [] });
    // Production's description is a string without a least length: an empty one places nothing, as a word it does not know.
    const empty = await post('/suggest-hscode', { data: { sku: '', description: '' } });
    expect([empty.status, empty.body]).toEqual([200, { data: [] }]);
    expect(firstError(await post('/suggest-hscode', { data: { description: 'Mug' } }))).toMatchObject({ status: '400', source: { pointer: '/data/sku' } });
    expect(firstError(await post('/suggest-hscode', { data: { sku: 'X', description: 'mug '.repeat(2500) } }))).toMatchObject({
      status: '400',
      source: { pointer: '/data/description' },
    });
    expect(firstError(await post('/suggest-hscode', { data: { sku: 'X', description: 'x'.repeat(20 * 1024) } }))).toMatchObject({ status: '413' });
  });
});

describe('POST /calculate-landed-costs', () => {
  it('charges duty by HS chapter and VAT on value, shipping share and duty; the totals add up the items', async () => {
    const { post } = await setup();
    const answer = await post('/calculate-landed-costs', landed({ items: shirtAndBook, shipping_value: gbp(1500) }));
    expect(answer.status, answer.text).toBe(200);
    // Shipping 1500 is shared 1000/500 by value. The shirt (chapter 61): duty 12% of 11000, VAT 20% of 12320.
    // The book takes 4901.99 from its description: no duty, zero-rated in the UK.
    expect(answer.body).toEqual({
      data: {
        items: [
          { description: 'Cotton T-shirt', item_value: gbp(10000), hs_code: '6109.10', duty: gbp(1320), tax: gbp(2464) },
          { description: 'Paperback novel', item_value: gbp(5000), hs_code: '4901.99', duty: gbp(0), tax: gbp(0) },
        ],
        total_duty: gbp(1320),
        total_tax: gbp(2464),
      },
    });
  });

  it("converts into the destination's currency unless asked not to, and charges no duty up to the duty-free value", async () => {
    const { post } = await setup();
    const euros = [{ description: 'Leather boots', item_value: { amount: 11700, currency: 'EUR' }, hs_code: '6403.99' }];
    const converted = await post('/calculate-landed-costs', landed({ items: euros }));
    // 117.00 EUR is 100.00 GBP, under the 135.00 GBP duty-free value: VAT only.
    expect(converted.body.data).toEqual({
      items: [{ ...euros[0], item_value: gbp(10000), duty: gbp(0), tax: gbp(2000) }],
      total_duty: gbp(0),
      total_tax: gbp(2000),
    });
    const kept = await post('/calculate-landed-costs', landed({ items: euros }, { convert_to_destination_currency: false }));
    expect(kept.body.data.total_tax).toEqual({ amount: 2340, currency: 'EUR' });
  });

  it("takes the empty strings production's contract takes: a description, a sku and the postal codes", async () => {
    const { post } = await setup();
    const answer = await post(
      '/calculate-landed-costs',
      landed({ sender_postal_code: '', recipient_postal_code: '', items: [{ ...shirtAndBook[0], description: '', sku: '' }] }),
    );
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.items[0]).toMatchObject({ description: '', hs_code: '6109.10' });
    // Without an hs_code, an empty description matches none: the answer asks for the hs_code there.
    const unplaced = await post('/calculate-landed-costs', landed({ items: [{ description: '', item_value: gbp(100), sku: 'S-1' }] }));
    expect(firstError(unplaced)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/items/0/description' } });
  });

  it('charges nothing within the EU customs union', async () => {
    const { post } = await setup();
    const answer = await post(
      '/calculate-landed-costs',
      landed({
        sender_country_code: 'DE',
        sender_postal_code: '10117',
        recipient_country_code: 'NL',
        recipient_postal_code: '1012 PH',
        items: [{ description: 'Jeans', item_value: { amount: 90000, currency: 'EUR' }, hs_code: '6203.42' }],
      }),
    );
    expect(answer.body.data).toMatchObject({ total_duty: { amount: 0, currency: 'EUR' }, total_tax: { amount: 0, currency: 'EUR' } });
  });

  it('adds up for any mix of items and shipping', async () => {
    const { post } = await setup();
    const goods = ['Cotton T-shirt', 'Leather handbag', 'Roasted coffee beans', 'Wooden chair', 'Smartphone', 'Gold ring', 'Puzzle for kids'];
    for (let round = 0; round < 6; round++) {
      const items = goods.slice(round, round + 3).map((name, index) => ({
        description: name,
        item_value: { amount: 1999 + 7777 * index + 313 * round, currency: round % 2 ? 'USD' : 'GBP' },
        sku: `S-${index}`,
      }));
      const answer = await post(
        '/calculate-landed-costs',
        landed({
          recipient_country_code: ['GB', 'US', 'CH', 'NO', 'NL', 'FR'][round],
          items,
          shipping_value: { amount: 995 + round, currency: 'EUR' },
          sender_country_code: 'CN',
        }),
      );
      expect(answer.status, answer.text).toBe(200);
      const { data } = answer.body;
      const sum = (key: 'duty' | 'tax') => data.items.reduce((total: number, item: Json) => total + item[key].amount, 0);
      expect(data.total_duty.amount).toBe(sum('duty'));
      expect(data.total_tax.amount).toBe(sum('tax'));
      expect(new Set(data.items.flatMap((item: Json) => [item.duty.currency, item.tax.currency, item.item_value.currency]))).toEqual(
        new Set([data.total_tax.currency]),
      );
    }
  });

  it('shares shipping in whole cents that add up to it', () => {
    for (const [total, weights] of [
      [1000, [1, 1, 1]],
      [1, [5, 5]],
      [999, [3, 0, 7]],
      [0, [1, 2]],
      [1234, [0, 0]],
    ] as const) {
      const shares = allocate(total, weights);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(weights.some((w) => w > 0) ? total : 0);
    }
  });

  it('refuses a currency or destination it does not price, mixed currencies kept as sent, and items it cannot place', async () => {
    const { post } = await setup();
    const yen = await post(
      '/calculate-landed-costs',
      landed({ items: [{ description: 'Mug', item_value: { amount: 1000, currency: 'JPY' }, hs_code: '6912.00' }] }),
    );
    expect(firstError(yen)).toMatchObject({ status: '422', code: '10008', source: { pointer: '/data/items/0/item_value/currency' } });
    const japan = await post('/calculate-landed-costs', landed({ recipient_country_code: 'JP', recipient_postal_code: '100-0001', items: shirtAndBook }));
    expect(firstError(japan)).toMatchObject({ status: '422', source: { pointer: '/data/recipient_country_code' } });
    const mixed = await post(
      '/calculate-landed-costs',
      landed({ items: shirtAndBook, shipping_value: { amount: 500, currency: 'EUR' } }, { convert_to_destination_currency: false }),
    );
    expect(firstError(mixed)).toMatchObject({ status: '422', source: { pointer: '/data/shipping_value/currency' } });
    const unknown = await post('/calculate-landed-costs', landed({ items: [{ description: 'qwertz', item_value: gbp(100), sku: 'Q' }] }));
    expect(firstError(unknown)).toMatchObject({ status: '422', source: { pointer: '/data/items/0/description' } });
    const neither = await post('/calculate-landed-costs', landed({ items: [{ description: 'Mug', item_value: gbp(100) }] }));
    expect(firstError(neither)).toMatchObject({ status: '400', source: { pointer: '/data/items/0/hs_code' } });
    const negative = await post('/calculate-landed-costs', landed({ items: [{ description: 'Mug', item_value: gbp(-1), hs_code: '6912.00' }] }));
    expect(firstError(negative)).toMatchObject({ status: '400', source: { pointer: '/data/items/0/item_value/amount' } });
  });
});

describe('GET /locales/v1/locales', () => {
  it("lists production's locales, filterable by where they are offered", async () => {
    const { sandbox, token } = await setup();
    const all = await sandbox.get('/locales/v1/locales', token);
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((row: Json) => row.attributes.code)).toEqual(['de-DE', 'el-GR', 'en-GB', 'es-ES', 'fr-FR', 'it-IT', 'nl-NL', 'pl-PL', 'pt-PT']);
    expect((await sandbox.get('/locales/v1/locales', token)).body).toEqual(all.body);
    const office = await sandbox.get('/locales/v1/locales?filter[available_in_back_office]=true', token);
    expect(office.body.data.map((row: Json) => row.attributes.code)).toEqual(['de-DE', 'en-GB', 'fr-FR', 'nl-NL']);
    expect(firstError(await sandbox.get('/locales/v1/locales?filter[available_in_back_office]=maybe', token))).toMatchObject({
      status: '400',
      source: { parameter: 'filter[available_in_back_office]' },
    });
    expect(firstError(await sandbox.get('/locales/v1/locales', await sandbox.token('limited-client')))).toMatchObject({ status: '403', code: '14004' });
  });

  it('gives a locale no links, as production does: it has no URL of its own, and a self link must answer the resource, not the list', async () => {
    const { sandbox, token } = await setup();
    const all = await sandbox.get('/locales/v1/locales', token);
    expect(all.body.data.filter((row: Json) => 'links' in row)).toEqual([]);
    expect(Object.keys(all.body.data[0]).sort()).toEqual(['attributes', 'id', 'type']);
  });
});
