import type { FailKind, Report } from '../controls/report-schema.js';
import { findingsOf, requests } from './findings.js';
import { reportMarkdown } from './markdown.js';

/*
 * The report as JUnit XML, the format CI servers show natively (Jenkins, GitLab, the JUnit
 * reporters of GitHub Actions): one test case per operation called, failed only for the kinds
 * `--fail-on` names. test/junit.xsd holds the format's rules; test/report.test.ts validates
 * against it.
 */

/** Text as XML character data or an attribute value: markup escaped, characters XML 1.0 cannot hold dropped. */
function xml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xml(String(value))}"`)
    .join('');

/** How CI servers group the test cases: production's operations, the sandbox's own, production's auth server (outside its contract), paths nothing serves. */
function classOf(operation: Report['operations'][number]): string {
  if (operation.production) return 'production';
  if (operation.sandbox_only) return 'sandbox-only';
  return operation.operation_id === null ? 'no-endpoint' : 'auth-server';
}

/** The report as one JUnit test suite; `timestamp` is when it was made (ISO 8601). */
export function reportJunit(report: Report, failOn: readonly FailKind[], timestamp: string): string {
  const cases = report.operations.map((operation) => {
    const findings = findingsOf(report, operation);
    const failing = failOn.filter((kind) => findings[kind]);
    const statuses = Object.entries(operation.statuses)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    const body = [
      ...(failing.length > 0
        ? [
            `      <failure${attributes({ type: failing.join(','), message: failing.map((kind) => findings[kind]![0]).join('; ') })}>${xml(
              failing.flatMap((kind) => findings[kind]!.map((line) => `${kind}: ${line}`)).join('\n'),
            )}</failure>`,
          ]
        : []),
      `      <system-out>${xml(`${requests(operation.count)}; statuses ${statuses}${operation.operation_id ? `; operationId ${operation.operation_id}` : ''}`)}</system-out>`,
    ];
    const classname = `parcel-sandbox.${classOf(operation)}`;
    return [`    <testcase${attributes({ classname, name: operation.operation, time: '0' })}>`, ...body, '    </testcase>'].join('\n');
  });
  const failed = cases.filter((text) => text.includes('<failure')).length;
  const totals = { tests: cases.length, failures: failed, errors: 0, skipped: 0, time: '0' };
  const properties = {
    scope: report.scope,
    ...(report.organization_id ? { organization_id: report.organization_id } : {}),
    'requests.counted': report.requests.counted,
    'requests.no_longer_in_request_log': report.requests.no_longer_in_request_log,
    'production.called': `${report.production.called} of ${report.production.operations}`,
    'production.never_called': report.never_called.length,
    'fail-on': failOn.join(','),
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'parcel-sandbox report', tests: totals.tests, failures: totals.failures, errors: 0, time: '0' })}>`,
    `  <testsuite${attributes({ name: "parcel-sandbox: production's contract", ...totals, timestamp })}>`,
    '    <properties>',
    ...Object.entries(properties).map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    '    </properties>',
    ...cases,
    `    <system-out>${xml(reportMarkdown(report, failOn))}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
