import type { FailKind, Report } from '../controls/report-schema.js';
import { failures, operations, refusedCount, requests as requestCount, sourceText } from './findings.js';

/*
 * Parameter names and pointers in the report are what clients sent. In a job summary or a pull
 * request comment, a line break in one would start a heading or end a list, and a `<` raw HTML
 * (`<!--` hides the rest of the report), so they are written on one line with `<` as `&lt;`. No
 * name of the sandbox's own (operations, deprecations) holds a `<`.
 */
const oneLine = (value: unknown) =>
  String(value)
    .replace(/[\r\n]+/g, ' ')
    .replace(/</g, '&lt;');
/** A table cell: one line, pipes escaped. */
const cell = (value: unknown) => oneLine(value).replace(/\|/g, '\\|');
const code = (value: string) => (value === '' ? '' : `\`${value.replace(/`/g, "'")}\``);
const table = (head: string[], rows: unknown[][]) => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
];
const statuses = (counted: Record<string, number>) =>
  Object.entries(counted)
    .map(([status, count]) => `${status} × ${count}`)
    .join(', ');

/** The report as Markdown, for a CI job's summary or a pull request comment. */
export function reportMarkdown(report: Report, failOn: readonly FailKind[] = []): string {
  const { requests, production } = report;
  const who =
    report.scope === 'tenant'
      ? `Tenant ${code(report.organization_id ?? '')}`
      : `Every tenant (${report.tenants?.length ?? 0}), and ${requestCount(requests.without_tenant ?? 0)} without one`;
  const lines = [
    '# parcel-sandbox report',
    '',
    `${who}: ${requestCount(requests.counted)} counted since the sandbox started.` +
      (requests.no_longer_in_request_log > 0
        ? ` The request log (the last ${requests.request_log_capacity} requests) no longer holds ${requests.no_longer_in_request_log} of them: the counts below cover them, their log entries are gone.`
        : ' The request log holds every one of them.'),
    '',
    `**Production's contract:** ${production.called} of its ${production.operations} operations called (${(production.coverage * 100).toFixed(1)} %); the sandbox serves ${production.served}. Document ${production.document}.`,
    '',
  ];
  const failed = failures(report, failOn);
  if (failOn.length > 0) {
    lines.push(`**Fails on ${failOn.join(', ')}:** ${failed.length === 0 ? 'nothing found.' : `${operations(failed.length)}.`}`, '');
    for (const { operation, findings } of failed) {
      for (const [kind, texts] of Object.entries(findings)) lines.push(`- ${code(operation)} (${kind}): ${oneLine(texts.join('; '))}`);
    }
    if (failed.length > 0) lines.push('');
  }
  lines.push(
    `## Operations called (${report.operations.length})`,
    '',
    ...table(
      ['operation', 'operationId', 'production', 'requests', 'statuses'],
      report.operations.map((operation) => [
        code(operation.operation),
        operation.operation_id ?? '',
        operation.production ? 'yes' : 'no',
        operation.count,
        statuses(operation.statuses),
      ]),
    ),
    '',
    // Counted by request: one request refused for three errors counts under three causes.
    `## Refused requests, by cause (${report.operations.reduce((sum, operation) => sum + refusedCount(operation), 0)})`,
    '',
  );
  if (report.refused.length === 0) lines.push('None.');
  else
    lines.push(
      ...table(
        ['operation', 'status', 'code', 'title', 'where', 'requests', 'last request'],
        report.refused.map((cause) => [
          code(cause.operation),
          cause.status,
          cause.code ?? '',
          cause.title ?? '',
          sourceText(cause.source),
          cause.count,
          cause.last_request_id,
        ]),
      ),
    );
  if (report.refusal_causes_not_kept > 0) lines.push('', `${report.refusal_causes_not_kept} more refusals of causes past the ones kept per tenant.`);
  lines.push('', `## Deprecated (${report.deprecated.length})`, '');
  if (report.deprecated.length === 0) lines.push('Nothing production deprecates was used.');
  else
    lines.push(
      ...table(
        ['deprecated', 'kind', 'use instead', 'requests', 'operations'],
        report.deprecated.map((use) => [code(use.id), use.kind, use.instead, use.count, Object.keys(use.operations).map(code).join(', ')]),
      ),
    );
  lines.push('', '## Only the sandbox answers these', '');
  const sandbox = [
    ...report.sandbox_only.operations.map((operation) => [code(operation.operation), 'a sandbox control or page', operation.count]),
    ...report.sandbox_only.uses.map((use) => [use.what, Object.keys(use.operations).map(code).join(', '), use.count]),
  ];
  if (sandbox.length === 0) lines.push('Nothing.');
  else lines.push(...table(['what', 'where', 'requests'], sandbox));
  lines.push('', `## Production's operations never called (${report.never_called.length})`, '');
  const served = report.never_called.filter((operation) => operation.served).map((operation) => code(operation.operation));
  const notServed = report.never_called.filter((operation) => !operation.served).map((operation) => code(operation.operation));
  lines.push(`Served by the sandbox (${served.length}): ${served.join(', ') || 'none'}.`, '');
  lines.push(`Not served by the sandbox (${notServed.length}): ${notServed.join(', ') || 'none'}.`, '');
  return lines.join('\n');
}
