import type { Address, TaxIdentificationNumber } from '../../model/common.js';
import type { Customs } from '../../model/shipment.js';
import { code128, QUIET_ZONE } from './barcode.js';
import { SANDBOX_MARKING } from './content.js';
import { itemRows, totalRow, totalValueText } from './customs-items.js';
import { drawItemsTable, PAGE } from './customs-table.js';
import { A4, fitText, type TextOp } from './layout.js';
import { createPdf, drawOps, drawText, pdfBuffer, pdfMeasure, REGULAR } from './pdf.js';
import { addressLines, formatDate, formatMoney, formatWeight } from './text.js';
import type { LabelData } from './types.js';

const WIDTH = PAGE.right - PAGE.left;

/**
 * A CN23-style customs declaration on A4: sender and recipient with their tax numbers, the
 * items table (continued on further pages when long), the customs particulars, the signed
 * declaration, and on every page the tracking code, the sandbox marking and page numbers.
 */
export function customsPdf(data: LabelData): Buffer {
  const doc = createPdf({ size: [A4.width, A4.height], title: `CN23 ${data.trackingCode}`, createdAt: data.registeredAt, bufferPages: true });
  drawCustoms(doc, data);
  return pdfBuffer(doc);
}

/**
 * Draws the declaration from the current page of `doc` (an A4 page of a document that buffers
 * its pages) onto as many pages as it takes, each with its footer: alone, or among labels in a
 * combined file.
 */
export function drawCustoms(doc: PDFKit.PDFDocument, data: LabelData): void {
  const range = doc.bufferedPageRange();
  const first = range.start + range.count - 1;
  let y = header(doc, data);
  y = parties(doc, data, y + 10);
  y = drawItemsTable(doc, itemRows(data.items ?? []), totalRow(data), y + 12);
  if (y + 230 > PAGE.bottom) {
    doc.addPage();
    y = PAGE.top;
  }
  y = particulars(doc, data, y + 14);
  declaration(doc, data, y + 12);
  footers(doc, data, first);
}

type WriteOptions = { bold?: boolean; width?: number; align?: 'left' | 'center' | 'right' };

/** One line of text, shrunk or cut to its width like the label's, so boxes never overflow. */
function write(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number, options: WriteOptions = {}): void {
  const op: TextOp = { kind: 'text', x, y, size, text, width: options.width ?? PAGE.right - x, ...options };
  drawText(doc, fitText(op, pdfMeasure(doc)));
}

function header(doc: PDFKit.PDFDocument, data: LabelData): number {
  doc.rect(PAGE.left, PAGE.top, WIDTH, 20).fill('black');
  drawText(doc, { kind: 'text', x: PAGE.left, y: PAGE.top + 5, width: WIDTH, size: 10, bold: true, align: 'center', inverse: true, text: SANDBOX_MARKING });
  write(doc, 'CUSTOMS DECLARATION', PAGE.left, 66, 16, { bold: true });
  write(doc, 'CN 23', PAGE.left, 86, 11, { bold: true });
  write(doc, `${data.carrier.name} - ${data.service.name}`, PAGE.left, 104, 9, { width: 270 });
  write(doc, `Shipment ${data.shipmentId}`, PAGE.left, 117, 8);
  write(doc, `Date: ${formatDate(data.registeredAt)}`, PAGE.left, 129, 8);
  trackingBlock(doc, data, PAGE.right - 220, 62, 220);
  return 150;
}

/** The tracking code with its barcode, so a customs officer can scan the document too. */
function trackingBlock(doc: PDFKit.PDFDocument, data: LabelData, x: number, y: number, width: number): void {
  write(doc, 'Tracking code', x, y, 7, { width, align: 'right' });
  write(doc, data.trackingCode, x, y + 9, 14, { bold: true, width, align: 'right' });
  const symbol = code128(data.barcode);
  const module = Math.min(1.2, width / (symbol.modules + 2 * QUIET_ZONE));
  drawOps(doc, [{ kind: 'barcode', x: PAGE.right - (symbol.modules + QUIET_ZONE) * module, y: y + 30, height: 40, module, symbol }]);
}

function parties(doc: PDFKit.PDFDocument, data: LabelData, top: number): number {
  const half = (WIDTH - 10) / 2;
  const from = partyLines(data.sender, data.senderTaxNumbers);
  const to = partyLines(data.recipient, data.recipientTaxNumbers);
  const height = 22 + Math.max(from.length, to.length) * 11;
  party(doc, 'From (sender)', from, PAGE.left, top, half, height);
  party(doc, 'To (recipient)', to, PAGE.left + half + 10, top, half, height);
  return top + height;
}

