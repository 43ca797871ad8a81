import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { returnReportAttributes, type ReturnReportRecord } from '../../model/returns/report.js';

const mine = <R extends { organization_id: string }>(ctx: Ctx, row: R | undefined): R | undefined =>
  row && row.organization_id === ctx.principal?.organizationId ? row : undefined;

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

export const reportSchemas = resourceSchemas(returnReportKind);
