import { z } from 'zod';

/*
 * The answer of `GET /_sandbox/report`: what a client did against production's contract. The
 * command line (`parcel-sandbox report`) reads it and writes it as JSON, Markdown or JUnit
 * (report/render.ts).
 */

const count = z.number().int();
const statuses = z.record(z.string(), count).describe('Answers by HTTP status (`other` past the 32 statuses kept per operation)');
const byOperation = z.record(z.string(), count).describe('Uses by operation');

const calledOperation = z
  .object({
    operation: z.string().describe("Production's name of the operation (method and path), or the sandbox's own for one production does not have"),
    operation_id: z.string().nullable().describe("The sandbox's operationId of the endpoint that served it; null for requests no endpoint served"),
    production: z.boolean().describe("Whether production's contract publishes the operation"),
    sandbox_only: z.boolean().describe("A sandbox control or page, which production has nothing like (production's auth server, outside its contract, is not)"),
    count,
    statuses,
  })
  .meta({ id: 'SandboxReportOperation' });

const refusal = z
  .object({
    operation: z.string(),
    status: count,
    code: z.string().nullable().describe('The error code (10003, 14003, ...)'),
    title: z.string().nullable(),
    source: z
      .union([z.object({ pointer: z.string() }), z.object({ parameter: z.string() }), z.object({ header: z.string() })])
      .nullable()
      .describe('Where the error points; array indices of a pointer are written `*`'),
    count: count.describe('Requests refused for this cause'),
    last_request_id: count.describe('The latest such request in the request log (GET /_sandbox/requests), while the log still holds it'),
  })
  .meta({ id: 'SandboxReportRefusal' });

const deprecatedUse = z
  .object({
    id: z.string().describe("Production's name of the deprecated thing"),
    kind: z.enum(['operation', 'query', 'header', 'member', 'attribute', 'relationship']),
    instead: z.string().describe('What to use instead'),
    count,
    operations: byOperation,
    last_request_id: count,
  })
  .meta({ id: 'SandboxReportDeprecatedUse' });

const sandboxOnlyUse = z
  .object({
    what: z
      .string()
      .describe(
        "A trigger (a tag or value the sandbox carrier acts on), a query parameter production does not document, or an Authorization header not written 'Bearer <token>'",
      ),
    count,
    operations: byOperation,
    last_request_id: count,
  })
  .meta({ id: 'SandboxReportSandboxOnlyUse' });

export const reportSchema = z
  .object({
    scope: z.enum(['tenant', 'all']).describe("One tenant's requests, or every request (the admin)"),
    organization_id: z.string().optional().describe('The tenant (scope tenant)'),
    tenants: z.array(z.string()).optional().describe('The tenants whose requests are counted (scope all)'),
    requests: z
      .object({
        counted: count.describe('Requests counted since the sandbox started (reading the report or the request log, and /health, are not counted)'),
        in_request_log: count.describe('Of those, how many the request log still holds'),
        no_longer_in_request_log: count.describe(
          'Counted requests the request log (a ring of the last 500) no longer holds: the report covers them, their entries are gone',
        ),
        request_log_capacity: count,
        without_tenant: count.optional().describe('Requests made without a valid token or with the admin token (scope all)'),
      })
      .describe('What the report covers'),
    production: z
      .object({
        operations: count.describe("Operations production's contract publishes"),
        served: count.describe('Of those, how many the sandbox serves'),
        called: count.describe('Of those, how many were called'),
        coverage: z.number().describe('called / operations'),
        document: z.string().describe("Version of production's document"),
      })
      .describe("Coverage of production's contract"),
    operations: z.array(calledOperation).describe("Operations called, production's in the contract's order, then the sandbox's own"),
    never_called: z
      .array(z.object({ operation: z.string(), served: z.boolean().describe('Whether the sandbox serves it') }))
      .describe("Production's operations never called"),
    refused: z.array(refusal).describe('Refused requests (4xx) grouped by operation, status, code and source; most frequent first'),
    refusal_causes_not_kept: count.describe('Refusals of causes past the 100 kept per tenant: counted, not grouped'),
    deprecated: z.array(deprecatedUse).describe('What production deprecates and requests used'),
    sandbox_only: z
      .object({
        operations: z
          .array(z.object({ operation: z.string(), operation_id: z.string(), count }))
          .describe('Sandbox controls and pages production has no equivalent of'),
        uses: z
          .array(sandboxOnlyUse)
          .describe('Triggers of the sandbox carrier, query parameters production does not document, and bearer tokens sent other than as `Bearer <token>`'),
      })
      .describe('What the sandbox answered that production would not'),
  })
  .meta({ id: 'SandboxReport' });

export type Report = z.output<typeof reportSchema>;

/** What `--fail-on` may name: a kind of finding that fails an operation's test case in JUnit and the command's exit code. */
export const FAIL_KINDS = ['refused', 'deprecated', '5xx'] as const;
export type FailKind = (typeof FAIL_KINDS)[number];
