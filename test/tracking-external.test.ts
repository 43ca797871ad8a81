import { describe, expect, it } from 'vitest';
import { carrierStatusCategories } from '../src/model/shipment.js';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { recipients, shipmentBody, world, type World } from './support/shipments.js';

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  return { sandbox, w };
}

/** A shipment PostNL registered elsewhere, on the broker's PostNL contract. */
function external(w: World, code: string, extra: { attributes?: Json; relationships?: Json } = {}) {
  const service = w.service('postnl-parcel-standard', 'NL');
  const shop = w.shops[0];
  const recipient = recipients[shop.attributes.sender_address.country_code as keyof typeof recipients];
  const body = shipmentBody({
    shop,
    recipient,
    contract: w.contractFor(service),
    attributes: { tracking_code: code, ...extra.attributes },
    relationships: extra.relationships,
  });
  return body;
}

const track = (sandbox: TestSandbox, token: string, body: Json) =>
  sandbox.request('POST', '/track-external-shipment', { token, body, headers: { 'content-type': 'application/json' } });

async function byCode(sandbox: TestSandbox, token: string, code: string): Promise<Json[]> {
  return (await sandbox.get(`/shipments?filter[tracking_code]=${code}&include=shipment_status.status`, token)).body.data;
}

async function history(sandbox: TestSandbox, token: string, id: string): Promise<string[]> {
  const answer = await sandbox.get(`/shipments/${id}/statuses?include=status`, token);
  const codes = new Map(answer.body.included.map((s: Json) => [s.id, s.attributes.code]));
  return answer.body.data.map((row: Json) => codes.get(row.relationships.status.data.id));
}

describe('GET /get-carrier-status-categories', () => {
  it("lists production's categories with what they mean, as plain JSON", async () => {
    const { sandbox, w } = await setup();
    const answer = await sandbox.get('/get-carrier-status-categories', w.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body.data.map((c: Json) => c.code)).toEqual([...carrierStatusCategories]);
    for (const category of answer.body.data) expect(category.description.length).toBeGreaterThan(20);
    expect((await sandbox.get('/get-carrier-status-categories')).status).toBe(401);
  });

  it('names every category of the carrier statuses the sandbox emits, and the shipments filter takes them', async () => {
    const { sandbox, w } = await setup();
    const listed = new Set((await sandbox.get('/get-carrier-status-categories', w.token)).body.data.map((c: Json) => c.code));
    const service = w.service('postnl-parcel-standard', 'NL');
    const walked = await sandbox.request('POST', '/registered-shipments', {
      token: w.token,
      body: shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { tags: ['sandbox:auto-deliver'] } }),
    });
    const voided = await sandbox.request('POST', '/registered-shipments', {
      token: w.token,
      body: shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service) }),
    });
    await sandbox.request('POST', '/void-shipment', {
      token: w.token,
      body: { data: { shipment_id: voided.body.data.id } },
      headers: { 'content-type': 'application/json' },
    });
    expect((await track(sandbox, w.token, external(w, '3SEXT000000001', { attributes: { tags: ['sandbox:auto-deliver'] } }))).status).toBe(204);
    await sandbox.advance(86400);
    const emitted = sandbox.store.all('shipmentStatuses').flatMap((row) => row.carrier_statuses.map((carrier) => carrier.category));
    expect(emitted.length).toBeGreaterThan(8);
    for (const category of emitted) expect(listed.has(category), category).toBe(true);
    const token = await sandbox.token();
    const delivered = (await sandbox.get('/shipments?filter[carrier_status][category]=default&filter[current_status_code]=shipment-delivered', token)).body
      .data;
    expect(delivered.map((s: Json) => s.id).sort()).toEqual([walked.body.data.id, (await byCode(sandbox, token, '3SEXT000000001'))[0].id].sort());
  });
});

