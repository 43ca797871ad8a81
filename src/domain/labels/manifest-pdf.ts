import type { Address } from '../../model/common.js';
import { csvText } from '../csv.js';
import { code128, QUIET_ZONE } from './barcode.js';
import { A4, fitText, type TextOp } from './layout.js';
import { createPdf, drawOps, drawText, pdfBuffer, pdfMeasure } from './pdf.js';
import { addressLines, formatDateTime, formatWeight } from './text.js';

/** Everything a manifest prints; built from the store by the collections rules, drawn here without it. */
export interface ManifestData {
  manifestId: string;
  name: string;
  /** Unix seconds. */
  createdAt: number;
  address: Address;
  carrier?: string;
  contract?: string;
  collection?: { from: number; to: number; reference?: string };
  rows: ManifestRow[];
}

export interface ManifestRow {
  trackingCode: string;
  /** Text of the row's barcode (the shipment's barcode, which is its tracking code in the sandbox). */
  barcode: string;
  recipient: string;
  destination: string;
  service: string;
  /** Grams. */
  weight: number;
}

export const MANIFEST_MARKING = 'SANDBOX - NOT A REAL MANIFEST';

/** Page geometry in points, exported so tests can find each row's barcode on the page. */
export const MANIFEST_LAYOUT = {
  left: 36,
  right: A4.width - 36,
  firstTop: 250,
  top: 70,
  bottom: 780,
  rowHeight: 52,
  barcodeX: 64,
  barcodeWidth: 190,
} as const;

const L = MANIFEST_LAYOUT;
const COLUMNS = [
  { title: '#', x: L.left, width: 24 },
  { title: 'Tracking code', x: L.left + 26, width: 200 },
  { title: 'Recipient', x: L.left + 228, width: 100 },
  { title: 'Destination', x: L.left + 330, width: 78 },
  { title: 'Service', x: L.left + 410, width: 68 },
  { title: 'Weight', x: L.left + 480, width: L.right - L.left - 480 },
] as const;

function write(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  size: number,
  options: { bold?: boolean; width?: number; align?: 'left' | 'right' | 'center' } = {},
): void {
  const op: TextOp = { kind: 'text', x, y, size, text, width: options.width ?? L.right - x, ...options };
  drawText(doc, fitText(op, pdfMeasure(doc)));
}

/** A Code 128 of `value` drawn to fit `width`, its quiet zones included. */
function barcode(doc: PDFKit.PDFDocument, value: string, x: number, y: number, width: number, height: number): void {
  const symbol = code128(value);
  const module = Math.min(1.2, width / (symbol.modules + 2 * QUIET_ZONE));
  drawOps(doc, [{ kind: 'barcode', x: x + QUIET_ZONE * module, y, height, module, symbol }]);
}

function header(doc: PDFKit.PDFDocument, data: ManifestData): void {
  doc.rect(L.left, 36, L.right - L.left, 20).fill('black');
  drawText(doc, { kind: 'text', x: L.left, y: 41, width: L.right - L.left, size: 10, bold: true, align: 'center', inverse: true, text: MANIFEST_MARKING });
  write(doc, 'MANIFEST', L.left, 68, 18, { bold: true });
  write(doc, data.name, L.left, 92, 10, { width: 300 });
  write(doc, `Manifest ${data.manifestId}`, L.left, 106, 8, { width: 300 });
  write(doc, `Created ${formatDateTime(data.createdAt)}`, L.left, 117, 8, { width: 300 });
  if (data.carrier) write(doc, `Carrier: ${data.carrier}${data.contract ? ` (${data.contract})` : ''}`, L.left, 128, 8, { width: 300 });
  const reference = data.collection?.reference;
  if (reference) {
    write(doc, 'Collection reference', L.right - 200, 68, 7, { width: 200, align: 'right' });
    write(doc, reference, L.right - 200, 77, 11, { bold: true, width: 200, align: 'right' });
    barcode(doc, reference, L.right - 200, 92, 200, 34);
  }
  write(doc, 'Collect at', L.left, 146, 8, { bold: true });
  addressLines(data.address).forEach((line, index) => write(doc, line, L.left, 157 + index * 11, 9, { width: 300 }));
  if (data.collection) {
    write(doc, 'Collection window', L.left + 320, 146, 8, { bold: true });
    write(doc, `${formatDateTime(data.collection.from)} to`, L.left + 320, 157, 9);
    write(doc, formatDateTime(data.collection.to), L.left + 320, 168, 9);
  }
  write(doc, `${data.rows.length} shipment${data.rows.length === 1 ? '' : 's'}, ${formatWeight(totalWeight(data))}`, L.left + 320, 190, 9, { bold: true });
}

