/** What the rest of the sandbox uses of the labels: rendering a shipment's documents, manifests and combined label sheets. */
/** @public resources take this module whole, as their Renderers and Combiner, which knip does not follow. */
export { renderCustomsDocument, renderCustomsNow, renderLabel, renderLabelNow, type LabelFormat } from './render.js';
/** @public */
export type { LabelData, LabelMimeType, LabelSize } from './types.js';
export { A4, A6 } from './layout.js';
/** @public */
export { manifestCsv, manifestPdf, type ManifestData, type ManifestRow } from './manifest-pdf.js';
/** @public */
export { combinePdf, type CombinedDocument } from './combine.js';
/** @public */
export { COMBINED_PAGE_SIZES, SHEET_POSITIONS, type CombinedPageSize, type SheetPosition } from './sheet.js';
