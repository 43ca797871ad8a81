import { describe, expect, it } from 'vitest';
import { testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { decodeCode128, readPdf, renderPdfPage } from './support/pdf.js';
import { demoOrder, returnBody, returnsWorld } from './returns/support.js';
import { shipmentBody, world, type World } from './support/shipments.js';

/** A PostNL letter (20 g, the first weight step of its rates) within the Netherlands, with service and contract. */
function letter(w: World, attributes: Json = {}) {
  const service = w.service('postnl-letter', 'NL');
  return shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { physical_properties: { weight: 20 }, ...attributes } });
}

async function statusCodes(sandbox: TestSandbox, token: string, id: string): Promise<string[]> {
  const answer = await sandbox.get(`/shipments/${id}/statuses?include=status`, token);
  const codes = new Map(answer.body.included.map((s: Json) => [s.id, s.attributes.code]));
  return answer.body.data.map((row: Json) => codes.get(row.relationships.status.data.id));
}

describe('a letter, which its carrier does not track', () => {
  it('is registered with a label but no tracking, ends in shipment-created-without-tracking, and gets no carrier statuses', async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const created = await sandbox.request('POST', '/shipments', {
      token: w.token,
      body: letter(w, { register_at: TEST_NOW, tags: ['sandbox:auto-deliver'] }),
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    await sandbox.advance(60);

    const read = (await sandbox.get(`/shipments/${id}`, w.token)).body.data;
    expect(read.attributes.tracking_code).toBeUndefined();
    expect(read.attributes.tracking_url).toBeUndefined();
    expect(read.attributes.tracking_page_url).toBeUndefined();
    expect(read.attributes.barcode).toMatch(/^MP\d{14}$/);
    expect(read.relationships.files.data).toHaveLength(1);
    expect(await statusCodes(sandbox, w.token, id)).toContain('shipment-created-without-tracking');
    expect(await statusCodes(sandbox, w.token, id)).not.toContain('shipment-registered');
    // Nothing walks it on, the auto-deliver tag notwithstanding, and it is with the carrier: no edits.
    await sandbox.advance(86000); // the whole walk of a parcel, within the token's day
    expect((await statusCodes(sandbox, w.token, id)).filter((code) => code !== 'shipment-concept')).toEqual(['shipment-created-without-tracking']);
    const patch = await sandbox.request('PATCH', `/shipments/${id}`, {
      token: w.token,
      body: { data: { type: 'shipments', id, attributes: { description: 'x' } } },
    });
    expect(patch.status).toBe(423);
  });

  it('registered in the request, answers its label with the barcode and no tracking code, while a parcel keeps its tracking', async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const answer = await sandbox.request('POST', '/registered-shipments', { token: w.token, body: letter(w) });
    expect(answer.status).toBe(201);
    const { tracking_code, tracking_url, barcode } = answer.body.data.attributes;
    expect([tracking_code, tracking_url]).toEqual([undefined, undefined]);
    const pdf = Buffer.from(answer.body.meta.files[0].contents, 'base64');
    expect(readPdf(pdf)[0]!.text).toContain('UNTRACKED');
    expect(decodeCode128(renderPdfPage(pdf))).toBe(barcode);
    expect(await statusCodes(sandbox, w.token, answer.body.data.id)).toContain('shipment-created-without-tracking');

    const service = w.service('postnl-letterbox-parcel', 'NL');
    const parcel = await sandbox.request('POST', '/registered-shipments', {
      token: w.token,
      body: shipmentBody({ shop: w.shopIn('NL'), service, contract: w.contractFor(service), attributes: { physical_properties: { weight: 500 } } }),
    });
    expect(parcel.status).toBe(201);
    expect(parcel.body.data.attributes.tracking_code).toMatch(/^3S/);
    expect(await statusCodes(sandbox, w.token, parcel.body.data.id)).toContain('shipment-registered');
  });

  it("as a return's label, counts as the return shipment's registration: success", async () => {
    const sandbox = await testSandbox();
    const w = await world(sandbox);
    const r = await returnsWorld(sandbox);
    const shop = w.shopIn('NL');
    const service = w.service('postnl-letter', 'NL');
    const method = await sandbox.request('POST', '/returns/v1/return-methods', {
      token: w.token,
      body: {
        data: {
          type: 'return-methods',
          attributes: { return_type: 'shipment', title: 'Post it back', description: 'An envelope for a small item.', country_codes: ['NL'] },
          relationships: {
            shop: { data: { type: 'shops', id: shop.id } },
            service: { data: { type: 'services', id: service.id } },
            contract: { data: { type: 'contracts', id: w.contractFor(service).id } },
          },
        },
      },
    });
    expect(method.status, method.text).toBe(201);
    const order = await demoOrder(sandbox, r.token, shop);
    const item = order.attributes.items[0];
    const items = [{ id: item.id, quantity: 1, reason: { code: 'too-small', questions: [{ code: 'worn', answer: false }] } }];
    const created = await sandbox.request('POST', '/returns/v1/returns', {
      token: w.token,
      body: returnBody({ shop, order, method: method.body.data, items }),
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    expect((await sandbox.request('POST', `/returns/v1/returns/${id}/approve`, { token: w.token })).status).toBe(204);
    await sandbox.advance(60);
    const read = (await sandbox.get(`/returns/v1/returns/${id}?include=shipment`, w.token)).body;
    expect(read.data.attributes.shipment_registrations.map((attempt: Json) => attempt.status)).toEqual(['success']);
    expect(read.included.find((row: Json) => row.type === 'shipments').attributes.tracking_code).toBeUndefined();
  });
});
