import { z } from 'zod';
import { PRODUCTION_DEPRECATIONS, PRODUCTION_DOCUMENT, PRODUCTION_OPERATIONS } from '../fixtures/reference/production-operations.js';
import { REPLACEMENTS } from '../http/deprecations.js';
import type { ServedOperation } from '../http/served-operations.js';
import { appEndpoint } from '../http/app-context.js';
import { plainJson } from '../http/respond.js';
import { ApiError } from '../jsonapi/errors.js';
import { REQUEST_LOG_CAPACITY } from '../requestlog/log.js';
import { MAX_CAUSES, NO_ENDPOINT, TenantUsage, type UseCount } from '../requestlog/usage.js';
import type { Services } from '../http/services.js';
import { reportSchema, type Report } from './report-schema.js';
import { errorResponse } from './responses.js';
import { refuseOtherTenant } from './own-tenant.js';
import { clientsOf } from './tenant-reset.js';

/*
 * `GET /_sandbox/report`: what a client did against production's contract, from the request
 * record (requestlog/usage.ts): the operations it called and their statuses, those of
 * production it never called, its refusals by cause, the deprecated things it used and what only
 * the sandbox answered. `parcel-sandbox report` turns it into Markdown or JUnit for a CI job.
 */

const contractOrder = new Map(PRODUCTION_OPERATIONS.map((key, index) => [key, index]));
const deprecationKinds = new Map(PRODUCTION_DEPRECATIONS.map((deprecation) => [deprecation.id, deprecation.kind]));

const operationsOf = (use: UseCount) => Object.fromEntries(use.operations);

/** The report of some counters (one tenant's, or every request's). */
function reportOf(
  services: Services,
  usage: TenantUsage,
  scope: Pick<Report, 'scope' | 'organization_id' | 'tenants'>,
  inLog: number,
  withoutTenant?: number,
): Report {
  const { operations: served } = services;
  const byName = new Map<string, ServedOperation>();
  // A route serving two of production's operations (the pick-up location searches) is the
  // sandbox's operation of both: a request counted under either names its operationId.
  for (const operation of served.all()) {
    for (const name of [operation.operation, ...operation.operations]) if (!byName.has(name)) byName.set(name, operation);
  }
  const called = [...usage.operations]
    .map(([operation, counted]) => ({
      operation,
      operation_id: operation === NO_ENDPOINT ? null : (byName.get(operation)?.operationId ?? null),
      production: contractOrder.has(operation),
      sandbox_only: byName.get(operation)?.sandboxOnly ?? false,
      count: counted.count,
      statuses: Object.fromEntries([...counted.statuses].sort(([a], [b]) => String(a).localeCompare(String(b)))),
    }))
    .sort((a, b) => (contractOrder.get(a.operation) ?? Infinity) - (contractOrder.get(b.operation) ?? Infinity) || a.operation.localeCompare(b.operation));
  const calledProduction = new Set(called.filter((operation) => operation.production).map((operation) => operation.operation));
  return {
    ...scope,
    requests: {
      counted: usage.requests,
      in_request_log: Math.min(inLog, usage.requests),
      no_longer_in_request_log: Math.max(0, usage.requests - inLog),
      request_log_capacity: REQUEST_LOG_CAPACITY,
      ...(withoutTenant !== undefined ? { without_tenant: withoutTenant } : {}),
    },
    production: {
      operations: PRODUCTION_OPERATIONS.length,
      served: PRODUCTION_OPERATIONS.filter((key) => served.serves(key)).length,
      called: calledProduction.size,
      coverage: Math.round((calledProduction.size / PRODUCTION_OPERATIONS.length) * 10000) / 10000,
      document: PRODUCTION_DOCUMENT.version,
    },
    operations: called,
    never_called: PRODUCTION_OPERATIONS.filter((key) => !calledProduction.has(key)).map((operation) => ({ operation, served: served.serves(operation) })),
    refused: [...usage.causes.values()]
      .sort((a, b) => b.count - a.count || a.lastRequestId - b.lastRequestId)
      .map((cause) => ({
        operation: cause.operation,
        status: cause.status,
        code: cause.code ?? null,
        title: cause.title ?? null,
        source: cause.source ?? null,
        count: cause.count,
        last_request_id: cause.lastRequestId,
      })),
    refusal_causes_not_kept: usage.causesNotKept,
    deprecated: [...usage.deprecated].map(([id, use]) => ({
      id,
      kind: deprecationKinds.get(id) ?? 'operation',
      instead: REPLACEMENTS[id]?.instead ?? 'nothing named by production',
      count: use.count,
      operations: operationsOf(use),
      last_request_id: use.lastRequestId,
    })),
    sandbox_only: {
      operations: called
        .filter((operation) => operation.sandbox_only)
        .map(({ operation, operation_id, count }) => ({ operation, operation_id: operation_id!, count })),
      uses: [...usage.sandboxOnly].map(([what, use]) => ({ what, count: use.count, operations: operationsOf(use), last_request_id: use.lastRequestId })),
    },
  };
}

