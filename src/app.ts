import { importedLibraries } from './domain/libraries.js';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import type { KindRegistry } from './jsonapi/resource.js';
import { endpoint, type Endpoint } from './http/endpoint.js';
import { mount } from './http/mount.js';
import { declaredRoutes } from './http/route-paths.js';
import { declaredLength, refuseBody, tooLarge } from './http/body.js';
import { bodyLimits } from './http/body-limits.js';
import { openCors } from './http/cors.js';
import { CONTROL_PREFIX, isControlPath } from './http/control-access.js';
import { endingWithNewline } from './http/response-text.js';
import { controlHosts } from './http/control-hosts.js';
import { captureRequests, logsRequests, requestLog } from './http/request-log.js';
import { recordRequests } from './http/request-record.js';
import { ServedOperations } from './http/served-operations.js';
import { clientClosed } from './http/client-closed.js';
import type { AppEnv } from './http/env.js';
import { z } from 'zod';
import { jsonApi } from './http/respond.js';
import { encodedResponse } from './docs/encoded.js';
import { servedDocument } from './docs/served-document.js';
import { ApiError, errorObject } from './jsonapi/errors.js';
import { apiErrorOf, pointerOf } from './http/domain-errors.js';
import { replacedOf, stoppingOf, unavailableOf } from './http/write-errors.js';
import { DataWriteError } from './store/persistence-api.js';
import { DataClosedError, DataReplacedError } from './store/store.js';
import { DomainError } from './domain/errors.js';
import { modules } from './modules.js';
import type { AppDeps, Services } from './http/services.js';
import type { Rules } from './domain/rules.js';
import { appEndpoint, callerCtx } from './http/app-context.js';
import { resourceDocument } from './jsonapi/document.js';
import { createScheduler, tenantScheduler } from './domain/scheduler.js';
import { hookEvents } from './domain/hooks/engine.js';
import { tokenVerifier } from './auth/tokens.js';
import { RenderCache } from './jsonapi/render-cache.js';
import { RequestLog } from './requestlog/log.js';
import { UsageRecord } from './requestlog/usage.js';
import { scrubNamed } from './requestlog/secrets.js';
import { RateLimiter } from './http/rate-limiter.js';
import { CLOCK_OFFSET, getSetting } from './store/settings.js';
import { TenantClocks } from './store/tenant-clocks.js';
import { IdSource, publicIdKey } from './ids.js';
import { forgetTenant } from './controls/forget.js';
import { Capabilities, capabilityKey } from './domain/capabilities.js';

/** Endpoints that describe the sandbox itself: the API root and the OpenAPI document. */
function metaEndpoints(all: () => readonly Endpoint[]): Endpoint[] {
  return [
    endpoint({
      method: 'get',
      path: '/',
      operationId: 'getApiRoot',
      summary: 'API root',
      tag: 'Sandbox',
      auth: 'none',
      responses: { 200: { description: 'Status and links to the API description.' } },
      handler: (ctx) =>
        jsonApi({
          meta: { title: 'parcel-sandbox', status: 'OK' },
          links: { specification: ctx.url('/openapi.json'), docs: ctx.url('/docs') },
        }),
    }),
    appEndpoint({
      method: 'get',
      path: '/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'The OpenAPI 3.1 document of this sandbox',
      tag: 'Sandbox',
      auth: 'none',
      description:
        "With the examples of the default client's tenant (the rows they name are made by POST /_sandbox/examples, which the API reference page calls). Built once a day and written out for the server URL it is asked on; compressed (br, gzip) for the first 16 server URLs of a day, as it is for later ones; answered 304 for its ETag.",
      produces: ['application/json'],
      headers: z.object({
        'If-None-Match': z.string().optional().describe('An ETag this answer gave: 304 while the document is the same.'),
        'Accept-Encoding': z.string().optional().describe('br or gzip: the document is sent compressed.'),
      }),
      responses: {
        200: { description: 'The OpenAPI document.', contentTypes: ['application/json'] },
        304: { description: 'Not modified (the `If-None-Match` ETag matches).' },
      },
      handler: async (ctx, { headers }) => {
        const body = await servedDocument(ctx.services, all(), ctx.url(''));
        return encodedResponse(body, { acceptEncoding: headers['Accept-Encoding'], ifNoneMatch: headers['If-None-Match'] }, { 'cache-control': 'no-cache' });
      },
    }),
  ];
}

