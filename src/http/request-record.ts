import type { Context, MiddlewareHandler } from 'hono';
import { INVALID_TRIGGER } from '../domain/contract-verification.js';
import { TRIGGERS } from '../domain/shipments/registration.js';
import { isUnlogged } from '../requestlog/log.js';
import { NO_ENDPOINT, type Cause, type CauseSource } from '../requestlog/usage.js';
import { authenticate } from '../auth/authenticate.js';
import type { Services } from './services.js';
import type { AppEnv } from './env.js';
import { loggedStatus } from './client-closed.js';
import { deprecationHeaders, type DeprecatedUse } from './deprecations.js';
import { knownResponse } from './response-text.js';
import { answeredCaller } from './answered-caller.js';

/*
 * Counts every request in its tenant's record (requestlog/usage.ts) once it is answered, and tells
 * a request that used something production deprecates (http/deprecations.ts): `Deprecation` and
 * `Link` on the answer, the uses on its request log entry. A request of an operation with nothing
 * deprecated pays a Map lookup or two and a few counter updates.
 */

/** At most this many errors of one answer are looked at (an answer lists up to 100 and a summary). */
const MAX_ERRORS_LOOKED_AT = 20;

const triggerTags = new Set<string>(Object.values(TRIGGERS));

/** The errors of a refusal the sandbox built (the request log keeps its value too), as causes. */
function causesOf(response: Response, status: number): Cause[] {
  const value = knownResponse(response)?.value as { errors?: unknown } | undefined;
  const errors = Array.isArray(value?.errors) ? value.errors.slice(0, MAX_ERRORS_LOOKED_AT) : [];
  if (errors.length === 0) return [{ status, code: undefined, title: undefined, source: undefined }];
  return errors.map((error: { status?: unknown; code?: unknown; title?: unknown; source?: Record<string, unknown> }) => ({
    status: Number(error.status) || status,
    code: typeof error.code === 'string' ? error.code : undefined,
    title: typeof error.title === 'string' ? error.title : undefined,
    source: sourceOf(error.source),
  }));
}

function sourceOf(source: Record<string, unknown> | undefined): CauseSource | undefined {
  if (typeof source?.pointer === 'string') return { pointer: source.pointer };
  if (typeof source?.parameter === 'string') return { parameter: source.parameter };
  if (typeof source?.header === 'string') return { header: source.header };
  return undefined;
}

const member = (value: unknown, name: string): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;

/**
 * What a body asks of the sandbox carrier that production's would not do: the trigger tags of a
 * shipment, a return tag named like one, a contract credential `invalid` (README, Sandbox triggers).
 */
function triggersIn(body: unknown): string[] {
  const data = member(body, 'data');
  const attributes = member(data, 'attributes');
  if (attributes === undefined) return [];
  const found = new Set<string>();
  const tags = member(attributes, 'tags');
  if (Array.isArray(tags)) for (const tag of tags.slice(0, 100)) if (typeof tag === 'string' && triggerTags.has(tag)) found.add(`shipment tag ${tag}`);
  const type = member(data, 'type');
  const name = member(attributes, 'name');
  if (type === 'return-tags' && typeof name === 'string' && triggerTags.has(name)) found.add(`return tag named ${name}`);
  const credentials = member(attributes, 'credentials');
  if (type === 'contracts' && credentials !== null && typeof credentials === 'object') {
    if (Object.values(credentials).slice(0, 100).includes(INVALID_TRIGGER)) found.add(`contract credentials value '${INVALID_TRIGGER}'`);
  }
  return [...found];
}

/**
 * A bearer token the sandbox took from a header not written as production documents it,
 * `Authorization: Bearer <token>`. The sandbox reads the scheme in any case with spaces or tabs
 * after it (RFC 9110); production's public auth module looks for `Bearer` and one space, and
 * refuses anything else as an invalid token. openid-client hands `token_type` back as `bearer`,
 * so a header built from it passes here and fails there.
 */
export const LOOSE_BEARER = "Authorization not written 'Bearer <token>' (another case of Bearer, or more than one space)";

function searchOf(url: string): URLSearchParams {
  const mark = url.indexOf('?');
  return new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
}

/** Adds the deprecation headers to the answer, and to the copy the request log keeps of one the sandbox built. */
function tellDeprecated(c: Context<AppEnv>, uses: readonly DeprecatedUse[], reference: (operation: string) => string): void {
  const headers = deprecationHeaders(uses, reference);
  const made = knownResponse(c.res);
  for (const [name, value] of Object.entries(headers)) {
    c.res.headers.set(name, value);
    if (made) made.headers[name] = value;
  }
}

/** The middleware: counts each answered request, and tells of deprecated uses. */
export function recordRequests(services: Services): MiddlewareHandler<AppEnv> {
  const { operations } = services;
  return async (c, next) => {
    if (isUnlogged(c.req.path)) return next();
    await next();
    const endpoint = c.get('endpoint');
    const served = endpoint && operations.of(endpoint);
    if (!endpoint && c.req.header('authorization') !== undefined) {
      // No endpoint took the request, so nobody read its token: a tenant's wrong path is its own finding (and log entry).
      // Only a token verified before names the tenant: a path no endpoint serves is answered
      // without a rate limit, so a flood of made-up tokens to it must not cost a signature check each.
      const principal = await authenticate(services, c.req.header('authorization'), true).catch(() => undefined);
      if (principal) c.set('principal', principal);
    }
    const operation = served ? (served.pick?.(c.req.path) ?? served.operation) : NO_ENDPOINT;
    const parsed = c.get('bodyParsed');
    const body = parsed && 'value' in parsed ? parsed.value : undefined;
    const url = c.req.url;
    let deprecated: DeprecatedUse[] | undefined;
    if (served?.deprecations) {
      deprecated = served.deprecations({ search: searchOf(url), header: (name) => c.req.header(name), body });
      if (deprecated) {
        const origin = services.config.publicUrl?.replace(/\/+$/, '') ?? new URL(url).origin;
        tellDeprecated(c, deprecated, (key) => origin + operations.page(key));
        c.set('deprecated', deprecated);
      }
    }
    // The sandbox's own operations (controls, pages) count as operations that are not production's.
    let sandboxOnly: string[] | undefined;
    if (served && served.sandboxParameters.length > 0) {
      const search = searchOf(url);
      const sent = served.sandboxParameters.filter((name) => search.has(name)).map((name) => `parameter ${name} of ${operation}`);
      if (sent.length > 0) sandboxOnly = sent;
    }
    if (body !== undefined) {
      const triggers = triggersIn(body);
      if (triggers.length > 0) sandboxOnly = [...(sandboxOnly ?? []), ...triggers];
    }
    // Only a token that was taken: a refused one is a finding of its own (a 401).
    const authorization = c.get('principal') ? c.req.header('authorization') : undefined;
    if (authorization !== undefined && !/^Bearer [^\s]/.test(authorization)) sandboxOnly = [...(sandboxOnly ?? []), LOOSE_BEARER];
    const status = loggedStatus(c);
    services.usage.count({
      tenant: answeredCaller(c, services.store)?.organizationId ?? c.get('tenant'),
      operation,
      status,
      requestId: c.get('requestId') ?? 0,
      // One shape for every request (no spreads): most leave these three undefined.
      causes: status >= 400 && status < 500 && status !== 499 ? causesOf(c.res, status) : undefined,
      deprecated: deprecated?.map((use) => use.id),
      sandboxOnly,
    });
  };
}
