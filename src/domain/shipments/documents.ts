import type { FileRecord, ShipmentRecord } from '../../model/shipment.js';
import type { ReadView } from '../../store/store.js';
import type { LabelData, LabelFormat, LabelMimeType } from '../labels/index.js';
import { labelData } from './label-data.js';

/**
 * The renderers of the labels module. It loads PDF, PNG and barcode libraries, so callers import
 * it when a document is first needed (not at start-up) and hand it in.
 */
export interface Renderers {
  renderLabelNow(data: LabelData, format: LabelFormat): Buffer;
  renderCustomsNow(data: LabelData): Buffer;
}

/** A file's bytes in one of its formats, drawn from the shipment as it is now. */
export function fileBytes(store: ReadView, renderers: Renderers, file: FileRecord, shipment: ShipmentRecord, mimeType: string): Buffer {
  const data = labelData(store, shipment);
  if (file.document_type === 'customs-declaration-form') return renderers.renderCustomsNow(data);
  return renderers.renderLabelNow(data, { mime_type: mimeType as LabelMimeType, size: shipment.label.size === 'A4' ? 'A4' : 'A6' });
}

/** A document handed back with the answer that created it (production's `files` meta), base64. */
export interface EmbeddedFile {
  document_type: FileRecord['document_type'];
  extension: string;
  mime_type: string;
  contents: string;
}

/**
 * The documents of a shipment registered in the request, each in its first format (the label in
 * the format `meta.label` asked for, the customs declaration as PDF); the others stay downloadable
 * with `GET /files/{id}`.
 */
export function embeddedFiles(store: ReadView, renderers: Renderers, shipment: ShipmentRecord): EmbeddedFile[] {
  return store.find('files', 'shipment_id', shipment.id).map((file) => {
    const format = file.formats[0]!;
    const contents = fileBytes(store, renderers, file, shipment, format.mime_type).toString('base64');
    return { document_type: file.document_type, extension: format.extension, mime_type: format.mime_type, contents };
  });
}
