import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { HookRecord } from '../../model/hook.js';
import type { Tx } from '../../store/store.js';
import type { Acting, Rules } from '../rules.js';
import type { JobHandler } from '../scheduler.js';
import { writeLog } from './logs.js';
import { inPhpSpelling } from './php-json.js';
import { RefusedAddress, checkTarget, guardedLookup, targetPolicy, type Target, type TargetPolicy } from './target-address.js';

export const DELIVER_WEBHOOK = 'deliver-webhook';
const SIGNATURE_HEADER = 'X-MYPARCELCOM-SIGNATURE';
const DEFAULT_TRIES = 3;
const DEFAULT_RETRY_DELAY = 600;
/**
 * How long one attempt may take in all, and how long its connection may stay silent. The whole
 * attempt is bounded, not only the silences: a receiver that drips its answer a byte at a time
 * would otherwise keep one of the scheduler's few delivery slots, and its hook's later deliveries,
 * for as long as it likes.
 */
const TIMEOUT_MS = 10_000;

type Resource = { type: string; id: string; shipmentId: string };
type Payload = { hook_id: string; index: number; body: string; attempt: number; resource: Resource };

/** At most this much of a non-2xx answer is read, and a shorter excerpt of it is logged. */
const ANSWER_READ_BYTES = 1024;
const EXCERPT_CHARS = 120;

/** HMAC-SHA256 hex digest of the raw body, keyed by the hook's secret (as production signs). */
function signature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Queues one delivery per send-resource value, due when the resource came to be (`atMs`, never
 * later than now; default now). The body is the resource's JSON:API document as it is now (with
 * the asked includes), so retries send exactly the same bytes. `occasion` tells apart the
 * deliveries of one resource that happen more than once (each update of a shipment-status), so a
 * later one does not take the place of one still waiting.
 */
export function scheduleDeliveries(tx: Tx, acting: Acting, hook: HookRecord, resource: Resource, atMs?: number, occasion?: string): void {
  if (hook.action.action_type !== 'send-resource' || !acting.principal) return;
  const { rules, principal } = acting;
  hook.action.values.forEach((value, index) => {
    // The paths were checked when the hook was saved; a path that leads nowhere embeds nothing.
    const rendered = rules.render({ type: resource.type, id: resource.id }, value.includes ?? [], principal);
    if (rendered === undefined) return;
    // Spelled as production spells it, so that receivers which sign what they decoded match (php-json.ts).
    const body = inPhpSpelling(rendered);
    const payload: Payload = { hook_id: hook.id, index, body, attempt: 1, resource };
    const dueMs = Math.min(atMs ?? Number.POSITIVE_INFINITY, rules.clock.nowMs());
    const subject = `${hook.id}:${resource.id}:${index}${occasion === undefined ? '' : `:${occasion}`}`;
    rules.jobs.schedule(tx, { kind: DELIVER_WEBHOOK, subject, dueMs, payload });
  });
}

/** A short excerpt of an answer, safe to show: printable characters only, whitespace collapsed. */
function excerpt(text: string): string {
  const clean = text
    .replace(/[^\x20-\x7e\u00a0-\u024f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > EXCERPT_CHARS ? `${clean.slice(0, EXCERPT_CHARS)}…` : clean;
}

type Outcome = { status?: number; error?: string; refused?: true };

/**
 * POSTs the body to a checked target. The connection goes to the address the guarded lookup
 * checked; redirects are not followed; at most ANSWER_READ_BYTES of a non-2xx answer are read.
 * Errors name their code, not the addresses tried.
 */
function post(target: Target, policy: TargetPolicy, body: string, secret: string | undefined, signal: AbortSignal): Promise<Outcome> {
  const headers: Record<string, string> = {
    // Plain JSON, as production posts its webhooks: receivers built on frameworks that parse only
    // the media types they know (Magento's REST API, where MyParcel.com's Magento 2 plugin takes
    // its status webhooks, answers 400 to application/vnd.api+json) must be able to read it.
    'content-type': 'application/json',
    'user-agent': 'parcel-sandbox-webhooks',
    'content-length': String(Buffer.byteLength(body)),
  };
  if (secret) headers[SIGNATURE_HEADER] = signature(secret, body);
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    let answered: number | undefined;
    const done = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      signal.removeEventListener('abort', abandon);
      resolve(outcome);
    };
    // The sandbox is abandoned (closed in-process): the connection goes now, not at the deadline,
    // so that nothing of it keeps the process up. The caller writes no outcome for it.
    const abandon = () => {
      done({ error: 'abandoned' });
      req.destroy();
    };
    const deadline = setTimeout(() => {
      const seconds = TIMEOUT_MS / 1000;
      done(
        answered === undefined
          ? { error: 'could not be reached (ETIMEDOUT)' }
          : { status: answered, error: `answered ${answered} but did not finish within ${seconds} s` },
      );
      req.destroy();
    }, TIMEOUT_MS);
    const req = send(target.url, { method: 'POST', headers, lookup: guardedLookup(target, policy), timeout: TIMEOUT_MS, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      answered = status;
      if (status >= 200 && status < 300) {
        // The status is the answer: the body is not read, so a receiver cannot keep the connection busy.
        res.destroy();
        return done({ status });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        res.destroy();
        const text = excerpt(Buffer.concat(chunks).toString('utf8'));
        done({ status, error: `answered ${status}${text ? `: ${text}` : ''}` });
      };
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= ANSWER_READ_BYTES) finish();
      });
      res.on('end', finish);
      res.on('error', finish);
    });
    if (signal.aborted) abandon();
    else signal.addEventListener('abort', abandon, { once: true });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof RefusedAddress) return done({ error: `is refused: ${error.message}`, refused: true });
      done({ error: `could not be reached (${error.code ?? 'connection failed'})` });
    });
    req.end(body);
  });
}

