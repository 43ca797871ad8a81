import { describe, expect, it } from 'vitest';
import { firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { gatedPersistence } from './support/gated.js';
import { collectionBody, createCollection, HOUR, MONDAY } from './support/collections.js';
import { hookBody } from './support/matrix.js';
import { decodeCode128, readPdf, renderPdfPage } from './support/pdf.js';
import { customsContent, recipients, shipmentBody, world, type World } from './support/shipments.js';

async function setup(options: Parameters<typeof testSandbox>[0] = {}) {
  const sandbox = await testSandbox(options);
  const w = await world(sandbox);
  return { sandbox, w };
}

/** A PostNL parcel in the Netherlands with service and contract, that the carrier collects (meta.collection takes it). */
function ready(w: World, extra: { attributes?: Json; meta?: Json; relationships?: Json } = {}) {
  const service = w.service('postnl-parcel-business', 'NL');
  return shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), ...extra });
}

const post = (sandbox: TestSandbox, token: string, body: Json, headers: Record<string, string> = {}) =>
  sandbox.request('POST', '/registered-shipments', { token, body, headers });

/** Everything a failed request could have left behind. */
function footprint(sandbox: TestSandbox) {
  const { store } = sandbox;
  return ['shipments', 'shipmentStatuses', 'shipmentSurcharges', 'files', 'jobs', 'hookLogs'].map((table) => store.count(table as never));
}

async function statusOf(sandbox: TestSandbox, token: string, id: string): Promise<string> {
  const answer = await sandbox.get(`/shipments/${id}?include=shipment_status.status`, token);
  return answer.body.included.find((r: Json) => r.type === 'statuses').attributes.code;
}

