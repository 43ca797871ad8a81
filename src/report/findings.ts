import { FAIL_KINDS, type FailKind, type Report } from '../controls/report-schema.js';

/** What one operation of a report did wrong, by kind: a line per finding. */
export type Findings = Partial<Record<FailKind, string[]>>;

type Called = Report['operations'][number];

/** Requests of one operation answered 4xx (499, a client that closed the connection, is no refusal). */
export const refusedCount = (operation: Called) =>
  Object.entries(operation.statuses).reduce((sum, [status, count]) => (/^4\d\d$/.test(status) && status !== '499' ? sum + count : sum), 0);
const failedCount = (operation: Called) => Object.entries(operation.statuses).reduce((sum, [status, count]) => (/^5\d\d$/.test(status) ? sum + count : sum), 0);

/** `1 request`, `2 requests`. */
export const requests = (count: number) => `${count} ${count === 1 ? 'request' : 'requests'}`;
/** `1 operation`, `2 operations`. */
export const operations = (count: number) => `${count} ${count === 1 ? 'operation' : 'operations'}`;

/** Where an error points, as one would say it. */
export function sourceText(source: Report['refused'][number]['source']): string {
  if (source === null) return '';
  if ('pointer' in source) return `pointer ${source.pointer || '(the body)'}`;
  if ('parameter' in source) return `parameter ${source.parameter}`;
  return `header ${source.header}`;
}

/** Every finding of one operation called: its refusals, its answers of 500 and above, its deprecated uses. */
export function findingsOf(report: Report, operation: Called): Findings {
  const findings: Findings = {};
  const refused = refusedCount(operation);
  if (refused > 0) {
    findings.refused = [
      `${refused} of ${requests(operation.count)} refused`,
      ...report.refused
        .filter((cause) => cause.operation === operation.operation)
        .map((cause) => {
          const what = [cause.status, cause.code, cause.title, sourceText(cause.source)].filter(Boolean).join(' ');
          return `${what}: ${requests(cause.count)} (the last is request ${cause.last_request_id} of the request log)`;
        }),
    ];
  }
  const failed = failedCount(operation);
  if (failed > 0) findings['5xx'] = [`${failed} of ${requests(operation.count)} answered 5xx`];
  const deprecated = report.deprecated.filter((use) => (use.operations[operation.operation] ?? 0) > 0);
  if (deprecated.length > 0) {
    findings.deprecated = deprecated.map((use) => `${use.id} used in ${requests(use.operations[operation.operation]!)}: use ${use.instead}`);
  }
  return findings;
}

/** The kinds `--fail-on` names, or the one-line error for an unknown one. */
export function parseFailOn(value: string | undefined): FailKind[] | string {
  if (value === undefined || value.trim() === '') return [];
  const named = value.split(',').map((kind) => kind.trim());
  const unknown = named.filter((kind) => !(FAIL_KINDS as readonly string[]).includes(kind));
  if (unknown.length > 0) return `--fail-on: unknown kind ${unknown.map((kind) => `'${kind}'`).join(', ')}; the kinds are ${FAIL_KINDS.join(', ')}`;
  return [...new Set(named)] as FailKind[];
}

/** The operations that fail for the kinds named, with those kinds' findings. */
export function failures(report: Report, failOn: readonly FailKind[]): { operation: string; findings: Findings }[] {
  if (failOn.length === 0) return [];
  return report.operations.flatMap((operation) => {
    const all = findingsOf(report, operation);
    const findings: Findings = {};
    for (const kind of failOn) if (all[kind]) findings[kind] = all[kind];
    return Object.keys(findings).length > 0 ? [{ operation: operation.operation, findings }] : [];
  });
}