/**
 * The endpoint list, made once: declarations hold no sandbox's state, so every app of the process
 * shares them, and what is derived from the list (its routes, body limits and 405 routes, kept
 * beside each function that derives it) is derived once. The in-process test files, which build
 * an app for nearly every test, took 83.3 -> 79.8 and 75.2 -> 73.5 s of CPU (two pairs of runs in
 * turns) when the list and those stopped being made for each app.
 */
let endpointList: readonly Endpoint[] | undefined;

/** Every endpoint the sandbox serves, in registration order; the same list on every call. */
export function allEndpoints(): readonly Endpoint[] {
  if (!endpointList) {
    const list: Endpoint[] = modules.flatMap((module) => module.endpoints);
    list.push(...metaEndpoints(() => list));
    endpointList = list;
  }
  return endpointList;
}

/** The errors document of anything thrown (ending with a newline on a sandbox control, as its answers do). */
function renderError(error: unknown, c: Context<AppEnv>, services: Services): Response {
  const answer = errorAnswer(error, c, services);
  return isControlPath(c.req.path) ? endingWithNewline(answer) : answer;
}

/** The errors document of anything thrown; a request that was counted for its rate limit gets the rate-limit headers too. */
function errorAnswer(error: unknown, c: Context<AppEnv>, services: Services): Response {
  const limit = c.get('rateLimit');
  if (error instanceof DomainError) error = apiErrorOf(error);
  if (error instanceof DataWriteError) {
    services.logger?.warn({ method: c.req.method, url: scrubNamed(c.req.url), reason: error.message }, 'a change could not be written; answered 503');
    error = unavailableOf(error);
  }
  if (error instanceof DataReplacedError) error = replacedOf();
  if (error instanceof DataClosedError) error = stoppingOf();
  if (error instanceof ApiError) return jsonApi({ errors: error.errors }, error.status, limit ? { ...limit, ...error.headers } : error.headers);
  // A client that went away mid-request (its body cut short) is no failure of the sandbox: the
  // access line and the request log say 499, and this answer is never sent.
  if (clientClosed(c)) return jsonApi({ errors: [errorObject('internal', 'The client closed the connection before the answer.')] }, 500, limit);
  // The URL as the request log shows it: a secret query value (`?api_key=`) stays out of the process log.
  if (services.logger) services.logger.error({ err: error, method: c.req.method, url: scrubNamed(c.req.url) }, 'unexpected error');
  else console.error(error);
  return jsonApi({ errors: [errorObject('internal', 'The sandbox failed to handle this request; the error was logged.')] }, 500, limit);
}

/**
 * 404/10000 for a path no endpoint serves (hono's `methodNotAllowed` turns it into 405 when another
 * method does). Two slips that example URLs of production's documentation make are told the path
 * that is served: a resource type in the singular (`/service/{id}`), and a `/v1` before a path
 * that has none (`/v1/carriers/{id}/pickup-dropoff-locations/...`); so is a slip of clients that
 * join a base URL and a path, a double slash (`//shipments`).
 */
function notFoundOf(endpoints: readonly Endpoint[]): (c: Context) => Response {
  const served = new Set(endpoints.map((endpoint) => endpoint.path.split('/')[1]));
  const meant = (first: string, rest: readonly string[]): string | undefined => {
    if (first === '' || served.has(first)) return undefined;
    if (served.has(`${first}s`)) return `Resource paths are plural: ${['', `${first}s`, ...rest].join('/')}.`;
    if (first === 'v1' && rest[0] && served.has(rest[0])) return `This path has no /v1 prefix: ${['', ...rest].join('/')}.`;
    return undefined;
  };
  return (c) => {
    const path = new URL(c.req.url).pathname;
    const [, first = '', ...rest] = path.split('/');
    // A base URL ending in a slash joined to a path starting with one (`http://host:8080/` + `/shipments`).
    const hint = path.includes('//')
      ? `The path has an empty segment (//): join the base URL and the path with one slash, ${path.replace(/\/{2,}/g, '/')}.`
      : meant(first, rest);
    const answer = jsonApi(
      { errors: [errorObject('notFound', `Nothing is served at ${path}.${hint ? ` ${hint}` : ''} GET /openapi.json lists every endpoint.`)] },
      404,
    );
    return isControlPath(c.req.path) ? endingWithNewline(answer) : answer;
  };
}

