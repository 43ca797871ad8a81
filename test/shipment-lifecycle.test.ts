import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { createShipment, customsContent, recipients, shipmentBody, world, type World } from './support/shipments.js';
import { MAX_CARRIER_STATUSES } from '../src/resources/shipments/shipment-rpc.js';

const DELAY = 2;

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  return { sandbox, w };
}

/** A PostNL shipment in the Netherlands, registered as soon as the sandbox allows. */
function registrable(w: World, extra: Json = {}) {
  const service = w.service('postnl-parcel-standard', 'NL');
  return shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { register_at: TEST_NOW, ...extra } });
}

async function current(sandbox: TestSandbox, token: string, id: string) {
  const answer = await sandbox.get(`/shipments/${id}?include=shipment_status.status`, token);
  const status = answer.body.included.find((r: Json) => r.type === 'statuses');
  return { shipment: answer.body.data, code: status.attributes.code as string, status: answer.body.included.find((r: Json) => r.type === 'shipment-statuses') };
}

async function history(sandbox: TestSandbox, token: string, id: string): Promise<string[]> {
  const answer = await sandbox.get(`/shipments/${id}/statuses?include=status`, token);
  const byId = new Map(answer.body.included.map((s: Json) => [s.id, s.attributes.code]));
  return answer.body.data.map((row: Json) => byId.get(row.relationships.status.data.id));
}

