import type { z } from 'zod';
import type { Scope } from '../model/tenancy.js';
import type { TableName } from '../store/tables.js';
import type { Page } from '../jsonapi/pagination.js';
import type { Ctx } from './context.js';
import { isControlPath } from './control-access.js';
import type { KeyedCreate } from './idempotency.js';

/** One way to pass a scope check: a scope, or several that must all be held (production's `a+b`). */
export type ScopeRequirement = Scope | readonly Scope[];

/**
 * Who may call an endpoint (production's `security`, but where the seed names an operation's
 * scopes, the seed's):
 * - `none`: anyone; the Authorization header is not looked at (auth server, health, docs);
 * - `token`: any valid token, whatever its scopes (production's `[]`, the seed's "no scope");
 * - `control`: a sandbox control (`/_sandbox/`): the admin token acts on the whole sandbox, a
 *   tenant's access token on that tenant only (the handler gets its principal), and no token acts
 *   on the whole sandbox only when no admin token is configured and no foreign web page sent the
 *   request (see `authorizeControl`); POSTs need a JSON Content-Type;
 * - `{anyOf}`: a valid token meeting at least one of the requirements; with `admin`, the admin token
 *   (SANDBOX_ADMIN_TOKEN, when one is configured) is taken too and acts as the broker of every
 *   organization, as does no token on a sandbox without one (like `control`, never for a web page
 *   of another origin): the handler then gets no principal.
 */
export type Auth = 'none' | 'token' | 'control' | { anyOf: readonly ScopeRequirement[]; admin?: true };

/** How the request body is read: a JSON document, or JSON as well as an HTML form (OAuth clients). */
export type BodyFormat = 'json' | 'json-or-form';

export interface ResponseSpec {
  description: string;
  /** Schema of the JSON body; omitted for empty responses. */
  schema?: z.ZodType;
  /** Media types of the body; defaults to the JSON:API media type. */
  contentTypes?: readonly string[];
  /** Further media types answered with raw bytes (documents, images). */
  binary?: readonly string[];
}

export interface Input<P, Q, B, H = Record<string, string | undefined>> {
  params: P;
  query: Q;
  body: B;
  /** The declared request headers, validated (names in lower case). */
  headers: H;
  /** The body as sent, parsed but not validated: with members the schema does not know. */
  rawBody: unknown;
  /** The whole query string, declared parameters or not. */
  search: URLSearchParams;
  /** Validated include paths (empty unless the endpoint declares `include`). */
  include: string[];
  page: Page;
}

/**
 * The one declaration of an endpoint: it registers the route, the scope check, the request
 * validation and the OpenAPI operation.
 */
export interface Endpoint<P = any, Q = any, B = any> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI form, e.g. `/shops/{shop_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  params?: z.ZodType<P, any>;
  /**
   * Request headers the handler reads (lower-case names), validated and documented like query
   * parameters; a bad value is a 400 naming the header. `Authorization` and the media negotiation
   * headers are the endpoint's `auth` and `produces`, not declared here.
   */
  headers?: z.ZodObject;
  /**
   * A create that takes an Idempotency-Key (declared in `headers`): a refusal of its input (body
   * schema, include) is answered once per key like the refusals of its handler.
   */
  idempotency?: KeyedCreate;
  /** Declared query parameters (filters and others); undeclared `filter[...]` keys are rejected. */
  query?: z.ZodObject;
  /**
   * Every query parameter must be declared (besides `include` and `page[...]` where the endpoint
   * offers them): any other is a 400 naming it, not only unknown filters. For endpoints whose
   * plain parameters are hints that would otherwise be lost silently when misspelt. The sandbox
   * controls are strict without saying so (`takesOnlyDeclaredQuery`).
   */
  strictQuery?: boolean;
  /**
   * The relationship paths `include` may name (production's documented list for the operation);
   * any other path, or `include` on an endpoint without this list, is a 400.
   */
  include?: readonly string[];
  /** Whether the response is a paginated list (documents `page[number]` and `page[size]`). */
  paginated?: boolean;
  body?: z.ZodType<B, any>;
  /** The body may be left out (or sent as `{}`); the handler then gets `undefined`. */
  bodyOptional?: boolean;
  bodyFormat?: BodyFormat;
  /** A smaller body limit than BODY_LIMIT, in bytes, checked while the body is read (413). */
  maxBodyBytes?: number;
  /** Media types the endpoint can answer with, for `Accept` negotiation. */
  produces?: readonly string[];
  /**
   * Whose requests-per-minute window a call counts in (http/rate-limit.ts). By default the
   * token's organization, else the caller's address, counted before anything else is checked;
   * `false`: none (the health check); a function: the organization the read input proves it
   * acts for (`undefined`: the caller's address), for endpoints called without a token that
   * authenticate their caller themselves (the token endpoint). Whatever is chosen, a request
   * whose token is refused counts for the caller's address.
   */
  rateLimit?: false | ((ctx: Ctx, input: Input<any, any, any>) => string | undefined);
  /** Hide from the OpenAPI document (only the HEAD/OPTIONS helpers use this). */
  internal?: boolean;
  /**
   * The table of the rows the endpoint gets, changes or makes (the one its path's last parameter
   * names, if any), as the read and write declarations (`resources/read-endpoints.ts`,
   * `resources/write-endpoints.ts`) know it: the isolation tests take the resource's tenant from
   * the table's declaration and its bodies from its examples instead of lists by hand.
   */
  table?: TableName;
  responses: Record<number, ResponseSpec>;
  handler(ctx: Ctx, input: Input<P, Q, B>): Response | Promise<Response>;
}

/**
 * What `endpoint()` takes: the declaration with its input types inferred from its schemas, its
 * handler (and rate-limit key) given the context `C` (`Ctx`; the app's own endpoints, `AppCtx`).
 */
export type Declaration<C, PS extends z.ZodType, QS extends z.ZodObject, BS extends z.ZodType, HS extends z.ZodObject> = Omit<
  Endpoint,
  'params' | 'query' | 'body' | 'headers' | 'handler' | 'rateLimit'
> & {
  headers?: HS;
  params?: PS;
  query?: QS;
  body?: BS;
  rateLimit?: false | ((ctx: C, input: Input<any, any, any>) => string | undefined);
  handler(ctx: C, input: Input<z.output<PS>, z.output<QS>, z.output<BS>, z.output<HS>>): Response | Promise<Response>;
};

/** Declares an endpoint with its input types inferred from its schemas. */
export function endpoint<
  PS extends z.ZodType = z.ZodType<Record<string, string>>,
  QS extends z.ZodObject = z.ZodObject<{}>,
  BS extends z.ZodType = z.ZodType<undefined>,
  HS extends z.ZodObject = z.ZodObject<{}>,
>(def: Declaration<Ctx, PS, QS, BS, HS>): Endpoint {
  return def as Endpoint;
}

/**
 * Whether a query parameter the endpoint does not declare is refused (400) rather than ignored:
 * where the declaration asks for it, and on every sandbox control, whose few parameters
 * (`limit`, `client_id`, ...) a test script would otherwise misspell without noticing.
 */
export function takesOnlyDeclaredQuery(endpoint: Pick<Endpoint, 'path' | 'strictQuery'>): boolean {
  return endpoint.strictQuery === true || isControlPath(endpoint.path);
}

/** `/shops/{shop_id}` -> `/shops/:shop_id` */
export function honoPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}
