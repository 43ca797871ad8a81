// The tenant controls: POST, GET and DELETE /_sandbox/tenants (creation itself is in tenants.ts, the reset in tenant-reset.ts).
import { z } from 'zod';
import { MAX_TENANT_TTL } from '../config.js';
import { appEndpoint } from '../http/app-context.js';
import { ApiError } from '../jsonapi/errors.js';
import type { Services } from '../http/services.js';
import type { ReadView } from '../store/store.js';
import { apiTenants, removeTenant, tenantEntry, type TenantEntry } from '../domain/tenant-lifetime.js';
import { globalOnly } from '../http/control-access.js';
import { errorResponse } from './responses.js';
import { forgetTenant } from './forget.js';
import { plainJson } from '../http/respond.js';
import { createTenant, tenantCreated, tenantRequest } from './tenants.js';
import { PACK_BODY_LIMIT, refusingPacks } from './pack-source.js';
import { snakeKeys } from './tenant-reset.js';
import { scratchTenantIds } from '../docs/examples/setup.js';
import type { OrganizationRemoval } from '../domain/removals.js';

const tenantListEntry = z
  .object({
    organization_id: z.string(),
    client_id: z.string(),
    name: z.string().describe("The organization's name"),
    created_at: z.number().int().optional().describe('Unix seconds, sandbox clock'),
    expires_at: z.number().int().optional().describe('When the tenant is removed, Unix seconds on the sandbox clock; absent for a tenant without a ttl'),
    visitor: z.literal(true).optional().describe('Made for a visitor of the API reference page (--tenant-per-visitor)'),
  })
  .meta({ id: 'SandboxTenantListEntry' });

const tenantList = z
  .object({
    data: z.array(tenantListEntry).describe('Oldest first: at the cap, the first with an expires_at makes way for a new tenant'),
    max_tenants: z.number().int().describe('The cap (MAX_TENANTS)'),
  })
  .meta({ id: 'SandboxTenantList' });

const tenantDeleted = z
  .object({
    deleted: z.literal('tenant'),
    organization_id: z.string(),
    client_ids: z.array(z.string()).describe('Its clients, gone with it: their tokens answer 401'),
    removed: z.record(z.string(), z.number().int()).describe('Rows removed, by table'),
  })
  .meta({ id: 'SandboxTenantDeleted' });

/** A tenant as the list shows it. */
function listed(store: ReadView, organizationId: string, entry: TenantEntry): z.output<typeof tenantListEntry> {
  return {
    organization_id: organizationId,
    client_id: entry.client_id,
    name: store.get('organizations', organizationId)?.name ?? entry.organization?.name ?? '',
    ...(entry.created_at !== undefined ? { created_at: entry.created_at } : {}),
    ...(entry.expires_at !== undefined ? { expires_at: entry.expires_at } : {}),
    ...(entry.visitor ? { visitor: true as const } : {}),
  };
}

/**
 * The tenant an organization id or a client id names, created through the control API. With
 * `within` (a tenant's own token) only that organization is known: 404 for any other. A seeded
 * organization is no such tenant: 422.
 */
function apiTenantOf(services: Services, id: string, within?: string): { organizationId: string } {
  const { store } = services;
  let organizationId = store.get('organizations', id)?.id;
  if (organizationId === undefined) {
    const client = store.get('clients', id);
    organizationId = client && store.get('users', client.user_id)?.organization_id;
  }
  if (organizationId === undefined || (within !== undefined && organizationId !== within)) {
    throw ApiError.of('resourceNotFound', `No tenant with organization id or client id '${id}' exists${within !== undefined ? ' in your organization' : ''}.`);
  }
  if (!tenantEntry(store, organizationId)) {
    throw ApiError.unprocessable(
      `Organization '${organizationId}' is one of the seeded organizations, not a tenant created with POST /_sandbox/tenants, and cannot be deleted; POST /_sandbox/reset {"client_id": ...} restores it as seeded.`,
    );
  }
  return { organizationId };
}

/** Deletes a tenant created through the control API, with everything it owns. */
async function deleteTenant(services: Services, id: string, within?: string) {
  const { organizationId } = apiTenantOf(services, id, within);
  const { removal, scratch } = await services.store.transact((tx) => {
    const removal = removeTenant(tx, organizationId);
    // The scratch tenants its examples made (POST /_sandbox/examples) went with it (`made_for`);
    // ones made before tenants recorded that are found by the ids the examples give them.
    const scratch = removal ? scratchTenantIds(organizationId).flatMap((scratchId) => (tenantEntry(tx, scratchId) ? [removeTenant(tx, scratchId)] : [])) : [];
    return { removal, scratch: scratch.filter((gone): gone is OrganizationRemoval => gone !== undefined) };
  });
  if (!removal) throw ApiError.of('resourceNotFound', `No tenant with organization id or client id '${id}' exists.`);
  forgetTenant(services, removal, 'deleted');
  for (const gone of scratch) forgetTenant(services, gone, 'deleted');
  return { deleted: 'tenant' as const, organization_id: organizationId, client_ids: removal.clientIds, removed: snakeKeys(removal.removed) };
}

