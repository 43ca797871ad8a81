import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from './env.js';
import { authenticate, requireScope } from '../auth/authenticate.js';
import type { Principal } from '../model/tenancy.js';
import { ApiError } from '../jsonapi/errors.js';
import { parseIncludes } from '../jsonapi/include.js';
import { parsePage } from '../jsonapi/pagination.js';
import { validated } from '../jsonapi/validation.js';
import type { Services } from './services.js';
import { bodyWasRead, readBody } from './body.js';
import { bodyLimitOf } from './body-limits.js';
import { createCtx } from './app-context.js';
import { anonymousBroker, authorizeControl, isControlPath, presentsAdminToken, requireJsonContentType } from './control-access.js';
import { takesOnlyDeclaredQuery, type Endpoint, type Input } from './endpoint.js';
import { refusedOnce, validKey } from './idempotency.js';
import type { Ctx } from './context.js';
import { negotiate } from './media.js';
import { callerKey, countRequest, refuseSpentAddress } from './rate-limit.js';
import { endingWithNewline, knownResponse, withHeaders } from './response-text.js';
import { sharedRoutePaths } from './route-paths.js';

const NO_QUERY = new URLSearchParams();

/** Registers every endpoint on `app`: route, media negotiation, auth, validation, handler. */
export function mount(app: Hono<AppEnv>, endpoints: readonly Endpoint[], services: Services): void {
  const routes = sharedRoutePaths(endpoints);
  for (const endpoint of endpoints) {
    const { path, fixed } = routes.get(endpoint)!;
    app.on(endpoint.method.toUpperCase(), path, async (c, next) => {
      // A fixed segment routed as a parameter (route-paths.ts): any other text is not this endpoint.
      for (const [name, text] of fixed) if (c.req.param(name) !== text) return next();
      c.set('endpoint', endpoint);
      let principal: Principal | undefined;
      try {
        principal = await authorize(services, endpoint, c);
      } catch (error) {
        // A refused token or credential counts for the caller's address, never for the tenant it names.
        if (endpoint.rateLimit !== false) countRequest(services, c, undefined);
        throw error;
      }
      if (principal) c.set('principal', principal);
      // After the token: a request without one learns it needs one (401) before anything else about it.
      negotiate(c.req.header('accept'), endpoint.produces);
      // Counted before the request is looked at further, so a flood of bad requests is limited too.
      if (endpoint.rateLimit === undefined) {
        const key = callerKey(services, c, endpoint, principal);
        if (key !== undefined) countRequest(services, c, key);
      } else if (endpoint.rateLimit !== false) refuseSpentAddress(services, c);
      // Only a POST can cross origins without a preflight; every other write is preflighted.
      if (endpoint.auth === 'control' && endpoint.method === 'post') requireJsonContentType(c);
      const url = c.req.url;
      const ctx = createCtx(services, url, principal, c.get('rateLimit'));
      const mark = url.indexOf('?');
      // Most requests have no query: skip parsing one.
      const search = mark < 0 ? NO_QUERY : new URLSearchParams(url.slice(mark + 1));
      let input: Input<unknown, unknown, unknown>;
      try {
        const params = parseParams(endpoint, pathParams(c, fixed), c.req.path);
        const query = parseQuery(endpoint, search);
        const include = parseIncludes(endpoint.include, search.get('include'));
        const headers = parseHeaders(endpoint, c);
        const read = endpoint.body
          ? await readBody(c, endpoint.body, endpoint.bodyFormat ?? 'json', endpoint.bodyOptional, bodyLimitOf(endpoint, services.config.bodyLimit), endpoint)
          : undefined;
        input = { params, query, headers, body: read?.body, rawBody: read?.raw, search, include, page: parsePage(search) };
      } catch (error) {
        return await refusedInputOnce(services, endpoint, c, ctx, principal, search, error);
      }
      if (typeof endpoint.rateLimit === 'function') {
        const tenant = endpoint.rateLimit(ctx, input);
        // The organization the request proved it acts for is its tenant in the request record too.
        if (tenant !== undefined) c.set('tenant', tenant);
        countRequest(services, c, tenant);
      }
      const response = await endpoint.handler(ctx, input);
      const limit = c.get('rateLimit');
      // An answer made with these very headers (ctx.answerHeaders) has them already.
      const answer = limit && knownResponse(response)?.extra !== limit ? withHeaders(response, limit) : response;
      return isControlPath(c.req.path) ? endingWithNewline(answer) : answer;
    });
  }
}

