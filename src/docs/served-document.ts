// GET /openapi.json as served: the document with the default tenant's examples, built once a day
// (the examples' dates follow the clock) and written out for each server URL it is asked on,
// compressed once per server URL, kept.
import type { Endpoint } from '../http/endpoint.js';
import type { Services } from '../http/services.js';
import { EncodedBody } from './encoded.js';
import { defaultTenant, exampleIds, resolveExamples, type ExampleIds, type ExampleTenant } from './examples/index.js';

/** At most this many documents are kept: one per host the sandbox is reached by, usually one or two. */
const KEPT = 8;

/**
 * At most this many server URLs a day get their document compressed; later ones get it as it is
 * (always a valid answer, whatever Accept-Encoding says). Without PUBLIC_URL the server URL is the
 * request's Host, which anyone may make up: each new one cost a compression (~80 ms of br).
 */
const COMPRESSED_PER_DAY = 2 * KEPT;

/**
 * The server URL the day's document is built with, and which each served copy replaces with its
 * own. `.invalid` is reserved (RFC 2606), so nothing else in the document can name it.
 */
const PLACEHOLDER = 'http://served-document-origin.invalid';

interface Kept {
  day: number;
  /** The day's document as JSON, with PLACEHOLDER for the server URL. */
  text: string;
  /** Its copy for each server URL asked for, the oldest first. */
  served: Map<string, EncodedBody>;
  compressed: number;
}

const kept = new WeakMap<Services, Kept>();

/**
 * The example ids of `tenant` on this sandbox: its secrets make the public ids and page tokens.
 * Dated on the tenant's own clock, which its requests are checked against: one that runs days
 * ahead of the global clock past a carrier's cut-off got collections it could no longer book.
 */
export function tenantExampleIds(services: Services, tenant: ExampleTenant): ExampleIds {
  return exampleIds(services.store, tenant, services.clocks.of(tenant.organizationId).now(), {
    publicId: (organizationId, name, draw) => services.store.ids.examplePublicId(organizationId, name, draw),
    page: (kind, id) => services.rules.capabilities.token(kind, id),
  });
}

/** The default tenant's example ids: those the served document shows. */
export function defaultExampleIds(services: Services): ExampleIds {
  return tenantExampleIds(services, defaultTenant(services.store));
}

/**
 * The served document for `serverUrl`. The document is built once a day (~0.3 s of CPU), not once
 * per server URL: anyone may send a Host of their own, and one of a new name each time made every
 * request a build. A server URL's copy is the day's text with the URL written in (a linear pass).
 */
export async function servedDocument(services: Services, endpoints: readonly Endpoint[], serverUrl: string): Promise<EncodedBody> {
  // The day of the clock the examples are dated on: the default tenant's, which may run ahead of the global one.
  const day = Math.floor(services.clocks.of(defaultTenant(services.store).organizationId).now() / 86400);
  let today = kept.get(services);
  if (today?.day !== day) {
    // openapi3-ts (and yaml) load on the first request for the document, not at start-up.
    const { buildOpenApi } = await import('../openapi/build.js');
    const text = JSON.stringify(buildOpenApi(endpoints, PLACEHOLDER, resolveExamples(defaultExampleIds(services))));
    kept.set(services, (today = { day, text, served: new Map(), compressed: 0 }));
  }
  let found = today.served.get(serverUrl);
  if (!found) {
    // As JSON.stringify would write it inside a string: a Host may hold a quote or a `$`.
    const written = JSON.stringify(serverUrl).slice(1, -1);
    const compress = today.compressed < COMPRESSED_PER_DAY;
    if (compress) today.compressed += 1;
    found = new EncodedBody(new TextEncoder().encode(today.text.replaceAll(PLACEHOLDER, () => written)), 'application/json', compress);
    if (today.served.size >= KEPT) today.served.delete(today.served.keys().next().value!);
    today.served.set(serverUrl, found);
  }
  return found;
}
