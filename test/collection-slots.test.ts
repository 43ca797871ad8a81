import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { carrierSetup, collectionBody, createCollection, DAY, HOUR, MONDAY } from './support/collections.js';
import { world, type World } from './support/shipments.js';

/** GET /carriers/{id}/collection-time-slots, and booking a collection in (or outside) a slot. */

let sandbox: TestSandbox;
let w: World;
let carriers: Record<string, Json>;

beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
  carriers = Object.fromEntries((await sandbox.read('/carriers')).body.data.map((c: Json) => [c.attributes.code, c]));
});

const slots = (carrier: string, query: string, token = w.token) => sandbox.get(`/carriers/${carriers[carrier].id}/collection-time-slots?${query}`, token);
const week = 'country_code=NL&postal_code=1012AB&date_from=2026-01-12&date_to=2026-01-18';

describe('collection time slots', () => {
  it("follow the carrier's working days and windows, in time order, with the carrier related", async () => {
    const answer = await slots('postnl', week);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.meta).toEqual({ total_pages: 1, total_records: 10 });
    const windows = answer.body.data.map((slot: Json) => slot.attributes);
    // Monday to Friday, 09:00-12:00 and 13:00-17:00 UTC; nothing on the weekend.
    expect(windows).toEqual(
      [0, 1, 2, 3, 4].flatMap((day) => [
        { from: MONDAY + day * DAY + 9 * HOUR, to: MONDAY + day * DAY + 12 * HOUR },
        { from: MONDAY + day * DAY + 13 * HOUR, to: MONDAY + day * DAY + 17 * HOUR },
      ]),
    );
    const first = answer.body.data[0];
    expect(first).toMatchObject({ type: 'collection-time-slots', id: `postnl-${MONDAY + 9 * HOUR}-${MONDAY + 12 * HOUR}` });
    expect(first.relationships.carrier.data).toEqual({ type: 'carriers', id: carriers.postnl.id });
    // A slot has no URL of its own, so no links (production's slots have none): a self link must answer the slot, not a list.
    expect(answer.body.data.filter((slot: Json) => 'links' in slot)).toEqual([]);
    // The same for every tenant and every call.
    expect((await slots('postnl', week, await sandbox.token('other-client'))).body.data).toEqual(answer.body.data);
    const royal = await slots('royal-mail', week.replace('NL', 'GB'));
    expect(royal.body.data.map((slot: Json) => new Date(slot.attributes.from * 1000).getUTCDay())).toContain(6);
  });

  it('take Unix seconds, dates and ISO date-times, and paginate', async () => {
    const byUnix = await slots('postnl', `country_code=NL&postal_code=1012AB&date_from=${MONDAY}&date_to=${MONDAY + DAY}`);
    const byIso = await slots('postnl', 'country_code=NL&postal_code=1012AB&date_from=2026-01-12T00:00:00Z&date_to=2026-01-13T01:00:00%2B01:00');
    const byDate = await slots('postnl', 'country_code=NL&postal_code=1012AB&date_from=2026-01-12&date_to=2026-01-12');
    for (const answer of [byUnix, byIso, byDate])
      expect(
        answer.body.data.map((s: Json) => s.attributes.from),
        answer.text,
      ).toEqual([MONDAY + 9 * HOUR, MONDAY + 13 * HOUR]);
    const page = await slots('postnl', `${week}&page[size]=3&page[number]=2`);
    expect(page.body.data).toHaveLength(3);
    expect(page.body.meta.total_pages).toBe(4);
  });

  it('leave out slots whose booking has closed on the sandbox clock', async () => {
    const s = await testSandbox();
    // Sunday 22:00: PostNL's Monday slots closed (booked until 22:00 the day before).
    await s.advance(22 * HOUR);
    const token = await s.token();
    const postnl = (await s.get(`/carriers/${carriers.postnl.id}/collection-time-slots?${week}`, token)).body.data;
    expect(postnl[0].attributes.from).toBe(MONDAY + DAY + 9 * HOUR);
    // Monday 09:30: DPD (booked until 10:00 the same day, or the window's start) still takes Monday noon.
    await s.advance(11 * HOUR + 30 * 60);
    const dpd = (await s.get(`/carriers/${carriers.dpd.id}/collection-time-slots?${week.replace('NL', 'DE')}`, await s.token())).body.data;
    expect(dpd[0].attributes).toEqual({ from: MONDAY + 12 * HOUR, to: MONDAY + 17 * HOUR });
  });

  it('refuse a carrier without collections, a country or a service it cannot serve (422 naming the parameter)', async () => {
    // The carrier is a path segment, which source.parameter (a query parameter) cannot name: the detail does.
    const bpost = await slots('bpost', week.replace('NL', 'BE'));
    expect(bpost.status, bpost.text).toBe(422);
    expect(firstError(bpost)).toMatchObject({ code: '10008', detail: expect.stringContaining(`carrier ${carriers.bpost.id} in the path`) });
    expect(firstError(bpost).source).toBeUndefined();
    const cases: [string, string, string][] = [
      ['postnl', week.replace('NL', 'DE'), 'country_code'],
      ['postnl', `${week}&service_code=dpd-classic`, 'service_code'],
      // Handed over at a drop-off point, and offered with handover-method:collection by no contract.
      ['postnl', `${week}&service_code=postnl-letter`, 'service_code'],
    ];
    for (const [carrier, query, parameter] of cases) {
      const answer = await slots(carrier, query);
      expect(answer.status, `${carrier} ${query}: ${answer.text}`).toBe(422);
      expect(firstError(answer), query).toMatchObject({ code: '10008', source: { parameter } });
    }
  });

  it('take a drop-off service that a contract offers with handover-method:collection: it can be collected with that option', async () => {
    // postnl-parcel-standard is handed over by drop-off; the PostNL broker contract offers it with the option.
    const plain = await slots('postnl', week);
    for (const code of ['postnl-parcel-standard', 'postnl-parcel-business']) {
      const answer = await slots('postnl', `${week}&service_code=${code}`);
      expect(answer.status, `${code}: ${answer.text}`).toBe(200);
      expect(answer.body.data).toEqual(plain.body.data);
    }
  });

  it('answer 400 for a missing or malformed parameter or a range ending before it starts or too long, 404 for an unknown carrier, 401 without a token', async () => {
    const cases: [string, string][] = [
      ['country_code=NL&date_from=2026-01-12&date_to=2026-01-13', 'postal_code'],
      ['country_code=XX&postal_code=1&date_from=2026-01-12&date_to=2026-01-13', 'country_code'],
      ['country_code=NL&postal_code=1&date_from=tomorrow&date_to=2026-01-13', 'date_from'],
      ['country_code=NL&postal_code=1&date_from=2026-02-30&date_to=2026-03-01', 'date_from'],
      ['country_code=NL&postal_code=1&date_from=2026-01-12T09:00:00&date_to=2026-01-13', 'date_from'],
      ['country_code=NL&postal_code=1&date_from=2026-01-12&date_to=2026-02-30T09:00:00Z', 'date_to'],
      [`${week}&colour=red`, 'colour'],
      // A query parameter problem, as a swapped range is on every list filter (date-ranges.test.ts).
      ['country_code=NL&postal_code=1012AB&date_from=2026-01-12&date_to=2026-01-11', 'date_to'],
      ['country_code=NL&postal_code=1012AB&date_from=2026-01-12T10:00:00Z&date_to=2026-01-12T10:00:00Z', 'date_to'],
      ['country_code=NL&postal_code=1012AB&date_from=2026-01-12&date_to=2026-03-12', 'date_to'],
    ];
    for (const [query, parameter] of cases) {
      const answer = await slots('postnl', query);
      expect(answer.status, query).toBe(400);
      expect(
        answer.body.errors.map((e: Json) => e.source.parameter),
        query,
      ).toContain(parameter);
    }
    expect((await sandbox.get(`/carriers/00000000-0000-4000-8000-000000000000/collection-time-slots?${week}`, w.token)).status).toBe(404);
    expect((await slots('postnl', week, '')).status).toBe(401);
  });
});

