import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';

/*
 * Every endpoint that takes a date range answers one whose end lies before its start the same
 * way: it holds nothing, so an empty list or chart would hide the swapped bounds. A range in the
 * query is a 400 (10003) naming the end's parameter; one in a body a 422 (10008) at its end's
 * pointer, as POST /collections and the delivery dates answer a swapped window.
 */

let sandbox: TestSandbox;
let token: string;
let hookId: string;
let postnl: string;

beforeAll(async () => {
  sandbox = await testSandbox();
  token = await sandbox.token();
  const organization = (await sandbox.get('/organizations', token)).body.data[0];
  const hook = await sandbox.request('POST', '/hooks', {
    token,
    body: {
      data: {
        type: 'hooks',
        attributes: {
          name: 'ranges',
          order: 100,
          active: true,
          trigger: { resource_type: 'shipments', resource_action: 'create', predicates: [] },
          action: { action_type: 'update-resource', values: [{ pointer: '/attributes/channel', value: 'hooked' }] },
        },
        relationships: { owner: { data: { type: 'organizations', id: organization.id } } },
      },
    },
  });
  if (hook.status !== 201) throw new Error(`hook: ${hook.status} ${hook.text}`);
  hookId = hook.body.data.id;
  postnl = (await sandbox.read('/carriers')).body.data.find((carrier: Json) => carrier.attributes.code === 'postnl').id;
});

/** The path of each list with a range in its query, the range's two parameters, and what else it needs. */
function queryRanges(): { path: string; from: string; to: string; rest?: string }[] {
  return [
    { path: '/shipments', from: 'filter[created_at][date_from]', to: 'filter[created_at][date_to]' },
    { path: '/shipments', from: 'filter[register_at][date_from]', to: 'filter[register_at][date_to]' },
    { path: '/shipments', from: 'filter[date_from]', to: 'filter[date_to]' },
    { path: `/hooks/${hookId}/logs`, from: 'filter[created_at][date_from]', to: 'filter[created_at][date_to]' },
    { path: '/returns/v1/returns', from: 'filter[created_at][date_from]', to: 'filter[created_at][date_to]' },
    { path: '/returns/v1/analytics/approved', from: 'filter[date_from]', to: 'filter[date_to]' },
    { path: '/returns/v1/analytics/orders', from: 'filter[date_from]', to: 'filter[date_to]' },
    { path: `/carriers/${postnl}/collection-time-slots`, from: 'date_from', to: 'date_to', rest: '&country_code=NL&postal_code=1012AB' },
  ];
}