describe('POST /registered-shipments', () => {
  it('creates and registers in one request: tracking code, barcode and a label that scans, in meta.files and as a file', async () => {
    const { sandbox, w } = await setup();
    const answer = await post(sandbox, w.token, ready(w, { attributes: { description: 'ORDER-1 books' } }));
    expect(answer.status).toBe(201);
    const shipment = answer.body.data;
    expect(answer.headers.get('location')).toBe(`http://sandbox.test/shipments/${shipment.id}`);
    const { tracking_code, barcode, tracking_url, register_at } = shipment.attributes;
    expect(tracking_code).toMatch(/^3S/);
    expect(barcode).toBe(tracking_code);
    expect(tracking_url).toContain(tracking_code);
    expect(register_at).toBe(TEST_NOW);
    expect(shipment.relationships.files.data).toHaveLength(1);
    expect(await statusOf(sandbox, w.token, shipment.id)).toBe('shipment-registered');

    const [file, ...more] = answer.body.meta.files;
    expect(more).toEqual([]);
    expect(file).toMatchObject({ document_type: 'label', extension: 'pdf', mime_type: 'application/pdf' });
    const pdf = Buffer.from(file.contents, 'base64');
    const [page] = readPdf(pdf);
    expect(page!.width).toBeCloseTo(297.64, 0);
    expect(page!.text).toContain('ORDER-1 books');
    expect(decodeCode128(renderPdfPage(pdf))).toBe(tracking_code);
    // Nothing is left queued: the registration happened in the request.
    expect(sandbox.store.all('jobs').filter((job) => job.subject === shipment.id)).toEqual([]);
    await sandbox.advance(60);
    expect(await statusOf(sandbox, w.token, shipment.id)).toBe('shipment-registered');
  });

  it('gives a register_at in the future the time it was registered, in the answer and when read, and keeps one in the past', async () => {
    const { sandbox, w } = await setup();
    const later = await post(sandbox, w.token, ready(w, { attributes: { register_at: TEST_NOW + 86400 } }));
    expect(later.status).toBe(201);
    expect(later.body.data.attributes.register_at).toBe(TEST_NOW);
    expect((await sandbox.get(`/shipments/${later.body.data.id}`, w.token)).body.data.attributes.register_at).toBe(TEST_NOW);
    // Found by the day it was registered, not by the day it asked for.
    const today = await sandbox.get(`/shipments?filter[register_at][date_from]=${TEST_NOW - 60}&filter[register_at][date_to]=${TEST_NOW + 60}`, w.token);
    expect(today.body.data.map((s: Json) => s.id)).toContain(later.body.data.id);

    const earlier = await post(sandbox, w.token, ready(w, { attributes: { register_at: TEST_NOW - 3600 } }));
    expect(earlier.body.data.attributes.register_at).toBe(TEST_NOW - 3600);
  });

  it('picks service and contract from meta.service_code and hands back the label in the format meta.label asks for', async () => {
    const { sandbox, w } = await setup();
    const body = shipmentBody({ shop: w.shopIn('NL'), meta: { service_code: 'postnl-parcel-standard', label: { mime_type: 'application/zpl', size: 'A6' } } });
    const answer = await post(sandbox, w.token, body);
    expect(answer.status).toBe(201);
    expect(answer.body.data.relationships.service.data.id).toBe(w.service('postnl-parcel-standard', 'NL').id);
    expect(answer.body.data.relationships.contract.data).toBeDefined();
    const [label] = answer.body.meta.files;
    expect(label).toMatchObject({ document_type: 'label', extension: 'zpl', mime_type: 'application/zpl' });
    const zpl = Buffer.from(label.contents, 'base64').toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl).toContain(answer.body.data.attributes.tracking_code);
  });

  it('hands back the customs declaration of an international shipment too', async () => {
    const { sandbox, w } = await setup();
    const service = w.service('postnl-parcel-international', 'GB');
    const answer = await post(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), recipient: recipients.GB, service, contract: w.contractFor(service), attributes: customsContent }),
    );
    expect(answer.status).toBe(201);
    const types = answer.body.meta.files.map((f: Json) => f.document_type).sort();
    expect(types).toEqual(['customs-declaration-form', 'label']);
    const customs = answer.body.meta.files.find((f: Json) => f.document_type === 'customs-declaration-form');
    expect(readPdf(Buffer.from(customs.contents, 'base64'))[0]!.text).toContain('CUSTOMS DECLARATION');
  });

  it('walks through the carrier statuses on the sandbox clock with the auto-deliver tag', async () => {
    const { sandbox, w } = await setup();
    const answer = await post(sandbox, w.token, ready(w, { attributes: { tags: ['sandbox:auto-deliver'] } }));
    await sandbox.advance(86400);
    // A day on, the first token has expired.
    expect(await statusOf(sandbox, await sandbox.token(), answer.body.data.id)).toBe('shipment-delivered');
  });

  it('puts the shipment in the shop collection named by meta.collection, and refuses a time the shop has no collection at', async () => {
    const { sandbox, w } = await setup();
    const shop = w.shopIn('NL');
    const collections = (await sandbox.get(`/collections?filter[shop]=${shop.id}&page[size]=100`, w.token)).body.data;
    const target = collections.find((c: Json) => c.attributes.collection_time.from > TEST_NOW);
    expect(target).toBeDefined();
    const good = await post(sandbox, w.token, ready(w, { meta: { collection: { collection_time: target.attributes.collection_time } } }));
    expect(good.status).toBe(201);
    expect(good.body.data.relationships.collection.data.id).toBe(target.id);
    const before = footprint(sandbox);
    const bad = await post(
      sandbox,
      w.token,
      ready(w, { meta: { collection: { collection_time: { from: TEST_NOW + 7 * 86400 + 1, to: TEST_NOW + 7 * 86400 + 3600 } } } }),
    );
    expect(bad.status).toBe(422);
    expect(firstError(bad).source).toEqual({ pointer: '/meta/collection/collection_time' });
    // A window that ends before it opens is refused at its end, as POST /collections refuses it.
    const { from, to } = target.attributes.collection_time;
    const swapped = await post(sandbox, w.token, ready(w, { meta: { collection: { collection_time: { from: to, to: from } } } }));
    expect(swapped.status).toBe(422);
    expect(swapped.body.errors).toEqual([
      expect.objectContaining({
        code: '10008',
        source: { pointer: '/meta/collection/collection_time/to' },
        detail: expect.stringMatching(/must be after 'from'/),
      }),
    ]);
    expect(footprint(sandbox)).toEqual(before);
  });

  it('picks the collection of that window that takes the shipment when a cancelled one shares it, and blames meta.collection otherwise', async () => {
    const { sandbox, w } = await setup();
    const shop = w.shopIn('NL');
    const service = w.service('postnl-parcel-business', 'NL');
    const window = { from: MONDAY + 13 * HOUR, to: MONDAY + 17 * HOUR };
    const booking = collectionBody(shop, window, { contract: w.contractFor(service), register: true });
    const cancelled = await createCollection(sandbox, w.token, booking);
    expect((await sandbox.request('DELETE', `/collections/${cancelled.id}`, { token: w.token })).status).toBe(204);
    const only = await post(sandbox, w.token, ready(w, { meta: { collection: { collection_time: window } } }));
    expect(only.status).toBe(422);
    expect(firstError(only)).toMatchObject({
      source: { pointer: '/meta/collection/collection_time' },
      detail: expect.stringMatching(/collection-voided/),
    });
    const rebooked = await createCollection(sandbox, w.token, booking);
    const answer = await post(sandbox, w.token, ready(w, { meta: { collection: { collection_time: window } } }));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.relationships.collection.data.id).toBe(rebooked.id);
  });

  it("takes meta.collection's collection_time as date-times too, as production's CollectionTime allows", async () => {
    const { sandbox, w } = await setup();
    const shop = w.shopIn('NL');
    const collections = (await sandbox.get(`/collections?filter[shop]=${shop.id}&page[size]=100`, w.token)).body.data;
    const target = collections.find((c: Json) => c.attributes.collection_time.from > TEST_NOW);
    const { from, to } = target.attributes.collection_time as { from: number; to: number };
    // One bound in UTC, the other with an offset and no colon: the same moments.
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
    const plusOne = (seconds: number) => new Date((seconds + 3600) * 1000).toISOString().replace('.000Z', '+0100');
    const answer = await post(sandbox, w.token, ready(w, { meta: { collection: { collection_time: { from: iso(from), to: plusOne(to) } } } }));
    expect(answer.status).toBe(201);
    expect(answer.body.data.relationships.collection.data.id).toBe(target.id);

    const bad = await post(sandbox, w.token, ready(w, { meta: { collection: { collection_time: { from: '10:00', to: iso(to) } } } }));
    expect(bad.status).toBe(400);
    expect(firstError(bad).source).toEqual({ pointer: '/meta/collection/collection_time/from' });
  });
});

