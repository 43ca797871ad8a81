import { z } from 'zod';
import type { ClockView } from '../clock.js';
import { appEndpoint } from '../http/app-context.js';
import { plainJson } from '../http/respond.js';
import { ApiError } from '../jsonapi/errors.js';
import { LATEST_SECONDS } from '../model/common.js';
import type { Services } from '../http/services.js';
import { CLOCK_OFFSET, putSetting } from '../store/settings.js';
import { forgetCaughtUpClocks, setTenantClock } from '../store/tenant-clocks.js';
import { errorResponse } from './responses.js';
import { purgeExpired } from './revoke.js';

const clockState = z
  .object({
    now: z.number().int().describe('Sandbox time of this clock, Unix seconds'),
    offset: z.number().int().describe('Seconds this clock runs ahead of real time'),
    organization_id: z
      .string()
      .optional()
      .describe("The organization whose clock this is, when a tenant's access token asked; absent for the global clock (admin token, or no token)"),
    follows_global: z
      .boolean()
      .optional()
      .describe(
        "With organization_id: whether the tenant's clock is the global clock (it never moved its own, or the global clock caught up with it), so that moving the global clock moves it",
      ),
    removed: z
      .boolean()
      .optional()
      .describe(
        "Present (true) only when a tenant's move took its clock past the tenant's `expires_at`: the tenant and everything it owned were removed, and its tokens answer 401 from now on",
      ),
  })
  .meta({ id: 'SandboxClock' });

const clockMove = z
  .strictObject({
    advance: z.number().int().optional().describe('Seconds to move the clock forward'),
    now: z.number().int().optional().describe('Unix seconds to set the clock to; never earlier than the current time of the clock'),
  })
  .meta({ id: 'SandboxClockMove' });

const json = ['application/json'] as const;

/** The latest moment a sandbox clock may show: the end of the year 9999. */
const LATEST_MS = LATEST_SECONDS * 1000;

/** The clock of a tenant, or the global clock for `undefined`. */
const clockOf = (services: Services, organizationId: string | undefined): ClockView =>
  organizationId === undefined ? services.clock : services.clocks.of(organizationId);

/** What GET /_sandbox/clock answers: the global clock, or a tenant's and whether it follows the global one. */
function clockBody(services: Services, organizationId?: string): z.output<typeof clockState> {
  if (organizationId === undefined) return { now: services.clock.now(), offset: Math.round(services.clock.offsetMs() / 1000) };
  const clock = services.clocks.of(organizationId);
  return { now: clock.now(), offset: Math.round(clock.offsetMs() / 1000), organization_id: organizationId, follows_global: clock.followsGlobal() };
}

/**
 * Moves the global clock (`organizationId` undefined) or one tenant's clock forward, persists it
 * with the data, and runs what became due. A tenant's move writes only its own setting; a global
 * move forgets the tenant settings it caught up with (those tenants follow it from now on).
 * Answers the moved clock as it stood before what became due ran (which may remove the tenant).
 */
