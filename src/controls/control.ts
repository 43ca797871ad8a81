import { z } from 'zod';
import { appEndpoint } from '../http/app-context.js';
import type { Services } from '../http/services.js';
import { ID_COUNTER, getSetting } from '../store/settings.js';
import { requestLogEndpoints } from './requests.js';
import { reportEndpoints } from './report.js';
import { errorResponse } from './responses.js';
import { revokeEndpoints } from './revoke.js';
import { clockEndpoints } from './clock.js';
import { resetTenant } from './tenant-reset.js';
import { tenantEndpoints } from './tenant-endpoints.js';
import { fixtureEndpoints } from './fixtures.js';
import { plainJson } from '../http/respond.js';
import { quotaEndpoints } from './quotas.js';
import { quotaRows } from '../domain/quotas.js';
import { exampleEndpoints } from './examples.js';
import { apiTenants } from '../domain/tenant-lifetime.js';
import { clientsOfOrganization, type OrganizationRemoval } from '../domain/removals.js';
import { forgetRemoved } from './forget.js';

const resetResult = z.object({ reset: z.literal('sandbox'), now: z.number().int() }).meta({ id: 'SandboxReset' });

const resetRequest = z.strictObject({ client_id: z.string().min(1).describe('Reset only the tenant of this client') }).meta({ id: 'SandboxResetRequest' });

const tenantResetResult = z
  .object({
    reset: z.literal('tenant'),
    client_id: z.string(),
    organization_id: z.string(),
    removed: z.record(z.string(), z.number().int()).describe('Rows removed, by table'),
    restored: z.record(z.string(), z.number().int()).describe('Seeded rows put back, by table'),
  })
  .meta({ id: 'SandboxTenantReset' });

const resetAnswer = z.union([resetResult, tenantResetResult]).meta({ id: 'SandboxResetResult' });
const health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

const json = ['application/json'] as const;

/**
 * Restores the seeded data and real time; the id counter carries on so no id is ever handed out
 * twice. Every tenant's own clock is forgotten with the data: all follow the global clock again.
 * Revocations survive: revoked tokens stay revoked, and seeded clients keep their token
 * generation, so their tokens that were valid stay valid and revoked ones stay revoked.
 * Tenants created through the control API are gone, and forgotten as a deletion forgets them.
 */
async function resetSandbox(services: Services): Promise<void> {
  const { store, clock } = services;
  // Read before the data goes: who the tenants were and which clients they had.
  const tenants: OrganizationRemoval[] = apiTenants(store).map(({ organizationId }) => ({
    organizationId,
    clientIds: clientsOfOrganization(store, organizationId),
    removed: {},
  }));
  const counter = getSetting<number>(store, ID_COUNTER) ?? 0;
  const revoked = [...store.all('revokedTokens')];
  const previous = clock.offsetMs();
  clock.setOffsetMs(0);
  const { generateState } = await import('../fixtures/generate.js');
  const state = generateState(store.seed, clock.now(), services.fixtures);
  state.tables.settings = [{ id: ID_COUNTER, value: counter }, ...quotaRows(store)];
  state.tables.revokedTokens = revoked.filter((row) => row.expires_at > clock.now());
  state.tables.clients = (state.tables.clients ?? []).map((client) => ({
    ...client,
    token_generation: store.get('clients', client.id)?.token_generation ?? client.token_generation,
  }));
  try {
    await store.replace(state);
  } catch (error) {
    // The reset was not written (the data file refused it): the data stays, and the clock with it.
    clock.setOffsetMs(previous);
    throw error;
  }
  // Their request log entries and counters go with them, as when one is deleted.
  for (const tenant of tenants) forgetRemoved(services, tenant);
}

export const controlEndpoints = [
  appEndpoint({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Health check',
    tag: 'Sandbox',
    auth: 'none',
    rateLimit: false,
    produces: json,
    responses: { 200: { description: 'The sandbox is up.', schema: health, contentTypes: json } },
    handler: () => plainJson({ status: 'ok' }),
  }),
  ...clockEndpoints,
  appEndpoint({
    method: 'post',
    path: '/_sandbox/reset',
    operationId: 'resetSandbox',
    summary: 'Restore the seeded state, of everything or of one tenant',
    description:
      'Without a body (or with `{}`): replaces all data with the seeded fixtures and sets the clock back to real time, the clock of every tenant too (tenants that moved their own clock follow the global one again); tokens of the default clients stay valid (revoked ones stay revoked); tenants created with POST /_sandbox/tenants are removed. With `{"client_id": "..."}` (schema `SandboxResetRequest`): resets only that client\'s organization: its shipments (with statuses, files, jobs, hook logs), hooks, collections, logos, idempotency entries, own contracts (with rates) and returns data (returns, payments, reports, demo orders, returns configuration) are removed, and its shops restored as seeded (fixture organizations also get their seeded own contracts, collections, demo orders and returns configuration back; API tenants keep the one shop they were created with). The clock (the tenant\'s own too), other tenants, clients and tokens are untouched. With a tenant\'s access token the reset is always of that tenant: without a body it resets the token\'s own organization, and a `client_id` of another organization is unknown (404).',
    tag: 'Sandbox',
    auth: 'control',
    body: resetRequest,
    bodyOptional: true,
    produces: json,
    responses: {
      200: { description: 'The sandbox or the tenant was reset.', schema: resetAnswer, contentTypes: json },
      400: errorResponse('The body is not JSON or violates SandboxResetRequest (10003).'),
      404: errorResponse("No client with that client_id (in the organization of the token, with a tenant's token) (10002, pointer /client_id)."),
      422: errorResponse(
        "The client's organization was seeded by the start pack (--fixtures) the data file was made with, and this sandbox was started without it: its seeded rows could not be put back (10008).",
      ),
    },
    handler: async (ctx, { body }) => {
      const tenant = ctx.principal;
      if (tenant) return plainJson(await resetTenant(ctx.services, body?.client_id ?? tenant.clientId, tenant.organizationId));
      if (body) return plainJson(await resetTenant(ctx.services, body.client_id));
      await resetSandbox(ctx.services);
      return plainJson({ reset: 'sandbox', now: ctx.services.clock.now() });
    },
  }),
  ...tenantEndpoints,
  ...fixtureEndpoints,
  ...revokeEndpoints,
  ...requestLogEndpoints,
  ...reportEndpoints,
  ...quotaEndpoints,
  ...exampleEndpoints,
];
