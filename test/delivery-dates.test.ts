import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';

// The test clock stands at Sunday 11 January 2026, 01:00 in Amsterdam (00:00 UTC).
let sandbox: TestSandbox;
let token: string;

const ask = (data: Json, as = token) => sandbox.request('POST', '/shipping/v2/available-delivery-dates', { token: as, body: { data } });

const amsterdam = { country_code: 'NL', postal_code: '1012 PH', street_number: 92 };
const base = {
  carrier_code: 'postnl',
  service_code: 'postnl-parcel-standard',
  address: amsterdam,
  start_date: '2026-01-11T00:00:00+01:00',
  end_date: '2026-01-18T00:00:00+01:00',
};

const days = (windows: Json[]) => windows.map((w: Json) => w.date_from.slice(0, 10));
const hours = (window: Json) => [window.date_from.slice(11), window.date_to.slice(11)];

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  expect(new Date(TEST_NOW * 1000).toISOString()).toBe('2026-01-11T00:00:00.000Z');
});

describe('POST /shipping/v2/available-delivery-dates', () => {
  it('starts after the transit time from the next working day and gives a window on each delivery day, in local time', async () => {
    const answer = await ask(base);
    expect(answer.status).toBe(200);
    // Handed in Monday the 12th (Sunday is no working day), one day of transit, delivered Monday to Saturday.
    expect(days(answer.body.data)).toEqual(['2026-01-13', '2026-01-14', '2026-01-15', '2026-01-16', '2026-01-17']);
    for (const window of answer.body.data) {
      expect(window.date_from).toMatch(/^2026-01-\d\dT(09|1\d):00:00\+01:00$/);
      const from = Date.parse(window.date_from);
      expect(Date.parse(window.date_to) - from).toBe(3 * 3600 * 1000);
      expect(Number(window.date_to.slice(11, 13))).toBeLessThanOrEqual(17);
    }
    // The same question, the same answer; another address may get other hours.
    expect((await ask(base)).text).toBe(answer.text);
  });

  it('follows the clock: after the cut-off on Monday the parcel leaves on Tuesday', async () => {
    const own = await testSandbox();
    await own.advance(86400 + 16 * 3600 + 30 * 60); // Monday 17:30 in Amsterdam
    const answer = await own.request('POST', '/shipping/v2/available-delivery-dates', {
      token: await own.token(),
      body: { data: { ...base, start_date: '2026-01-12T00:00:00+01:00' } },
    });
    expect(days(answer.body.data)).toEqual(['2026-01-14', '2026-01-15', '2026-01-16', '2026-01-17']);
  });

  it('gives the fixed windows of the morning and evening options, and Saturdays only with the Saturday option', async () => {
    const evening = await ask({ ...base, service_option_codes: ['delivery-window:evening'] });
    expect(evening.body.data.map(hours)).toEqual(Array(5).fill(['18:00:00+01:00', '22:00:00+01:00']));
    const morning = await ask({ ...base, service_option_codes: ['delivery-window:morning'] });
    expect(morning.body.data.map(hours)[0]).toEqual(['08:00:00+01:00', '12:00:00+01:00']);
    const saturday = await ask({
      ...base,
      service_code: 'postnl-parcel-business',
      service_option_codes: ['delivery-window:saturday'],
      end_date: '2026-01-31T23:59:59+01:00',
    });
    expect(days(saturday.body.data)).toEqual(['2026-01-17', '2026-01-24', '2026-01-31']);
  });

  it("follows the service's delivery days and the address's time zone and daylight saving time", async () => {
    const london = { country_code: 'GB', postal_code: 'NW1 6XE', street_number: 221 };
    const dhl = await ask({
      carrier_code: 'dhl-express',
      service_code: 'dhl-express-domestic',
      address: london,
      start_date: '2026-01-11T00:00:00Z',
      end_date: '2026-01-19T00:00:00Z',
    });
    expect(days(dhl.body.data)).toEqual(['2026-01-13', '2026-01-14', '2026-01-15', '2026-01-16']);
    for (const window of dhl.body.data) expect(window.date_from).toMatch(/\+00:00$/);
    const spring = await ask({
      ...base,
      service_option_codes: ['delivery-window:evening'],
      start_date: '2026-03-27T00:00:00+01:00',
      end_date: '2026-03-31T00:00:00+02:00',
    });
    expect(spring.body.data.map((w: Json) => w.date_from)).toEqual(['2026-03-27T18:00:00+01:00', '2026-03-28T18:00:00+01:00', '2026-03-30T18:00:00+02:00']);
  });

  it('keeps only windows wholly within the range, and may have none', async () => {
    const narrow = await ask({
      ...base,
      service_option_codes: ['delivery-window:evening'],
      start_date: '2026-01-14T19:00:00+01:00',
      end_date: '2026-01-15T22:00:00+01:00',
    });
    expect(narrow.body.data).toEqual([{ date_from: '2026-01-15T18:00:00+01:00', date_to: '2026-01-15T22:00:00+01:00' }]);
    const early = await ask({ ...base, end_date: '2026-01-12T23:59:59+01:00' });
    expect(early.status).toBe(200);
    expect(early.body.data).toEqual([]);
  });
});