describe('booking a collection with a contract', () => {
  const book = (body: Json) => sandbox.request('POST', '/collections', { token: w.token, body });

  it('takes a window inside a slot, and books it at once with register: true', async () => {
    const { shop, contract } = carrierSetup(w, 'NL', 'postnl-parcel-standard');
    const plan = await createCollection(sandbox, w.token, collectionBody(shop, { from: MONDAY + 14 * HOUR, to: MONDAY + 16 * HOUR }, { contract }));
    expect(plan.attributes).toMatchObject({ register: false });
    expect(plan.attributes).not.toHaveProperty('tracking_code');
    const booked = await createCollection(
      sandbox,
      w.token,
      collectionBody(shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 12 * HOUR }, { contract, register: true }),
    );
    expect(booked.attributes).toMatchObject({ register: true, tracking_code: expect.stringMatching(/^POS-COL-\d{10}$/) });
    const status = await sandbox.get(`/statuses/${booked.relationships.status.data.id}`, w.token);
    expect(status.body.data.attributes.code).toBe('collection-registered');
  });

  it('refuses a window outside every slot, a closed slot, a country or carrier that does not collect, and register without a contract', async () => {
    const { shop, contract } = carrierSetup(w, 'NL', 'postnl-parcel-standard');
    const outside = await book(collectionBody(shop, { from: MONDAY + 11 * HOUR, to: MONDAY + 14 * HOUR }, { contract }));
    expect(outside.status).toBe(422);
    expect(firstError(outside)).toMatchObject({ code: '10008', source: { pointer: '/data/attributes/collection_time' } });
    expect(firstError(outside).detail).toMatch(/Monday to Friday, 09:00-12:00 and 13:00-17:00 UTC/);
    const saturday = await book(collectionBody(shop, { from: MONDAY + 5 * DAY + 9 * HOUR, to: MONDAY + 5 * DAY + 10 * HOUR }, { contract }));
    expect(firstError(saturday).source.pointer).toBe('/data/attributes/collection_time');

    const abroad = await book(
      collectionBody(
        { ...shop, attributes: { sender_address: { ...shop.attributes.sender_address, country_code: 'DE' } } },
        { from: MONDAY + 9 * HOUR, to: MONDAY + 10 * HOUR },
        { contract },
      ),
    );
    expect(abroad.status).toBe(422);
    expect(firstError(abroad).source.pointer).toBe('/data/attributes/address/country_code');

    const bpost = w.contracts.find((c: Json) => c.relationships.carrier.data.id === carriers.bpost.id && c.attributes.status === 'active');
    const noCollections = await book(collectionBody(shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 10 * HOUR }, { contract: bpost }));
    expect(firstError(noCollections)).toMatchObject({
      source: { pointer: '/data/relationships/contract/data/id' },
      detail: expect.stringMatching(/bpost does not collect/),
    });

    const unbooked = await book(collectionBody(shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 10 * HOUR }, { register: true }));
    expect(firstError(unbooked).source.pointer).toBe('/data/attributes/register');

    const s = await testSandbox();
    await s.advance(22 * HOUR + 1);
    const late = await s.request('POST', '/collections', {
      token: await s.token(),
      body: collectionBody(shop, { from: MONDAY + 9 * HOUR, to: MONDAY + 10 * HOUR }, { contract }),
    });
    expect(late.status).toBe(422);
    expect(firstError(late)).toMatchObject({
      source: { pointer: '/data/attributes/collection_time' },
      detail: expect.stringMatching(/closed at 2026-01-11 22:00 UTC/),
    });
  });
});
