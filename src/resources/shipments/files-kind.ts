import type { Kind } from '../../http/context.js';
import type { ManifestFileRecord } from '../../model/manifest.js';
import type { ReturnReportFileRecord } from '../../model/returns/report.js';
import type { FileRecord } from '../../model/shipment.js';
import { documentFileKind } from '../collections/manifest-kinds.js';
import { reportFileKind } from '../returns/report-kinds.js';

type AnyFile = FileRecord | ManifestFileRecord | ReturnReportFileRecord;
const isReportFile = (row: AnyFile): row is ReturnReportFileRecord => 'report_id' in row;

/**
 * Every `files` resource the API answers: a shipment's documents, a manifest's and a return
 * report's CSV. `include` reaches all of them through this one kind of the type `files`.
 */
export const filesKind: Kind<AnyFile> = {
  type: 'files',
  attributesSchema: documentFileKind.attributesSchema,
  attributes: (row, ctx) => (isReportFile(row) ? reportFileKind.attributes(row, ctx) : documentFileKind.attributes(row, ctx)),
  relationships: {},
  self: (row) => (isReportFile(row) ? reportFileKind.self(row) : documentFileKind.self(row)),
  load: (ctx, id) => documentFileKind.load(ctx, id) ?? reportFileKind.load(ctx, id),
};