function partyLines(address: Address, taxNumbers: TaxIdentificationNumber[] = []): string[] {
  return [
    ...addressLines(address),
    ...(address.phone_number ? [`Phone: ${address.phone_number}`] : []),
    ...(address.email ? [`Email: ${address.email}`] : []),
    ...taxNumbers.map((tax) => `${tax.type.toUpperCase()} ${tax.number} (${tax.country_code})`),
  ];
}

function party(doc: PDFKit.PDFDocument, title: string, lines: string[], x: number, y: number, width: number, height: number): void {
  doc.lineWidth(0.75).rect(x, y, width, height).stroke('black');
  write(doc, title, x + 6, y + 6, 8, { bold: true });
  lines.forEach((line, index) => write(doc, line, x + 6, y + 19 + index * 11, 9, { width: width - 12 }));
}

const CATEGORIES: [NonNullable<Customs['content_type']>, string][] = [
  ['gifts', 'Gift'],
  ['documents', 'Documents'],
  ['sample_merchandise', 'Commercial sample'],
  ['returned_merchandise', 'Returned goods'],
  ['merchandise', 'Sale of goods'],
];

function particulars(doc: PDFKit.PDFDocument, data: LabelData, top: number): number {
  const customs = data.customs;
  const category = CATEGORIES.map(([type, name]) => `[${customs?.content_type === type ? 'X' : ' '}] ${name}`).join('   ');
  const rows: [string, string][] = [
    ['Category of item', category],
    ['Incoterm', customs?.incoterm ? `${customs.incoterm} (${customs.incoterm === 'DDP' ? 'Delivered Duty Paid' : 'Delivered At Place'})` : '-'],
    ['If not deliverable', customs?.non_delivery ? (customs.non_delivery === 'return' ? 'Return to sender' : 'Treat as abandoned') : '-'],
    ['Invoice number', customs?.invoice_number ?? '-'],
    ['Licence / certificate', `${customs?.license_number ?? '-'} / ${customs?.certificate_number ?? '-'}`],
    ['Postal charges', customs?.shipping_value ? formatMoney(customs.shipping_value) : '-'],
    ['Total declared value', totalValueText(data)],
    ['Total gross weight', formatWeight(data.weight)],
    ['Comments', data.description ?? '-'],
  ];
  rows.forEach(([label, value], index) => {
    const y = top + index * 15;
    write(doc, label, PAGE.left, y, 9, { bold: true });
    write(doc, value, PAGE.left + 130, y, 9, { width: WIDTH - 130 });
  });
  return top + rows.length * 15;
}

function declaration(doc: PDFKit.PDFDocument, data: LabelData, top: number): void {
  doc.lineWidth(0.75).rect(PAGE.left, top, WIDTH, 64).stroke('black');
  doc
    .font(REGULAR)
    .fontSize(8)
    .text(
      'I certify that the particulars given in this customs declaration are correct and that this item does not ' +
        'contain any dangerous article prohibited by legislation or by postal or customs regulations.',
      PAGE.left + 6,
      top + 6,
      { width: WIDTH - 12 },
    );
  write(doc, `Date and place: ${formatDate(data.registeredAt)}, ${data.sender.city}`, PAGE.left + 6, top + 32, 9);
  write(doc, 'Signature: sandbox, not signed', PAGE.left + 6, top + 46, 9);
}

/** Written last, when the page count is known: "page 1 of 2" tells if a page went missing. */
function footers(doc: PDFKit.PDFDocument, data: LabelData, first: number): void {
  const range = doc.bufferedPageRange();
  const count = range.start + range.count - first;
  for (let index = 0; index < count; index++) {
    doc.switchToPage(first + index);
    doc.lineWidth(0.5).moveTo(PAGE.left, 800).lineTo(PAGE.right, 800).stroke('black');
    write(doc, `CN 23 - ${data.trackingCode}`, PAGE.left, 806, 8);
    write(doc, SANDBOX_MARKING, PAGE.left, 806, 8, { bold: true, width: WIDTH, align: 'center' });
    write(doc, `Page ${index + 1} of ${count}`, PAGE.left, 806, 8, { width: WIDTH, align: 'right' });
  }
}