async function moveClock(services: Services, organizationId: string | undefined, move: z.output<typeof clockMove>): Promise<z.output<typeof clockState>> {
  const clock = clockOf(services, organizationId);
  if ((move.advance === undefined) === (move.now === undefined)) {
    throw ApiError.invalid("Send exactly one of 'advance' (seconds) or 'now' (Unix seconds).", '');
  }
  // One reading of the clock, so `advance` moves it by exactly that many seconds.
  const startMs = clock.nowMs();
  const targetMs = move.advance !== undefined ? startMs + move.advance * 1000 : move.now! * 1000;
  const whose = organizationId === undefined ? 'The sandbox clock' : "Your tenant's sandbox clock";
  if (move.advance !== undefined && move.advance < 0) {
    throw ApiError.unprocessable(`${whose} cannot move backwards; advance must be 0 or more.`, '/advance');
  }
  if (move.now !== undefined && targetMs < Math.floor(startMs / 1000) * 1000) {
    throw ApiError.unprocessable(`${whose} cannot move backwards; it is already at ${Math.floor(startMs / 1000)}.`, '/now');
  }
  // Dates past the year 9999 cannot be written as ISO dates, which tokens and filters rely on.
  if (targetMs > LATEST_MS) {
    throw ApiError.unprocessable(`${whose} cannot go past ${LATEST_MS / 1000} (9999-12-31T23:59:59Z).`, move.now !== undefined ? '/now' : '/advance');
  }
  const offset = clock.offsetMs() + (targetMs - startMs);
  const { store } = services;
  if (organizationId === undefined) {
    const previous = services.clock.offsetMs();
    services.clock.setOffsetMs(offset);
    try {
      await store.transact((tx) => {
        putSetting(tx, CLOCK_OFFSET, offset);
        forgetCaughtUpClocks(tx, offset);
      });
    } catch (error) {
      // The move was not kept (the data file refused it): the clock goes back with it.
      services.clock.setOffsetMs(previous);
      throw error;
    }
  } else if (targetMs > startMs) {
    // A tenant removed while the move waited for its turn (a reset being written) keeps no clock.
    await store.transact((tx) => tx.get('organizations', organizationId) && setTenantClock(tx, organizationId, offset));
  }
  // A tenant's clock as moved is worked out, not read back: while the move was being written the
  // scheduler's tick may have found the tenant's time up and removed it, its clock with it.
  const moved =
    organizationId !== undefined && targetMs > startMs
      ? {
          now: Math.floor((services.clock.nowMs() - services.clock.offsetMs() + offset) / 1000),
          offset: Math.round(offset / 1000),
          organization_id: organizationId,
          follows_global: offset <= services.clock.offsetMs(),
        }
      : clockBody(services, organizationId);
  // A tenant's move waits for its own jobs only: another tenant's slow webhook receiver does not hold its answer.
  await services.jobs.runDue(organizationId);
  // On the global clock, which no tenant's is behind: what expired there expired for everyone.
  await store.transact((tx) => purgeExpired(tx, services.clock));
  return moved;
}

export const clockEndpoints = [
  appEndpoint({
    method: 'get',
    path: '/_sandbox/clock',
    operationId: 'getSandboxClock',
    summary: 'Read the sandbox clock',
    description:
      "Every tenant (organization) has its own sandbox clock, never behind the global clock. With a tenant's access token: that tenant's clock, with its `organization_id` and whether it `follows_global`. With the admin token (or no token, on a sandbox without one): the global clock.",
    tag: 'Sandbox',
    auth: 'control',
    produces: json,
    responses: { 200: { description: 'The current time of the clock.', schema: clockState, contentTypes: json } },
    handler: (ctx) => plainJson(clockBody(ctx.services, ctx.principal?.organizationId)),
  }),
  appEndpoint({
    method: 'post',
    path: '/_sandbox/clock',
    operationId: 'moveSandboxClock',
    summary: 'Move the sandbox clock forward',
    description:
      'Send `{"advance": seconds}` or `{"now": unix_seconds}`. A clock never moves backwards (422, pointing at `/advance` or `/now`). ' +
      "With a tenant's access token it moves that tenant's clock only: its tokens expire, its contracts are verified, its shipments registered and walked, its webhooks retried on it; other tenants see no change. " +
      'With the admin token (or no token, on a sandbox without one) it moves the global clock, and with it every tenant that has not moved its own clock ahead of it; a tenant whose own clock is ahead keeps its time until the global clock catches up, then follows it again. ' +
      'Everything that became due runs before the answer.',
    tag: 'Sandbox',
    auth: 'control',
    body: clockMove,
    produces: json,
    responses: {
      200: { description: 'The new time of the clock that moved.', schema: clockState, contentTypes: json },
      403: errorResponse('No token, from a web page of another origin (10013).'),
      422: errorResponse('The move would take the clock backwards (pointer /advance or /now), or past the year 9999 (10008).'),
    },
    handler: async (ctx, { body }) => {
      const organizationId = ctx.principal?.organizationId;
      const moved = await moveClock(ctx.services, organizationId, body);
      if (organizationId !== undefined && !ctx.store.get('organizations', organizationId)) {
        // The move took the tenant past its ttl: its clock went with it, so answer the time it was moved to.
        return plainJson({ ...moved, follows_global: false, removed: true });
      }
      return plainJson(clockBody(ctx.services, organizationId));
    },
  }),
];