describe('POST /registered-shipments refusals leave nothing behind', () => {
  it('answers the sandbox:registration-failed trigger with a carrier error (13002) pointing at the tags, and creates no concept', async () => {
    const { sandbox, w } = await setup();
    // A hook that runs on every new shipment: its log goes with the refused shipment.
    const organization = (await sandbox.get('/organizations', w.token)).body.data[0];
    expect((await sandbox.request('POST', '/hooks', { token: w.token, body: hookBody({ type: 'organizations', id: organization.id }) })).status).toBe(201);
    const before = footprint(sandbox);
    const answer = await post(sandbox, w.token, ready(w, { attributes: { tags: ['sandbox:registration-failed'] } }));
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ status: '422', code: '13002', source: { pointer: '/data/attributes/tags' }, meta: { carrier_status: '422' } });
    expect(footprint(sandbox)).toEqual(before);
    expect((await sandbox.get('/shipments', w.token)).body.meta.total_records).toBe(0);
    // The same shipment without the trigger is registered, and the hook ran on it.
    const fine = await post(sandbox, w.token, ready(w));
    expect(fine.body.data.attributes.channel).toBe('matrix');
    expect(sandbox.store.count('hookLogs')).toBe(before[5]! + 1);
  });

  it('refuses a contract that is not active, with a pointer at the contract', async () => {
    const { sandbox, w } = await setup();
    const pending = w.contracts.find((c: Json) => c.attributes.status === 'pending');
    const before = footprint(sandbox);
    const answer = await post(sandbox, w.token, ready(w, { relationships: { contract: { data: { type: 'contracts', id: pending.id } } } }));
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: Json) => e.source?.pointer)).toContain('/data/relationships/contract/data/id');
    expect(footprint(sandbox)).toEqual(before);
  });

  it("refuses an international shipment without the recipient's phone number (422/13002 at the member), as production's docs require it for registration", async () => {
    const { sandbox, w } = await setup();
    const service = w.service('postnl-parcel-international', 'GB');
    const { phone_number: _phone, ...noPhone } = recipients.GB;
    const before = footprint(sandbox);
    const answer = await post(
      sandbox,
      w.token,
      shipmentBody({ shop: w.shopIn('NL'), recipient: noPhone, service, contract: w.contractFor(service), attributes: customsContent }),
    );
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '13002', source: { pointer: '/data/attributes/recipient_address/phone_number' } });
    expect(footprint(sandbox)).toEqual(before);
  });

  it('refuses a shipment without a service or a contract', async () => {
    const { sandbox, w } = await setup();
    const before = footprint(sandbox);
    const answer = await post(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect(answer.status).toBe(422);
    expect(firstError(answer).source).toEqual({ pointer: '/data/relationships/service' });
    expect(footprint(sandbox)).toEqual(before);
  });

  it('refuses, as POST /shipments does, a shop of another tenant (422) and a body of another type (409)', async () => {
    const { sandbox, w } = await setup();
    const other = await world(sandbox, 'other-client');
    const theirs = await post(sandbox, w.token, ready(w, { relationships: { shop: { data: { type: 'shops', id: other.shops[0].id } } } }));
    expect(theirs.status).toBe(422);
    expect(theirs.body.errors.map((e: Json) => e.source?.pointer)).toContain('/data/relationships/shop/data/id');
    const typed = ready(w);
    typed.data.type = 'shops';
    expect((await post(sandbox, w.token, typed)).status).toBe(409);
  });
});