describe('registration', () => {
  it('registers a ready concept after the delay with tracking code, barcode, URLs and files', async () => {
    const { sandbox, w } = await setup();
    const created = await createShipment(sandbox, w.token, registrable(w));
    expect((await current(sandbox, w.token, created.id)).code).toBe('shipment-concept');
    await sandbox.advance(DELAY - 1);
    expect((await current(sandbox, w.token, created.id)).code).toBe('shipment-concept');
    await sandbox.advance(1);
    const { shipment, code, status } = await current(sandbox, w.token, created.id);
    expect(code).toBe('shipment-registered');
    const { tracking_code, barcode, tracking_url, tracking_page_url, synced_at } = shipment.attributes;
    expect(tracking_code).toMatch(/^3S[A-Z0-9]+$/);
    expect(barcode).toBe(tracking_code);
    expect(tracking_url).toContain(tracking_code);
    expect(synced_at).toBe(TEST_NOW + DELAY);
    expect(status.attributes.carrier_statuses[0]).toMatchObject({ assigned_at: TEST_NOW + DELAY, tracking_code });
    const files = await sandbox.get(`/shipments/${created.id}/files`, w.token);
    expect(files.body.data.map((f: Json) => f.attributes.document_type)).toEqual(['label']);
    const page = await sandbox.app.request(new URL(tracking_page_url).pathname);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Registered');
  });

  it('waits for a register_at in the future, and never registers without one', async () => {
    const { sandbox, w } = await setup();
    const later = await createShipment(sandbox, w.token, registrable(w, { register_at: TEST_NOW + 3600 }));
    const never = await createShipment(sandbox, w.token, registrable(w, { register_at: null }));
    await sandbox.advance(3600);
    expect((await current(sandbox, w.token, later.id)).code).toBe('shipment-concept');
    await sandbox.advance(DELAY);
    expect((await current(sandbox, w.token, later.id)).code).toBe('shipment-registered');
    expect((await current(sandbox, w.token, never.id)).code).toBe('shipment-concept');
  });

  it('adds customs documents for an international shipment and merges the organization tax numbers', async () => {
    const { sandbox, w } = await setup();
    const service = w.service('postnl-parcel-international', 'GB');
    const own = [{ type: 'vat', country_code: 'NL', number: 'NL000099998B57' }];
    const created = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        recipient: recipients.GB,
        service,
        contract: w.contractFor(service),
        attributes: { ...customsContent, register_at: TEST_NOW, sender_tax_identification_numbers: own },
      }),
    );
    await sandbox.advance(DELAY);
    const files = await sandbox.get(`/shipments/${created.id}/files`, w.token);
    expect(files.body.data.map((f: Json) => f.attributes.document_type).sort()).toEqual(['customs-declaration-form', 'label']);
    const numbers = (await current(sandbox, w.token, created.id)).shipment.attributes.sender_tax_identification_numbers;
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0].attributes.tax_identification_numbers;
    expect(numbers[0]).toEqual(own[0]);
    expect(numbers.filter((n: Json) => n.type === 'vat')).toHaveLength(1);
    for (const n of organization.filter((n: Json) => n.type !== 'vat')) expect(numbers).toContainEqual(n);
    const onlyCustoms = await sandbox.get(`/shipments/${created.id}/files?filter[document_type]=customs-declaration-form`, w.token);
    expect(onlyCustoms.body.data).toHaveLength(1);
    // Another of production's document types is an empty list; a typo is a 400 that names the filter, not an empty list.
    expect((await sandbox.get(`/shipments/${created.id}/files?filter[document_type]=commercial-invoice`, w.token)).body.data).toEqual([]);
    const typo = await sandbox.get(`/shipments/${created.id}/files?filter[document_type]=labels`, w.token);
    expect(typo.status).toBe(400);
    expect(firstError(typo)).toMatchObject({ code: '10003', source: { parameter: 'filter[document_type]' } });
  });

  it('fails registration for the sandbox:registration-failed tag, with a carrier error, and succeeds once fixed', async () => {
    const { sandbox, w } = await setup();
    const created = await createShipment(sandbox, w.token, registrable(w, { tags: ['sandbox:registration-failed'] }));
    await sandbox.advance(DELAY);
    const failed = await current(sandbox, w.token, created.id);
    expect(failed.code).toBe('shipment-registration-failed');
    expect(failed.status.attributes.errors[0]).toMatchObject({ code: '13002', title: 'Carrier API Error' });
    expect(failed.shipment.attributes).not.toHaveProperty('tracking_code');
    const fixed = await sandbox.request('PATCH', `/shipments/${created.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: created.id, attributes: { tags: [], register_at: TEST_NOW + DELAY } } },
    });
    expect(fixed.status).toBe(200);
    expect((await current(sandbox, w.token, created.id)).code).toBe('shipment-concept');
    await sandbox.advance(DELAY);
    expect((await current(sandbox, w.token, created.id)).code).toBe('shipment-registered');
    expect(await history(sandbox, w.token, created.id)).toEqual([
      'shipment-concept',
      'shipment-registration-failed',
      'shipment-concept',
      'shipment-registered',
    ]);
  });

  it('deletes a shipment whose registration failed only once it is a concept again, as production documents DELETE for concepts only', async () => {
    const { sandbox, w } = await setup();
    const created = await createShipment(sandbox, w.token, registrable(w, { tags: ['sandbox:registration-failed'] }));
    await sandbox.advance(DELAY);
    expect((await current(sandbox, w.token, created.id)).code).toBe('shipment-registration-failed');
    // It was a 204.
    const refused = await sandbox.request('DELETE', `/shipments/${created.id}`, { token: w.token });
    expect(refused.status).toBe(423);
    expect(firstError(refused)).toMatchObject({ code: '10005', detail: expect.stringContaining('register_at null') });
    expect((await sandbox.get(`/shipments/${created.id}`, w.token)).status).toBe(200);
    const unqueued = await sandbox.request('PATCH', `/shipments/${created.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: created.id, attributes: { register_at: null } } },
    });
    expect(unqueued.status, unqueued.text).toBe(200);
    await sandbox.advance(DELAY);
    expect((await current(sandbox, w.token, created.id)).code).toBe('shipment-concept');
    expect((await sandbox.request('DELETE', `/shipments/${created.id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.get(`/shipments/${created.id}`, w.token)).status).toBe(404);
  });

  it("fails registration, as production's docs require, for an international shipment without the recipient's phone number, and for customs without items", async () => {
    const { sandbox, w } = await setup();
    const service = w.service('postnl-parcel-international', 'GB');
    const { phone_number: _phone, ...noPhone } = recipients.GB;
    const abroad = await createShipment(
      sandbox,
      w.token,
      shipmentBody({
        shop: w.shopIn('NL'),
        recipient: noPhone,
        service,
        contract: w.contractFor(service),
        attributes: { ...customsContent, register_at: TEST_NOW },
      }),
    );
    const { items: _items, ...customsOnly } = customsContent;
    const home = await createShipment(sandbox, w.token, registrable(w, customsOnly));
    await sandbox.advance(DELAY);
    for (const [created, detail, pointer] of [
      [abroad, "recipient's phone_number", '/data/attributes/recipient_address/phone_number'],
      [home, 'needs items', '/data/attributes/items'],
    ] as const) {
      const failed = await current(sandbox, w.token, created.id);
      expect(failed.code).toBe('shipment-registration-failed');
      // The error names the member to fix, as POST /registered-shipments's refusal does.
      expect(failed.status.attributes.errors[0]).toMatchObject({ code: '13002', detail: expect.stringContaining(detail), source: { pointer } });
      expect((await sandbox.get(`/shipments/${created.id}/files`, w.token)).body.data).toEqual([]);
    }
    // Fixed with PATCH, it is registered.
    const fixed = await sandbox.request('PATCH', `/shipments/${abroad.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: abroad.id, attributes: { recipient_address: recipients.GB } } },
    });
    expect(fixed.status).toBe(200);
    await sandbox.advance(DELAY);
    expect((await current(sandbox, w.token, abroad.id)).code).toBe('shipment-registered');
  });

  it('fails registration when the contract was switched off meanwhile', async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const service = w.service('postnl-parcel-standard', 'NL');
    const created = await createShipment(sandbox, w.token, registrable(w));
    const contract = sandbox.store.get('contracts', w.contractFor(service).id)!;
    await sandbox.store.transact((tx) => tx.update('contracts', contract.id, { status: 'inactive' }));
    await sandbox.advance(DELAY);
    const failed = await current(sandbox, w.token, created.id);
    expect(failed.code).toBe('shipment-registration-failed');
    expect(failed.status.attributes.errors[0].detail).toContain('inactive');
  });
});