describe('POST /shipping/v2/available-delivery-dates refuses', () => {
  const pointerOf = async (data: Json) => {
    const answer = await ask(data);
    return { status: answer.status, pointers: (answer.body.errors ?? []).map((e: Json) => e.source?.pointer) };
  };

  it('unknown codes, carriers without delivery dates, services that do not deliver there, options not offered', async () => {
    expect(await pointerOf({ ...base, carrier_code: 'fedex' })).toEqual({ status: 422, pointers: ['/data/carrier_code'] });
    expect(await pointerOf({ ...base, carrier_code: 'dpd', service_code: 'dpd-classic' })).toMatchObject({
      status: 422,
      pointers: expect.arrayContaining(['/data/carrier_code']),
    });
    expect(await pointerOf({ ...base, service_code: 'postnl-teleport' })).toEqual({ status: 422, pointers: ['/data/service_code'] });
    expect(await pointerOf({ ...base, address: { country_code: 'FR', postal_code: '75001', street_number: 1 } })).toEqual({
      status: 422,
      pointers: ['/data/address/country_code'],
    });
    expect(await pointerOf({ ...base, service_option_codes: ['delivery-window:saturday'] })).toEqual({
      status: 422,
      pointers: ['/data/service_option_codes/0'],
    });
    expect(await pointerOf({ ...base, service_option_codes: ['delivery-window:never'] })).toEqual({ status: 422, pointers: ['/data/service_option_codes/0'] });
    expect(await pointerOf({ ...base, service_option_codes: ['delivery-window:evening', 'delivery-window:morning'] })).toEqual({
      status: 422,
      pointers: ['/data/service_option_codes/1'],
    });
  });

  it('a start in the past, an end before the start and too long a range', async () => {
    expect(await pointerOf({ ...base, start_date: '2026-01-10T12:00:00+01:00' })).toEqual({ status: 422, pointers: ['/data/start_date'] });
    expect(await pointerOf({ ...base, start_date: '2026-01-15T00:00:00+01:00', end_date: '2026-01-14T00:00:00+01:00' })).toEqual({
      status: 422,
      pointers: ['/data/end_date'],
    });
    expect(await pointerOf({ ...base, end_date: '2026-03-01T00:00:00+01:00' })).toEqual({ status: 422, pointers: ['/data/end_date'] });
  });

  it('dates that are no date-times and members production does not have (400)', async () => {
    expect(await pointerOf({ ...base, start_date: '2026-01-12' })).toEqual({ status: 400, pointers: ['/data/start_date'] });
    expect(await pointerOf({ ...base, end_date: '2026-02-30T00:00:00Z' })).toEqual({ status: 400, pointers: ['/data/end_date'] });
    expect(await pointerOf({ ...base, service_option_codes: ['proof-of-delivery:signature'] })).toEqual({
      status: 400,
      pointers: ['/data/service_option_codes/0'],
    });
    const { carrier_code: _code, ...noCarrier } = base;
    expect(await pointerOf(noCarrier)).toEqual({ status: 400, pointers: ['/data/carrier_code'] });
    const extra = await sandbox.request('POST', '/shipping/v2/available-delivery-dates', { token, body: { data: base, meta: {} } });
    expect(extra.status).toBe(400);
    expect(firstError(extra).source).toEqual({ pointer: '/meta' });
  });
});
