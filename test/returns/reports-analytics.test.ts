import { beforeEach, describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from '../support/app.js';
import { demoOrder, parseCsv, returnBody, returnsWorld, type ReturnsWorld } from './support.js';

let sandbox: TestSandbox;
let w: ReturnsWorld;
let shop: Json;

beforeEach(async () => {
  sandbox = await testSandbox();
  w = await returnsWorld(sandbox);
  shop = w.shopIn('NL');
});

async function makeReturn(order: Json, itemIndex: number, quantity: number, reason: Json) {
  const method = await w.method(shop.id, 'Return label (PostNL)');
  const answer = await sandbox.request('POST', '/returns/v1/returns', {
    token: w.token,
    body: returnBody({ shop, order, method, items: [{ id: order.attributes.items[itemIndex].id, quantity, reason }] }),
  });
  if (answer.status !== 201) throw new Error(answer.text);
  return answer.body.data;
}

describe('return reports', () => {
  it('count, queue and generate a real CSV on the sandbox clock', async () => {
    const order = await demoOrder(sandbox, w.token, shop);
    const first = await makeReturn(order, 0, 2, { code: 'not-as-described', comment: 'Colour is "off", really', questions: [] });
    await makeReturn(order, 1, 1, { code: 'changed-mind' });
    await sandbox.request('POST', `/returns/v1/returns/${first.id}/approve`, { token: w.token });
    const filters = { created_at: { date_from: '2020-01-01', date_to: TEST_NOW + 10 }, shops: [shop.id], return_reasons: ['not-as-described', 'changed-mind'] };
    const count = await sandbox.request('POST', '/returns/v1/reports/count-report-entries', {
      token: w.token,
      body: { data: { type: 'return-reports', attributes: { filters } } },
    });
    expect(count.body).toEqual({ data: { total_entries: 2 } });

    const created = await sandbox.request('POST', '/returns/v1/reports', {
      token: w.token,
      body: { data: { type: 'return-reports', attributes: { name: 'All of it', filters } } },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data.attributes.progress).toEqual({ total: 2, processed: 0 });
    expect((await sandbox.request('DELETE', `/returns/v1/reports/${id}`, { token: w.token })).status).toBe(423);
    await sandbox.advance(6);
    const report = await sandbox.get(`/returns/v1/reports/${id}?include=file,status`, w.token);
    expect(report.body.included.find((r: Json) => r.type === 'statuses').attributes.code).toBe('report-finished');
    const file = report.body.included.find((r: Json) => r.type === 'files');
    expect(file.attributes).toMatchObject({ document_type: 'report', formats: [{ extension: 'csv', mime_type: 'text/csv' }] });
    const download = await sandbox.app.request(BASE + new URL(file.links.self).pathname, {
      headers: { authorization: `Bearer ${w.token}`, accept: 'text/csv' },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('text/csv');
    const rows = parseCsv(await download.text());
    expect(rows[0]).toContain('reason_code');
    const lines = rows.slice(1).map((row) => Object.fromEntries(rows[0]!.map((name, i) => [name, row[i]])));
    expect(lines).toHaveLength(2);
    const described = lines.find((line) => line.reason_code === 'not-as-described')!;
    expect(described).toMatchObject({
      return_id: first.id,
      quantity: '2',
      comment: 'Colour is "off", really',
      status: 'return-approved',
      item_sku: 'LAMP-1',
      item_price: '39.99',
    });
    expect((await sandbox.request('DELETE', `/returns/v1/reports/${id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.get(`/returns/v1/reports/${id}`, w.token)).status).toBe(404);
  });

  it('writes a cell that a spreadsheet would run (= + - @ tab CR first) as text: quoted, after an apostrophe', async () => {
    const order = await demoOrder(sandbox, w.token, shop);
    const method = await w.method(shop.id, 'Return label (PostNL)');
    const cases = [
      { first_name: '\t=1+1', comment: '\r=1+1' },
      { first_name: '=HYPERLINK("http://evil.test")', comment: '@SUM(A1)' },
      { first_name: '+SUM(1,2)', comment: '-2+3' },
    ];
    for (const [index, { first_name, comment }] of cases.entries()) {
      const consumer = { ...order.attributes.recipient_address, first_name };
      const answer = await sandbox.request('POST', '/returns/v1/returns', {
        token: w.token,
        body: returnBody({
          shop,
          order,
          method,
          consumer,
          items: [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'not-as-described', comment, questions: [] } }],
        }),
      });
      expect(answer.status, `return ${index}: ${answer.text}`).toBe(201);
    }
    const filters = { shops: [shop.id], return_reasons: ['not-as-described'] };
    const created = await sandbox.request('POST', '/returns/v1/reports', {
      token: w.token,
      body: { data: { type: 'return-reports', attributes: { name: 'Formulas', filters } } },
    });
    expect(created.status, created.text).toBe(201);
    await sandbox.advance(6);
    const report = await sandbox.get(`/returns/v1/reports/${created.body.data.id}?include=file`, w.token);
    const file = report.body.included.find((r: Json) => r.type === 'files');
    const text = await (
      await sandbox.app.request(BASE + new URL(file.links.self).pathname, { headers: { authorization: `Bearer ${w.token}`, accept: 'text/csv' } })
    ).text();
    for (const { first_name, comment } of cases) {
      expect(text).toContain(`,"'${first_name.replaceAll('"', '""')} Jansen",`);
      expect(text).toContain(`,"'${comment}",`);
    }
    const rows = parseCsv(text);
    const lines = rows.slice(1).map((row) => Object.fromEntries(rows[0]!.map((name, i) => [name, row[i]])));
    expect(lines.map((line) => [line.consumer_name, line.comment])).toEqual(cases.map((c) => [`'${c.first_name} Jansen`, `'${c.comment}`]));
    // Amounts stay numbers.
    expect(lines.map((line) => line.item_price)).toEqual(cases.map(() => '39.99'));
  });

  it("takes filters production's open ReturnReportFilters holds beside the known ones, and drops them", async () => {
    // A client built on a newer production schema sends a filter the sandbox does not know yet.
    const filters = { shops: [shop.id], created_at: { date_from: '2020-01-01', date_to: '2030-01-01', zone: 'UTC' }, item_category: 'lamps' };
    const count = await sandbox.request('POST', '/returns/v1/reports/count-report-entries', {
      token: w.token,
      body: { data: { type: 'return-reports', attributes: { filters, note: 'kept out' } } },
    });
    expect(count.status).toBe(200);
    const created = await sandbox.request('POST', '/returns/v1/reports', {
      token: w.token,
      body: { data: { type: 'return-reports', attributes: { name: 'Newer client', filters } } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes.filters).toEqual({ shops: [shop.id], created_at: { date_from: '2020-01-01', date_to: '2030-01-01' } });
  });

  it("select by the organization's broker: another broker's id selects none of the caller's returns", async () => {
    const order = (await w.orders(shop.id))[0];
    await makeReturn(order, 0, 1, { code: 'changed-mind' });
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    const ours = organization.relationships.broker.data.id;
    const count = async (brokers: string[]) =>
      (
        await sandbox.request('POST', '/returns/v1/reports/count-report-entries', {
          token: w.token,
          body: { data: { type: 'return-reports', attributes: { filters: { shops: [shop.id], brokers } } } },
        })
      ).body.data.total_entries;
    expect(await count([ours])).toBe(1);
    expect(await count(['00000000-0000-4000-8000-000000000000'])).toBe(0);
  });

  it('refuse a status no return can have, naming the entry, rather than count none', async () => {
    const count = (return_statuses: string[]) =>
      sandbox.request('POST', '/returns/v1/reports/count-report-entries', {
        token: w.token,
        body: { data: { type: 'return-reports', attributes: { filters: { return_statuses } } } },
      });
    expect((await count(['return-pending', 'return-approved'])).status).toBe(200);
    const misspelt = await count(['return-pending', 'approved']);
    expect(misspelt.status).toBe(400);
    expect(firstError(misspelt).source.pointer).toBe('/data/attributes/filters/return_statuses/1');
  });

  it('refuses a date it cannot read, with a pointer', async () => {
    const answer = await sandbox.request('POST', '/returns/v1/reports', {
      token: w.token,
      body: { data: { type: 'return-reports', attributes: { name: 'x', filters: { created_at: { date_from: 'yesterday', date_to: '2026-01-01' } } } } },
    });
    expect(answer.status).toBe(400);
    expect(firstError(answer).source.pointer).toBe('/data/attributes/filters/created_at/date_from');
  });

  it('take integer bounds beyond any calendar date: counted in order, and a swapped pair is a 422 at its end', async () => {
    const order = await demoOrder(sandbox, w.token, shop);
    await makeReturn(order, 0, 1, { code: 'changed-mind' });
    const ask = (path: string, filters: Json) =>
      sandbox.request('POST', `/returns/v1/reports${path}`, {
        token: w.token,
        body: { data: { type: 'return-reports', attributes: { name: 'far', filters } } },
      });
    // Number.MAX_SAFE_INTEGER as "no end" is past the last day a Date can name (the year 275760).
    const endless = { created_at: { date_from: -Number.MAX_SAFE_INTEGER, date_to: Number.MAX_SAFE_INTEGER } };
    expect((await ask('/count-report-entries', endless)).body).toEqual({ data: { total_entries: 1 } });
    for (const path of ['/count-report-entries', '']) {
      for (const [name, range] of [
        ['created_at', { date_from: Number.MAX_SAFE_INTEGER, date_to: 1 }],
        ['paid_at', { date_from: 5, date_to: -Number.MAX_SAFE_INTEGER }],
      ] as const) {
        const answer = await ask(path, { [name]: range });
        expect(answer.status, `${path} ${name}: ${answer.text}`).toBe(422);
        expect(firstError(answer).source, `${path} ${name}`).toEqual({ pointer: `/data/attributes/filters/${name}/date_to` });
      }
    }
    expect((await sandbox.get('/returns/v1/reports', w.token)).body.data).toEqual([]);
  });
});

describe('return analytics', () => {
  it('count requested and approved returns per day, in a window that follows the sandbox clock', async () => {
    const order = await demoOrder(sandbox, w.token, shop);
    const made = await makeReturn(order, 0, 1, { code: 'too-large', questions: [{ code: 'worn', answer: false }] });
    await sandbox.request('POST', `/returns/v1/returns/${made.id}/approve`, { token: w.token });
    const today = new Date(TEST_NOW * 1000).toISOString().slice(0, 10);
    const chart = (await sandbox.get('/returns/v1/analytics/approved', w.token)).body.data;
    expect(chart.labels).toHaveLength(30);
    expect(chart.labels.at(-1)).toBe(today);
    expect(chart.datasets.map((d: Json) => [d.label, d.data.at(-1)])).toEqual([
      ['requested', 1],
      ['approved', 1],
    ]);
    await sandbox.advance(2 * 86400);
    w.token = await sandbox.token();
    const later = (await sandbox.get('/returns/v1/analytics/approved', w.token)).body.data;
    expect(later.labels.at(-3)).toBe(today);
    expect(later.datasets[1].data.slice(-3)).toEqual([1, 0, 0]);
  });

  it('count orders and returns per month, and rank the items returned most', async () => {
    const order = await demoOrder(sandbox, w.token, shop);
    await makeReturn(order, 0, 3, { code: 'too-large', questions: [{ code: 'worn', answer: true }] });
    await makeReturn(order, 0, 1, { code: 'changed-mind' });
    const months = (await sandbox.get(`/returns/v1/analytics/orders?group_by=month&filter[shop]=${shop.id}&filter[date_from]=2025-11-01`, w.token)).body.data;
    expect(months.labels[0]).toBe('2025-11');
    const returns = months.datasets.find((d: Json) => d.label === 'returns').data;
    expect(returns.reduce((a: number, b: number) => a + b, 0)).toBe(2);
    const orders = months.datasets.find((d: Json) => d.label === 'orders').data;
    expect(orders.reduce((a: number, b: number) => a + b, 0)).toBe(5);
    const top = (await sandbox.get('/returns/v1/analytics/most-returned-items', w.token)).body.data;
    expect(top[0]).toEqual({
      item: { sku: 'LAMP-1', name: 'Lamp', amount: 4 },
      return_reasons: [
        { code: 'too-large', name: 'Too large', amount: 3 },
        { code: 'changed-mind', name: 'Changed my mind', amount: 1 },
      ],
    });
    expect((await sandbox.get('/returns/v1/analytics/most-returned-items', await sandbox.token('other-client'))).body.data).toEqual([]);
  });

  it('count every day of a window of years up to its last, and refuse one longer than they chart', async () => {
    const order = await demoOrder(sandbox, w.token, shop);
    await makeReturn(order, 0, 1, { code: 'changed-mind' });
    const today = new Date(TEST_NOW * 1000).toISOString().slice(0, 10);
    const fourYears = new Date((TEST_NOW - 4 * 365 * 86400) * 1000).toISOString().slice(0, 10);
    const chart = (await sandbox.get(`/returns/v1/analytics/approved?filter[shop]=${shop.id}&filter[date_from]=${fourYears}`, w.token)).body.data;
    expect(chart.labels[0]).toBe(fourYears);
    expect(chart.labels.at(-1)).toBe(today);
    expect(chart.datasets[0].data.at(-1)).toBe(1);
    const months = (await sandbox.get(`/returns/v1/analytics/orders?group_by=month&filter[date_from]=${fourYears}`, w.token)).body.data;
    expect(months.labels).toHaveLength(49);
    expect(months.labels.at(-1)).toBe(today.slice(0, 7));
    for (const path of ['approved', 'orders']) {
      const tooLong = await sandbox.get(`/returns/v1/analytics/${path}?filter[date_from]=2000-01-01&filter[date_to]=${today}`, w.token);
      expect(tooLong.status, path).toBe(400);
      expect(firstError(tooLong).source).toEqual({ parameter: 'filter[date_from]' });
    }
  });

  it('refuse a window bound that names no calendar day, naming the parameter', async () => {
    for (const path of ['approved', 'orders']) {
      for (const [query, parameter] of [
        ['filter[date_from]=2026-02-30', 'filter[date_from]'],
        ['filter[date_to]=2026-04-31T10:00:00Z', 'filter[date_to]'],
        ['filter[date_from]=2026-01-01T09:00:00', 'filter[date_from]'],
      ]) {
        const answer = await sandbox.get(`/returns/v1/analytics/${path}?${query}`, w.token);
        expect(answer.status, `${path}?${query}`).toBe(400);
        expect(firstError(answer).source, `${path}?${query}`).toEqual({ parameter });
      }
    }
  });

  it('refuse a window bound past the year 9999, whose days have no YYYY-MM-DD label, naming the parameter', async () => {
    // 253402300800 is 10000-01-01T00:00:00Z: its ISO date is '+010000-01-01', so its days would all be labelled '+010000-01'.
    const lastSecond = 253402300799;
    const refused: [path: string, query: string, parameter: string][] = [];
    for (const path of ['approved', 'orders']) {
      refused.push(
        [path, `filter[date_from]=${lastSecond + 1}&filter[date_to]=${lastSecond + 4 * 86400}`, 'filter[date_to]'],
        [path, `filter[date_to]=${lastSecond + 86400}`, 'filter[date_to]'],
        [path, `filter[date_from]=${lastSecond + 1}`, 'filter[date_from]'],
      );
    }
    refused.push(['orders', `group_by=month&filter[date_from]=9999-10-01&filter[date_to]=${lastSecond + 40 * 86400}`, 'filter[date_to]']);
    for (const [path, query, parameter] of refused) {
      const answer = await sandbox.get(`/returns/v1/analytics/${path}?${query}`, w.token);
      expect(answer.status, `${path}?${query}`).toBe(400);
      expect(firstError(answer).source, `${path}?${query}`).toEqual({ parameter });
    }
    for (const path of ['approved', 'orders']) {
      // The last days a clock can show are charted as days.
      const last = await sandbox.get(`/returns/v1/analytics/${path}?filter[date_from]=9999-12-30&filter[date_to]=${lastSecond}`, w.token);
      expect(last.status, last.text).toBe(200);
      expect(last.body.data.labels).toEqual(['9999-12-30', '9999-12-31']);
    }
  });

  it('read decimal Unix seconds as window bounds, as the date range filters of the lists do', async () => {
    // Date.now() / 1000 as both bounds, the last second of the day before and the first of today: the window is one day.
    const today = Math.floor(TEST_NOW / 86400) * 86400;
    for (const path of ['approved', 'orders']) {
      const answer = await sandbox.get(`/returns/v1/analytics/${path}?filter[date_from]=${today - 0.5}&filter[date_to]=${today + 0.5}`, w.token);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.data.labels).toEqual([new Date(today * 1000).toISOString().slice(0, 10)]);
    }
  });
});
