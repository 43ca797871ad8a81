import { parseCoordinates } from '../domain/pickup/location-types.js';
import { PRODUCTION_OPERATIONS, PRODUCTION_QUERY } from '../fixtures/reference/production-operations.js';
import { deprecationCheck, type DeprecationCheck } from './deprecations.js';

/*
 * Which of production's operations each endpoint of the sandbox serves, made once when the app is
 * built: what the request record (the report) counts a request under, and what the deprecation
 * check of the request is.
 */

/** What is read of an endpoint declaration (http/endpoint.ts; named here so services.ts, which holds these, imports no endpoint types). */
export interface Declared {
  method: string;
  path: string;
  operationId: string;
  tag: string;
  query?: { shape: Record<string, unknown> } | undefined;
}

/** One endpoint of the sandbox as the report and the deprecation check see it. */
export interface ServedOperation {
  /** The production operation served (as the contract names it), or the sandbox's own `METHOD path` when production has none. */
  operation: string;
  /** Every production operation the route serves: `operation`, and the other one a `pick` may name. */
  operations: readonly string[];
  /** Whether production's contract publishes the operation. */
  production: boolean;
  /** An operation production has nothing like: the sandbox controls and pages (production's auth server, outside its contract, is not one). */
  sandboxOnly: boolean;
  operationId: string;
  tag: string;
  /** Query parameters the sandbox takes here that production does not document for the operation. */
  sandboxParameters: readonly string[];
  /** When the route serves two production operations: the one a request path is. */
  pick?: (path: string) => string;
  /** What of the request is deprecated; `undefined` where production deprecates nothing. */
  deprecations?: DeprecationCheck;
}

/** The tag of the auth server's endpoints (the token endpoint, its keys): production has them, outside the API's contract. */
const AUTH_SERVER_TAG = 'Authentication';

/** Production writes one path with its query (`...{payment_id}?hmac={hmac}`): the path alone names the operation, whatever its parameters are called. */
const routeOf = (key: string): string => key.replace(/\?.*$/, '').replace(/\{[^}]+\}/g, '{}');

const byRoute = new Map<string, string[]>();
for (const key of PRODUCTION_OPERATIONS) {
  const route = routeOf(key);
  byRoute.set(route, [...(byRoute.get(route) ?? []), key]);
}

/**
 * Routes that serve two of production's operations, and how a request path tells which: the
 * pick-up location search takes a postal code or coordinates in the same two segments.
 */
const picks: Record<string, (keys: readonly string[]) => (path: string) => string> = {
  'GET /carriers/{}/pickup-dropoff-locations/{}/{}': (keys) => {
    const point = keys.find((key) => key.includes('{latitude}'))!;
    const postal = keys.find((key) => !key.includes('{latitude}'))!;
    return (path) => {
      const [first = '', second = ''] = path
        .split('/')
        .slice(-2)
        .map((segment) => safeDecode(segment));
      return parseCoordinates(first, second) ? point : postal;
    };
  },
};

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The production operations of one endpoint of the sandbox; none for its own. */
function productionKeys(endpoint: Declared): string[] {
  return byRoute.get(routeOf(`${endpoint.method.toUpperCase()} ${endpoint.path}`)) ?? [];
}

/** What the report and the deprecation check need of one endpoint. */
export function servedOperation(endpoint: Declared): ServedOperation {
  const keys = productionKeys(endpoint);
  const own = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
  const declared = Object.keys(endpoint.query?.shape ?? {});
  const documented = new Set(keys.flatMap((key) => PRODUCTION_QUERY[key] ?? []));
  const checks = keys.map((key) => [key, deprecationCheck(key)] as const).filter(([, check]) => check !== undefined);
  const route = routeOf(own);
  const pick = keys.length > 1 ? picks[route]?.(keys) : undefined;
  if (keys.length > 1 && !pick) throw new Error(`${own} serves ${keys.join(' and ')}: say in http/served-operations.ts how a request tells which`);
  const served: ServedOperation = {
    operation: keys.find((key) => routeOf(key) === route && key.replace(/\?.*$/, '') === own) ?? keys[0] ?? own,
    operations: keys,
    production: keys.length > 0,
    sandboxOnly: keys.length === 0 && endpoint.tag !== AUTH_SERVER_TAG,
    operationId: endpoint.operationId,
    tag: endpoint.tag,
    sandboxParameters: keys.length > 0 ? declared.filter((name) => !documented.has(name)) : [],
  };
  if (pick) served.pick = pick;
  if (checks.length === 1) served.deprecations = checks[0]![1];
  else if (checks.length > 1) throw new Error(`${own}: more than one of its production operations deprecates something`);
  return served;
}

/** The served operations of every endpoint, and the reference page of each production operation the sandbox serves. */
export class ServedOperations {
  private readonly byEndpoint = new Map<Declared, ServedOperation>();
  private pages: Map<string, string> | undefined;

  /** Nothing is worked out here: each endpoint's operation when a request first takes it, the pages when first asked for (the start pays nothing). */
  constructor(private readonly endpoints: readonly Declared[]) {}

  of(endpoint: Declared): ServedOperation {
    let served = this.byEndpoint.get(endpoint);
    if (!served) this.byEndpoint.set(endpoint, (served = servedOperation(endpoint)));
    return served;
  }

  /** Every endpoint's operation, in registration order. */
  all(): ServedOperation[] {
    return this.endpoints.map((endpoint) => this.of(endpoint));
  }

  private pageMap(): Map<string, string> {
    if (!this.pages) {
      this.pages = new Map();
      for (const endpoint of this.endpoints) {
        for (const key of productionKeys(endpoint)) this.pages.set(key, `#/${encodeURIComponent(endpoint.tag)}/${encodeURIComponent(endpoint.operationId)}`);
      }
    }
    return this.pages;
  }

  /** Where the API reference (`/docs`) shows a production operation: a fragment Swagger UI's deep links open (`#/<tag>/<operationId>`, each URI-encoded as Swagger UI writes them). */
  page(operation: string): string {
    return `/docs${this.pageMap().get(operation) ?? ''}`;
  }

  /** Whether the sandbox serves a production operation. */
  serves(operation: string): boolean {
    return this.pageMap().has(operation);
  }
}