describe('POST /track-external-shipment', () => {
  it('stores the shipment as registered under its tracking code, without files or a price', async () => {
    const { sandbox, w } = await setup();
    const answer = await track(sandbox, w.token, external(w, '3SOUT123456789', { attributes: { customer_reference: 'POS-12' } }));
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    const [shipment, ...more] = await byCode(sandbox, w.token, '3SOUT123456789');
    expect(more).toEqual([]);
    expect(shipment.attributes).toMatchObject({
      tracking_code: '3SOUT123456789',
      barcode: '3SOUT123456789',
      customer_reference: 'POS-12',
      synced_at: TEST_NOW,
    });
    expect(shipment.attributes.tracking_url).toContain('3SOUT123456789');
    expect(shipment.attributes.price).toBeUndefined();
    expect(shipment.relationships.files.data).toEqual([]);
    expect(shipment.relationships.shipment_surcharges.data).toEqual([]);
    const status = (await sandbox.get(`/shipments/${shipment.id}?include=shipment_status.status`, w.token)).body.included;
    expect(status.find((r: Json) => r.type === 'statuses').attributes.code).toBe('shipment-registered');
    expect(status.find((r: Json) => r.type === 'shipment-statuses').attributes.carrier_statuses[0]).toMatchObject({
      tracking_code: '3SOUT123456789',
      category: 'default',
    });
    // The public tracking page knows it too (at its tracking_page_url, not at the code anyone could type), and other tenants do not.
    expect((await sandbox.app.request(shipment.attributes.tracking_page_url)).status).toBe(200);
    expect((await sandbox.app.request('http://sandbox.test/tracking/3SOUT123456789')).status).toBe(404);
    const other = await sandbox.token('other-client');
    expect(await byCode(sandbox, other, '3SOUT123456789')).toEqual([]);
    expect((await sandbox.get(`/shipments/${shipment.id}`, other)).status).toBe(404);
  });

  it('walks the tracked shipment through the carrier statuses on the sandbox clock with the auto-deliver tag', async () => {
    const { sandbox, w } = await setup();
    await track(sandbox, w.token, external(w, '3SWALK00000001', { attributes: { tags: ['sandbox:auto-deliver'] } }));
    const [shipment] = await byCode(sandbox, w.token, '3SWALK00000001');
    await sandbox.advance(3600);
    expect(await history(sandbox, w.token, shipment.id)).toEqual(['shipment-registered', 'shipment-received-by-carrier']);
    await sandbox.advance(86400);
    const token = await sandbox.token();
    expect(await history(sandbox, token, shipment.id)).toEqual([
      'shipment-registered',
      'shipment-received-by-carrier',
      'shipment-at-sorting',
      'shipment-with-courier',
      'shipment-delivered',
    ]);
  });

  it('takes simulated carrier statuses like any registered shipment, and cannot be changed or deleted', async () => {
    const { sandbox, w } = await setup();
    await track(sandbox, w.token, external(w, '3SSIM000000001'));
    const [shipment] = await byCode(sandbox, w.token, '3SSIM000000001');
    const statuses = (await sandbox.get('/statuses?page[size]=100', w.token)).body.data;
    const sorting = statuses.find((s: Json) => s.attributes.code === 'shipment-at-sorting');
    const simulated = await sandbox.request('POST', '/update-shipment-status', {
      token: w.token,
      body: {
        data: {
          shipment_id: shipment.id,
          status_id: sorting.id,
          carrier_statuses: [{ code: 'X1', description: 'Delayed at the hub', assigned_at: TEST_NOW, category: 'delay' }],
        },
      },
      headers: { 'content-type': 'application/json' },
    });
    expect(simulated.status).toBe(204);
    expect((await sandbox.get('/shipments?filter[carrier_status][category]=delay', w.token)).body.data.map((s: Json) => s.id)).toEqual([shipment.id]);
    expect((await sandbox.request('DELETE', `/shipments/${shipment.id}`, { token: w.token })).status).toBe(423);
  });

  it('refuses a tracking code the organization already tracks with that carrier', async () => {
    const { sandbox, w } = await setup();
    expect((await track(sandbox, w.token, external(w, '3SDUP000000001'))).status).toBe(204);
    const again = await track(sandbox, w.token, external(w, '3SDUP000000001'));
    expect(again.status).toBe(422);
    expect(firstError(again).source).toEqual({ pointer: '/data/attributes/tracking_code' });
    // Another organization may track the same code.
    const other = await world(sandbox, 'other-client');
    expect((await track(sandbox, other.token, external(other, '3SDUP000000001'))).status).toBe(204);
  });

  it("refuses a missing tracking code or contract, a contract that is not active and another tenant's shop, creating nothing", async () => {
    const { sandbox, w } = await setup();
    const before = sandbox.store.count('shipments');
    const noCode = external(w, 'x');
    delete noCode.data.attributes.tracking_code;
    const missing = await track(sandbox, w.token, noCode);
    expect(missing.status).toBe(400);
    expect(firstError(missing).source).toEqual({ pointer: '/data/attributes/tracking_code' });
    const spaced = await track(sandbox, w.token, external(w, '3S 123'));
    expect(spaced.status).toBe(400);
    const noContract = external(w, '3SNOCONTRACT01');
    delete noContract.data.relationships.contract;
    const withoutContract = await track(sandbox, w.token, noContract);
    expect(withoutContract.status).toBe(400);
    expect(firstError(withoutContract).source).toEqual({ pointer: '/data/relationships/contract' });
    const nulled = await track(sandbox, w.token, external(w, '3SNULL00000001', { relationships: { contract: { data: null } } }));
    expect(nulled.status).toBe(422);
    expect(firstError(nulled).source).toEqual({ pointer: '/data/relationships/contract' });
    // Production's schema lets the relationship itself be null: taken as left out, which this rule refuses.
    const nullRelationship = await track(sandbox, w.token, external(w, '3SNULL00000002', { relationships: { contract: null } }));
    expect([nullRelationship.status, firstError(nullRelationship).source]).toEqual([422, { pointer: '/data/relationships/contract' }]);
    const pending = w.contracts.find((c: Json) => c.attributes.status === 'pending');
    const inactive = await track(
      sandbox,
      w.token,
      external(w, '3SPEND00000001', { relationships: { contract: { data: { type: 'contracts', id: pending.id } } } }),
    );
    expect(inactive.status).toBe(422);
    expect(inactive.body.errors.map((e: Json) => e.source?.pointer)).toContain('/data/relationships/contract/data/id');
    const other = await world(sandbox, 'other-client');
    const theirShop = await track(
      sandbox,
      w.token,
      external(w, '3SSHOP00000001', { relationships: { shop: { data: { type: 'shops', id: other.shops[0].id } } } }),
    );
    expect(theirShop.status).toBe(422);
    expect(sandbox.store.count('shipments')).toBe(before);
  });
});
