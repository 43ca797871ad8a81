import type { ReadView } from '../../store/store.js';
import { DomainError, type Field } from '../errors.js';
import type { CombinedDocument } from '../labels/combine.js';
import type { CombinedPageSize, SheetPosition } from '../labels/sheet.js';
import type { Acting } from '../rules.js';
import { labelData } from './label-data.js';

/** The renderer of combined files, from the labels module (loaded when first needed). */
export interface Combiner {
  combinePdf(documents: readonly CombinedDocument[], pageSize: CombinedPageSize, start: SheetPosition, createdAt: number): Buffer;
}

/** At most this many files go into one combined file. */
export const MAX_COMBINED_FILES = 100;

export interface CombineRequest {
  fileIds: readonly string[];
  pageSize: CombinedPageSize;
  start: SheetPosition;
}

/**
 * The documents behind file ids, in order. Every file must be of one of the caller's
 * organization's shipments (another tenant's file answers like a missing one), and a customs
 * declaration, an A4 document, does not fit an A6 page.
 */
function documentsOf(store: ReadView, organizationId: string | undefined, request: CombineRequest): CombinedDocument[] {
  return request.fileIds.map((id, index) => {
    const field: Field = { input: `file_ids[${index}]` };
    const file = store.get('files', id);
    const shipment = file && store.get('shipments', file.shipment_id);
    if (!file || !shipment || shipment.organization_id !== organizationId) {
      // A manifest's or return report's file of the caller exists (GET /files/{id} serves it): say
      // why it is refused rather than that it is missing.
      const other = store.get('manifestFiles', id) ?? store.get('returnReportFiles', id);
      if (other && other.organization_id === organizationId) {
        const type = 'report_id' in other ? 'report' : other.document_type;
        throw DomainError.unprocessable(`File '${id}' is a ${type} document; combine-files combines shipments' labels and customs declarations only.`, field);
      }
      throw DomainError.notFound(`No files resource with id '${id}' exists.`, field);
    }
    const data = labelData(store, shipment);
    if (file.document_type === 'customs-declaration-form') {
      if (request.pageSize === 'A6') {
        throw DomainError.unprocessable(`File '${id}' is a customs declaration, an A4 document: combine it with page_size A4 or original.`, field);
      }
      return { kind: 'customs', data };
    }
    return { kind: 'label', data, size: shipment.label.size === 'A4' ? 'A4' : 'A6' };
  });
}

/** One PDF of the caller's files, drawn on the sandbox clock's date. */
export function combineFiles(acting: Acting, combiner: Combiner, request: CombineRequest): Buffer {
  const { store, clock } = acting.rules;
  const documents = documentsOf(store, acting.principal?.organizationId, request);
  return combiner.combinePdf(documents, request.pageSize, request.start, clock.now());
}
