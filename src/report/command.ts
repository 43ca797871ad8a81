import { parseArgs } from 'node:util';
import { FAIL_KINDS, reportSchema, type Report } from '../controls/report-schema.js';
import { failures, operations, parseFailOn } from './findings.js';
import { reportJunit } from './junit.js';
import { reportMarkdown } from './markdown.js';

/*
 * `parcel-sandbox report`: asks a running sandbox for its report (GET /_sandbox/report) and
 * writes it for a CI job. Exit codes: 0 done, 1 an operation fails for a kind `--fail-on` names,
 * 2 bad arguments, 3 no report could be had (the sandbox is not reachable, or refused).
 */

const FORMATS = ['json', 'markdown', 'junit'] as const;

/**
 * How long the command waits for the report. A server that takes the connection and never answers
 * (a stopped container behind a proxy, a wrong port that happens to listen) would otherwise hold a
 * CI job for as long as Node's own limits allow, minutes; a report takes well under a second.
 */
export const REPORT_TIMEOUT_MS = 60_000;

const REPORT_USAGE = [
  'Usage: parcel-sandbox report --url <url> [--token <token>] [--format json|markdown|junit]',
  '                             [--fail-on refused,deprecated,5xx] [--organization-id <id> | --client-id <id>]',
  '',
  "Writes what the clients of a running sandbox did against production's contract to stdout: the",
  "operations called and their statuses, production's operations never called, refused requests by",
  'cause, deprecated uses, and what only the sandbox answers (GET /_sandbox/report).',
  '',
  '  --url <url>              the sandbox, e.g. http://127.0.0.1:8080',
  "  --token <token>          a tenant's access token (its own report), or the admin token (default:",
  '                           SANDBOX_ADMIN_TOKEN from the environment; none on a sandbox without one)',
  '  --format <format>        json (default), markdown, or junit (one test case per operation called)',
  `  --fail-on <kinds>        comma separated, of ${FAIL_KINDS.join(', ')}: an operation with such a finding fails`,
  '                           its JUnit test case, and the command exits 1',
  "  --organization-id <id>   one tenant's report (admin)",
  "  --client-id <id>         one tenant's report, named by one of its clients (admin)",
  '',
  'Exit codes: 0 done; 1 a kind --fail-on names was found; 2 bad arguments; 3 no report (the sandbox',
  'is not reachable, answered with an error, or answered nothing within 60 s).',
  '',
].join('\n');

export interface ReportIo {
  stdout(text: string): void;
  stderr(text: string): void;
  fetch: typeof fetch;
  /** When the report is made (JUnit's timestamp). */
  now(): Date;
}