function tenantReport(services: Services, organizationId: string): Report {
  const usage = services.usage.of(organizationId);
  const inLog = services.requestLog.held(clientsOf(services, organizationId));
  // A tenant that made no request yet has no counters: its report counts nothing.
  return reportOf(services, usage ?? new TenantUsage(), { scope: 'tenant', organization_id: organizationId }, inLog);
}

function wholeReport(services: Services): Report {
  const usage = services.usage.all();
  return reportOf(services, usage, { scope: 'all', tenants: services.usage.tenantIds() }, services.requestLog.held(), services.usage.untenanted.requests);
}

/** The organization a query names, by organization_id or client_id; 404 naming the parameter when it names none. */
function namedTenant(services: Services, query: { organization_id?: string | undefined; client_id?: string | undefined }): string | undefined {
  const { store } = services;
  if (query.organization_id !== undefined && query.client_id !== undefined) {
    throw ApiError.of('invalidSchema', 'Name the tenant by organization_id or by client_id, not both.', { source: { parameter: 'client_id' } });
  }
  if (query.organization_id !== undefined) {
    if (!store.get('organizations', query.organization_id) && !services.usage.of(query.organization_id)) {
      throw ApiError.of('resourceNotFound', `No tenant with organization_id '${query.organization_id}' exists.`, { source: { parameter: 'organization_id' } });
    }
    return query.organization_id;
  }
  if (query.client_id !== undefined) {
    const client = store.get('clients', query.client_id);
    const organizationId = client && store.get('users', client.user_id)?.organization_id;
    if (organizationId === undefined)
      throw ApiError.of('resourceNotFound', `No tenant with client_id '${query.client_id}' exists.`, { source: { parameter: 'client_id' } });
    return organizationId;
  }
  return undefined;
}

const json = ['application/json'] as const;

export const reportEndpoints = [
  appEndpoint({
    method: 'get',
    path: '/_sandbox/report',
    operationId: 'getSandboxReport',
    summary: "What a client did against production's contract",
    description:
      "For a CI job that ran its tests against the sandbox: the production operations called (with the sandbox's operationId, the count and the statuses), production's operations never called (the coverage of its contract), refused requests grouped by cause (operation, status, error code, and the pointer, parameter or header the error names), the deprecated things used and what to use instead, and what only the sandbox answers (its controls and pages, trigger tags, query parameters production does not document, bearer tokens sent other than as `Bearer <token>`). " +
      "With a tenant's access token: that tenant's requests (naming another tenant is 404). With the admin token (or no token, on a sandbox without one): every request, also those made without a tenant; `organization_id` or `client_id` for one tenant. " +
      `Counted since the sandbox started, in memory, per tenant: unlike the request log (the last ${REQUEST_LOG_CAPACITY} requests) the counters do not rotate, and \`requests.no_longer_in_request_log\` says how many counted requests the log no longer shows. They are bounded by what they count: the operations, statuses, deprecations and triggers of the sandbox, and at most ${MAX_CAUSES} refusal causes per tenant (further refusals are counted in \`refusal_causes_not_kept\`). A removed tenant's counters go with it; reading the report, the request log and /health are not counted. ` +
      '`parcel-sandbox report --url URL --format json|markdown|junit` writes it for a CI server.',
    tag: 'Sandbox',
    auth: 'control',
    query: z.object({
      organization_id: z.string().min(1).max(255).optional().describe("One tenant's report, by its organization (admin; a tenant reads its own)"),
      client_id: z.string().min(1).max(255).optional().describe("One tenant's report, by one of its clients"),
    }),
    produces: json,
    responses: {
      200: { description: 'The report.', schema: reportSchema, contentTypes: json },
      404: errorResponse("No tenant of that organization_id or client_id, or with a tenant's token another tenant (10002, source.parameter names it)."),
    },
    handler: (ctx, { query }) => {
      const { services } = ctx;
      const own = ctx.principal?.organizationId;
      if (own !== undefined) refuseOtherTenant(services, own, query);
      const organizationId = own ?? namedTenant(services, query);
      return plainJson(organizationId === undefined ? wholeReport(services) : tenantReport(services, organizationId));
    },
  }),
];
