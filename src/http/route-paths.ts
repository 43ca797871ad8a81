import { Hono } from 'hono';
import { honoPath, type Endpoint } from './endpoint.js';
import { oncePerList } from './per-list.js';

/**
 * The path each endpoint is routed on. hono's fastest router (RegExpRouter) refuses a fixed
 * segment where another route has a parameter (`/contracts/v1/templates/{id}` beside
 * `/contracts/{contract_id}`, `/return-portal/checkout/{token}` beside
 * `/return-portal/{portal_token}`), and one such pair sends every request of the app to
 * TrieRouter, whose match cost ~6% of a GET /shipments/{id} (npm run bench -- --profile). Such a
 * fixed segment is routed as a parameter instead, and the endpoint's handler passes a request
 * whose segment is not the fixed text on to the 404 (`fixed`). npm run bench:attribution, the
 * router's match over a one-route app's: TrieRouter 1.96 us, RegExpRouter 0.79 us.
 */
export interface RoutePath {
  /** The hono path to register. */
  path: string;
  /** Parameters standing for a fixed segment, with the text the segment must be. */
  fixed: [name: string, text: string][];
}

const isParam = (segment: string) => segment.startsWith(':') || segment === '*';

type Route = { endpoint: Endpoint; segments: string[]; fixed: [string, string][] };

/*
 * Whether another route of the same method has a parameter at a place is looked up in a count of
 * keys (method, place, the segments before it with every parameter alike) rather than by comparing
 * each route with every other: the pairwise search, with a slice per comparison, cost a start
 * 44 ms of CPU for the 197 endpoints (first call through tsx, loaded machine; 9.5 ms warm); this
 * 14 ms (2.1 ms warm).
 */
const PARAM = '\u0001';
const norm = (segment: string) => (isParam(segment) ? PARAM : segment);
const keyOf = (method: string, segments: readonly string[], place: number) => `${method} ${place} ${segments.slice(0, place).map(norm).join('/')}`;

/** The keys of the places where `route` has a parameter. */
function paramKeys(route: Route): string[] {
  const keys: string[] = [];
  for (let i = 0; i < route.segments.length; i++) if (isParam(route.segments[i]!)) keys.push(keyOf(route.endpoint.method, route.segments, i));
  return keys;
}

function count(counts: Map<string, number>, keys: readonly string[], by: 1 | -1): void {
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + by);
}

/** The route of every endpoint, fixed segments beside a parameter of another route of the same method turned into checked parameters. */
export function routePaths(endpoints: readonly Endpoint[]): Map<Endpoint, RoutePath> {
  const routes: Route[] = endpoints.map((endpoint) => ({ endpoint, segments: honoPath(endpoint.path).split('/'), fixed: [] }));
  const counts = new Map<string, number>();
  for (const route of routes) count(counts, paramKeys(route), 1);
  for (let changed = true; changed;) {
    changed = false;
    for (const route of routes) {
      for (let i = 0; i < route.segments.length; i++) {
        const segment = route.segments[i]!;
        if (isParam(segment)) continue;
        // A fixed segment has no key of its own at this place: any count here is another route's.
        if (!counts.get(keyOf(route.endpoint.method, route.segments, i))) continue;
        // Named after its text, so the routed path still reads as the declared one (`/contracts/:fixed=v1/templates`).
        const name = `fixed=${segment}`;
        count(counts, paramKeys(route), -1);
        route.fixed.push([name, segment]);
        route.segments[i] = `:${name}`;
        count(counts, paramKeys(route), 1);
        changed = true;
      }
    }
  }
  return new Map(routes.map((route) => [route.endpoint, { path: route.segments.join('/'), fixed: route.fixed }]));
}

/** An app holding only each endpoint's declared path, for the 405 check's list of a path's methods (the routed paths would claim more). */
export const declaredRoutes = oncePerList((endpoints): Hono => {
  const app = new Hono();
  const none = () => new Response(null, { status: 404 });
  for (const endpoint of endpoints) app.on(endpoint.method.toUpperCase(), honoPath(endpoint.path), none);
  return app;
});

/** `routePaths` of a list, worked out once for it. */
export const sharedRoutePaths = oncePerList(routePaths);
