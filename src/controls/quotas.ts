import { z } from 'zod';
import { changeOverrides, defaultLimits, limitsOf, quotaNames, quotaSettings, storedQuotas, usageOf, type OverrideChange } from '../domain/quotas.js';
import type { AppCtx } from '../http/app-context.js';
import { appEndpoint } from '../http/app-context.js';
import { plainJson } from '../http/respond.js';
import { ApiError, errorObject, type ErrorSource } from '../jsonapi/errors.js';
import type { Services } from '../http/services.js';
import { errorResponse } from './responses.js';
import { refuseOtherTenant } from './own-tenant.js';

/*
 * `/_sandbox/quotas`: what each tenant may keep and how fast it may call. A tenant's token reads
 * its own limits and usage; the admin reads the defaults (or a tenant's, named by organization or
 * client) and changes either. The rules are in domain/quotas.ts, the request limit in
 * http/rate-limit.ts.
 */

const count = (description: string) => z.number().int().describe(description);

const limits = z
  .object({
    shipments: count('Shipments the organization may keep'),
    hooks: count('Hooks the organization may keep'),
    files: count('Files (labels, customs documents, manifests, return reports) the organization may keep'),
    requests_per_minute: count('Requests per minute of real time'),
  })
  .meta({ id: 'SandboxQuotaLimits' });

const overrides = z
  .object({
    shipments: count('Set for this tenant (or for every tenant)').optional(),
    hooks: count('Set for this tenant (or for every tenant)').optional(),
    files: count('Set for this tenant (or for every tenant)').optional(),
    requests_per_minute: count('Set for this tenant (or for every tenant)').optional(),
  })
  .meta({ id: 'SandboxQuotaOverrides' });

const tenantView = z
  .object({
    organization_id: z.string(),
    limits: limits.describe('What applies to this tenant: its overrides, else the defaults'),
    overrides: overrides.describe("This tenant's own overrides"),
    usage: limits.describe('Rows kept now, and requests counted in the current minute (this one included, for a tenant)'),
  })
  .meta({ id: 'SandboxTenantQuotas' });

const defaultsView = z
  .object({
    defaults: limits.describe('What a tenant without overrides of its own gets'),
    configured: limits.describe('The server options (QUOTA_SHIPMENTS, QUOTA_HOOKS, QUOTA_FILES, RATE_LIMIT)'),
    overrides: overrides.describe('Overrides of the server options for every tenant'),
    organizations: z.record(z.string(), overrides).describe('Overrides of single tenants, by organization id'),
  })
  .meta({ id: 'SandboxQuotaDefaults' });

const quotasAnswer = z.union([tenantView, defaultsView]).meta({ id: 'SandboxQuotas' });

const quota = (name: string) =>
  z.number().int().nullable().optional().describe(`New ${name} quota, a whole number of at least 1; null removes the override (back to the default)`);

const quotaChange = z
  .strictObject({
    organization_id: z.string().min(1).optional().describe("The tenant whose quotas change (or client_id); without either, every tenant's defaults change"),
    client_id: z.string().min(1).optional().describe('The tenant whose quotas change, named by one of its clients'),
    shipments: quota('shipments'),
    hooks: quota('hooks'),
    files: quota('files'),
    requests_per_minute: quota('requests-per-minute'),
  })
  .meta({ id: 'SandboxQuotaChange' });

const target = z.object({
  organization_id: z.string().min(1).max(255).optional().describe("A tenant's organization id (admin only; a tenant reads its own)"),
  client_id: z.string().min(1).max(255).optional().describe("A tenant named by one of its clients (admin only; a tenant's own client is fine)"),
});

const json = ['application/json'] as const;

/** The organization the request names, or `undefined` when it names none; 404 on the member or parameter that names nothing. */
function namedOrganization(
  services: Services,
  names: { organization_id?: string; client_id?: string },
  where: (member: string) => ErrorSource,
): string | undefined {
  const { store } = services;
  if (names.organization_id !== undefined && names.client_id !== undefined) {
    throw ApiError.of('invalidSchema', 'Name the tenant by organization_id or by client_id, not both.', { source: where('client_id') });
  }
  if (names.organization_id !== undefined) {
    if (!store.get('organizations', names.organization_id)) {
      throw ApiError.of('resourceNotFound', `No organization with id '${names.organization_id}' exists.`, { source: where('organization_id') });
    }
    return names.organization_id;
  }
  if (names.client_id !== undefined) {
    const client = store.get('clients', names.client_id);
    const organizationId = client && store.get('users', client.user_id)?.organization_id;
    if (organizationId === undefined)
      throw ApiError.of('resourceNotFound', `No client with client_id '${names.client_id}' exists.`, { source: where('client_id') });
    return organizationId;
  }
  return undefined;
}

