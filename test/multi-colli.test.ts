import { describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { decodeCode128, readPdf, renderPdfPage } from './support/pdf.js';
import { recipients, shipmentBody, world, type World } from './support/shipments.js';

async function setup() {
  const sandbox = await testSandbox();
  const w = await world(sandbox);
  return { sandbox, w };
}

const weights = (...grams: number[]) => grams.map((weight) => ({ physical_properties: { weight } }));

function body(w: World, colli: Json[], extra: { attributes?: Json; meta?: Json; code?: string } = {}) {
  const service = w.service(extra.code ?? 'postnl-multi-colli', 'NL');
  const made = shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: extra.attributes, meta: { colli, ...extra.meta } });
  delete made.data.attributes.physical_properties;
  return made;
}

const post = (sandbox: TestSandbox, w: World, payload: Json, headers: Record<string, string> = {}) =>
  sandbox.request('POST', '/multi-colli-shipments', { token: w.token, body: payload, headers });

async function statusOf(sandbox: TestSandbox, token: string, id: string): Promise<string> {
  const answer = await sandbox.get(`/shipments/${id}?include=shipment_status.status`, token);
  return answer.body.included.find((r: Json) => r.type === 'statuses').attributes.code;
}

async function download(sandbox: TestSandbox, token: string, fileId: string): Promise<Buffer> {
  const response = await sandbox.app.request(`${BASE}/files/${fileId}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/pdf' } });
  return Buffer.from(await response.arrayBuffer());
}

describe('POST /multi-colli-shipments', () => {
  it('gives the master and every collo the time they were registered when register_at lies in the future', async () => {
    const { sandbox, w } = await setup();
    const answer = await post(sandbox, w, body(w, weights(2000, 1500), { attributes: { register_at: TEST_NOW + 7 * 86400 } }));
    expect(answer.status).toBe(201);
    expect(answer.body.data.attributes.register_at).toBe(TEST_NOW);
    for (const collo of answer.body.data.relationships.colli.data) {
      expect((await sandbox.get(`/shipments/${collo.id}`, w.token)).body.data.attributes.register_at).toBe(TEST_NOW);
    }
  });

  it('registers a master and its colli, each collo with its own tracking code and a label that scans to it', async () => {
    const { sandbox, w } = await setup();
    const answer = await post(
      sandbox,
      w,
      body(w, [{ physical_properties: { weight: 2000 }, description: 'Table top' }, ...weights(3500, 1200)], { attributes: { description: 'Garden table' } }),
    );
    expect(answer.status).toBe(201);
    const master = answer.body.data;
    expect(answer.headers.get('location')).toBe(`${BASE}/shipments/${master.id}`);
    expect(master.attributes.physical_properties.weight).toBe(6700);
    expect(master.attributes.price).toEqual({ amount: 1495, currency: 'EUR' });
    expect(master.attributes.collo_number).toBeUndefined();
    const colli = master.relationships.colli.data;
    expect(colli.map((c: Json) => c.meta.collo_number)).toEqual([1, 2, 3]);
    expect(new Set([master.attributes.tracking_code, ...colli.map((c: Json) => c.meta.tracking_code)]).size).toBe(4);
    for (const collo of colli) {
      expect(collo.meta.barcode).toBe(collo.meta.tracking_code);
      expect(collo.meta.tracking_url).toContain(collo.meta.tracking_code);
      const [label] = collo.meta.files;
      expect(label).toMatchObject({ document_type: 'label', mime_type: 'application/pdf' });
      const pdf = Buffer.from(label.contents, 'base64');
      expect(readPdf(pdf)[0]!.text).toContain(`Collo ${collo.meta.collo_number} of 3`);
      expect(decodeCode128(renderPdfPage(pdf))).toBe(collo.meta.tracking_code);
    }
    expect(await statusOf(sandbox, w.token, master.id)).toBe('shipment-registered');

    // A collo is a shipment: it points at the master, has its number and weight, no price of its own.
    const first = (await sandbox.get(`/shipments/${colli[0].id}`, w.token)).body.data;
    expect(first.attributes).toMatchObject({
      collo_number: 1,
      description: 'Table top',
      physical_properties: { weight: 2000 },
      tracking_code: colli[0].meta.tracking_code,
    });
    expect(first.attributes.price).toBeUndefined();
    expect(first.relationships.multi_colli_shipment.data).toEqual({ type: 'shipments', id: master.id });
    expect((await sandbox.get(`/shipments/${colli[1].id}`, w.token)).body.data.attributes.description).toBe('Garden table');
    expect(await statusOf(sandbox, w.token, colli[0].id)).toBe('shipment-registered');

    // Read back, the master names its colli; its label lists their tracking codes.
    const read = (await sandbox.get(`/shipments/${master.id}?include=colli`, w.token)).body;
    expect(read.data.relationships.colli.data.map((c: Json) => c.id)).toEqual(colli.map((c: Json) => c.id));
    expect(read.included.map((r: Json) => r.attributes.collo_number).sort()).toEqual([1, 2, 3]);
    const masterLabel = readPdf(await download(sandbox, w.token, master.relationships.files.data[0].id))[0]!.text.replace(/\s+/g, ' ');
    expect(masterLabel).toContain('3 colli');
    for (const collo of colli) expect(masterLabel).toContain(collo.meta.tracking_code);
  });

  it('picks a multi-colli service by meta.service_code, and is listed by filter[package_type]=multi-colli', async () => {
    const { sandbox, w } = await setup();
    const services = (await sandbox.read('/services?filter[package_type]=multi-colli&include=carrier')).body;
    expect(services.data.map((s: Json) => s.attributes.code).sort()).toEqual([
      'dhl-express-domestic-multi-piece',
      'dpd-multi-colli',
      'dpd-multi-colli',
      'postnl-multi-colli',
    ]);
    const made = shipmentBody({ shop: w.shopIn('NL'), meta: { service_code: 'postnl-multi-colli', colli: weights(1000, 1000) } });
    delete made.data.attributes.physical_properties;
    const answer = await post(sandbox, w, made);
    expect(answer.status).toBe(201);
    expect(answer.body.data.relationships.service.data.id).toBe(w.service('postnl-multi-colli', 'NL').id);
  });

  it('walks each collo through the life cycle on its own, and voiding the master voids the colli still registered', async () => {
    const { sandbox, w } = await setup();
    const walked = await post(sandbox, w, body(w, weights(1000, 1500), { attributes: { tags: ['sandbox:auto-deliver'] } }));
    const voided = await post(sandbox, w, body(w, weights(1000, 1500, 900)));
    const [one, two, three] = voided.body.data.relationships.colli.data.map((c: Json) => c.id);
    const statuses = (await sandbox.get('/statuses?page[size]=100', w.token)).body.data;
    const received = statuses.find((s: Json) => s.attributes.code === 'shipment-received-by-carrier');
    const simulate = await sandbox.request('POST', '/update-shipment-status', {
      token: w.token,
      body: { data: { shipment_id: three, status_id: received.id } },
      headers: { 'content-type': 'application/json' },
    });
    expect(simulate.status).toBe(204);
    expect(await statusOf(sandbox, w.token, one)).toBe('shipment-registered');
    const voiding = await sandbox.request('POST', '/void-shipment', {
      token: w.token,
      body: { data: { shipment_id: voided.body.data.id } },
      headers: { 'content-type': 'application/json' },
    });
    expect(voiding.status).toBe(204);
    expect([
      await statusOf(sandbox, w.token, voided.body.data.id),
      await statusOf(sandbox, w.token, one),
      await statusOf(sandbox, w.token, two),
      await statusOf(sandbox, w.token, three),
    ]).toEqual(['shipment-voided', 'shipment-voided', 'shipment-voided', 'shipment-received-by-carrier']);
    expect((await sandbox.get(`/shipments/${one}/files`, w.token)).body.data).toEqual([]);

    await sandbox.advance(86400);
    const token = await sandbox.token();
    for (const id of [walked.body.data.id, ...walked.body.data.relationships.colli.data.map((c: Json) => c.id)])
      expect(await statusOf(sandbox, token, id)).toBe('shipment-delivered');
  });

  it('replays the first answer for the same Idempotency-Key', async () => {
    const { sandbox, w } = await setup();
    const payload = body(w, weights(1000, 2000));
    const first = await post(sandbox, w, payload, { 'idempotency-key': 'pallet-7' });
    const again = await post(sandbox, w, payload, { 'idempotency-key': 'pallet-7' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(sandbox.store.count('shipments')).toBe(3);
  });
});

describe('POST /multi-colli-shipments refuses, creating nothing', () => {
  it('a weight that is not the sum of the colli, and the carrier refusing', async () => {
    const { sandbox, w } = await setup();
    const mismatch = body(w, weights(1000, 2000));
    mismatch.data.attributes.physical_properties = { weight: 2500 };
    const answer = await post(sandbox, w, mismatch);
    expect(answer.status).toBe(422);
    expect(firstError(answer).source).toEqual({ pointer: '/data/attributes/physical_properties/weight' });
    const summed = body(w, weights(1000, 2000));
    summed.data.attributes.physical_properties = { weight: 3000 };
    expect((await post(sandbox, w, summed)).status).toBe(201);
    const before = sandbox.store.count('shipments');
    const refused = await post(sandbox, w, body(w, weights(1000, 2000), { attributes: { tags: ['sandbox:registration-failed'] } }));
    expect(refused.status).toBe(422);
    expect(firstError(refused)).toMatchObject({ code: '13002', source: { pointer: '/data/attributes/tags' } });
    expect(sandbox.store.count('shipments')).toBe(before);
  });

  it('colli too heavy together for any rate: blamed on meta.colli when the request gave no weight, else on the weight it gave', async () => {
    const { sandbox, w } = await setup();
    const before = sandbox.store.count('shipments');
    const heavy = await post(sandbox, w, body(w, weights(200000, 200000)));
    expect(heavy.status).toBe(422);
    expect(firstError(heavy)).toMatchObject({ source: { pointer: '/meta/colli' }, detail: expect.stringMatching(/400000 g.*all colli together/) });
    const given = body(w, weights(200000, 200000));
    given.data.attributes.physical_properties = { weight: 400000 };
    expect(firstError(await post(sandbox, w, given)).source).toEqual({ pointer: '/data/attributes/physical_properties/weight' });
    expect(sandbox.store.count('shipments')).toBe(before);
  });

  it('services that carry single parcels and carriers without multi-colli services', async () => {
    const { sandbox, w } = await setup();
    const single = await post(sandbox, w, body(w, weights(1000, 2000), { code: 'postnl-parcel-standard' }));
    expect(single.status).toBe(422);
    expect(firstError(single).source).toEqual({ pointer: '/data/relationships/service/data/id' });
    expect(firstError(single).detail).toContain('postnl-multi-colli');
    const byCode = shipmentBody({ shop: w.shopIn('NL'), meta: { service_code: 'postnl-parcel-standard', colli: weights(1000, 1000) } });
    delete byCode.data.attributes.physical_properties;
    expect(firstError(await post(sandbox, w, byCode)).source).toEqual({ pointer: '/meta/service_code' });
    const b = await world(sandbox, 'other-client');
    const royalMail = b.service('royal-mail-tracked-48', 'GB');
    const gb = shipmentBody({
      shop: b.shopIn('GB'),
      recipient: recipients.GB,
      service: royalMail,
      contract: b.contractFor(royalMail),
      meta: { colli: weights(1000, 1000) },
    });
    delete gb.data.attributes.physical_properties;
    const none = await post(sandbox, b, gb);
    expect(none.status).toBe(422);
    expect(firstError(none).detail).toBe('Royal Mail does not carry multi-colli shipments.');
    expect(sandbox.store.count('shipments')).toBe(0);
  });

  it("refuses an unknown member of a collo's items or physical_properties (production's schemas are closed)", async () => {
    const { sandbox, w } = await setup();
    const item = { description: 'Table leg', quantity: 4 };
    const items = await post(sandbox, w, body(w, [{ physical_properties: { weight: 1000 }, items: [item, { ...item, foo: 1 }] }, ...weights(500)]));
    expect(items.status).toBe(400);
    expect(firstError(items)).toMatchObject({ detail: "'foo' is not a known member here.", source: { pointer: '/meta/colli/0/items/1/foo' } });
    const physical = await post(sandbox, w, body(w, [...weights(1000), { physical_properties: { weight: 500, foo: 1 } }]));
    expect(physical.status).toBe(400);
    expect(firstError(physical)).toMatchObject({ detail: "'foo' is not a known member here.", source: { pointer: '/meta/colli/1/physical_properties/foo' } });
  });

  it("a collo's items in two currencies, which make no total value", async () => {
    const { sandbox, w } = await setup();
    const item = (currency: string) => ({ description: 'Table leg', quantity: 4, item_value: { amount: 1500, currency } });
    const answer = await post(sandbox, w, body(w, [{ physical_properties: { weight: 1000 }, items: [item('EUR'), item('GBP')] }, ...weights(500)]));
    expect(answer.status).toBe(422);
    expect(firstError(answer)).toMatchObject({ code: '10008', source: { pointer: '/meta/colli/0/items/1/item_value/currency' } });
    expect(sandbox.store.count('shipments')).toBe(0);
  });

  it("takes null for a collo's dimensions, as if they were left out", async () => {
    const { sandbox, w } = await setup();
    const answer = await post(
      sandbox,
      w,
      body(w, [{ physical_properties: { weight: 1000, length: null, width: null, height: null, volume: null } }, ...weights(500)]),
    );
    expect(answer.status, answer.text).toBe(201);
    const first = answer.body.data.relationships.colli.data[0].id as string;
    expect((await sandbox.get(`/shipments/${first}`, w.token)).body.data.attributes.physical_properties).toEqual({ weight: 1000 });
  });

  it('is documented as it is refused: the API reference requires meta and its colli', async () => {
    const { sandbox, w } = await setup();
    const { components } = (await sandbox.get('/openapi.json')).body;
    expect(components.schemas.MultiColliShipmentCreateRequest.required).toContain('meta');
    expect(components.schemas.MultiColliShipmentRequestMeta.required).toContain('colli');
    const bare = body(w, weights(1000, 1000));
    delete bare.meta;
    const noMeta = await post(sandbox, w, bare);
    expect([noMeta.status, firstError(noMeta).source, firstError(noMeta).detail]).toEqual([
      400,
      { pointer: '/meta' },
      "'meta' is required: meta.colli lists the parcels of the shipment, each with its weight.",
    ]);
  });

  it('fewer than two colli, no colli and a collo without a weight (400)', async () => {
    const { sandbox, w } = await setup();
    const one = await post(sandbox, w, body(w, weights(1000)));
    expect(one.status).toBe(400);
    expect(firstError(one).source).toEqual({ pointer: '/meta/colli' });
    const bare = body(w, weights(1000, 1000));
    delete bare.meta;
    const noMeta = await post(sandbox, w, bare);
    expect(noMeta.status).toBe(400);
    expect(firstError(noMeta).source).toEqual({ pointer: '/meta' });
    const weightless = await post(sandbox, w, body(w, [{ physical_properties: { weight: 1000 } }, { physical_properties: { length: 300 } }]));
    expect(weightless.status).toBe(400);
    expect(firstError(weightless).source).toEqual({ pointer: '/meta/colli/1/physical_properties/weight' });
    // The README's bound: at most 50 colli in one request.
    const many = await post(sandbox, w, body(w, weights(...Array<number>(51).fill(100))));
    expect(many.status).toBe(400);
    expect(firstError(many)).toMatchObject({ code: '10003', source: { pointer: '/meta/colli' }, detail: expect.stringContaining('at most 50') });
    expect(sandbox.store.count('shipments')).toBe(0);
  });
});
