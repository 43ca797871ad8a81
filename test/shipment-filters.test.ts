import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { createShipment, recipients, shipmentBody, world, type World } from './support/shipments.js';

// Each test works in a sandbox of its own, so the shipments it makes are the only ones it lists.
let sandbox: TestSandbox;
let w: World;
beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
});

const ids = async (query: string, token = w.token) => {
  const answer = await sandbox.get(`/shipments?page[size]=100&${query}`, token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.map((s: Json) => s.id);
};

/** 400 with `source.parameter` naming the filter. */
const refused = async (query: string, parameter: string) => {
  const answer = await sandbox.get(`/shipments?${query}`, w.token);
  expect(answer.status, query).toBe(400);
  expect(firstError(answer)).toMatchObject({ code: '10003', source: { parameter } });
};

describe('GET /shipments filters production documents', () => {
  it('filter[organization] and filter[broker] keep the caller’s own shipments, or none', async () => {
    const mine = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const organization = w.shopIn('NL').relationships.organization.data.id;
    const broker = (await sandbox.get(`/organizations/${organization}`, w.token)).body.data.relationships.broker.data.id;
    const theirs = await world(sandbox, 'other-client');
    const otherOrganization = theirs.shopIn('GB').relationships.organization.data.id;
    const all = await ids('');
    expect(all).toContain(mine.id);
    expect(await ids(`filter[organization]=${organization}`)).toEqual(all);
    expect(await ids(`filter[organization]=${otherOrganization},${organization}`)).toEqual(all);
    expect(await ids(`filter[organization]=${otherOrganization}`)).toEqual([]);
    expect(await ids(`filter[broker]=${broker}`)).toEqual(all);
    expect(await ids('filter[broker]=00000000-0000-4000-8000-000000000000')).toEqual([]);
    await refused('filter[organization]=acme', 'filter[organization]');
    await refused('filter[broker]=1', 'filter[broker]');
  });

  it('filter[consolidation_shipment] lists the shipments consolidated into the given ones', async () => {
    const hub = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), attributes: { is_consolidation: true } }));
    const into = { consolidation_shipment: { data: { type: 'shipments', id: hub.id } } };
    const first = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL'), relationships: into }));
    const second = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('DE'), recipient: recipients.DE, relationships: into }));
    await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect((await ids(`filter[consolidation_shipment]=${hub.id}`)).sort()).toEqual([first.id, second.id].sort());
    expect(await ids(`filter[consolidation_shipment]=${first.id}`)).toEqual([]);
    await refused('filter[consolidation_shipment]=hub', 'filter[consolidation_shipment]');
  });

  it('filter[search] finds its text within one field, never across the end of one into the next', async () => {
    const s = await testSandbox();
    const m = await world(s);
    const search = async (text: string) => {
      const answer = await s.get(`/shipments?filter[search]=${encodeURIComponent(text)}`, m.token);
      expect(answer.status, answer.text).toBe(200);
      return answer.body.data.map((row: Json) => row.id);
    };
    const hat = await createShipment(
      s,
      m.token,
      shipmentBody({ shop: m.shopIn('NL'), attributes: { description: 'Green hat xl', customer_reference: 'REF-22' } }),
    );
    for (const text of ['HAT XL', 'ref-2', 'kalverstraat', '1012 ph', 'Anna de Vries']) expect(await search(text), text).toEqual([hat.id]);
    // The end of the description and the customer reference: two fields, so no match.
    expect(await search('xl REF-22')).toEqual([]);
  });

  it('filter[current_status_code] refuses the status code of another resource, as it refuses an unknown one', async () => {
    for (const code of ['return-approved', 'collection-concept', 'shipment-concept,report-queued']) {
      await refused(`filter[current_status_code]=${code}`, 'filter[current_status_code]');
    }
    const answer = await sandbox.get('/shipments?filter[current_status_code]=return-approved', w.token);
    expect(firstError(answer).detail).toContain('returns');
    await ids('filter[current_status_code]=shipment-concept'); // a shipment's own code is a 200, as ever
  });

  it('filter[date_from] and filter[date_to] are the deprecated names of the created_at range', async () => {
    const s = await testSandbox();
    const m = await world(s);
    const early = await createShipment(s, m.token, shipmentBody({ shop: m.shopIn('NL') }));
    await s.advance(2 * 86400);
    const token = await s.token(); // the first one expired with the two days
    const late = await createShipment(s, token, shipmentBody({ shop: m.shopIn('NL') }));
    const day = (offset: number) => new Date((TEST_NOW + offset) * 1000).toISOString().slice(0, 10);
    const list = async (query: string) => (await s.get(`/shipments?${query}`, token)).body.data.map((x: Json) => x.id);
    expect(await list(`filter[date_from]=${day(86400)}`)).toEqual([late.id]);
    expect(await list(`filter[date_to]=${day(0)}`)).toEqual([early.id]);
    expect(await list(`filter[date_from]=${day(0)}&filter[date_to]=${day(2 * 86400)}`)).toEqual([late.id, early.id]);
    expect(await list(`filter[date_to]=${TEST_NOW}`)).toEqual([early.id]);
    await refused('filter[date_from]=last-week', 'filter[date_from]');
    await refused('filter[date_to]=tomorrow', 'filter[date_to]');
  });

  it('refuses date bounds that name no calendar day, as every date filter does', async () => {
    for (const name of [
      'filter[created_at][date_from]',
      'filter[created_at][date_to]',
      'filter[register_at][date_from]',
      'filter[register_at][date_to]',
      'filter[date_from]',
      'filter[date_to]',
    ]) {
      await refused(`${name}=2026-02-30`, name);
      await refused(`${name}=2026-04-31T10:00:00Z`, name);
      await refused(`${name}=2026-01-01T25:00:00Z`, name);
    }
  });

  it("says so when a date-time's offset lost its '+' to the query string", async () => {
    const answer = await sandbox.get('/shipments?filter[created_at][date_from]=2026-03-01T10:00:00+01:00', w.token);
    expect(answer.status).toBe(400);
    expect(firstError(answer).source).toEqual({ parameter: 'filter[created_at][date_from]' });
    expect(firstError(answer).detail).toContain("'+' arrived as a space");
    // Sent as %2B it is the moment it names.
    expect((await sandbox.get('/shipments?filter[created_at][date_from]=2026-03-01T10:00:00%2B01:00', w.token)).status).toBe(200);
    // A value that is wrong another way gets no such hint.
    expect(firstError(await sandbox.get('/shipments?filter[created_at][date_from]=2026-03-01T10:00:00', w.token)).detail).not.toContain('%2B');
  });

  it('filter[carrier_status][category] looks at the category of the latest carrier status', async () => {
    const s = await testSandbox();
    const m = await world(s);
    const service = m.service('postnl-parcel-standard', 'NL');
    const body = () => shipmentBody({ shop: m.shopIn('NL'), service, contract: m.contractFor(service), attributes: { register_at: TEST_NOW } });
    const delayed = await createShipment(s, m.token, body());
    const sorted = await createShipment(s, m.token, body());
    const concept = await createShipment(s, m.token, shipmentBody({ shop: m.shopIn('NL') }));
    await s.advance(60);
    const statuses = (await s.get('/statuses?page[size]=100', m.token)).body.data;
    const statusId = (code: string) => statuses.find((x: Json) => x.attributes.code === code).id;
    const update = async (data: Json) => expect((await s.request('POST', '/update-shipment-status', { token: m.token, body: { data } })).status).toBe(204);
    await update({ shipment_id: sorted.id, status_id: statusId('shipment-at-sorting') });
    await update({
      shipment_id: delayed.id,
      status_id: statusId('shipment-at-sorting'),
      carrier_statuses: [
        { code: 'B01', description: 'Sorted', assigned_at: TEST_NOW + 30, category: 'default' },
        { code: 'B77', description: 'Missed the truck', assigned_at: TEST_NOW + 50, category: 'delay' },
      ],
    });
    const list = async (query: string) => (await s.get(`/shipments?${query}`, m.token)).body.data.map((x: Json) => x.id);
    expect(await list('filter[carrier_status][category]=delay')).toEqual([delayed.id]);
    expect(await list('filter[carrier_status][category]=default')).toEqual([sorted.id]);
    expect(await list('filter[carrier_status][category]=damaged')).toEqual([]);
    expect(await list('')).toContain(concept.id);
    // A later carrier status of the same status moves the category on.
    await update({
      shipment_id: delayed.id,
      status_id: statusId('shipment-at-sorting'),
      carrier_statuses: [{ code: 'B02', description: 'On the next truck', assigned_at: TEST_NOW + 60 }],
    });
    expect(await list('filter[carrier_status][category]=delay')).toEqual([]);
    expect((await list('filter[carrier_status][category]=default')).sort()).toEqual([delayed.id, sorted.id].sort());
    await refused('filter[carrier_status][category]=late', 'filter[carrier_status][category]');
  });
});
