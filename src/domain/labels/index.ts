/** What the rest of the sandbox uses of the labels: rendering a shipment's documents. */
export { renderCustomsDocument, renderLabel, type LabelFormat } from './render.js';
export type { LabelData, LabelMimeType, LabelSize } from './types.js';
export { A4, A6 } from './layout.js';
export { manifestCsv, manifestPdf, type ManifestData, type ManifestRow } from './manifest-pdf.js';
