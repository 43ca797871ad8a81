// GET /openapi.json as served: the document with the default tenant's examples, built once per
// server URL and day (the examples' dates follow the clock), compressed once, kept.
import type { Endpoint } from '../http/endpoint.js';
import type { Services } from '../http/services.js';
import { EncodedBody } from './encoded.js';
import { defaultTenant, exampleIds, resolveExamples, type ExampleIds, type ExampleTenant } from './examples/index.js';

/** At most this many documents are kept: one per host the sandbox is reached by, usually one or two. */
const KEPT = 8;
const kept = new WeakMap<Services, Map<string, EncodedBody>>();

/** The example ids of `tenant` on this sandbox: its secrets make the public ids and page tokens. */
export function tenantExampleIds(services: Services, tenant: ExampleTenant): ExampleIds {
  return exampleIds(services.store, tenant, services.clock.now(), {
    publicId: (organizationId, name, draw) => services.store.ids.examplePublicId(organizationId, name, draw),
    page: (kind, id) => services.rules.capabilities.token(kind, id),
  });
}

/** The default tenant's example ids: those the served document shows. */
export function defaultExampleIds(services: Services): ExampleIds {
  return tenantExampleIds(services, defaultTenant(services.store));
}

/** The served document for `serverUrl`, built on first use that day. */
export async function servedDocument(services: Services, endpoints: readonly Endpoint[], serverUrl: string): Promise<EncodedBody> {
  const day = Math.floor(services.clock.now() / 86400);
  const key = `${day} ${serverUrl}`;
  let cache = kept.get(services);
  if (!cache) kept.set(services, (cache = new Map()));
  let found = cache.get(key);
  if (!found) {
    // openapi3-ts (and yaml) load on the first request for the document, not at start-up.
    const { buildOpenApi } = await import('../openapi/build.js');
    const document = buildOpenApi(endpoints, serverUrl, resolveExamples(defaultExampleIds(services)));
    found = new EncodedBody(new TextEncoder().encode(JSON.stringify(document)), 'application/json');
    if (cache.size >= KEPT) cache.delete(cache.keys().next().value!);
    cache.set(key, found);
  }
  return found;
}
