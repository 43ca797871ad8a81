import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from './support/app.js';
import { decodeCode128, readPdf, renderPdfPage, type GreyImage } from './support/pdf.js';
import { customsContent, recipients, shipmentBody, world, type World } from './support/shipments.js';

const A6 = { width: 297.64, height: 419.53 };
const A4 = { width: 595.28, height: 841.89 };
const SCALE = 2;

let sandbox: TestSandbox;
let w: World;
/** Registered shipments and their label (and customs) file ids. */
let parcels: { tracking: string; label: string }[];
let a4Label: { tracking: string; label: string };
let zplLabel: { tracking: string; label: string };
let international: { tracking: string; label: string; customs: string };

async function register(extra: { meta?: Json; attributes?: Json; recipient?: Json; code?: string; to?: string } = {}) {
  const service = w.service(extra.code ?? 'postnl-parcel-standard', extra.to ?? 'NL');
  const body = shipmentBody({
    shop: w.shopIn('NL'),
    recipient: extra.recipient,
    service,
    contract: w.contractFor(service),
    attributes: extra.attributes,
    meta: extra.meta,
  });
  const answer = await sandbox.request('POST', '/registered-shipments', { token: w.token, body });
  if (answer.status !== 201) throw new Error(`registration failed: ${answer.text}`);
  const files = (await sandbox.get(`/shipments/${answer.body.data.id}/files`, w.token)).body.data as Json[];
  const idOf = (type: string) => files.find((f) => f.attributes.document_type === type)?.id;
  return {
    id: answer.body.data.id as string,
    tracking: answer.body.data.attributes.tracking_code as string,
    label: idOf('label'),
    customs: idOf('customs-declaration-form'),
  };
}

async function combine(data: Json, token = w.token) {
  return sandbox.request('POST', '/combine-files', { token, body: { data }, headers: { 'content-type': 'application/json' } });
}

async function combined(data: Json): Promise<Buffer> {
  const answer = await combine(data);
  expect(answer.status, answer.text.slice(0, 300)).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
  const pdf = Buffer.from(answer.text, 'base64');
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  return pdf;
}

/** A quarter of a rendered A4 sheet, as the label printed there. */
function quarter(image: GreyImage, index: number): GreyImage {
  const width = Math.floor(A6.width * SCALE);
  const height = Math.floor(A6.height * SCALE);
  const left = (index % 2) * width;
  const top = Math.floor(index / 2) * height;
  const pixels = new Uint8ClampedArray(width * height);
  for (let row = 0; row < height; row++)
    pixels.set(image.pixels.subarray((top + row) * image.width + left, (top + row) * image.width + left + width), row * width);
  return { width, height, pixels };
}

const scans = (image: GreyImage): string | undefined => {
  try {
    return decodeCode128(image);
  } catch {
    return undefined;
  }
};

beforeAll(async () => {
  sandbox = await testSandbox();
  w = await world(sandbox);
  parcels = [];
  for (let i = 0; i < 5; i++) parcels.push(await register({ attributes: { description: `BATCH-${i}` } }));
  a4Label = await register({ meta: { label: { mime_type: 'application/pdf', size: 'A4' } } });
  zplLabel = await register({ meta: { label: { mime_type: 'application/zpl', size: 'A6' } } });
  const gb = await register({ code: 'postnl-parcel-international', to: 'GB', recipient: recipients.GB, attributes: customsContent });
  international = { tracking: gb.tracking, label: gb.label, customs: gb.customs };
});

