import { z } from 'zod';
import { endpoint } from '../http/endpoint.js';
import { ApiError } from '../jsonapi/errors.js';
import type { Services } from '../services.js';
import { CLOCK_OFFSET, ID_COUNTER, getSetting, putSetting } from '../store/settings.js';
import { requestLogEndpoints } from './requests.js';
import { globalOnly } from '../http/control-access.js';
import { errorResponse } from './responses.js';
import { purgeExpired, revokeEndpoints } from './revoke.js';
import { resetTenant, tenantEndpoints } from './tenants.js';
import { plainJson } from '../http/respond.js';
import { quotaEndpoints } from './quotas.js';
import { quotaRows } from '../domain/quotas.js';

const clockState = z
  .object({
    now: z.number().int().describe('Sandbox time, Unix seconds'),
    offset: z.number().int().describe('Seconds the sandbox clock runs ahead of real time'),
  })
  .meta({ id: 'SandboxClock' });

const clockMove = z
  .strictObject({
    advance: z.number().int().optional().describe('Seconds to move the clock forward'),
    now: z.number().int().optional().describe('Unix seconds to set the clock to; never earlier than the current sandbox time'),
  })
  .meta({ id: 'SandboxClockMove' });

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

/** The latest moment the sandbox clock may show: the end of the year 9999. */
const LATEST_MS = 253402300799 * 1000;

function clockBody(services: Services) {
  const { clock } = services;
  return { now: clock.now(), offset: Math.round(clock.offsetMs() / 1000) };
}

/** Moves the sandbox clock `deltaMs` forward and persists the offset with the data. */
async function moveClock(services: Services, deltaMs: number): Promise<void> {
  const { clock, store } = services;
  const offset = clock.offsetMs() + deltaMs;
  clock.setOffsetMs(offset);
  await store.transact((tx) => putSetting(tx, CLOCK_OFFSET, offset));
}

/**
 * Restores the seeded data; the id counter carries on so no id is ever handed out twice.
 * Revocations survive: revoked tokens stay revoked, and seeded clients keep their token
 * generation, so their tokens that were valid stay valid and revoked ones stay revoked.
 * Tenants created through the control API are gone.
 */
async function resetSandbox(services: Services): Promise<void> {
  const { store, clock } = services;
  const counter = getSetting<number>(store, ID_COUNTER) ?? 0;
  const revoked = [...store.all('revokedTokens')];
  clock.setOffsetMs(0);
  const { generateState } = await import('../fixtures/generate.js');
  const state = generateState(store.seed, clock.now());
  state.tables.settings = [{ id: ID_COUNTER, value: counter }, ...quotaRows(store)];
  state.tables.revokedTokens = revoked.filter((row) => row.expires_at > clock.now());
  state.tables.clients = (state.tables.clients ?? []).map((client) => ({
    ...client,
    token_generation: store.get('clients', client.id)?.token_generation ?? client.token_generation,
  }));
  await store.replace(state);
}

export const controlEndpoints = [
  endpoint({
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
  endpoint({
    method: 'get',
    path: '/_sandbox/clock',
    operationId: 'getSandboxClock',
    summary: 'Read the sandbox clock',
    description: "The sandbox clock every tenant shares; a tenant's access token may read it.",
    tag: 'Sandbox',
    auth: 'control',
    produces: json,
    responses: { 200: { description: 'The current sandbox time.', schema: clockState, contentTypes: json } },
    handler: (ctx) => plainJson(clockBody(ctx.services)),
  }),
  endpoint({
    method: 'post',
    path: '/_sandbox/clock',
    operationId: 'moveSandboxClock',
    summary: 'Move the sandbox clock forward',
    description:
      'Send `{"advance": seconds}` or `{"now": unix_seconds}`. Everything that becomes due (verifications, registrations, status walks) runs before the answer. The clock never moves backwards (422). The clock is one for all tenants, so only the admin token (or no token, on a sandbox without one) may move it; a tenant\'s access token gets 403.',
    tag: 'Sandbox',
    auth: 'control',
    body: clockMove,
    produces: json,
    responses: {
      200: { description: 'The new sandbox time.', schema: clockState, contentTypes: json },
      403: errorResponse("A tenant's access token: the clock is shared by every tenant (10013)."),
      422: { description: 'The move would take the clock backwards (10008).' },
    },
    handler: async (ctx, { body }) => {
      if (ctx.principal) throw globalOnly('Moving the sandbox clock');
      const { clock } = ctx.services;
      if ((body.advance === undefined) === (body.now === undefined)) {
        throw ApiError.invalid("Send exactly one of 'advance' (seconds) or 'now' (Unix seconds).", '');
      }
      // One reading of the clock, so `advance` moves it by exactly that many seconds.
      const startMs = clock.nowMs();
      const targetMs = body.advance !== undefined ? startMs + body.advance * 1000 : body.now! * 1000;
      if (body.advance !== undefined && body.advance < 0) {
        throw ApiError.unprocessable('The sandbox clock cannot move backwards; advance must be 0 or more.', '/advance');
      }
      if (body.now !== undefined && targetMs < clock.now() * 1000) {
        throw ApiError.unprocessable(`The sandbox clock cannot move backwards; it is already at ${clock.now()}.`, '/now');
      }
      // Dates past the year 9999 cannot be written as ISO dates, which tokens and filters rely on.
      if (targetMs > LATEST_MS) {
        throw ApiError.unprocessable(
          `The sandbox clock cannot go past ${LATEST_MS / 1000} (9999-12-31T23:59:59Z).`,
          body.now !== undefined ? '/now' : '/advance',
        );
      }
      await moveClock(ctx.services, targetMs - startMs);
      await ctx.services.jobs.runDue();
      await ctx.services.store.transact((tx) => purgeExpired(tx, clock.now()));
      return plainJson(clockBody(ctx.services));
    },
  }),
  endpoint({
    method: 'post',
    path: '/_sandbox/reset',
    operationId: 'resetSandbox',
    summary: 'Restore the seeded state, of everything or of one tenant',
    description:
      'Without a body (or with `{}`): replaces all data with the seeded fixtures and sets the clock back to real time; tokens of the default clients stay valid (revoked ones stay revoked); tenants created with POST /_sandbox/tenants are removed. With `{"client_id": "..."}` (schema `SandboxResetRequest`): resets only that client\'s organization: its shipments (with statuses, files, jobs, hook logs), hooks, collections, logos, idempotency entries, own contracts (with rates) and returns data (returns, payments, reports, demo orders, returns configuration) are removed, and its shops restored as seeded (fixture organizations also get their seeded own contracts, collections, demo orders and returns configuration back; API tenants keep the one shop they were created with). The clock, other tenants, clients and tokens are untouched. With a tenant\'s access token the reset is always of that tenant: without a body it resets the token\'s own organization, and a `client_id` of another organization is unknown (404).',
    tag: 'Sandbox',
    auth: 'control',
    body: resetRequest,
    bodyOptional: true,
    produces: json,
    responses: {
      200: { description: 'The sandbox or the tenant was reset.', schema: resetAnswer, contentTypes: json },
      400: errorResponse('The body is not JSON or violates SandboxResetRequest (10003).'),
      404: errorResponse("No client with that client_id (in the organization of the token, with a tenant's token) (10002, pointer /client_id)."),
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
  ...revokeEndpoints,
  ...requestLogEndpoints,
  ...quotaEndpoints,
];
