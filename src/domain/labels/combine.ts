import { labelContent } from './content.js';
import { drawCustoms } from './customs-pdf.js';
import { labelLayout } from './label-layout.js';
import { A4, A6 } from './layout.js';
import { createPdf, drawOps, pdfBuffer, pdfMeasure } from './pdf.js';
import { SHEET_POSITIONS, type CombinedPageSize, type SheetPosition } from './sheet.js';
import type { LabelData, LabelSize } from './types.js';

/** One document of a combined file: a label in the size its shipment asked for, or a customs declaration (A4). */
export type CombinedDocument = { kind: 'label'; data: LabelData; size: LabelSize } | { kind: 'customs'; data: LabelData };

/**
 * One PDF of many documents, drawn afresh from the same layouts as the single files (pdfkit
 * cannot copy pages of another PDF). On A4 sheets labels fill the quarters left to right, top to
 * bottom, the first sheet from `start` on, with dashed cut lines between them; a customs
 * declaration takes whole A4 pages of its own. Callers make sure that A6 pages get labels only.
 * @public through labels/index.ts, which resources take whole.
 */
export function combinePdf(documents: readonly CombinedDocument[], pageSize: CombinedPageSize, start: SheetPosition, createdAt: number): Buffer {
  const doc = createPdf({ size: [A4.width, A4.height], title: `${documents.length} combined documents`, createdAt, bufferPages: true, autoFirstPage: false });
  const measure = pdfMeasure(doc);
  const page = (size: { width: number; height: number }) => doc.addPage({ size: [size.width, size.height], margin: 0 });
  /** The next free quarter of the current sheet; 4 when a new sheet is needed. */
  let quarter: number = SHEET_POSITIONS.length;
  let firstSheet = true;
  for (const item of documents) {
    if (item.kind === 'customs') {
      page(A4);
      drawCustoms(doc, item.data);
      quarter = SHEET_POSITIONS.length;
      continue;
    }
    const ops = labelLayout(labelContent(item.data), measure);
    if (pageSize === 'A4') {
      if (quarter >= SHEET_POSITIONS.length) {
        page(A4);
        sheetCutLines(doc);
        quarter = firstSheet ? SHEET_POSITIONS.indexOf(start) : 0;
        firstSheet = false;
      }
      drawOps(doc, ops, (quarter % 2) * A6.width, Math.floor(quarter / 2) * A6.height);
      quarter += 1;
    } else if (pageSize === 'original' && item.size === 'A4') {
      page(A4);
      drawOps(doc, ops);
      labelCutLines(doc);
    } else {
      page(A6);
      drawOps(doc, ops);
    }
  }
  return pdfBuffer(doc);
}

/** The dashed lines between the four quarters of a sheet. */
function sheetCutLines(doc: PDFKit.PDFDocument): void {
  doc.save().lineWidth(0.5).dash(4, { space: 4 });
  doc
    .moveTo(A6.width, 0)
    .lineTo(A6.width, 2 * A6.height)
    .stroke('#888888');
  doc.moveTo(0, A6.height).lineTo(A4.width, A6.height).stroke('#888888');
  doc.undash().restore();
}

/** The cut lines of a single A4 label, as its own file has them. */
function labelCutLines(doc: PDFKit.PDFDocument): void {
  doc.save().lineWidth(0.5).dash(4, { space: 4 }).moveTo(A6.width, 0).lineTo(A6.width, A6.height).lineTo(0, A6.height).stroke('#888888').undash().restore();
}