function columnTitles(doc: PDFKit.PDFDocument, top: number): number {
  doc.rect(L.left, top, L.right - L.left, 16).fill('#dddddd');
  for (const column of COLUMNS) write(doc, column.title, column.x + 2, top + 4, 8, { bold: true, width: column.width - 4 });
  return top + 16;
}

function row(doc: PDFKit.PDFDocument, data: ManifestRow, index: number, top: number): void {
  doc
    .lineWidth(0.5)
    .moveTo(L.left, top + L.rowHeight)
    .lineTo(L.right, top + L.rowHeight)
    .stroke('black');
  const cell = (column: number, text: string, options: { bold?: boolean; align?: 'left' | 'right' } = {}) =>
    write(doc, text, COLUMNS[column]!.x + 2, top + 5, 8, { width: COLUMNS[column]!.width - 4, ...options });
  cell(0, String(index + 1));
  cell(1, data.trackingCode, { bold: true });
  cell(2, data.recipient);
  cell(3, data.destination);
  cell(4, data.service);
  cell(5, formatWeight(data.weight), { align: 'right' });
  barcode(doc, data.barcode, L.barcodeX, top + 17, L.barcodeWidth, 30);
}

const totalWeight = (data: ManifestData) => data.rows.reduce((sum, r) => sum + r.weight, 0);

/** The top of row `index` and the page it is on (0-based), as `manifestPdf` places them. */
export function rowPlace(index: number): { page: number; top: number } {
  const first = Math.floor((L.bottom - (L.firstTop + 16)) / L.rowHeight);
  const perPage = Math.floor((L.bottom - (L.top + 16)) / L.rowHeight);
  if (index < first) return { page: 0, top: L.firstTop + 16 + index * L.rowHeight };
  const rest = index - first;
  return { page: 1 + Math.floor(rest / perPage), top: L.top + 16 + (rest % perPage) * L.rowHeight };
}

/**
 * A carrier manifest on A4: who and where to collect, then one row per shipment (tracking code
 * with its Code 128 barcode, recipient, destination, service, weight), continued on further pages,
 * the total under the last row, and on every page the sandbox marking and "page n of m".
 */
export async function manifestPdf(data: ManifestData): Promise<Buffer> {
  const doc = createPdf({ size: [A4.width, A4.height], title: `Manifest ${data.name}`, createdAt: data.createdAt, bufferPages: true });
  header(doc, data);
  let page = 0;
  columnTitles(doc, L.firstTop);
  let bottom = L.firstTop + 16;
  data.rows.forEach((entry, index) => {
    const place = rowPlace(index);
    if (place.page !== page) {
      doc.addPage();
      page = place.page;
      columnTitles(doc, L.top);
    }
    row(doc, entry, index, place.top);
    bottom = place.top + L.rowHeight;
  });
  if (bottom + 30 > L.bottom) {
    doc.addPage();
    bottom = L.top;
  }
  write(doc, `Total: ${data.rows.length} shipment${data.rows.length === 1 ? '' : 's'}, ${formatWeight(totalWeight(data))}`, L.left, bottom + 10, 10, {
    bold: true,
  });
  write(doc, 'Driver signature: ____________________', L.left + 300, bottom + 10, 9);
  footers(doc, data);
  return pdfBuffer(doc);
}

function footers(doc: PDFKit.PDFDocument, data: ManifestData): void {
  const range = doc.bufferedPageRange();
  for (let index = 0; index < range.count; index++) {
    doc.switchToPage(range.start + index);
    doc.lineWidth(0.5).moveTo(L.left, 800).lineTo(L.right, 800).stroke('black');
    write(doc, `Manifest ${data.manifestId.slice(0, 8)}`, L.left, 806, 8);
    write(doc, MANIFEST_MARKING, L.left, 806, 8, { bold: true, width: L.right - L.left, align: 'center' });
    write(doc, `Page ${index + 1} of ${range.count}`, L.left, 806, 8, { width: L.right - L.left, align: 'right' });
  }
}

/** The manifest as CSV (RFC 4180, formulas made text): one line per shipment, weights in grams. */
export function manifestCsv(data: ManifestData): Buffer {
  const header = ['tracking_code', 'recipient', 'destination', 'service', 'weight_g'];
  return Buffer.from(csvText([header, ...data.rows.map((r) => [r.trackingCode, r.recipient, r.destination, r.service, r.weight])]), 'utf8');
}
