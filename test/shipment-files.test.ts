import { beforeAll, describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { decodeCode128, readPdf, readPng, renderPdfPage } from './support/pdf.js';
import { createShipment, customsContent, recipients, shipmentBody, world, type World } from './support/shipments.js';

let sandbox: TestSandbox;
let w: World;
let domestic: Json;
let international: Json;

async function download(path: string, accept: string) {
  const response = await sandbox.app.request(BASE + path, { headers: { authorization: `Bearer ${w.token}`, accept } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function files(shipment: Json): Promise<Json[]> {
  return (await sandbox.get(`/shipments/${shipment.id}/files`, w.token)).body.data;
}

let png: Promise<{ them: World; registered: Json; label: Json }> | undefined;
/** A registered shipment of another client whose label was asked as PNG (made once). */
function pngLabel() {
  png ??= (async () => {
    const service = w.service('dhl-express-domestic', 'GB');
    const carrier = (await sandbox.read(`/carriers/${service.relationships.carrier.data.id}`)).body.data;
    const pngFormat = carrier.attributes.label_formats.find((f: Json) => f.mime_type === 'image/png');
    if (!pngFormat) throw new Error('fixture: DHL Express offers PNG labels');
    const them = await world(sandbox, 'other-client');
    const shipment = await createShipment(
      sandbox,
      them.token,
      shipmentBody({
        shop: them.shopIn('GB'),
        recipient: recipients.GB,
        service,
        contract: them.contractFor(service),
        attributes: { register_at: TEST_NOW + 5 },
        meta: { label: pngFormat },
      }),
    );
    await sandbox.advance(5);
    const registered = (await sandbox.get(`/shipments/${shipment.id}`, them.token)).body.data;
    const label = (await sandbox.get(`/shipments/${shipment.id}/files`, them.token)).body.data[0];
    return { them, registered, label };
  })();
  return png;
}

beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
  const nl = w.service('postnl-parcel-standard', 'NL');
  domestic = await createShipment(
    sandbox,
    w.token,
    shipmentBody({
      shop: w.shopIn('NL'),
      service: nl,
      contract: w.contractFor(nl),
      attributes: { register_at: TEST_NOW, description: 'Garden tools', customer_reference: 'CRM-7731 Anna VIP' },
    }),
  );
  const gb = w.service('postnl-parcel-international', 'GB');
  international = await createShipment(
    sandbox,
    w.token,
    shipmentBody({
      shop: w.shopIn('NL'),
      recipient: recipients.GB,
      service: gb,
      contract: w.contractFor(gb),
      attributes: { ...customsContent, register_at: TEST_NOW, customer_reference: 'CRM-7732 internal' },
      meta: { label: { mime_type: 'application/zpl', size: 'A6' } },
    }),
  );
  await sandbox.advance(5);
  domestic = (await sandbox.get(`/shipments/${domestic.id}`, w.token)).body.data;
  international = (await sandbox.get(`/shipments/${international.id}`, w.token)).body.data;
});

describe('shipment files', () => {
  it('has no files before registration', async () => {
    const concept = await createShipment(sandbox, w.token, shipmentBody({ shop: w.shopIn('NL') }));
    expect(await files(concept)).toEqual([]);
  });

  it('downloads a printable A6 PDF label with the addresses, the tracking code and a barcode that scans to it', async () => {
    const [label] = await files(domestic);
    expect(label.attributes.formats).toContainEqual({ extension: 'pdf', mime_type: 'application/pdf' });
    const pdf = await download(new URL(label.links.self).pathname, 'application/pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    // Production's name for every download, as its docs show it.
    expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="download.pdf"');
    const [page, ...more] = readPdf(pdf.bytes);
    expect(more).toHaveLength(0);
    expect(page!.width).toBeCloseTo(297.64, 0);
    expect(page!.height).toBeCloseTo(419.53, 0);
    const tracking = domestic.attributes.tracking_code;
    expect(page!.text).toContain(tracking);
    expect(page!.text).toContain('Anna de Vries');
    expect(page!.text).toContain('Amsterdam');
    expect(page!.text).toContain(domestic.attributes.sender_address.city);
    expect(decodeCode128(renderPdfPage(pdf.bytes))).toBe(tracking);
  });

  it('prints the description but never the customer_reference, which the API does not communicate to the carrier', async () => {
    const [label] = await files(domestic);
    const [page] = readPdf((await download(new URL(label.links.self).pathname, 'application/pdf')).bytes);
    expect(page!.text).toContain('Garden tools');
    expect(page!.text).not.toContain('CRM-7731');
    const zplLabel = (await files(international)).find((f) => f.attributes.document_type === 'label');
    const zpl = (await download(new URL(zplLabel.links.self).pathname, 'application/zpl')).bytes.toString('utf8');
    expect(zpl).toContain(international.attributes.tracking_code);
    expect(zpl).not.toContain('CRM-7732');
  });

  it('serves the label in the format asked for at creation, plus PDF, and refuses other formats with 406', async () => {
    const label = (await files(international)).find((f) => f.attributes.document_type === 'label');
    expect(label.attributes.formats.map((f: Json) => f.mime_type)).toEqual(['application/zpl', 'application/pdf']);
    const zpl = await download(new URL(label.links.self).pathname, 'application/zpl');
    expect(zpl.headers.get('content-type')).toBe('application/zpl');
    expect(zpl.headers.get('content-disposition')).toBe('attachment; filename="download.zpl"');
    const text = zpl.bytes.toString('utf8');
    expect(text.startsWith('^XA')).toBe(true);
    expect(text).toContain(`^FD${international.attributes.tracking_code}^FS`);
    const png = await download(new URL(label.links.self).pathname, 'image/png');
    expect(png.status).toBe(406);
    expect(firstError({ body: JSON.parse(png.bytes.toString()) } as Json).code).toBe('10004');
  });

  it('renders a PNG label whose barcode scans, when the label was asked as PNG', async () => {
    const { them, registered, label } = await pngLabel();
    const response = await sandbox.app.request(new URL(label.links.self).pathname, { headers: { authorization: `Bearer ${them.token}`, accept: 'image/png' } });
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(decodeCode128(readPng(Buffer.from(await response.arrayBuffer())))).toBe(registered.attributes.tracking_code);
  });

  it('adds a customs declaration listing the items to an international shipment', async () => {
    const customs = (await files(international)).find((f) => f.attributes.document_type === 'customs-declaration-form');
    const pdf = await download(new URL(customs.links.self).pathname, 'application/pdf');
    const pages = readPdf(pdf.bytes);
    expect(pages[0]!.width).toBeCloseTo(595.28, 0);
    const text = pages.map((p) => p.text).join('\n');
    for (const item of customsContent.items) {
      expect(text).toContain(item.description);
      expect(text).toContain(item.hs_code);
    }
  });

  it('answers the file resource for the JSON:API media type or no Accept header', async () => {
    const [label] = await files(domestic);
    const answer = await sandbox.get(new URL(label.links.self).pathname, w.token);
    expect(answer.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(answer.body.data).toMatchObject({ type: 'files', id: label.id, attributes: { document_type: 'label' } });
    const explicit = await download(new URL(label.links.self).pathname, 'application/vnd.api+json');
    expect(JSON.parse(explicit.bytes.toString()).data.id).toBe(label.id);
  });

  it('hides another tenant’s files behind 404', async () => {
    const [label] = await files(domestic);
    const theirs = await sandbox.token('other-client');
    expect((await sandbox.get(new URL(label.links.self).pathname, theirs)).status).toBe(404);
    expect((await sandbox.get(`/shipments/${domestic.id}/files`, theirs)).status).toBe(404);
  });
});

describe('content negotiation of a file download (RFC 9110 section 12.5.1)', () => {
  async function fetchAs(label: Json, token: string, accept: string) {
    const response = await sandbox.app.request(new URL(label.links.self).pathname, { headers: { authorization: `Bearer ${token}`, accept } });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, type: response.headers.get('content-type'), bytes };
  }
  const pdfOnly = async () => (await files(international)).find((f) => f.attributes.document_type === 'customs-declaration-form');

  it('answers image/* with the PNG of a PNG label', async () => {
    const { them, label } = await pngLabel();
    expect(label.attributes.formats.map((f: Json) => f.mime_type)).toContain('image/png');
    const answer = await fetchAs(label, them.token, 'image/*');
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('image/png');
    expect(readPng(answer.bytes)).toBeDefined();
  });

  it('refuses image/* on a PDF-only document with 406 naming Accept and the types it has, unless JSON:API is accepted too', async () => {
    const customs = await pdfOnly();
    expect(customs.attributes.formats.map((f: Json) => f.mime_type)).toEqual(['application/pdf']);
    const refused = await fetchAs(customs, w.token, 'image/*');
    expect(refused.status).toBe(406);
    expect(refused.type).toBe('application/vnd.api+json');
    const error = JSON.parse(refused.bytes.toString()).errors[0];
    expect(error).toMatchObject({ status: '406', code: '10004', source: { header: 'Accept' } });
    expect(error.detail).toContain('application/pdf');
    expect(error.detail).toContain('application/vnd.api+json');
    const resource = await fetchAs(customs, w.token, 'image/*, application/vnd.api+json;q=0.5');
    expect(resource.status).toBe(200);
    expect(JSON.parse(resource.bytes.toString()).data.id).toBe(customs.id);
  });

  it('follows q-values, not the order listed', async () => {
    const { them, label } = await pngLabel();
    const pdf = await fetchAs(label, them.token, 'image/png;q=0.2, application/pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const resource = await fetchAs(label, them.token, 'application/pdf;q=0, application/vnd.api+json');
    expect(resource.status).toBe(200);
    expect(resource.type).toBe('application/vnd.api+json');
    expect(JSON.parse(resource.bytes.toString()).data.id).toBe(label.id);
    expect((await fetchAs(label, them.token, 'application/pdf;q=0, image/png;q=0')).status).toBe(406);
  });

  it('still answers the resource for */*, application/json and the JSON:API type, and the file for a named format before */*', async () => {
    const { them, label } = await pngLabel();
    for (const accept of ['*/*', 'application/json', 'application/vnd.api+json', 'text/html, */*;q=0.8']) {
      const answer = await fetchAs(label, them.token, accept);
      expect(answer.status, accept).toBe(200);
      expect(answer.type, accept).toBe('application/vnd.api+json');
    }
    expect((await fetchAs(label, them.token, 'application/pdf, */*')).type).toBe('application/pdf');
  });
});