/**
 * 405/10009 with an Allow header, for a path another method serves. An OPTIONS request that is
 * not a CORS preflight (those are answered before routing, http/cors.ts) asks which methods the
 * path takes (RFC 9110, section 9.3.7): it gets them in Allow, with OPTIONS, and no content, as
 * production's router (Laravel) answers it. It was refused 405, so a client or tool that asks
 * before it sends (an API explorer, a monitoring probe) saw an error where production answers.
 */
function methodRefused(c: Context, methods: string[]): Response {
  if (c.req.method === 'OPTIONS') return new Response('', { status: 200, headers: { allow: [...methods, 'OPTIONS'].join(', '), 'content-length': '0' } });
  const path = new URL(c.req.url).pathname;
  const allowed = methods.join(', ');
  const error = ApiError.of('methodNotAllowed', `${c.req.method} is not allowed on ${path}; allowed: ${allowed}.`, { headers: { allow: allowed } });
  const answer = jsonApi({ errors: error.errors }, 405, error.headers);
  return isControlPath(c.req.path) ? endingWithNewline(answer) : answer;
}

/**
 * The shared services of one sandbox: the deps plus the resource kinds and the job scheduler.
 * Restores the persisted clock offset onto the clock, and tells the store how to make ids (the
 * data file's secret for tracking codes, random ids when configured).
 */
export function createServices(deps: AppDeps): Services {
  const kinds: KindRegistry = new Map(modules.flatMap((module) => module.kinds ?? []).map((kind) => [kind.type, kind]));
  const handlers = Object.assign({}, ...modules.map((module) => module.jobs ?? {}));
  const jobs = createScheduler(() => rules, handlers);
  const events = hookEvents(() => rules);
  const clocks = new TenantClocks(deps.clock, deps.store);
  // One `Rules` per tenant, made on its first request and kept: a request finds its tenant's
  // rules with a Map lookup. The clocks read the store, so nothing here goes stale.
  const tenantRules = new Map<string, Rules>();
  const forTenant = (organizationId: string | undefined): Rules => {
    if (organizationId === undefined) return rules;
    let found = tenantRules.get(organizationId);
    if (!found) {
      found = { ...rules, organizationId, clock: clocks.of(organizationId), jobs: tenantScheduler(jobs, organizationId) };
      tenantRules.set(organizationId, found);
    }
    return found;
  };
  const rules: Rules = {
    forTenant,
    forgetTenant(organizationId) {
      tenantRules.delete(organizationId);
      clocks.forget(organizationId);
    },
    store: deps.store,
    clock: deps.clock,
    jobs,
    events,
    settings: {
      registrationDelay: deps.config.registrationDelay,
      contractVerificationDelay: deps.config.contractVerificationDelay,
      hookAllowedHosts: deps.config.hookAllowedHosts,
      shared: deps.config.shared,
      quotas: {
        shipments: deps.config.quotaShipments,
        hooks: deps.config.quotaHooks,
        files: deps.config.quotaFiles,
        requests_per_minute: deps.config.rateLimit,
      },
    },
    credentialsKey: deps.keys.credentialsKey,
    libraries: deps.libraries ?? importedLibraries,
    capabilities: new Capabilities(capabilityKey(deps.keys.credentialsKey)),
    // Webhook payloads are rendered as the API renders responses, for the hook's organization.
    render: (resource, includes, caller) => {
      const ctx = callerCtx(services, caller);
      const kind = kinds.get(resource.type);
      const row = kind?.load(ctx, resource.id);
      return kind && row ? JSON.stringify(resourceDocument(ctx, kind, row, includes)) : undefined;
    },
    // Hook logs name where a change failed as the API's answers would.
    pointerOf,
    logger: deps.logger,
    tenantRemoved: (removal, why) => forgetTenant(services, removal, why),
  };
  const services: Services = {
    ...deps,
    rules,
    clocks,
    kinds,
    jobs,
    events,
    tokens: tokenVerifier(deps.keys, deps.clock),
    renderCache: new RenderCache(),
    inFlight: new Set(),
    requestLog: new RequestLog(),
    usage: new UsageRecord(),
    operations: new ServedOperations(allEndpoints()),
    limiter: new RateLimiter(),
  };
  deps.store.useIds(new IdSource(deps.store.seed, publicIdKey(deps.keys.credentialsKey), deps.config.randomIds || deps.config.shared));
  const offset = getSetting<number>(deps.store, CLOCK_OFFSET);
  if (offset !== undefined) deps.clock.setOffsetMs(offset);
  return services;
}

