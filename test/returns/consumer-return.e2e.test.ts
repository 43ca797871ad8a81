import { describe, expect, it } from 'vitest';
import { BASE, testSandbox, type Json } from '../support/app.js';
import { decodeCode128, readPdf, renderPdfPage } from '../support/pdf.js';
import { parseCsv, returnsWorld } from './support.js';

/**
 * A consumer's return from start to finish, as a return portal and the shop's back office would
 * drive it: look up the order, resolve the methods, create the return, approve it, move the
 * clock until the return label exists, download and read it, and find the return in a report
 * and in the analytics.
 */
describe('a consumer return, end to end', () => {
  it('goes from the order look-up to a scanned return label, a report line and the charts', async () => {
    const sandbox = await testSandbox();
    const w = await returnsWorld(sandbox);
    const shop = w.shopIn('NL');
    const order = (await w.orders(shop.id))[2];
    const consumer = order.attributes.recipient_address;

    // 1. The portal looks the order up by its reference and the consumer's e-mail address.
    const found = await sandbox.get(`/orders/v1/orders/${order.id}?shop_id=${shop.id}&email=${encodeURIComponent(consumer.email)}`, w.token);
    expect(found.status).toBe(200);
    const item = found.body.data.attributes.items.find((i: Json) => !i.non_returnable);

    // 2. It asks which methods the consumer can use; the consumer picks the PostNL label.
    const resolved = await sandbox.request('POST', '/returns/v1/return-methods/resolve', {
      token: w.token,
      body: { data: { order_reference: order.id, shop_id: shop.id, consumer_address: { country_code: consumer.country_code, email: consumer.email } } },
    });
    const method = resolved.body.data.find((m: Json) => m.attributes.return_type === 'shipment');
    expect(method.meta.carrier.code).toBe('postnl');

    // 3. The reasons the shop offers, and the return itself.
    const reasons = (await sandbox.get(`/returns/v1/shops/${shop.id}/reasons`, w.token)).body.data;
    const tooLarge = reasons.find((r: Json) => r.attributes.code === 'too-large');
    const created = await sandbox.request('POST', '/returns/v1/returns', {
      token: w.token,
      headers: { 'accept-language': 'en-GB' },
      body: {
        data: {
          type: 'returns',
          attributes: {
            order_reference: order.id,
            consumer_address: consumer,
            items: [
              {
                id: item.id,
                quantity: 1,
                reason: { code: tooLarge.attributes.code, comment: 'One size smaller, please.', questions: [{ code: 'worn', answer: false }] },
              },
            ],
          },
          relationships: { shop: { data: { type: 'shops', id: shop.id } }, return_method: { data: { type: 'return-methods', id: method.id } } },
        },
      },
    });
    expect(created.status).toBe(201);
    const returnId = created.body.data.id;

    // 4. The shop approves it; the label follows on the sandbox clock.
    expect((await sandbox.request('POST', `/returns/v1/returns/${returnId}/approve`, { token: w.token })).status).toBe(204);
    let files: Json[] = [];
    for (let waited = 0; files.length === 0 && waited < 60; waited += 1) {
      await sandbox.advance(1);
      files = (await sandbox.get(`/returns/v1/returns/${returnId}/files`, w.token)).body.data;
    }
    const label = files.find((f: Json) => f.attributes.document_type === 'label');
    const read = (await sandbox.get(`/returns/v1/returns/${returnId}?include=shipment`, w.token)).body;
    const shipment = read.included.find((r: Json) => r.type === 'shipments');
    expect(read.data.attributes.shipment_registrations).toMatchObject([{ invocation: 'automatic', status: 'success' }]);

    // 5. The consumer downloads the label: a PDF addressed to the shop, its barcode the tracking code.
    const response = await sandbox.app.request(BASE + new URL(label.links.self).pathname, {
      headers: { authorization: `Bearer ${w.token}`, accept: 'application/pdf' },
    });
    const pdf = Buffer.from(await response.arrayBuffer());
    const text = readPdf(pdf)
      .map((page) => page.text)
      .join('\n');
    expect(text).toContain(shop.attributes.return_address.city);
    expect(text).toContain(consumer.city);
    expect(decodeCode128(renderPdfPage(pdf, 0, 2))).toBe(shipment.attributes.tracking_code);

    // 6. The return is in a report of the shop's returns...
    const report = await sandbox.request('POST', '/returns/v1/reports', {
      token: w.token,
      body: { data: { type: 'return-reports', attributes: { name: 'This week', filters: { shops: [shop.id], return_statuses: ['return-approved'] } } } },
    });
    await sandbox.advance(10);
    const finished = (await sandbox.get(`/returns/v1/reports/${report.body.data.id}?include=file`, w.token)).body;
    const csv = await (
      await sandbox.app.request(BASE + new URL(finished.included[0].links.self).pathname, {
        headers: { authorization: `Bearer ${w.token}`, accept: 'text/csv' },
      })
    ).text();
    const [columns, ...lines] = parseCsv(csv);
    const line = lines.map((fields) => Object.fromEntries(fields.map((value, i) => [columns![i], value]))).find((l) => l.return_id === returnId);
    expect(line).toMatchObject({ reason_code: 'too-large', tracking_code: shipment.attributes.tracking_code, status: 'return-approved' });

    // 7. ... and in the analytics of today.
    const chart = (await sandbox.get(`/returns/v1/analytics/approved?filter[shop]=${shop.id}`, w.token)).body.data;
    expect(chart.datasets.find((d: Json) => d.label === 'approved').data.at(-1)).toBe(1);
    const top = (await sandbox.get(`/returns/v1/analytics/most-returned-items?filter[shop]=${shop.id}`, w.token)).body.data;
    expect(top[0].item.sku).toBe(item.sku);
  });
});
