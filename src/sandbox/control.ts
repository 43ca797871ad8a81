import { z } from 'zod';
import { generateState } from '../../fixtures/generate.js';
import { endpoint } from '../http/endpoint.js';
import { ApiError } from '../jsonapi/errors.js';
import type { Services } from '../services.js';
import { CLOCK_OFFSET, ID_COUNTER, getSetting, putSetting } from '../store/settings.js';

const clockState = z
  .object({ now: z.number().int().describe('Sandbox time, Unix seconds'), offset: z.number().int().describe('Seconds the sandbox clock runs ahead of real time') })
  .meta({ id: 'SandboxClock' });

const clockMove = z
  .strictObject({
    advance: z.number().int().optional().describe('Seconds to move the clock forward'),
    now: z.number().int().optional().describe('Unix seconds to set the clock to; never earlier than the current sandbox time'),
  })
  .meta({ id: 'SandboxClockMove' });

const resetResult = z.object({ reset: z.literal('sandbox'), now: z.number().int() }).meta({ id: 'SandboxReset' });
const health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

const json = ['application/json'] as const;

function clockBody(services: Services) {
  const { clock } = services;
  return { now: clock.now(), offset: Math.round(clock.offsetMs() / 1000) };
}

/** Moves the sandbox clock to `targetMs` and persists the offset with the data. */
async function moveClock(services: Services, targetMs: number): Promise<void> {
  const { clock, store } = services;
  const offset = clock.offsetMs() + (targetMs - clock.nowMs());
  clock.setOffsetMs(offset);
  await store.transact((tx) => putSetting(tx, CLOCK_OFFSET, offset));
}

/** Restores the seeded data; the id counter carries on so no id is ever handed out twice. */
async function resetSandbox(services: Services): Promise<void> {
  const { store, clock } = services;
  const counter = getSetting<number>(store, ID_COUNTER) ?? 0;
  clock.setOffsetMs(0);
  const state = generateState(store.seed, clock.now());
  state.tables.settings = [{ id: ID_COUNTER, value: counter }];
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
    produces: json,
    responses: { 200: { description: 'The sandbox is up.', schema: health, contentTypes: json } },
    handler: (_ctx, _input, c) => c.json({ status: 'ok' }),
  }),
  endpoint({
    method: 'get',
    path: '/_sandbox/clock',
    operationId: 'getSandboxClock',
    summary: 'Read the sandbox clock',
    tag: 'Sandbox',
    auth: 'admin',
    produces: json,
    responses: { 200: { description: 'The current sandbox time.', schema: clockState, contentTypes: json } },
    handler: (ctx, _input, c) => c.json(clockBody(ctx.services)),
  }),
  endpoint({
    method: 'post',
    path: '/_sandbox/clock',
    operationId: 'moveSandboxClock',
    summary: 'Move the sandbox clock forward',
    description:
      'Send `{"advance": seconds}` or `{"now": unix_seconds}`. Everything that becomes due (verifications, registrations, status walks) runs before the answer. The clock never moves backwards (422).',
    tag: 'Sandbox',
    auth: 'admin',
    body: clockMove,
    produces: json,
    responses: {
      200: { description: 'The new sandbox time.', schema: clockState, contentTypes: json },
      422: { description: 'The move would take the clock backwards (10008).' },
    },
    handler: async (ctx, { body }, c) => {
      const { clock } = ctx.services;
      if ((body.advance === undefined) === (body.now === undefined)) {
        throw ApiError.invalid("Send exactly one of 'advance' (seconds) or 'now' (Unix seconds).", '');
      }
      const targetMs = body.advance !== undefined ? clock.nowMs() + body.advance * 1000 : body.now! * 1000;
      if (body.advance !== undefined && body.advance < 0) {
        throw ApiError.unprocessable('The sandbox clock cannot move backwards; advance must be 0 or more.', '/advance');
      }
      if (body.now !== undefined && targetMs < clock.now() * 1000) {
        throw ApiError.unprocessable(`The sandbox clock cannot move backwards; it is already at ${clock.now()}.`, '/now');
      }
      await moveClock(ctx.services, targetMs);
      await ctx.services.jobs.runDue();
      return c.json(clockBody(ctx.services));
    },
  }),
  endpoint({
    method: 'post',
    path: '/_sandbox/reset',
    operationId: 'resetSandbox',
    summary: 'Restore the seeded state',
    description: 'Replaces all data with the seeded fixtures and sets the clock back to real time. Tokens of the default clients stay valid.',
    tag: 'Sandbox',
    auth: 'admin',
    produces: json,
    responses: { 200: { description: 'The sandbox was reset.', schema: resetResult, contentTypes: json } },
    handler: async (ctx, _input, c) => {
      await resetSandbox(ctx.services);
      return c.json({ reset: 'sandbox', now: ctx.services.clock.now() });
    },
  }),
];
