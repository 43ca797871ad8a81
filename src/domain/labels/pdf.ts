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
  parsedFonts ??= { regular: glyphsOfTheirText(regular.font), bold: glyphsOfTheirText(bold.font) };
  // pdfkit makes a layout cache for each opened font unless a document asks for none.
  if (regular.layoutCache) regular.layoutCache = sharedLayouts.regular;
  if (bold.layoutCache) bold.layoutCache = sharedLayouts.bold;
  shareSubsets(regular.subset, sharedSubsets.regular);
  shareSubsets(bold.subset, sharedSubsets.bold);
  doc.font(REGULAR);
  return doc;
}

/** What pdfkit keeps of an opened font: the parsed (fontkit) font, its word layouts and the subset it embeds. */
interface OpenedFont {
  font: GlyphSource;
  layoutCache?: Record<string, unknown>;
  subset: FontSubset;
}

/** fontkit's subset of a font: the glyphs a document drew, in the order it first drew them. */
interface FontSubset {
  glyphs: number[];
  encode(): Uint8Array;
}

function openFont(doc: PDFKit.PDFDocument, name: string): OpenedFont {
  return (doc.font(name) as unknown as { _font: OpenedFont })._font;
}

/**
 * Adds to one of the caches documents share (word layouts, glyphs, font files): when it holds
 * `max` entries it is emptied first, so it never outgrows `max` whatever text arrives, and what is
 * asked for next is made again.
 */
function remember<V>(cache: Map<string, V>, max: number, key: string, value: V): V {
  if (cache.size >= max) cache.clear();
  cache.set(key, value);
  return value;
}

/** What fontkit's font offers pdfkit: glyphs by id, each with the characters it was made for. */
interface GlyphSource {
  getGlyph(id: number, characters?: number[]): { codePoints: number[] } | null;
}

/** Most glyphs kept for characters other than the ones a glyph was first made for (see `glyphsOfTheirText`). */
export const MAX_GLYPH_VARIANTS = 4096;

/**
 * fontkit makes one glyph object per glyph id, with the characters of the text that first asked for
 * it, and pdfkit writes those characters into each document's text layer (what copying the text
 * gives). DejaVu draws some characters of different scripts with one glyph (Latin c and Cyrillic
 * с), so once the fonts were shared between documents, a label drawn after one holding Cyrillic
 * copied as "Łukasiewi\u0441z" and its bytes depended on the labels made before it. The shared
 * fonts hand out a glyph made for the characters asked for, as a font of its own for each
 * document did. Bounded: at most MAX_GLYPH_VARIANTS such glyphs, all dropped when full.
 */
export function glyphsOfTheirText<T extends GlyphSource>(font: T): T {
  const getGlyph = font.getGlyph.bind(font);
  const variants = new Map<string, { codePoints: number[] }>();
  font.getGlyph = (id: number, characters: number[] = []) => {
    const glyph = getGlyph(id, characters);
    if (!glyph || characters.length === 0 || sameCharacters(glyph.codePoints, characters)) return glyph;
    const key = `${id}:${characters.join(',')}`;
    const Glyph = glyph.constructor as new (id: number, codePoints: number[], font: T) => { codePoints: number[] };
    return variants.get(key) ?? remember(variants, MAX_GLYPH_VARIANTS, key, new Glyph(id, characters, font));
  };
  return font;
}

const sameCharacters = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((code, index) => code === b[index]);

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
      if (typeof word === 'string' && word.length <= MAX_WORD_LENGTH) remember(words, MAX_WORDS, word, layout);
      return true;
    },
  });
}

const sharedLayouts = { regular: boundedWords(), bold: boundedWords() };

/**
 * Each PDF embeds the part of a font its text uses: fontkit decodes those glyphs and writes them
 * out as a small font file (the subset), about half of a label's time. That file depends only on
 * the font and the glyphs in the order the document first drew them, and labels of one sender,
 * carrier and service repeat that order (their captions come first), so documents share the files
 * already written. An A6 PDF label took 13.5-14.8 -> 6.0-8.1 ms (300 labels of 12 names and 4
 * cities, 3 runs in turns); in the label-heavy test files 846 of 968 subsets were shared. The bytes
 * are the same either way. Bounded like the word layouts: at most MAX_SUBSETS files a font (a
 * label's are ~11 KB), all dropped when full.
 */
export const MAX_SUBSETS = 256;

/** Subset files by their glyphs (ids in drawing order), at most MAX_SUBSETS of them. */
export function boundedSubsets(): Map<string, Uint8Array> & { remember(key: string, file: Uint8Array): void } {
  const files = new Map<string, Uint8Array>();
  return Object.assign(files, { remember: (key: string, file: Uint8Array) => void remember(files, MAX_SUBSETS, key, file) });
}

const sharedSubsets = { regular: boundedSubsets(), bold: boundedSubsets() };

/** Makes a document's subset write its font file once for each list of glyphs (pdfkit asks when the document ends). */
function shareSubsets(subset: FontSubset, files: ReturnType<typeof boundedSubsets>): void {
  const write = subset.encode.bind(subset);
  subset.encode = () => {
    const key = subset.glyphs.join(',');
    return files.get(key) ?? remember(files, MAX_SUBSETS, key, write());
  };
}

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
