import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json } from '../support/app.js';
import { demoOrder, returnBody, returnsWorld } from './support.js';

describe('listing returns', () => {
  it("takes production's filters", async () => {
    const sandbox = await testSandbox();
    const w = await returnsWorld(sandbox);
    const shop = w.shopIn('NL');
    const method = await w.method(shop.id, 'Send it yourself');
    await sandbox.request('PATCH', `/shops/${shop.id}`, {
      token: w.token,
      body: {
        data: {
          type: 'shops',
          id: shop.id,
          attributes: { return_outcomes: { exchange: true } },
          relationships: { organization: { data: shop.relationships.organization.data } },
        },
      },
    });
    const order = await demoOrder(sandbox, w.token, shop);
    const priority = (await sandbox.get(`/returns/v1/tags?filter[shop]=${shop.id}`, w.token)).body.data[0];
    const item = (extra: Json = {}) => [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'changed-mind' }, ...extra }];
    const refund = (
      await sandbox.request('POST', '/returns/v1/returns', { token: w.token, body: returnBody({ shop, order, method, items: item(), tags: [priority.id] }) })
    ).body.data;
    await sandbox.advance(2 * 86400);
    w.token = await sandbox.token();
    const exchange = (
      await sandbox.request('POST', '/returns/v1/returns', {
        token: w.token,
        body: returnBody({ shop, order, method, items: item({ preferred_outcome: 'exchange' }) }),
      })
    ).body.data;
    await sandbox.request('POST', `/returns/v1/returns/${refund.id}/reject`, { token: w.token });

    const ids = async (query: string) => (await sandbox.get(`/returns/v1/returns?${query}`, w.token)).body.data.map((row: Json) => row.id);
    expect(await ids('')).toEqual([exchange.id, refund.id]);
    expect(await ids('filter[email]=SAM@example.com')).toEqual([exchange.id, refund.id]);
    expect(await ids('filter[postal_code]=1011ab')).toEqual([exchange.id, refund.id]);
    expect(await ids('filter[search]=lamp')).toEqual([exchange.id, refund.id]);
    expect(await ids('filter[search]=nothing-like-it')).toEqual([]);
    expect(await ids('filter[search]=sam%20JANSEN')).toEqual([exchange.id, refund.id]);
    expect(await ids('filter[search]=jansen')).toEqual([exchange.id, refund.id]);
    expect(await ids('filter[status]=return-rejected')).toEqual([refund.id]);
    expect(await ids(`filter[tags]=${priority.id}`)).toEqual([refund.id]);
    expect(await ids('filter[has_preferred_outcome_exchange]=true')).toEqual([exchange.id]);
    expect(await ids('filter[has_preferred_outcome_refund]=false')).toEqual([exchange.id]);
    const day = new Date((TEST_NOW + 2 * 86400) * 1000).toISOString().slice(0, 10);
    expect(await ids(`filter[created_at][date_from]=${day}`)).toEqual([exchange.id]);
    expect(await ids(`filter[created_at][date_to]=${TEST_NOW + 60}`)).toEqual([refund.id]);
    // A status code no return can have is refused, not answered with an empty list.
    for (const status of ['return-rejectd', 'return-rejected,Return-Approved', 'shipment-registered']) {
      const unknown = await sandbox.get(`/returns/v1/returns?filter[status]=${status}`, w.token);
      expect(unknown.status, status).toBe(400);
      expect(firstError(unknown).source, status).toEqual({ parameter: 'filter[status]' });
    }
    expect(await ids('filter[status]=return-rejected, return-pending')).toEqual([exchange.id, refund.id]);
    const bad = await sandbox.get('/returns/v1/returns?filter[created_at][date_from]=soon', w.token);
    expect(bad.status).toBe(400);
    expect(firstError(bad).source.parameter).toBe('filter[created_at][date_from]');
    for (const [query, parameter] of [
      ['filter[created_at][date_from]=2026-02-30', 'filter[created_at][date_from]'],
      ['filter[created_at][date_to]=2026-04-31T10:00:00Z', 'filter[created_at][date_to]'],
    ]) {
      const impossible = await sandbox.get(`/returns/v1/returns?${query}`, w.token);
      expect(impossible.status, query).toBe(400);
      expect(firstError(impossible).source, query).toEqual({ parameter });
    }
    const included = await sandbox.get('/returns/v1/returns?include=tags,status,shop,return_method', w.token);
    expect(included.body.included.map((r: Json) => r.type).sort()).toEqual(['return-methods', 'return-tags', 'shops', 'statuses', 'statuses']);
  });

  it('lists returns and reports made in the same second newest first, as they were made', async () => {
    // The sandbox clock stands still between moves, as it does for a client making several in a second.
    const sandbox = await testSandbox();
    const w = await returnsWorld(sandbox);
    const shop = w.shopIn('NL');
    const method = await w.method(shop.id, 'Send it yourself');
    const order = await demoOrder(sandbox, w.token, shop, 6);
    const made: string[] = [];
    const reports: string[] = [];
    for (let i = 0; i < 6; i++) {
      const body = returnBody({ shop, order, method, items: [{ id: order.attributes.items[0].id, quantity: 1 }] });
      made.push((await sandbox.request('POST', '/returns/v1/returns', { token: w.token, body })).body.data.id);
      const report = { data: { type: 'return-reports', attributes: { name: `Report ${i}`, filters: {} } } };
      reports.push((await sandbox.request('POST', '/returns/v1/reports', { token: w.token, body: report })).body.data.id);
    }
    const listed = (await sandbox.get(`/returns/v1/returns?filter[shop]=${shop.id}&filter[search]=${order.id}`, w.token)).body.data;
    expect(listed.map((row: Json) => row.id)).toEqual([...made].reverse());
    const reportList = (await sandbox.get('/returns/v1/reports', w.token)).body.data;
    expect(reportList.map((row: Json) => row.id)).toEqual([...reports].reverse());
  });
});