describe('after registration', () => {
  it('walks a sandbox:auto-deliver shipment to delivered on the sandbox clock', async () => {
    const { sandbox, w } = await setup();
    const created = await createShipment(sandbox, w.token, registrable(w, { tags: ['sandbox:auto-deliver'] }));
    await sandbox.advance(DELAY + 3600);
    expect((await current(sandbox, w.token, created.id)).code).toBe('shipment-received-by-carrier');
    await sandbox.advance(2 * 86400);
    const token = await sandbox.token();
    const done = await current(sandbox, token, created.id);
    expect(done.code).toBe('shipment-delivered');
    expect(await history(sandbox, token, created.id)).toEqual([
      'shipment-concept',
      'shipment-registered',
      'shipment-received-by-carrier',
      'shipment-at-sorting',
      'shipment-with-courier',
      'shipment-delivered',
    ]);
    expect(done.shipment.attributes.synced_at).toBe(done.status.attributes.created_at);
  });

  it('walks a sandbox:auto-deliver shipment on a pick-up service through the pick-up point, not the courier', async () => {
    const { sandbox, w } = await setup();
    const service = w.service('postnl-parcel-pickup-point', 'NL');
    expect(service.attributes.delivery_method).toBe('pick-up');
    const pickup_location = {
      code: '205604',
      address: { street_1: 'Damrak', street_number: 70, postal_code: '1012 LM', city: 'Amsterdam', country_code: 'NL' },
    };
    const body = shipmentBody({
      shop: w.shopIn('NL'),
      service,
      contract: w.contractFor(service),
      attributes: { register_at: TEST_NOW, tags: ['sandbox:auto-deliver'], pickup_location },
    });
    const created = await createShipment(sandbox, w.token, body);
    await sandbox.advance(DELAY + 2 * 86400);
    const token = await sandbox.token();
    expect((await current(sandbox, token, created.id)).code).toBe('shipment-delivered');
    expect(await history(sandbox, token, created.id)).toEqual([
      'shipment-concept',
      'shipment-registered',
      'shipment-received-by-carrier',
      'shipment-at-sorting',
      'shipment-at-parcel-shop',
      'shipment-delivered',
    ]);
  });

  it('refuses to change or delete a registered shipment with 423', async () => {
    const { sandbox, w } = await setup();
    const created = await createShipment(sandbox, w.token, registrable(w));
    await sandbox.advance(DELAY);
    const patch = await sandbox.request('PATCH', `/shipments/${created.id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id: created.id, attributes: { description: 'x' } } },
    });
    expect(patch.status).toBe(423);
    expect(firstError(patch)).toMatchObject({ status: '423', code: '10005' });
    const del = await sandbox.request('DELETE', `/shipments/${created.id}`, { token: w.token });
    expect(del.status).toBe(423);
  });

  it('voids a registered shipment (204, label gone) but not a concept (423)', async () => {
    const { sandbox, w } = await setup();
    const concept = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const refused = await sandbox.request('POST', '/void-shipment', { token: w.token, body: { data: { shipment_id: concept.id } } });
    expect(refused.status).toBe(423);
    expect(firstError(refused).code).toBe('10005');
    const created = await createShipment(sandbox, w.token, registrable(w));
    await sandbox.advance(DELAY);
    const voided = await sandbox.request('POST', '/void-shipment', { token: w.token, body: { data: { shipment_id: created.id } } });
    expect(voided.status).toBe(204);
    expect((await current(sandbox, w.token, created.id)).code).toBe('shipment-voided');
    expect((await sandbox.get(`/shipments/${created.id}/files`, w.token)).body.data).toEqual([]);
    const again = await sandbox.request('POST', '/void-shipment', { token: w.token, body: { data: { shipment_id: created.id } } });
    expect(again.status).toBe(423);
    expect(firstError(again)).toMatchObject({ code: '10005', source: { pointer: '/data/shipment_id' } });
    const unknown = await sandbox.request('POST', '/void-shipment', {
      token: w.token,
      body: { data: { shipment_id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(firstError(unknown)).toMatchObject({ code: '10008', source: { pointer: '/data/shipment_id' } });
  });

  it('simulates carrier statuses with POST /update-shipment-status', async () => {
    const { sandbox, w } = await setup();
    const statuses = (await sandbox.get('/statuses?page[size]=100', w.token)).body.data;
    const id = (code: string) => statuses.find((s: Json) => s.attributes.code === code).id;
    const created = await createShipment(sandbox, w.token, registrable(w));
    const early = await sandbox.request('POST', '/update-shipment-status', {
      token: w.token,
      body: { data: { shipment_id: created.id, status_id: id('shipment-delivered') } },
    });
    expect(early.status).toBe(422);
    await sandbox.advance(DELAY);
    await sandbox.advance(60);
    const answer = await sandbox.request('POST', '/update-shipment-status', {
      token: w.token,
      body: { data: { shipment_id: created.id, status_id: id('shipment-at-sorting') } },
    });
    expect(answer.status).toBe(204);
    const now = await current(sandbox, w.token, created.id);
    expect(now.code).toBe('shipment-at-sorting');
    expect(now.shipment.attributes.synced_at).toBe(TEST_NOW + DELAY + 60);
    await sandbox.request('POST', '/update-shipment-status', {
      token: w.token,
      body: { data: { shipment_id: created.id, status_id: id('shipment-at-sorting') } },
    });
    expect(await history(sandbox, w.token, created.id)).toHaveLength(3);
    const notCarrier = await sandbox.request('POST', '/update-shipment-status', {
      token: w.token,
      body: { data: { shipment_id: created.id, status_id: id('shipment-concept') } },
    });
    expect(firstError(notCarrier).source.pointer).toBe('/data/status_id');
    // GET /statuses lists collection statuses too: the refusal names what it is, not "no such status".
    const collectionStatus = await sandbox.request('POST', '/update-shipment-status', {
      token: w.token,
      body: { data: { shipment_id: created.id, status_id: id('collection-concept') } },
    });
    expect(collectionStatus.status).toBe(422);
    expect(firstError(collectionStatus)).toMatchObject({ source: { pointer: '/data/status_id' } });
    expect(firstError(collectionStatus).detail).toContain("'collection-concept' is a status of collections");
  });

  it('takes POST /update-shipment-status without status_id, as production (a resync): the status stays, carrier statuses join it', async () => {
    const { sandbox, w } = await setup();
    const concept = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const update = (data: Json) => sandbox.request('POST', '/update-shipment-status', { token: w.token, body: { data } });
    expect((await update({ shipment_id: concept.id })).status).toBe(204);
    expect(await history(sandbox, w.token, concept.id)).toEqual(['shipment-concept']);
    const created = await createShipment(sandbox, w.token, registrable(w));
    await sandbox.advance(DELAY);
    expect((await update({ shipment_id: created.id })).status).toBe(204);
    expect(await history(sandbox, w.token, created.id)).toEqual(['shipment-concept', 'shipment-registered']);
    await sandbox.advance(60);
    // Nothing new from the carrier, but it was asked: synced_at says when, the status stays.
    expect((await update({ shipment_id: created.id })).status).toBe(204);
    expect((await current(sandbox, w.token, created.id)).shipment.attributes.synced_at).toBe(TEST_NOW + DELAY + 60);
    expect(await history(sandbox, w.token, created.id)).toEqual(['shipment-concept', 'shipment-registered']);
    expect((await current(sandbox, w.token, concept.id)).shipment.attributes).not.toHaveProperty('synced_at');
    const scanned = { code: 'A01', description: 'Scanned at the depot', assigned_at: TEST_NOW + DELAY + 30 };
    expect((await update({ shipment_id: created.id, carrier_statuses: [scanned] })).status).toBe(204);
    const { code, status, shipment } = await current(sandbox, w.token, created.id);
    expect(code).toBe('shipment-registered');
    expect(status.attributes.carrier_statuses.at(-1)).toEqual({ ...scanned, category: 'default', tracking_code: shipment.attributes.tracking_code });
    expect(shipment.attributes.synced_at).toBe(TEST_NOW + DELAY + 60);
    // Carrier statuses still need a shipment the carrier has.
    const early = await update({ shipment_id: concept.id, carrier_statuses: [scanned] });
    expect(early.status).toBe(422);
    expect(firstError(early).source).toEqual({ pointer: '/data/shipment_id' });
  });

  it('keeps at most MAX_CARRIER_STATUSES carrier statuses on one shipment-status: joining past it is a 422 that changes nothing', async () => {
    const { sandbox, w } = await setup();
    const update = (data: Json) => sandbox.request('POST', '/update-shipment-status', { token: w.token, body: { data } });
    const created = await createShipment(sandbox, w.token, registrable(w));
    await sandbox.advance(DELAY);
    const batch = Array.from({ length: 20 }, (_, i) => ({ code: `S${i}`, description: 'Sorted', assigned_at: TEST_NOW + DELAY + i }));
    const held = () => current(sandbox, w.token, created.id).then(({ status }) => status.attributes.carrier_statuses.length as number);
    // Resyncs in a loop: each joins 20 until the next 20 would pass the bound.
    let answer: Awaited<ReturnType<typeof update>> | undefined;
    let joined = 0;
    for (let call = 0; call < MAX_CARRIER_STATUSES; call++) {
      answer = await update({ shipment_id: created.id, carrier_statuses: batch });
      if (answer.status !== 204) break;
      joined += 1;
    }
    expect(answer!.status).toBe(422);
    expect(firstError(answer!).source).toEqual({ pointer: '/data/carrier_statuses' });
    expect(firstError(answer!).detail).toContain(`at most ${MAX_CARRIER_STATUSES}`);
    const before = await held();
    expect(before).toBeLessThanOrEqual(MAX_CARRIER_STATUSES);
    expect(before + batch.length).toBeGreaterThan(MAX_CARRIER_STATUSES);
    expect(joined).toBeGreaterThan(0);
    // Whatever still fits is taken; a new status starts a list of its own.
    const room = MAX_CARRIER_STATUSES - before;
    if (room > 0) expect((await update({ shipment_id: created.id, carrier_statuses: batch.slice(0, room) })).status).toBe(204);
    expect(await held()).toBe(MAX_CARRIER_STATUSES);
    const delivered = sandbox.store.find('statuses', 'code', 'shipment-delivered')[0]!;
    expect((await update({ shipment_id: created.id, status_id: delivered.id, carrier_statuses: batch })).status).toBe(204);
    expect(await held()).toBe(batch.length);
  });

  it('takes an empty carrier_statuses list as none given, as production (no minimum)', async () => {
    const { sandbox, w } = await setup();
    const update = (data: Json) => sandbox.request('POST', '/update-shipment-status', { token: w.token, body: { data } });
    const concept = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    // A resync of a concept with nothing from the carrier: nothing to refuse.
    expect((await update({ shipment_id: concept.id, carrier_statuses: [] })).status).toBe(204);
    const created = await createShipment(sandbox, w.token, registrable(w));
    await sandbox.advance(DELAY);
    const before = (await current(sandbox, w.token, created.id)).status.attributes.carrier_statuses;
    expect((await update({ shipment_id: created.id, carrier_statuses: [] })).status).toBe(204);
    expect((await current(sandbox, w.token, created.id)).status.attributes.carrier_statuses).toEqual(before);
    // With a status, the default simulated carrier status, as when the list is left out.
    const statuses = (await sandbox.get('/statuses?page[size]=100', w.token)).body.data;
    const sorting = statuses.find((s: Json) => s.attributes.code === 'shipment-at-sorting').id;
    const answer = await update({ shipment_id: created.id, status_id: sorting, carrier_statuses: [] });
    expect(answer.status).toBe(204);
    const { code, status } = await current(sandbox, w.token, created.id);
    expect(code).toBe('shipment-at-sorting');
    expect(status.attributes.carrier_statuses).toHaveLength(1);
  });

  it('serves a single status with its status included, and 404 for another shipment’s status', async () => {
    const { sandbox, w } = await setup();
    const a = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const b = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    const statusOfA = a.relationships.shipment_status.data.id;
    const one = await sandbox.get(`/shipments/${a.id}/statuses/${statusOfA}?include=status`, w.token);
    expect(one.body.included[0].attributes.code).toBe('shipment-concept');
    expect((await sandbox.get(`/shipments/${b.id}/statuses/${statusOfA}`, w.token)).status).toBe(404);
    const theirs = await world(sandbox, 'other-client');
    expect((await sandbox.get(`/shipments/${a.id}/statuses`, theirs.token)).status).toBe(404);
  });
});
