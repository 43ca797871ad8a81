/** What the rest of the sandbox uses of the labels: rendering a shipment's documents, manifests and combined label sheets. */
export { renderCustomsDocument, renderCustomsNow, renderLabel, renderLabelNow, type LabelFormat } from './render.js';
export type { LabelData, LabelMimeType, LabelSize } from './types.js';
export { A4, A6 } from './layout.js';
export { manifestCsv, manifestPdf, type ManifestData, type ManifestRow } from './manifest-pdf.js';
export { combinePdf, type CombinedDocument } from './combine.js';
export { COMBINED_PAGE_SIZES, SHEET_POSITIONS, type CombinedPageSize, type SheetPosition } from './sheet.js';
