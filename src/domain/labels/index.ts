export { renderCustomsDocument, renderCustomsNow, renderLabel, renderLabelNow, type LabelFormat } from './render.js';
export type { LabelData, LabelMimeType, LabelSize } from './types.js';
export { labelContent, SANDBOX_MARKING, type LabelContent } from './content.js';
export { code128, QUIET_ZONE, type Bar, type LinearBarcode } from './barcode.js';
export { A4, A6, type DrawOp } from './layout.js';
export { fieldData as zplFieldData, zplLabel } from './label-zpl.js';
export { pdfLabel } from './label-pdf.js';
export { pngLabel } from './label-png.js';
export { customsPdf } from './customs-pdf.js';
export { combinePdf, type CombinedDocument } from './combine.js';
export { COMBINED_PAGE_SIZES, SHEET_POSITIONS, type CombinedPageSize, type SheetPosition } from './sheet.js';
export { totalValue } from './customs-items.js';
export {
  addressLines,
  cityLine,
  countryLine,
  formatAmount,
  formatDate,
  formatDateTime,
  formatMoney,
  formatWeight,
  personName,
  streetLine,
} from './text.js';
