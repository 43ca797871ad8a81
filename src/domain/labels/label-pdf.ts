import type { LabelContent } from './content.js';
import { labelLayout } from './label-layout.js';
import { A4, A6 } from './layout.js';
import { createPdf, drawOps, pdfBuffer, pdfMeasure } from './pdf.js';
import type { LabelSize } from './types.js';

/**
 * The label as a one-page PDF. On A4 the A6 label takes the top-left quadrant, as on the
 * label sheets office printers use, with dashed cut lines along its two inner edges.
 */
export function pdfLabel(content: LabelContent, size: LabelSize, createdAt: number): Buffer {
  const page = size === 'A4' ? A4 : A6;
  const doc = createPdf({ size: [page.width, page.height], title: `Label ${content.trackingCode}`, createdAt });
  drawOps(doc, labelLayout(content, pdfMeasure(doc)));
  if (size === 'A4') cutLines(doc);
  return pdfBuffer(doc);
}

function cutLines(doc: PDFKit.PDFDocument): void {
  doc.lineWidth(0.5).dash(4, { space: 4 }).moveTo(A6.width, 0).lineTo(A6.width, A6.height).lineTo(0, A6.height).stroke('#888888').undash();
}
