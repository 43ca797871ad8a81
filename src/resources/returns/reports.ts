import { z } from 'zod';
import { organizationOf, ownOr404 } from '../../domain/returns/access.js';
import { countEntries, createReport, deleteReport } from '../../domain/returns/reports.js';
import { DomainError } from '../../domain/errors.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { checkIdentity, resourceRequest } from '../../jsonapi/request.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { returnReportFilters, type ReturnReportFileRecord } from '../../model/returns/report.js';
import { returnReportIncludes } from '../include-paths.js';
import { readOnly, returnsScope } from './common.js';
import { reportSchemas, returnReportKind } from './report-kinds.js';

const TAG = 'Return reports';
const params = z.object({ report_id: z.string() });

// The attributes are open, as production's ReturnReport: an attribute it does not know is dropped.
const createRequest = resourceRequest({
  id: 'ReturnReportCreateRequest',
  attributes: z.object({
    name: z.string().min(1).max(255),
    filters: returnReportFilters,
    progress: readOnly,
    created_at: readOnly,
    updated_at: readOnly,
  }),
  relationships: z.record(z.string(), z.unknown()).optional(),
});
const countRequest = resourceRequest({
  id: 'ReturnReportCountRequest',
  attributes: z.object({
    name: z.string().max(255).optional(),
    filters: returnReportFilters,
    progress: readOnly,
    created_at: readOnly,
    updated_at: readOnly,
  }),
  relationships: z.record(z.string(), z.unknown()).optional(),
});
const downloads = ['text/csv'] as const;

/** The CSV of a finished report, as its download and GET /files/{file_id} answer it. */
export function reportDocument(file: ReturnReportFileRecord): Response {
  return new Response(file.content, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="return-report-${file.report_id}.csv"` },
  });
}

const countDocument = z.strictObject({ data: z.object({ total_entries: z.number().int() }) }).meta({ id: 'ReturnReportCount' });

export const reportEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/reports',
    operationId: 'listReturnReports',
    summary: 'List return reports',
    description: `The caller's organization's reports, newest first.`,
    tag: TAG,
    auth: returnsScope,
    include: returnReportIncludes,
    paginated: true,
    responses: { 200: { description: 'The reports.', schema: reportSchemas.list } },
    handler: (ctx, { page, include }) => {
      // Stable, on the index's order of making: reports of one second stay in the order they were asked for.
      const rows = [...ctx.store.find('returnReports', 'organization_id', organizationOf(ctx))].sort((a, b) => a.created_at - b.created_at);
      return jsonApi(collectionDocument(ctx, returnReportKind, rows, page, include, true));
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/reports',
    operationId: 'createReturnReport',
    summary: 'Ask for a return report',
    description: `A CSV with a line per returned item of the returns \`filters\` select (dates as Unix seconds, dates or ISO-8601 date-times; shops, methods, reason codes, statuses, consumer countries, ...). It is \`report-queued\` and generated 5 seconds later on the sandbox clock from the returns as they are then: \`report-finished\` with its \`file\` (\`GET /returns/v1/reports/{report_id}/files/{file_id}\`, \`Accept: text/csv\`).`,
    tag: TAG,
    auth: returnsScope,
    body: createRequest,
    responses: {
      201: { description: 'The queued report; `progress.total` is the projected number of lines.', schema: reportSchemas.document },
      409: { description: 'The body type is not return-reports (10007).', schema: errorDocument },
      422: { description: 'A date range of `filters` that ends before it starts (10008, at its date_to).', schema: errorDocument },
    },
    include: returnReportIncludes,
    handler: async (ctx, { body, include }) => {
      checkIdentity(body.data, 'return-reports');
      const { name, filters } = body.data.attributes;
      const row = await ctx.store.transact((tx) => createReport(tx, ctx, name, filters));
      return jsonApi(resourceDocument(ctx, returnReportKind, row, include), 201, { location: ctx.url(returnReportKind.self(row)) });
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/reports/count-report-entries',
    operationId: 'countReturnReportEntries',
    summary: 'How many lines a report would have',
    description: `The number of returned items the filters select now.`,
    tag: TAG,
    auth: returnsScope,
    body: countRequest,
    responses: {
      200: { description: 'The projected number of lines.', schema: countDocument },
      422: { description: 'A date range of `filters` that ends before it starts (10008, at its date_to).', schema: errorDocument },
    },
    handler: (ctx, { body }) => {
      checkIdentity(body.data, 'return-reports');
      return jsonApi({ data: { total_entries: countEntries(ctx, body.data.attributes.filters) } });
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/reports/{report_id}',
    operationId: 'getReturnReport',
    summary: 'Get a return report',
    tag: TAG,
    auth: returnsScope,
    params,
    include: returnReportIncludes,
    responses: { 200: { description: 'The report.', schema: reportSchemas.document } },
    handler: (ctx, { params: path, include }) =>
      jsonApi(resourceDocument(ctx, returnReportKind, ownOr404(ctx, 'returnReports', 'return-reports', path.report_id), include)),
  }),
  endpoint({
    method: 'delete',
    path: '/returns/v1/reports/{report_id}',
    operationId: 'deleteReturnReport',
    summary: 'Delete a return report',
    description: `With its file. A report that is still being generated answers 423.`,
    tag: TAG,
    auth: returnsScope,
    params,
    responses: { 204: { description: 'Deleted.' }, 423: { description: 'The report is being generated (10005).', schema: errorDocument } },
    handler: async (ctx, { params: path }) => {
      const report = ownOr404(ctx, 'returnReports', 'return-reports', path.report_id);
      await ctx.store.transact((tx) => deleteReport(tx, report));
      return new Response(null, { status: 204 });
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/reports/{report_id}/files/{file_id}',
    operationId: 'downloadReturnReport',
    summary: 'Download a return report',
    description: `The CSV (\`Accept: text/csv\`): a header line, then a line per returned item, RFC 4180 quoting, CRLF line ends; a cell starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return (a formula to a spreadsheet) is quoted after an apostrophe, so it opens as text. \`GET /files/{file_id}\` answers the same CSV, and the file resource.`,
    tag: TAG,
    auth: returnsScope,
    params: z.object({ report_id: z.string(), file_id: z.string() }),
    // One format, so the negotiation of `produces` every request gets (http/mount.ts) is all there is to choose: 406 for an Accept without text/csv.
    produces: downloads,
    responses: { 200: { description: 'The CSV.', contentTypes: downloads } },
    handler: (ctx, { params: path }) => {
      const report = ownOr404(ctx, 'returnReports', 'return-reports', path.report_id);
      const file = report.file_id === path.file_id ? ctx.store.get('returnReportFiles', path.file_id) : undefined;
      if (!file) throw DomainError.notFound(`No files resource with id '${path.file_id}' exists for this report.`);
      return reportDocument(file);
    },
  }),
];
