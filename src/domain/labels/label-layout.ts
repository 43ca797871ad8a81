import { code128, QUIET_ZONE } from './barcode.js';
import { SANDBOX_MARKING, type LabelContent } from './content.js';
import { A6, fitText, wrapWords, type DrawOp, type Measure, type TextOp } from './layout.js';

const MARGIN = 8;
const INNER = A6.width - 2 * MARGIN;
/** Where the bottom part (tracking code, barcode, footer) starts; it never moves. */
const TRACKING_TOP = 282;
const BARCODE_TOP = 306;
const BARCODE_HEIGHT = 72;
/** Room for the six lines an address can have (name, company, street, street 2, city, country). */
const RECIPIENT_HEIGHT = 94;
/** Widest bar unit, in points: wider would not make short codes any easier to scan. */
const MAX_MODULE = 1.6;

/**
 * The A6 shipping label as drawing operations: a sandbox band, carrier and service, weight
 * and date, sender, a framed recipient block, details, then the tracking code, its Code 128
 * barcode and a footer at fixed places so scanners and people find them where they expect.
 */
export function labelLayout(content: LabelContent, measure: Measure): DrawOp[] {
  const ops: DrawOp[] = [];
  const text = (op: Omit<TextOp, 'kind'>) => ops.push(fitText({ kind: 'text', ...op }, measure));
  header(content, text, ops);
  const boxTop = addressBlock('FROM', content.from, 66, 7, 8.5, text) + 2;
  ops.push({ kind: 'box', x: MARGIN, y: boxTop, width: INNER, height: RECIPIENT_HEIGHT, line: 1.5 });
  recipientBlock(content.to, boxTop + 4, text);
  let y = boxTop + RECIPIENT_HEIGHT + 5;
  for (const line of detailLines(content.details, measure)) {
    text({ x: MARGIN + 2, y, width: INNER - 4, size: 8, text: line });
    y += 10;
  }
  barcodeSection(content, text, ops);
  return ops;
}

type Text = (op: Omit<TextOp, 'kind'>) => void;

function header(content: LabelContent, text: Text, ops: DrawOp[]): void {
  ops.push({ kind: 'box', x: MARGIN, y: MARGIN, width: INNER, height: 18, fill: true });
  text({ x: MARGIN, y: MARGIN + 4.5, width: INNER, size: 9, bold: true, align: 'center', inverse: true, text: SANDBOX_MARKING });
  text({ x: MARGIN, y: 32, width: 175, size: 16, bold: true, text: content.carrier });
  text({ x: MARGIN, y: 51, width: 175, size: 8, text: content.service });
  text({ x: A6.width - MARGIN - 100, y: 32, width: 100, size: 12, bold: true, align: 'right', text: content.weight });
  text({ x: A6.width - MARGIN - 100, y: 51, width: 100, size: 7, align: 'right', text: content.registered });
  ops.push({ kind: 'box', x: MARGIN, y: 62, width: INNER, height: 0.8, fill: true });
}

/** A small labelled address block; returns the y below it. */
function addressBlock(title: string, lines: string[], top: number, size: number, step: number, text: Text): number {
  text({ x: MARGIN, y: top, width: INNER, size: 6, bold: true, text: title });
  lines.forEach((line, index) => text({ x: MARGIN + 2, y: top + 8 + index * step, width: INNER - 4, size, text: line }));
  return top + 8 + lines.length * step;
}

/** The recipient: what a sorter reads first, so it is large and the name is bold. */
function recipientBlock(lines: string[], top: number, text: Text): void {
  text({ x: MARGIN + 4, y: top, width: INNER - 8, size: 7, bold: true, text: 'TO' });
  let y = top + 9;
  lines.forEach((line, index) => {
    const size = index === 0 ? 13 : 10.5;
    text({ x: MARGIN + 4, y, width: INNER - 8, size, bold: index === 0, text: line });
    y += size + 2.5;
  });
}

/** Details wrap onto two lines at most each, and four lines in all, to keep clear of the barcode. */
function detailLines(details: string[], measure: Measure): string[] {
  return details.flatMap((line) => wrapWords(line, INNER - 4, 8, measure, 2)).slice(0, 4);
}

function barcodeSection(content: LabelContent, text: Text, ops: DrawOp[]): void {
  ops.push({ kind: 'box', x: MARGIN, y: TRACKING_TOP - 6, width: INNER, height: 0.8, fill: true });
  text({ x: MARGIN, y: TRACKING_TOP, width: INNER, size: 18, bold: true, align: 'center', text: content.trackingCode });
  const symbol = code128(content.barcode);
  const module = Math.min(MAX_MODULE, INNER / (symbol.modules + 2 * QUIET_ZONE));
  const x = (A6.width - symbol.modules * module) / 2;
  ops.push({ kind: 'barcode', x, y: BARCODE_TOP, height: BARCODE_HEIGHT, module, symbol });
  text({ x: MARGIN, y: BARCODE_TOP + BARCODE_HEIGHT + 3, width: INNER, size: 8, align: 'center', text: content.barcode });
  ops.push({ kind: 'box', x: MARGIN, y: 398, width: INNER, height: 0.8, fill: true });
  text({ x: MARGIN, y: 402, width: INNER * 0.62, size: 6, text: `Shipment ${content.shipmentId}` });
  text({ x: A6.width - MARGIN - INNER * 0.36, y: 402, width: INNER * 0.36, size: 6, bold: true, align: 'right', text: SANDBOX_MARKING });
}
