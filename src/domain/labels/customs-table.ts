import { ITEM_COLUMNS, type ItemRow } from './customs-items.js';
import { BOLD, REGULAR } from './pdf.js';

/** Page geometry of the customs document (A4, in points). */
export const PAGE = { left: 36, right: 559.28, top: 36, bottom: 790 } as const;

const SIZE = 8;
const PAD = 3;

/**
 * Draws the items table from `top`, starting a new page (with the column titles repeated)
 * whenever the next row would run into the footer; returns the y below the table.
 */
export function drawItemsTable(doc: PDFKit.PDFDocument, rows: ItemRow[], total: ItemRow, top: number): number {
  let y = drawRow(doc, ITEM_COLUMNS.map((column) => column.title) as ItemRow, top, { header: true });
  const all = rows.length > 0 ? rows : [emptyRow()];
  for (const row of all) {
    if (y + rowHeight(doc, row) > PAGE.bottom) {
      doc.addPage();
      y = drawRow(doc, ITEM_COLUMNS.map((column) => column.title) as ItemRow, PAGE.top, { header: true });
    }
    y = drawRow(doc, row, y, {});
  }
  if (y + rowHeight(doc, total) > PAGE.bottom) {
    doc.addPage();
    y = PAGE.top;
  }
  return drawRow(doc, total, y, { bold: true });
}

function emptyRow(): ItemRow {
  return ['', 'No items declared', '', '', '', '', '', '', ''];
}

/** Rows grow with their longest cell: descriptions wrap instead of being cut. */
function rowHeight(doc: PDFKit.PDFDocument, row: ItemRow, bold = false): number {
  doc.font(bold ? BOLD : REGULAR).fontSize(SIZE);
  const heights = row.map((cell, index) => doc.heightOfString(cell || ' ', { width: ITEM_COLUMNS[index]!.width - 2 * PAD }));
  return Math.max(...heights) + 2 * PAD;
}

function drawRow(doc: PDFKit.PDFDocument, row: ItemRow, top: number, style: { header?: boolean; bold?: boolean }): number {
  const bold = style.header === true || style.bold === true;
  const height = rowHeight(doc, row, bold);
  const width = PAGE.right - PAGE.left;
  if (style.header) doc.rect(PAGE.left, top, width, height).fill('#dddddd');
  doc.lineWidth(0.5).rect(PAGE.left, top, width, height).stroke('black');
  let x = PAGE.left;
  row.forEach((cell, index) => {
    const column = ITEM_COLUMNS[index]!;
    if (index > 0)
      doc
        .moveTo(x, top)
        .lineTo(x, top + height)
        .stroke('black');
    doc
      .font(bold ? BOLD : REGULAR)
      .fontSize(SIZE)
      .fillColor('black')
      .text(cell, x + PAD, top + PAD, { width: column.width - 2 * PAD, align: style.header ? 'left' : (column.align ?? 'left') });
    x += column.width;
  });
  return top + height;
}
