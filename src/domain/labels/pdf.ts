import PDFDocument from 'pdfkit';
import { fontData } from './fonts.js';
import type { DrawOp, TextOp } from './layout.js';

/*
 * Shared pdfkit plumbing: a document whose bytes depend only on its input, drawing of layout
 * operations, and collecting the output into a Buffer.
 */

export const REGULAR = 'DejaVuSans';
export const BOLD = 'DejaVuSans-Bold';

export interface PdfOptions {
  size: [number, number];
  title: string;
  /** Unix seconds; becomes the creation date, which also seeds the PDF's file id. */
  createdAt: number;
  /** Keep pages in memory so page numbers can be written once all pages exist. */
  bufferPages?: boolean;
  /** Whether the first page (of `size`) is there from the start; default yes. */
  autoFirstPage?: boolean;
}

/**
 * A new PDF with fixed metadata. pdfkit stamps the current time and derives the file id from
 * it; taking both from the shipment makes the same shipment download byte-identical files.
 */
export function createPdf(options: PdfOptions): PDFKit.PDFDocument {
  const date = new Date(options.createdAt * 1000);
  const fonts = parsedFonts ?? fontData();
  const doc = new PDFDocument({
    size: options.size,
    // Everything is placed explicitly; zero margins stop pdfkit from adding pages on its own.
    margin: 0,
    autoFirstPage: options.autoFirstPage ?? true,
    bufferPages: options.bufferPages ?? false,
    // DejaVu Sans from the start: pdfkit's own default (Helvetica) is parsed from its metrics
    // file for every document, ~7% of a label's time, and no document draws with it.
    font: fonts.regular as unknown as string,
    info: {
      Title: options.title,
      Author: 'parcel-sandbox',
      Creator: 'parcel-sandbox',
      Producer: 'parcel-sandbox',
      CreationDate: date,
      ModDate: date,
    },
  });
  doc.registerFont(REGULAR, fonts.regular as Buffer);
  doc.registerFont(BOLD, fonts.bold as Buffer);
  // Both fonts are opened in the same order in every document, so each has the same resource
  // name (/F1, /F2) in every file: opened as first drawn, the first label after a start named
  // them the other way round from every later one, and its bytes differed.
  const regular = openFont(doc, REGULAR);
  const bold = openFont(doc, BOLD);
  parsedFonts ??= { regular: regular.font, bold: bold.font };
  // pdfkit makes a layout cache for each opened font unless a document asks for none.
  if (regular.layoutCache) regular.layoutCache = sharedLayouts.regular;
  if (bold.layoutCache) bold.layoutCache = sharedLayouts.bold;
  doc.font(REGULAR);
  return doc;
}

/** What pdfkit keeps of an opened font: the parsed (fontkit) font and its word layouts. */
interface OpenedFont {
  font: unknown;
  layoutCache?: Record<string, unknown>;
}

function openFont(doc: PDFKit.PDFDocument, name: string): OpenedFont {
  return (doc.font(name) as unknown as { _font: OpenedFont })._font;
}

/**
 * The fonts as fontkit parsed them for the first document. pdfkit takes a parsed font in place of
 * the file; parsing DejaVu and its layout tables anew took most of the time of every label (about
 * 60 of 70 ms), and labels are made in requests now (registered shipments, combined files).
 */
let parsedFonts: { regular: unknown; bold: unknown } | undefined;

/**
 * pdfkit lays out text word by word (fontkit shaping: kerning, ligatures) and keeps each word's
 * layout for the document's life. A layout depends only on the font and the word, so documents
 * share them: labels repeat most of their words (captions, carrier and service names, the
 * sandbox marking, cities). With Helvetica no longer parsed (above), an A6 PDF label takes about
 * a quarter less time: 6.3-8.0 -> 4.6-6.5 ms (400 labels of different names and tracking codes,
 * 4 runs each in turns, the machine's speed varying between runs). Bounded whatever text
 * arrives: at most MAX_WORDS words of at most MAX_WORD_LENGTH characters a font (a longer word is
 * laid out each time it is met), all dropped when full.
 */
export const MAX_WORDS = 2048;
export const MAX_WORD_LENGTH = 40;

/** pdfkit's layout cache (an object it reads and writes by word) over a Map that stays small. */
export function boundedWords(): Record<string, unknown> {
  const words = new Map<string, unknown>();
  return new Proxy(Object.create(null) as Record<string, unknown>, {
    get: (_, word) => (typeof word === 'string' ? words.get(word) : undefined),
    set: (_, word, layout) => {
      if (typeof word !== 'string' || word.length > MAX_WORD_LENGTH) return true;
      if (words.size >= MAX_WORDS) words.clear();
      words.set(word, layout);
      return true;
    },
  });
}

const sharedLayouts = { regular: boundedWords(), bold: boundedWords() };

/**
 * Ends the document and returns its bytes. pdfkit writes the whole file into its stream's buffer
 * while `end()` runs, so the bytes can be read at once: documents can then be made inside a
 * store transaction (which cannot wait), as a shipment registered in the request needs.
 */
export function pdfBuffer(doc: PDFKit.PDFDocument): Buffer {
  doc.end();
  const chunks: Buffer[] = [];
  for (let chunk = doc.read() as Buffer | null; chunk !== null; chunk = doc.read() as Buffer | null) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Width of a line of text in points, with the font it would be drawn in. */
export function pdfMeasure(doc: PDFKit.PDFDocument) {
  return (text: string, size: number, bold: boolean): number =>
    doc
      .font(bold ? BOLD : REGULAR)
      .fontSize(size)
      .widthOfString(text);
}

/** Draws layout operations; `dx`/`dy` move the whole layout (an A6 label on an A4 page). */
export function drawOps(doc: PDFKit.PDFDocument, ops: DrawOp[], dx = 0, dy = 0): void {
  for (const op of ops) {
    if (op.kind === 'text') drawText(doc, op, dx, dy);
    else if (op.kind === 'box' && op.fill) doc.rect(op.x + dx, op.y + dy, op.width, op.height).fill('black');
    else if (op.kind === 'box')
      doc
        .lineWidth(op.line ?? 1)
        .rect(op.x + dx, op.y + dy, op.width, op.height)
        .stroke('black');
    else {
      for (const bar of op.symbol.bars) {
        doc.rect(op.x + dx + bar.start * op.module, op.y + dy, bar.width * op.module, op.height);
      }
      doc.fill('black');
    }
  }
}

export function drawText(doc: PDFKit.PDFDocument, op: TextOp, dx = 0, dy = 0): void {
  doc
    .font(op.bold ? BOLD : REGULAR)
    .fontSize(op.size)
    .fillColor(op.inverse ? 'white' : 'black')
    .text(op.text, op.x + dx, op.y + dy, { width: op.width, align: op.align ?? 'left', lineBreak: false });
}