const json = ['application/json'] as const;

export const tenantEndpoints = [
  appEndpoint({
    method: 'post',
    path: '/_sandbox/tenants',
    operationId: 'createSandboxTenant',
    summary: 'Create an isolated tenant with fresh client credentials',
    description:
      'Creates an organization under the sandbox broker with one shop (sender and return address filled), a user and a client with every scope (`organizations.manage shipments.manage shops.manage`). The client sees the shared catalogue and the broker contracts, and nothing of other tenants, so parallel test runs cannot collide. ' +
      `The body is optional: \`{"name"?: string, "country_code"?: "NL" | "GB" | "DE", "ttl"?: seconds}\` (schema \`SandboxTenantRequest\`). With a \`ttl\` (1 to ${MAX_TENANT_TTL}, 30 days) the tenant is ephemeral: the answer says when it expires (\`expires_at\`, Unix seconds on the sandbox clock), and once the sandbox clock passes that moment the tenant is removed with everything it owns (its tokens answer 401 from that moment). ` +
      'At most MAX_TENANTS (default 1000) tenants made this way exist at once: at the cap the oldest visitor tenant (`--tenant-per-visitor`) is removed to make way, else the oldest ephemeral tenant, and when there is neither the request is refused with 429 (10011) and a Retry-After header. ' +
      'The `client_secret` is shown only in this answer. `POST /_sandbox/reset {"client_id": ...}` restores the tenant to this state; `DELETE /_sandbox/tenants/{id}` removes it. Only the admin token (or no token, on a sandbox without one) may create tenants; a tenant\'s access token gets 403.',
    tag: 'Sandbox',
    auth: 'control',
    body: tenantRequest,
    bodyOptional: true,
    maxBodyBytes: PACK_BODY_LIMIT,
    produces: json,
    responses: {
      201: { description: 'The new tenant and its client credentials.', schema: tenantCreated, contentTypes: json },
      400: errorResponse(
        'The body is not JSON or violates SandboxTenantRequest, e.g. a ttl that is not a whole number of seconds from 1 to 30 days (10003, pointer /ttl).',
      ),
      403: errorResponse("A tenant's access token, or no token from a web page of another origin (10013)."),
      429: errorResponse(
        "The cap (MAX_TENANTS) is reached and no tenant is a visitor's or has a ttl, so none can make way (10011); Retry-After says when to try again.",
      ),
    },
    handler: async (ctx, { body }) => {
      if (ctx.principal) throw globalOnly('Creating a tenant');
      return plainJson(await refusingPacks(() => createTenant(ctx.services, body)), 201);
    },
  }),
  appEndpoint({
    method: 'get',
    path: '/_sandbox/tenants',
    operationId: 'listSandboxTenants',
    summary: 'List the tenants created through the controls, with their expiry',
    description:
      "Every tenant created with POST /_sandbox/tenants (or for a visitor of the API reference page) that still exists, oldest first, with when it expires, and the cap. The seeded organizations are not listed. With a tenant's access token only that tenant is listed (nothing, for a seeded organization's token).",
    tag: 'Sandbox',
    auth: 'control',
    produces: json,
    responses: { 200: { description: 'The tenants, oldest first.', schema: tenantList, contentTypes: json } },
    handler: (ctx) => {
      const { store, config } = ctx.services;
      const within = ctx.principal?.organizationId;
      const data = apiTenants(store)
        .filter(({ organizationId }) => within === undefined || organizationId === within)
        .map(({ organizationId, entry }) => listed(store, organizationId, entry));
      return plainJson({ data, max_tenants: config.maxTenants });
    },
  }),
  appEndpoint({
    method: 'delete',
    path: '/_sandbox/tenants/{tenant}',
    operationId: 'deleteSandboxTenant',
    summary: 'Delete a tenant with everything it owns',
    description:
      "Removes a tenant created with POST /_sandbox/tenants, named by its organization id or one of its client ids, as its expiry would: the organization, its users and clients (their tokens answer 401 from now on), shops, shipments (with statuses, files, surcharges, jobs and hook logs), hooks, collections, manifests, own contracts (with rates), the shares of the broker's contracts with it, address book, zones, returns data, its clients' idempotency entries and request-log entries, and its settings. A tenant's access token may delete its own tenant only (another is unknown, 404). The seeded organizations cannot be deleted (422).",
    tag: 'Sandbox',
    auth: 'control',
    params: z.object({ tenant: z.string().min(1).describe('The organization id, or a client id, of the tenant') }),
    produces: json,
    responses: {
      200: { description: 'The tenant is gone; what was removed, by table.', schema: tenantDeleted, contentTypes: json },
      404: errorResponse("No organization or client with that id (in the organization of the token, with a tenant's token) (10002)."),
      422: errorResponse('A seeded organization, not a tenant created through the controls (10008).'),
    },
    handler: async (ctx, { params }) => plainJson(await deleteTenant(ctx.services, params.tenant, ctx.principal?.organizationId)),
  }),
];