/**
 * The refusal of a keyed create's input (idempotency.ts, `refusedOnce`) when the request has a
 * valid Idempotency-Key and a body that parses as JSON, its fingerprint; any other refusal, and
 * any refusal of another endpoint, is thrown as it is.
 */
async function refusedInputOnce(
  services: Services,
  endpoint: Endpoint,
  c: Context<AppEnv>,
  ctx: Ctx,
  principal: Principal | undefined,
  search: URLSearchParams,
  refusal: unknown,
): Promise<Response> {
  const create = endpoint.idempotency;
  const key = validKey(c.req.header('idempotency-key'));
  if (!create || !principal || key === undefined || !(refusal instanceof ApiError) || !endpoint.body) throw refusal;
  let parsed = c.get('bodyParsed');
  // Refused before its body was read (an include path): read it as JSON, without its schema.
  if (parsed === undefined && !bodyWasRead(c)) {
    parsed = await readBody(c, z.unknown(), 'json', false, bodyLimitOf(endpoint, services.config.bodyLimit), endpoint).then(
      ({ raw }) => ({ value: raw }),
      () => undefined,
    );
  }
  if (!parsed || !('value' in parsed)) throw refusal;
  return refusedOnce(ctx, create, principal.clientId, key, parsed.value, search, refusal);
}

/** What is wrong with an Authorization header that is not `Bearer <token>`, without echoing a token. */
function notBearer(header: string): string {
  const [scheme = '', ...rest] = header.split(/\s+/);
  if (/^bearer$/i.test(scheme)) return rest.length === 0 ? 'the token is missing' : 'the token is followed by more text';
  // A short word is a scheme (Basic, Token); anything else is likely a token sent without its scheme.
  return /^[A-Za-z-]{1,20}$/.test(scheme) ? `'${scheme}' is another scheme` : "it does not start with 'Bearer '";
}

async function authorize(services: Services, endpoint: Endpoint, c: Context): Promise<Principal | undefined> {
  const header = c.req.header('authorization');
  if (endpoint.auth === 'none') return undefined;
  if (endpoint.auth === 'control') return authorizeControl(services, c);
  if (typeof endpoint.auth === 'object' && endpoint.auth.admin && (presentsAdminToken(services, header) || anonymousBroker(services, c))) return undefined;
  const principal = await authenticate(services, header);
  if (!principal) {
    // A header that is there but not `Bearer <token>` (another scheme, a token in two parts) is
    // told apart from none at all: the client did send something and needs to see what is wrong.
    const sent = header?.trim() ? `The Authorization header holds no bearer token: ${notBearer(header.trim())}` : 'This endpoint needs an access token';
    throw ApiError.of('missingToken', `${sent}; send Authorization: Bearer <token> (get one from POST /access-token).`, {
      source: { header: 'Authorization' },
    });
  }
  if (typeof endpoint.auth === 'object') requireScope(principal, endpoint.auth.anyOf);
  return principal;
}

/** The declared request headers, validated; an error names the header as the client wrote it. */
function parseHeaders(endpoint: Endpoint, c: Context): Record<string, string | undefined> {
  if (!endpoint.headers) return {};
  const values: Record<string, string> = {};
  for (const name of Object.keys(endpoint.headers.shape)) {
    const value = c.req.header(name);
    if (value !== undefined) values[name] = value;
  }
  return validated(endpoint.headers, values, 'header') as Record<string, string | undefined>;
}

/** The request's path parameters, without those standing for a fixed segment. */
function pathParams(c: Context, fixed: readonly [string, string][]): Record<string, string> {
  const raw = c.req.param() as Record<string, string>;
  if (fixed.length === 0) return raw;
  const own = { ...raw };
  for (const [name] of fixed) delete own[name];
  return own;
}

