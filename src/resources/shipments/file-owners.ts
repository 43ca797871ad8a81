import { fileBytes } from '../../domain/shipments/documents.js';
import type { Ctx } from '../../http/context.js';
import { ApiError } from '../../jsonapi/errors.js';
import type { ManifestFileRecord } from '../../model/manifest.js';
import type { ReturnReportFileRecord } from '../../model/returns/report.js';
import type { FileRecord } from '../../model/shipment.js';
import type { Scope } from '../../model/tenancy.js';
import { manifestVisible } from '../collections/manifest-kinds.js';
import { manifestDocument, manifestRead } from '../collections/manifests.js';
import { returnsScope } from '../returns/common.js';
import { reportDocument } from '../returns/reports.js';
import { fileKind } from './shipment-kinds.js';

/** Every row the API answers as a `files` resource. */
export type AnyFile = FileRecord | ManifestFileRecord | ReturnReportFileRecord;

export type FileFormat = { extension: string; mime_type: string };

/** A file as GET /files/{file_id} serves it, whichever resource it belongs to. */
export interface OwnedFile {
  row: AnyFile;
  document_type: string;
  formats: readonly FileFormat[];
  /**
   * The scopes (one of them) the owner's own download takes, so /files gives no more than it;
   * absent where the /files endpoint's own scopes are the owner's (a shipment's documents).
   */
  scopes?: readonly Scope[];
  /** Whose file it is, for a refusal: "A manifest's document". */
  owner: string;
  /** The document in one of its formats, as the owner's own download answers it. */
  download(mimeType: string): Promise<Response>;
}

/** A return report's only format: a report row stores its CSV, not a list of formats. */
const REPORT_FORMATS: readonly FileFormat[] = [{ extension: 'csv', mime_type: 'text/csv' }];

/** What a file is and the formats it comes in, as production's `files` attributes type them. */
export function fileType(row: AnyFile): { document_type: string; formats: readonly FileFormat[] } {
  if ('report_id' in row) return { document_type: 'report', formats: REPORT_FORMATS };
  return { document_type: row.document_type, formats: row.formats };
}

/** A shipment's label or customs document, rendered from the shipment when asked for. */
async function shipmentDocument(ctx: Ctx, file: FileRecord, mimeType: string): Promise<Response> {
  // PDF, PNG and barcode libraries load on the first download, not at start-up. The file and its
  // shipment are read once they are loaded: a label voided meanwhile is gone, as it is for a later download.
  const renderers = await ctx.rules.libraries.labels();
  const current = fileKind.load(ctx, file.id);
  if (!current) throw ApiError.notFound('files', file.id);
  const shipment = ctx.store.get('shipments', current.shipment_id)!;
  const bytes = fileBytes(ctx.store, renderers, current, shipment, mimeType);
  const extension = file.formats.find((format) => format.mime_type === mimeType)!.extension;
  return new Response(new Uint8Array(bytes), {
    headers: {
      'content-type': mimeType,
      // Production names every download so (its docs show `download.pdf`), whatever the document.
      'content-disposition': `attachment; filename="download.${extension}"`,
    },
  });
}

/**
 * The caller's file with `id`: a shipment's document, a manifest's or a return report's CSV; or
 * `undefined`, for a missing id and for another organization's file alike.
 */
export function ownedFile(ctx: Ctx, id: string): OwnedFile | undefined {
  const shipmentFile = fileKind.load(ctx, id);
  if (shipmentFile) {
    return { row: shipmentFile, ...fileType(shipmentFile), owner: "A shipment's document", download: (type) => shipmentDocument(ctx, shipmentFile, type) };
  }
  const manifestFile = ctx.store.get('manifestFiles', id);
  if (manifestFile && manifestVisible(ctx, manifestFile)) {
    return {
      row: manifestFile,
      ...fileType(manifestFile),
      scopes: manifestRead.anyOf,
      owner: "A manifest's document",
      download: (type) => manifestDocument(ctx, manifestFile, type),
    };
  }
  const reportFile = ctx.store.get('returnReportFiles', id);
  // As manifestVisible compares: the returns rules' ownRow would throw, not answer undefined, for a render without a caller.
  if (reportFile && reportFile.organization_id === ctx.principal?.organizationId) {
    return {
      row: reportFile,
      ...fileType(reportFile),
      scopes: returnsScope.anyOf,
      owner: "A return report's file",
      download: async () => reportDocument(reportFile),
    };
  }
  return undefined;
}