describe('Idempotency-Key on POST /registered-shipments', () => {
  it('replays the first answer (documents included), refuses another body with the key, and replays a refusal', async () => {
    const { sandbox, w } = await setup();
    const body = ready(w);
    const first = await post(sandbox, w.token, body, { 'idempotency-key': 'batch-1' });
    const again = await post(sandbox, w.token, body, { 'idempotency-key': 'batch-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(sandbox.store.count('shipments')).toBe(1);
    const other = await post(sandbox, w.token, ready(w, { attributes: { description: 'other' } }), { 'idempotency-key': 'batch-1' });
    expect(other.status).toBe(422);
    expect(firstError(other).source).toEqual({ header: 'Idempotency-Key' });

    const failing = ready(w, { attributes: { tags: ['sandbox:registration-failed'] } });
    const refused = await post(sandbox, w.token, failing, { 'idempotency-key': 'batch-2' });
    const replayed = await post(sandbox, w.token, failing, { 'idempotency-key': 'batch-2' });
    expect(replayed.status).toBe(422);
    expect(replayed.headers.get('idempotency-replay')).toBe('true');
    expect(replayed.text).toBe(refused.text);
  });

  it('answers 423 while the first request with the key is still running, as production documents', async () => {
    const gated = gatedPersistence();
    const { sandbox, w } = await setup({ persistence: gated.persistence });
    const body = ready(w);
    gated.hold();
    const running = post(sandbox, w.token, body, { 'idempotency-key': 'slow' });
    await gated.reached();
    const meanwhile = await post(sandbox, w.token, body, { 'idempotency-key': 'slow' });
    expect(meanwhile.status).toBe(423);
    // The code and title of every 423 (production's 10005), not those of a 409.
    expect(firstError(meanwhile)).toMatchObject({
      status: '423',
      code: '10005',
      title: 'Resource Cannot Be Modified',
      source: { header: 'Idempotency-Key' },
    });
    gated.release();
    expect((await running).status).toBe(201);
    expect(sandbox.store.count('shipments')).toBe(1);
  });
});