function parseParams(endpoint: Endpoint, raw: Record<string, string>, pathname: string): unknown {
  if (!endpoint.params) return raw;
  const result = endpoint.params.safeParse(raw);
  // A path parameter that cannot be an id of anything names no resource: 404, never a 400.
  if (!result.success) throw ApiError.of('resourceNotFound', `No resource exists at ${pathname}.`);
  return result.data;
}

/** Parameters handled outside the query schema: `include` (refused by its own check where not offered) and the page parameters of lists. */
const offered = (endpoint: Endpoint, key: string): boolean =>
  key === 'include' || (endpoint.paginated === true && (key === 'page[number]' || key === 'page[size]'));

/**
 * One rule for every filter of every endpoint: an empty (or blank) value is a 400 naming it. Some
 * filters read it as matching nothing (an empty list), others as no filter at all (every row),
 * others refused it; production's contract gives it no meaning, and its PHP SDK leaves a filter
 * out rather than send it empty. An empty value is most often a variable that was not set, which
 * either silent answer would hide.
 */
function refuseBlankFilter(key: string, value: string): void {
  if (value.trim() !== '') return;
  throw ApiError.of('invalidSchema', `'${key}' is empty: give it a value, or leave it out to list without that filter.`, {
    source: { parameter: key },
  });
}

/** Validates declared query parameters; unknown filters, page members other than number and size, and `sort` are rejected with their name. */
function parseQuery(endpoint: Endpoint, search: URLSearchParams): unknown {
  const shape = endpoint.query?.shape ?? {};
  const values: Record<string, string> = {};
  let read: Set<string> | undefined;
  for (const [key, value] of search) {
    // No parameter of this API is a list of repeated keys (lists are one value, separated by
    // commas): a second value would silently replace the first, or be dropped.
    if (key in shape || offered(endpoint, key)) {
      read ??= new Set();
      if (read.has(key)) {
        throw ApiError.of('invalidSchema', `'${key}' is given more than once; send it once (a list is one value, separated by commas).`, {
          source: { parameter: key },
        });
      }
      read.add(key);
    }
    if (key in shape) {
      if (key.startsWith('filter[')) refuseBlankFilter(key, value);
      values[key] = value;
    } else if (key.startsWith('include[') && endpoint.include) {
      throw ApiError.of('invalidSchema', `'${key}' is not a parameter: include takes its paths in one value, separated by commas (include=a,b).`, {
        source: { parameter: key },
      });
    } else if (key.startsWith('filter[') || key === 'filter') {
      const known = Object.keys(shape).filter((name) => name.startsWith('filter['));
      throw ApiError.of(
        'invalidSchema',
        known.length > 0 ? `Unknown filter '${key}'. This endpoint filters on: ${known.join(', ')}.` : `This endpoint has no filters ('${key}' was sent).`,
        { source: { parameter: key } },
      );
    } else if ((key === 'page' || key.startsWith('page[')) && key !== 'page[number]' && key !== 'page[size]') {
      // A misspelt page member would otherwise be ignored and the first page answered as asked for.
      const takes = endpoint.paginated ? 'Lists take page[number] and page[size].' : 'This endpoint answers no list.';
      throw ApiError.of('invalidSchema', `Unknown page parameter '${key}'. ${takes}`, { source: { parameter: key } });
    } else if (key === 'sort') {
      throw ApiError.of('invalidSchema', 'Sorting is not supported by this API.', { source: { parameter: 'sort' } });
    } else if (takesOnlyDeclaredQuery(endpoint) && !offered(endpoint, key)) {
      const known = [...Object.keys(shape), ...(endpoint.include ? ['include'] : []), ...(endpoint.paginated ? ['page[number]', 'page[size]'] : [])];
      const takes = known.length > 0 ? `This endpoint takes: ${known.join(', ')}.` : 'This endpoint takes no query parameters.';
      throw ApiError.of('invalidSchema', `Unknown query parameter '${key}'. ${takes}`, {
        source: { parameter: key },
      });
    }
  }
  if (!endpoint.query) return {};
  return validated(endpoint.query, values, 'parameter');
}