describe('a date range that ends before it starts', () => {
  it('is a 400 naming the end parameter on every endpoint that takes a range in its query; the same day both ways is fine', async () => {
    for (const { path, from, to, rest = '' } of queryRanges()) {
      const query = (start: string, end: string) => `${path}?${encodeURIComponent(from)}=${start}&${encodeURIComponent(to)}=${end}${rest}`;
      const swapped = await sandbox.get(query('2026-01-13', '2026-01-12'), token);
      expect(swapped.status, `${path} ${to}: ${swapped.text}`).toBe(400);
      expect(swapped.body.errors, `${path} ${to}`).toEqual([
        expect.objectContaining({ status: '400', code: '10003', source: { parameter: to }, detail: expect.stringContaining(`'${from}'`) }),
      ]);
      const oneDay = await sandbox.get(query('2026-01-12', '2026-01-12'), token);
      expect(oneDay.status, `${path} ${to}: ${oneDay.text}`).toBe(200);
    }
  });

  it('is not a range inside one second: a list answers it, holding the rows of no whole second, and a chart charts its day', async () => {
    // Date.now() / 1000 read twice within a second, the one way and the other; written as ISO-8601 as well.
    const lists = queryRanges().filter(({ from }) => from.startsWith('filter['));
    for (const { path, from, to } of lists) {
      for (const [start, end, status] of [
        ['1768219200.3', '1768219200.8', 200],
        ['2026-01-12T12:00:00.3Z', '2026-01-12T12:00:00.8Z', 200],
        ['1768219200.8', '1768219200.3', 400],
      ] as const) {
        const answer = await sandbox.get(`${path}?${encodeURIComponent(from)}=${start}&${encodeURIComponent(to)}=${end}`, token);
        expect(answer.status, `${path} ${start}..${end}: ${answer.text}`).toBe(status);
        // A chart's window is whole days: it charts the day, the lists hold nothing.
        if (status === 400) expect(firstError(answer).source).toEqual({ parameter: to });
        else if (Array.isArray(answer.body.data)) expect(answer.body.data, `${path} ${start}..${end}`).toEqual([]);
      }
    }
  });

  it('is not one whose start lies in the years 0 to 99: they are those years, not 1900 to 1999', async () => {
    // Date.UTC reads the year 99 as 1999, which would put this range's start after its end.
    const lists = queryRanges().filter(({ from }) => from.startsWith('filter['));
    for (const { path, from, to } of lists) {
      for (const [start, end] of [
        ['0099-12-31', '1950-01-01'],
        ['0099-12-31T23:00:00Z', '1950-01-01T00:00:00Z'],
        ['0000-02-29', '1950-01-01'],
      ]) {
        const answer = await sandbox.get(`${path}?${encodeURIComponent(from)}=${start}&${encodeURIComponent(to)}=${end}`, token);
        // A chart this long is refused at its start for its length, not its order.
        const status = path.includes('/analytics/') ? 400 : 200;
        expect(answer.status, `${path} ${start}..${end}: ${answer.text}`).toBe(status);
        if (status === 400) expect(firstError(answer).source, `${path} ${start}..${end}`).toEqual({ parameter: from });
      }
    }
    const chart = await sandbox.get('/returns/v1/analytics/orders?filter[date_from]=0050-01-01&filter[date_to]=0050-01-02', token);
    expect(chart.status, chart.text).toBe(200);
    expect(chart.body.data.labels).toEqual(['0050-01-01', '0050-01-02']);
  });

  it('is a 422 at the end of each swapped range in the filters of a return report, and no report is made', async () => {
    const filters = {
      created_at: { date_from: '2026-01-13', date_to: '2026-01-12' },
      approved_at: { date_from: '2026-01-01', date_to: '2026-01-31' },
      paid_at: { date_from: 1768262400, date_to: '2026-01-12T23:59:59Z' },
    };
    const reports = async () => (await sandbox.get('/returns/v1/reports', token)).body.meta.total_records;
    const before = await reports();
    for (const path of ['/returns/v1/reports', '/returns/v1/reports/count-report-entries']) {
      const answer = await sandbox.request('POST', path, { token, body: { data: { type: 'return-reports', attributes: { name: 'swapped', filters } } } });
      expect(answer.status, `${path}: ${answer.text}`).toBe(422);
      expect(answer.body.errors.map((error: Json) => [error.code, error.source.pointer])).toEqual([
        ['10008', '/data/attributes/filters/created_at/date_to'],
        ['10008', '/data/attributes/filters/paid_at/date_to'],
      ]);
    }
    expect(await reports()).toBe(before);
    const sameDay = { created_at: { date_from: '2026-01-12', date_to: '2026-01-12' } };
    const counted = await sandbox.request('POST', '/returns/v1/reports/count-report-entries', {
      token,
      body: { data: { type: 'return-reports', attributes: { filters: sameDay } } },
    });
    expect(counted.status, counted.text).toBe(200);
    const sameSecond = { created_at: { date_from: '1768219200.3', date_to: '2026-01-12T12:00:00.8Z' } };
    const inOrder = await sandbox.request('POST', '/returns/v1/reports/count-report-entries', {
      token,
      body: { data: { type: 'return-reports', attributes: { filters: sameSecond } } },
    });
    expect(inOrder.status, inOrder.text).toBe(200);
  });
});
