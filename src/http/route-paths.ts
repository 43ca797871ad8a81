import { Hono } from 'hono';
import { honoPath, type Endpoint } from './endpoint.js';

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

/** The route of every endpoint, fixed segments beside a parameter of another route of the same method turned into checked parameters. */
export function routePaths(endpoints: readonly Endpoint[]): Map<Endpoint, RoutePath> {
  const routes = endpoints.map((endpoint) => ({ endpoint, segments: honoPath(endpoint.path).split('/'), fixed: [] as [string, string][] }));
  const same = (a: string, b: string) => (isParam(a) && isParam(b)) || a === b;
  for (let changed = true; changed;) {
    changed = false;
    for (const route of routes) {
      for (let i = 0; i < route.segments.length; i++) {
        const segment = route.segments[i]!;
        if (isParam(segment)) continue;
        const clash = routes.some(
          (other) =>
            other !== route &&
            other.endpoint.method === route.endpoint.method &&
            other.segments.length > i &&
            isParam(other.segments[i]!) &&
            route.segments.slice(0, i).every((s, j) => same(s, other.segments[j]!)),
        );
        if (!clash) continue;
        // Named after its text, so the routed path still reads as the declared one (`/contracts/:fixed=v1/templates`).
        const name = `fixed=${segment}`;
        route.fixed.push([name, segment]);
        route.segments[i] = `:${name}`;
        changed = true;
      }
    }
  }
  return new Map(routes.map((route) => [route.endpoint, { path: route.segments.join('/'), fixed: route.fixed }]));
}

/** An app holding only each endpoint's declared path, for the 405 check's list of a path's methods (the routed paths would claim more). */
export function declaredRoutes(endpoints: readonly Endpoint[]): Hono {
  const app = new Hono();
  const none = () => new Response(null, { status: 404 });
  for (const endpoint of endpoints) app.on(endpoint.method.toUpperCase(), honoPath(endpoint.path), none);
  return app;
}
