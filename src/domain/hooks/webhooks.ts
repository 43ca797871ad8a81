import { createHmac } from 'node:crypto';
import type { Ctx } from '../../http/context.js';
import { resourceDocument } from '../../jsonapi/document.js';
import type { HookRecord } from '../../model/hook.js';
import type { Services } from '../../services.js';
import type { Tx } from '../../store/store.js';
import type { JobHandler } from '../scheduler.js';
import { writeLog } from './logs.js';

export const DELIVER_WEBHOOK = 'deliver-webhook';
export const SIGNATURE_HEADER = 'X-MYPARCELCOM-SIGNATURE';
const DEFAULT_TRIES = 3;
const DEFAULT_RETRY_DELAY = 600;
const TIMEOUT_MS = 10_000;

type Resource = { type: string; id: string; shipmentId: string };
type Payload = { hook_id: string; index: number; body: string; attempt: number; resource: Resource };

/** Whether `HOOK_ALLOWED_HOSTS` (comma separated, `*.domain` wildcards, `*` for any) lets a URL through. */
export function hostAllowed(url: string, allowed: string | undefined): boolean {
  const patterns = (allowed ?? '*').split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
  if (patterns.includes('*')) return true;
  const host = new URL(url).hostname.toLowerCase();
  return patterns.some((p) => (p.startsWith('*.') ? host.endsWith(p.slice(1)) : host === p));
}

/** HMAC-SHA256 hex digest of the raw body, keyed by the hook's secret (as production signs). */
export function signature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Queues one delivery per send-resource value, due at once. The body is the resource's JSON:API
 * document as it is now (with the asked includes), so retries send exactly the same bytes.
 */
export function scheduleDeliveries(tx: Tx, ctx: Ctx, hook: HookRecord, resource: Resource): void {
  if (hook.action.action_type !== 'send-resource') return;
  const kind = ctx.services.kinds.get(resource.type);
  const row = kind?.load(ctx, resource.id);
  if (!kind || !row) return;
  hook.action.values.forEach((value, index) => {
    // The paths were checked when the hook was saved; a path that leads nowhere embeds nothing.
    const includes = value.includes ?? [];
    const body = JSON.stringify(resourceDocument(ctx, kind, row, includes));
    const payload: Payload = { hook_id: hook.id, index, body, attempt: 1, resource };
    ctx.services.jobs.schedule(tx, { kind: DELIVER_WEBHOOK, subject: `${hook.id}:${resource.id}:${index}`, dueMs: ctx.services.clock.nowMs(), payload });
  });
}

async function post(url: string, body: string, secret: string | undefined): Promise<{ status?: number; error?: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json', 'user-agent': 'parcel-sandbox-webhooks' };
  if (secret) headers[SIGNATURE_HEADER] = signature(secret, body);
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'manual' });
    const text = (await response.text()).slice(0, 500);
    return response.ok ? { status: response.status } : { status: response.status, error: `answered ${response.status}${text ? `: ${text}` : ''}` };
  } catch (error) {
    return { error: `could not be reached (${(error as Error).message})` };
  }
}

/**
 * Delivers one webhook. Every attempt writes a hook log with the answer's status; a non-2xx
 * answer or a network error is retried `retry_delay` seconds later on the sandbox clock, until
 * `tries` attempts were made. A hook that was removed or switched off stops its deliveries.
 */
export const deliverWebhookJob: JobHandler = {
  async run(services: Services, job) {
    const payload = job.payload as Payload;
    const hook = services.store.get('hooks', payload.hook_id);
    const value = hook?.action.action_type === 'send-resource' ? hook.action.values[payload.index] : undefined;
    if (!hook || !hook.active || !value) return;
    const tries = value.tries ?? DEFAULT_TRIES;
    const outcome = hostAllowed(value.url, services.config.hookAllowedHosts)
      ? await post(value.url, payload.body, value.secret)
      : { error: 'is not in HOOK_ALLOWED_HOSTS' };
    const at = services.clock.now();
    await services.store.transact((tx) => {
      // The hook may have been deleted while the request was out: its logs went with it, so write none.
      if (!tx.get('hooks', hook.id)) return;
      const errors = outcome.error ? [`Attempt ${payload.attempt} of ${tries}: POST ${value.url} ${outcome.error}`] : [];
      const delivery = { url: value.url, attempt: payload.attempt, tries, ...(outcome.status !== undefined ? { status: outcome.status } : {}) };
      writeLog(tx, hook, payload.resource, { diff: {}, errors, at, delivery });
      if (outcome.error && payload.attempt < tries && outcome.error !== 'is not in HOOK_ALLOWED_HOSTS') {
        const dueMs = job.due_ms + (value.retry_delay ?? DEFAULT_RETRY_DELAY) * 1000;
        services.jobs.schedule(tx, { kind: DELIVER_WEBHOOK, subject: job.subject, dueMs, payload: Object.assign({}, payload, { attempt: payload.attempt + 1 }) });
      }
    });
  },
};