/** Runs the command on its arguments (those after `report`); resolves with the exit code. */
export async function runReport(argv: readonly string[], env: Record<string, string | undefined>, io: ReportIo): Promise<number> {
  const fail = (message: string) => {
    io.stderr(`parcel-sandbox report: ${message}\n`);
    return 2;
  };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        format: { type: 'string' },
        'fail-on': { type: 'string' },
        'organization-id': { type: 'string' },
        'client-id': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // `--token $JOB_TOKEN --format junit` with the variable empty: node calls the value
    // "ambiguous" (it starts with a dash); what happened is that the option got none.
    const ambiguous = /^Option '(--[a-z-]+)' argument is ambiguous/.exec((error as Error).message);
    if (ambiguous) {
      const next = argv[argv.indexOf(ambiguous[1]!) + 1];
      return fail(`${ambiguous[1]} has no value: it is followed by '${next}' (an empty variable?); see parcel-sandbox report --help`);
    }
    return fail(`${(error as Error).message.split('\n')[0]}; see parcel-sandbox report --help`);
  }
  if (values.help) {
    io.stdout(REPORT_USAGE);
    return 0;
  }
  const format = (values.format as string | undefined) ?? 'json';
  if (!(FORMATS as readonly string[]).includes(format)) return fail(`--format: unknown format '${format}'; the formats are ${FORMATS.join(', ')}`);
  const failOn = parseFailOn(values['fail-on'] as string | undefined);
  if (typeof failOn === 'string') return fail(failOn);
  const base = values.url as string | undefined;
  if (!base) return fail('--url is required: the sandbox, e.g. --url http://127.0.0.1:8080');
  let url: URL;
  // `127.0.0.1:8080` does not parse and `localhost:8080` parses as a scheme `localhost:`: both
  // are a sandbox's address without `http://`, which the refusal suggests.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(base) ? undefined : ` (did you mean http://${base}?)`;
  try {
    // The report is under the sandbox's URL, which may have a path (a sandbox behind a proxy at
    // `https://ci.example/sandbox`, as PUBLIC_URL allows): resolved from the root, the path would
    // be lost. The endpoint's own URL, given whole, is taken as it is.
    const root = new URL(base);
    root.pathname = `${root.pathname.replace(/\/+$/, '').replace(/\/_sandbox\/report$/, '')}/`;
    root.search = '';
    root.hash = '';
    url = new URL('_sandbox/report', root);
  } catch {
    return fail(`--url: '${base}' is not a URL${withScheme ?? ''}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`--url: '${base}' is not an http or https URL${withScheme ?? ''}`);
  // A query on --url (the curl line's `?organization_id=`) would be dropped, and the report
  // silently be every tenant's: the tenant is named by its options.
  if (/^[^#]*\?/.test(base)) return fail(`--url: '${base}' has a query; give the sandbox's URL and name a tenant with --organization-id or --client-id`);
  if (values['organization-id'] && values['client-id']) return fail('name the tenant by --organization-id or by --client-id, not both');
  if (values['organization-id']) url.searchParams.set('organization_id', values['organization-id'] as string);
  if (values['client-id']) url.searchParams.set('client_id', values['client-id'] as string);
  const token = (values.token as string | undefined) ?? env.SANDBOX_ADMIN_TOKEN;

  let report: Report;
  // A timer of its own (not AbortSignal.timeout) so that a test can move it on.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), REPORT_TIMEOUT_MS);
  try {
    const response = await io.fetch(url, {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: deadline.signal,
    });
    const text = await response.text();
    if (!response.ok) {
      let detail = text.slice(0, 300);
      try {
        const error = (JSON.parse(text) as { errors?: { detail?: string }[] }).errors?.[0];
        if (error?.detail) detail = error.detail;
      } catch {
        // not an errors document: its first characters say enough
      }
      io.stderr(`parcel-sandbox report: ${url.origin} answered ${response.status}: ${detail}\n`);
      return 3;
    }
    report = JSON.parse(text) as Report;
  } catch (error) {
    if (error instanceof SyntaxError) {
      io.stderr(`parcel-sandbox report: ${url.href} answered something that is not JSON; is --url the sandbox?\n`);
      return 3;
    }
    if (deadline.signal.aborted) {
      io.stderr(`parcel-sandbox report: no report from ${url.origin} within ${REPORT_TIMEOUT_MS / 1000} s; is --url the sandbox, and is it up?\n`);
      return 3;
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    io.stderr(`parcel-sandbox report: no report from ${url.origin}: ${cause?.code ?? cause?.message ?? (error as Error).message}\n`);
    return 3;
  } finally {
    clearTimeout(timer);
  }
  // A --url that reaches another service (a proxy's page, another API) can answer 200 with JSON
  // of its own: that is no report to write, nor a finding to fail on.
  if (!reportSchema.safeParse(report).success) {
    io.stderr(`parcel-sandbox report: ${url.href} answered JSON that is not a sandbox report; is --url the sandbox?\n`);
    return 3;
  }
  if (format === 'json') io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else if (format === 'markdown') io.stdout(reportMarkdown(report, failOn));
  else
    io.stdout(
      reportJunit(
        report,
        failOn,
        io
          .now()
          .toISOString()
          .replace(/\.\d+Z$/, ''),
      ),
    );
  const failed = failures(report, failOn);
  if (failed.length > 0) {
    io.stderr(
      `parcel-sandbox report: ${operations(failed.length)} ${failed.length === 1 ? 'fails' : 'fail'} on ${failOn.join(', ')}: ${failed.map((failure) => failure.operation).join(', ')}\n`,
    );
    return 1;
  }
  return 0;
}