/** Checks the URL again (the rules may have changed since the hook was saved), then posts. */
async function deliver(rules: Rules, url: string, body: string, secret: string | undefined, signal: AbortSignal): Promise<Outcome> {
  const policy = targetPolicy(rules.settings);
  const checked = checkTarget(url, policy);
  if ('refusal' in checked) return { error: `is refused: ${checked.refusal}`, refused: true };
  return post(checked.target, policy, body, secret, signal);
}

/**
 * Delivers one webhook. Every attempt writes a hook log with the answer's status (and a short,
 * sanitized excerpt of a non-2xx answer); a non-2xx answer or a network error is retried
 * `retry_delay` seconds later on the sandbox clock, until `tries` attempts were made. A target
 * that is refused (scheme, HOOK_ALLOWED_HOSTS, the address it resolves to) is logged once and
 * not retried. A hook that was removed or switched off stops its deliveries, and one changed to
 * fewer tries makes no attempt beyond them.
 */
export const deliverWebhookJob: JobHandler = {
  // One hook's deliveries go out one at a time, in the order they fell due (a status after the
  // one before it), as they did when every job ran in turn; other hooks' go on beside them.
  lane: (job) => `hook:${(job.payload as Payload).hook_id}`,
  async run(rules: Rules, job, signal) {
    const payload = job.payload as Payload;
    const hook = rules.store.get('hooks', payload.hook_id);
    const value = hook?.action.action_type === 'send-resource' ? hook.action.values[payload.index] : undefined;
    const tries = value?.tries ?? DEFAULT_TRIES;
    // A hook changed to fewer tries while a retry waited has had its tries: that retry goes no more.
    if (!hook || !hook.active || !value || payload.attempt > tries) return;
    const outcome = await deliver(rules, value.url, payload.body, value.secret, signal);
    // Abandoned: this attempt did not happen, as far as the data goes (no log, no retry; the job stays).
    signal.throwIfAborted();
    // Dated when it was due on the sandbox clock, as the walk dates its statuses: one move of the
    // clock that runs every retry still shows them retry_delay apart.
    const at = Math.min(Math.floor(job.due_ms / 1000), rules.clock.now());
    await rules.store.transact((tx) => {
      // The job row is the delivery's hold on its data. Whatever took that data away while the
      // request was out took the job with it: the hook or the shipment deleted, the tenant reset
      // or removed, the whole sandbox reset. Its outcome is then dropped: a log or a retry written
      // now would land in the data that replaced it (a reset puts a pack tenant's hooks back with
      // their ids, so the hook alone cannot tell), about a shipment that is gone there.
      if (!tx.get('jobs', job.id)) return;
      // The job ends in the write of its outcome: ended by a write of its own that could fail (a
      // full disk), it would stay and deliver the same webhook again, with a second log.
      tx.remove('jobs', job.id);
      // Deleting a hook takes its deliveries (above); a log cannot outlive its hook in any case.
      if (!tx.get('hooks', hook.id)) return;
      const errors = outcome.error ? [`Attempt ${payload.attempt} of ${tries}: POST ${value.url} ${outcome.error}`] : [];
      const delivery = { url: value.url, attempt: payload.attempt, tries, ...(outcome.status !== undefined ? { status: outcome.status } : {}) };
      writeLog(tx, hook, payload.resource, { diff: {}, errors, at, delivery });
      // A refused target stays refused: no retries.
      if (outcome.error && payload.attempt < tries && !outcome.refused) {
        const dueMs = job.due_ms + (value.retry_delay ?? DEFAULT_RETRY_DELAY) * 1000;
        rules.jobs.schedule(tx, { kind: DELIVER_WEBHOOK, subject: job.subject, dueMs, payload: { ...payload, attempt: payload.attempt + 1 } });
      }
    });
  },
};
