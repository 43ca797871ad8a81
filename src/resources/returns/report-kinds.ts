import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { returnReportAttributes, type ReturnReportFileRecord, type ReturnReportRecord } from '../../model/returns/report.js';
import { fileKind } from '../shipments/shipment-kinds.js';

const mine = <R extends { organization_id: string }>(ctx: Ctx, row: R | undefined): R | undefined =>
  row && row.organization_id === ctx.principal?.organizationId ? row : undefined;

const reportFilePath = (file: ReturnReportFileRecord) => `/returns/v1/reports/${file.report_id}/files/${file.id}`;

export const returnReportKind: Kind<ReturnReportRecord> = {
  type: 'return-reports',
  attributesSchema: returnReportAttributes,
  attributes: ({ name, filters, progress, created_at, updated_at }) => ({ name, filters, progress, created_at, updated_at }),
  relationships: {
    file: {
      targets: ['files'],
      optional: true,
      data: (row) => linkTo('files', row.file_id),
      related: (row) => `/returns/v1/reports/${row.id}/files/${row.file_id}`,
    },
    status: { targets: ['statuses'], data: (row) => linkTo('statuses', row.status_id) },
  },
  self: (row) => `/returns/v1/reports/${row.id}`,
  load: (ctx, id) => mine(ctx, ctx.store.get('returnReports', id)),
};

/** The CSV of a report as a `files` resource (document type `report`). */
export const reportFileKind: Kind<ReturnReportFileRecord> = {
  type: 'files',
  attributesSchema: fileKind.attributesSchema,
  attributes: (row) => ({ document_type: 'report', formats: [{ extension: 'csv', mime_type: 'text/csv' }], created_at: row.created_at }),
  relationships: {},
  self: reportFilePath,
  load: (ctx, id) => mine(ctx, ctx.store.get('returnReportFiles', id)),
};

export const reportSchemas = resourceSchemas(returnReportKind);