/**
 * Builds the sandbox HTTP app on the given store, clock, keys and config (or on services made
 * by `createServices`). Nothing happens at import and nothing global is touched, so tests build
 * apps in milliseconds.
 */
export function createApp(deps: AppDeps | Services): Hono<AppEnv> {
  const services = 'jobs' in deps ? deps : createServices(deps);

  const endpoints = allEndpoints();
  // Not strict: `/carriers/` is `/carriers`.
  const app = new Hono<AppEnv>({ strict: false });
  // Every layer is an async step of hono's chain on every request, so none that would do nothing
  // for a GET is in it: the access line when info is off (as the bench runs the server), the
  // length check of a body (below). The two cost a cached GET /shipments/{id} 12.0 -> 10.7 us of
  // CPU, least of 12 rounds in each of 6 processes (in-process, no sockets, with the server's
  // Response class); the lighter build won in every pair of processes.
  if (services.logger && logsRequests(services.logger)) app.use('*', requestLog(services.logger));
  app.use('*', captureRequests(services));
  app.use('*', recordRequests(services));
  app.use('*', openCors());
  app.use(`${CONTROL_PREFIX}*`, controlHosts(services));
  const refuseMethod = methodNotAllowed({ app: declaredRoutes(endpoints), onMethodNotAllowed: methodRefused }) as unknown as MiddlewareHandler<AppEnv>;
  // Each endpoint's body limit (http/body-limits.ts) is checked on the Content-Length before
  // anything else, so a body too large is refused unread, whoever sends it. A body of unknown
  // length is counted as the endpoint reads it (http/body.ts); one that nobody reads is left to
  // the server, which throws away a bounded amount of it (server/unread-bodies.ts).
  const limits = bodyLimits(endpoints, services.config.bodyLimit);
  const checkLength = (c: Context<AppEnv>, next: () => Promise<void>): Promise<void> => {
    const length = declaredLength(c);
    if (length === undefined) return next();
    const found = limits.of(c.req.method, c.req.path);
    if (found && length > found.limit) {
      c.set('endpoint', found.endpoint);
      throw refuseBody(c, tooLarge(found.limit, found.endpoint), `larger than ${found.limit} bytes`);
    }
    return next();
  };
  // One layer, not two: the length check runs as the 405 check's next step, and a GET or HEAD,
  // which it never concerns, goes straight on (see the figure above).
  // Not async itself: it hands on refuseMethod's promise, which a throw in checkLength rejects.
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? refuseMethod(c, next) : refuseMethod(c, () => checkLength(c, next))));
  mount(app, endpoints, services);
  services.dispatch ??= async (request) => app.fetch(request);
  app.notFound(notFoundOf(endpoints));
  app.onError((error, c) => renderError(error, c, services));
  return app;
}

/** Paths the auth server answers; the optional auth-only port serves just these. */
const authPaths = new Set(['/access-token', '/.well-known/jwks.json', '/health']);

/** A fetch handler that serves only the auth server of `app`, for a separate auth port. */
export function authOnly(app: Hono<AppEnv>): (request: Request, env?: unknown) => Response | Promise<Response> {
  return (request, env) => {
    const path = new URL(request.url).pathname;
    // With the server's env: the caller's address (its rate-limit window) and the connection.
    if (authPaths.has(path)) return app.fetch(request, env);
    // A preflight goes to the app, which answers it before routing: refused, it hid the 404
    // below from a page of another origin that sent a token or a JSON body to another path.
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return app.fetch(request, env);
    return jsonApi({ errors: [errorObject('notFound', `The auth server serves only ${[...authPaths].join(', ')}.`)] }, 404);
  };
}