function tenantQuotas(ctx: AppCtx, organizationId: string) {
  const { services } = ctx;
  const usage = Object.fromEntries(storedQuotas.map((name) => [name, usageOf(services.store, organizationId, name)]));
  return {
    organization_id: organizationId,
    limits: limitsOf(services.rules, organizationId),
    overrides: quotaSettings(services.store).organizations[organizationId] ?? {},
    usage: { ...usage, requests_per_minute: services.limiter.peek(organizationId) },
  };
}

function defaultQuotas(ctx: AppCtx) {
  const { services } = ctx;
  const settings = quotaSettings(services.store);
  return {
    defaults: defaultLimits(services.rules),
    configured: services.rules.settings.quotas,
    overrides: settings.defaults,
    organizations: settings.organizations,
  };
}

/** Every quota the change sets to zero or less, one error each with its pointer (422, 10008). */
function checkChange(body: z.output<typeof quotaChange>): OverrideChange {
  const errors = quotaNames.flatMap((name) => {
    const value = body[name];
    return typeof value === 'number' && value < 1
      ? [
          errorObject('unprocessable', `A ${name} quota must be at least 1, not ${value}; send null to remove an override.`, {
            source: { pointer: `/${name}` },
          }),
        ]
      : [];
  });
  if (errors.length > 0) throw new ApiError(errors);
  return Object.fromEntries(quotaNames.filter((name) => body[name] !== undefined).map((name) => [name, body[name]]));
}

const QUOTAS_TEXT =
  'Stored-row quotas (shipments, hooks, files) refuse the request that would create one row too many with 429 (10011) and no Retry-After: deleting rows frees room, waiting does not. The request limit counts the requests of each organization (the address, without a token) per minute of real time; past it, 429 (10011) with Retry-After.';

export const quotaEndpoints = [
  appEndpoint({
    method: 'get',
    path: '/_sandbox/quotas',
    operationId: 'getSandboxQuotas',
    summary: 'Read the quotas and rate limit of a tenant, or the defaults',
    description: `With a tenant's access token: its own limits, overrides and usage (naming another tenant is 404). With the admin token (or no token, on a sandbox without one): the defaults, their overrides and every tenant's overrides; with \`organization_id\` or \`client_id\`, that tenant's view. ${QUOTAS_TEXT}`,
    tag: 'Sandbox',
    auth: 'control',
    query: target,
    produces: json,
    responses: {
      200: { description: "The tenant's quotas and usage, or the defaults.", schema: quotasAnswer, contentTypes: json },
      404: errorResponse('No organization or client of that id (10002, source.parameter names it).'),
    },
    handler: (ctx, { query }) => {
      const own = ctx.principal?.organizationId;
      if (own !== undefined) refuseOtherTenant(ctx.services, own, query);
      const named = namedOrganization(ctx.services, query, (parameter) => ({ parameter }));
      const organizationId = own ?? named;
      return plainJson(organizationId === undefined ? defaultQuotas(ctx) : tenantQuotas(ctx, organizationId));
    },
  }),
  appEndpoint({
    method: 'patch',
    path: '/_sandbox/quotas',
    operationId: 'changeSandboxQuotas',
    summary: 'Change the quotas of one tenant, or the defaults',
    description: `Admin only (a tenant's token gets 403). Sends the quotas to change: \`shipments\`, \`hooks\`, \`files\`, \`requests_per_minute\`, each a whole number of at least 1 (0 or less is 422 with a pointer), or null to remove the override. With \`organization_id\` or \`client_id\` they apply to that tenant only, else to every tenant without an override of its own. Overrides are kept with the data and survive a sandbox reset; they apply at once. Answers the view \`GET /_sandbox/quotas\` gives of the same tenant or of the defaults. ${QUOTAS_TEXT}`,
    tag: 'Sandbox',
    auth: 'control',
    body: quotaChange,
    produces: json,
    responses: {
      200: { description: "The tenant's quotas and usage, or the defaults, after the change.", schema: quotasAnswer, contentTypes: json },
      403: errorResponse("A tenant's access token: quotas are set by the operator (10013)."),
      404: errorResponse('No organization or client of that id (10002, pointer /organization_id or /client_id).'),
      422: errorResponse('A quota of zero or less (10008, pointer to each).'),
    },
    handler: async (ctx, { body }) => {
      if (ctx.principal) {
        throw ApiError.of(
          'actionNotAllowed',
          "Quotas are the operator's to set, so a tenant's access token may not change them (it may read its own with GET); use the admin token (SANDBOX_ADMIN_TOKEN), or no token on a sandbox without one.",
          { source: { header: 'Authorization' } },
        );
      }
      const named = () => namedOrganization(ctx.services, body, (member) => ({ pointer: `/${member}` }));
      const organizationId = named();
      const change = checkChange(body);
      await ctx.store.transact((tx) => {
        // Again in the transaction: a tenant removed meanwhile (a reset being written) keeps no overrides.
        named();
        changeOverrides(tx, change, organizationId);
      });
      return plainJson(organizationId === undefined ? defaultQuotas(ctx) : tenantQuotas(ctx, organizationId));
    },
  }),
];