describe('POST /combine-files', () => {
  it('keeps each document in its own size by default: A6 labels on A6 pages, an A4 label on an A4 page, each barcode scanning', async () => {
    const pdf = await combined({ file_ids: [parcels[0]!.label, a4Label.label, zplLabel.label] });
    const pages = readPdf(pdf);
    expect(pages.map((p) => [Math.round(p.width), Math.round(p.height)])).toEqual([
      [Math.round(A6.width), Math.round(A6.height)],
      [Math.round(A4.width), Math.round(A4.height)],
      [Math.round(A6.width), Math.round(A6.height)],
    ]);
    // The description is printed as the parcel's contents: it tells the labels apart.
    expect(pages[0]!.text).toContain('BATCH-0');
    const expected = [parcels[0]!.tracking, a4Label.tracking, zplLabel.tracking];
    expected.forEach((tracking, index) => expect(decodeCode128(renderPdfPage(pdf, index, SCALE))).toBe(tracking));
  });

  it('puts every label on an A6 page with page_size A6, in the order given', async () => {
    const order = [parcels[2]!, a4Label, parcels[1]!];
    const pdf = await combined({ file_ids: order.map((p) => p.label), page_size: 'A6' });
    const pages = readPdf(pdf);
    expect(pages).toHaveLength(3);
    for (const page of pages) expect([Math.round(page.width), Math.round(page.height)]).toEqual([Math.round(A6.width), Math.round(A6.height)]);
    order.forEach((parcel, index) => expect(decodeCode128(renderPdfPage(pdf, index, SCALE))).toBe(parcel.tracking));
  });

  it('prints four A6 labels per A4 sheet, left to right and top to bottom, one barcode per label', async () => {
    const pdf = await combined({ file_ids: parcels.map((p) => p.label), page_size: 'A4' });
    const pages = readPdf(pdf);
    expect(pages).toHaveLength(2);
    for (const page of pages) expect([Math.round(page.width), Math.round(page.height)]).toEqual([Math.round(A4.width), Math.round(A4.height)]);
    const first = renderPdfPage(pdf, 0, SCALE);
    [0, 1, 2, 3].forEach((index) => expect(scans(quarter(first, index))).toBe(parcels[index]!.tracking));
    const second = renderPdfPage(pdf, 1, SCALE);
    expect(scans(quarter(second, 0))).toBe(parcels[4]!.tracking);
    expect([1, 2, 3].map((index) => scans(quarter(second, index)))).toEqual([undefined, undefined, undefined]);
  });

  it('starts the first sheet at starting_position, leaving the quarters before it empty', async () => {
    const pdf = await combined({ file_ids: [parcels[0]!.label, parcels[1]!.label], page_size: 'A4', starting_position: 'bottom-right' });
    expect(readPdf(pdf)).toHaveLength(2);
    const first = renderPdfPage(pdf, 0, SCALE);
    expect([0, 1, 2].map((index) => scans(quarter(first, index)))).toEqual([undefined, undefined, undefined]);
    expect(scans(quarter(first, 3))).toBe(parcels[0]!.tracking);
    expect(scans(quarter(renderPdfPage(pdf, 1, SCALE), 0))).toBe(parcels[1]!.tracking);
  });

  it('gives a customs declaration whole A4 pages of its own among the labels', async () => {
    const pdf = await combined({ file_ids: [international.label, international.customs, parcels[3]!.label], page_size: 'A4' });
    const pages = readPdf(pdf);
    expect(pages).toHaveLength(3);
    expect(pages[1]!.text).toContain('CUSTOMS DECLARATION');
    expect(pages[1]!.text).toContain(international.tracking);
    expect(pages[1]!.text).toContain('Page 1 of 1');
    expect(scans(quarter(renderPdfPage(pdf, 0, SCALE), 0))).toBe(international.tracking);
    expect(scans(quarter(renderPdfPage(pdf, 2, SCALE), 0))).toBe(parcels[3]!.tracking);
  });
});

describe('POST /combine-files refuses', () => {
  it('no files, too many files and a page size not offered, each pointing at its member', async () => {
    const none = await combine({ file_ids: [] });
    expect(none.status).toBe(400);
    expect(firstError(none).source).toEqual({ pointer: '/data/file_ids' });
    const many = await combine({ file_ids: Array.from({ length: 500 }, () => parcels[0]!.label) });
    expect(many.status).toBe(400);
    expect(firstError(many).source).toEqual({ pointer: '/data/file_ids' });
    const a5 = await combine({ file_ids: [parcels[0]!.label], page_size: 'A5' });
    expect(a5.status).toBe(400);
    expect(firstError(a5).source).toEqual({ pointer: '/data/page_size' });
    const corner = await combine({ file_ids: [parcels[0]!.label], page_size: 'A4', starting_position: 'middle' });
    expect(corner.status).toBe(400);
    expect(firstError(corner).source).toEqual({ pointer: '/data/starting_position' });
  });

  it('a customs declaration on A6 pages (422), naming the file', async () => {
    const answer = await combine({ file_ids: [parcels[0]!.label, international.customs], page_size: 'A6' });
    expect(answer.status).toBe(422);
    expect(firstError(answer).source).toEqual({ pointer: '/data/file_ids/1' });
  });

  it("another tenant's file and an unknown one as 404, naming the file", async () => {
    const other = await sandbox.token('other-client');
    const theirs = await combine({ file_ids: [parcels[0]!.label] }, other);
    expect(theirs.status).toBe(404);
    expect(firstError(theirs)).toMatchObject({ code: '10002', source: { pointer: '/data/file_ids/0' } });
    const unknown = await combine({ file_ids: [parcels[0]!.label, '00000000-0000-4000-8000-000000000000'] });
    expect(unknown.status).toBe(404);
    expect(firstError(unknown).source).toEqual({ pointer: '/data/file_ids/1' });
  });

  it('the label of a voided shipment, which is gone', async () => {
    const voided = await register();
    const answer = await sandbox.request('POST', '/void-shipment', {
      token: w.token,
      body: { data: { shipment_id: voided.id } },
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(204);
    expect((await combine({ file_ids: [voided.label] })).status).toBe(404);
  });
});
