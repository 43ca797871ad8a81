/**
 * How large a body each endpoint takes, derived from its declaration in this one place: a body
 * costs work in proportion to its size, so no endpoint reads more than what it can use.
 */
import { z } from 'zod';
import { TrieRouter } from 'hono/router/trie-router';
import { honoPath, type Endpoint } from './endpoint.js';
import { oncePerList } from './per-list.js';

/**
 * Endpoints that take no body: one sent anyway is never read, only kept by the request log, which
 * keeps this much as text.
 */
const NO_BODY_BYTES = 16 * 1024;

/**
 * JSON bodies without files: the largest request of the API, a shipment with 500 customs items
 * (its schema's most) of ~300 bytes each, is about 150 KB.
 */
const JSON_BODY_BYTES = 256 * 1024;

/** Whether a schema holds, at any depth, a string marked as base64 file contents (`contentEncoding: 'base64'` in its meta). */
function carriesFiles(schema: z.ZodType, seen = new Set<unknown>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (z.globalRegistry.get(schema)?.contentEncoding === 'base64') return true;
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const inner: unknown[] = [];
  switch (def.type) {
    case 'object':
      inner.push(...Object.values(def.shape as Record<string, unknown>));
      break;
    case 'array':
      inner.push(def.element);
      break;
    case 'union':
      inner.push(...(def.options as unknown[]));
      break;
    case 'intersection':
      inner.push(def.left, def.right);
      break;
    case 'pipe':
      inner.push(def.in, def.out);
      break;
    case 'record':
      inner.push(def.valueType);
      break;
    case 'tuple':
      inner.push(...(def.items as unknown[]), ...(def.rest ? [def.rest] : []));
      break;
    case 'lazy':
      inner.push((def.getter as () => unknown)());
      break;
    default:
      if (def.innerType) inner.push(def.innerType);
  }
  return inner.some((item) => carriesFiles(item as z.ZodType, seen));
}

const derived = new WeakMap<Endpoint, number>();

/**
 * The most bytes of body an endpoint takes, never more than `upper` (BODY_LIMIT): its own
 * `maxBodyBytes` when it declares one (forms, small lookups); `upper` when its body carries files
 * (logos, photos); JSON_BODY_BYTES for other JSON bodies; NO_BODY_BYTES when it takes none.
 */
export function bodyLimitOf(endpoint: Endpoint, upper: number): number {
  let limit = derived.get(endpoint);
  if (limit === undefined) {
    if (endpoint.maxBodyBytes !== undefined) limit = endpoint.maxBodyBytes;
    else if (!endpoint.body) limit = NO_BODY_BYTES;
    else limit = carriesFiles(endpoint.body) ? Number.POSITIVE_INFINITY : JSON_BODY_BYTES;
    derived.set(endpoint, limit);
  }
  return Math.min(limit, upper);
}

/** An endpoint's body limit as its declaration and BODY_LIMIT make it, by method and path. */
export interface BodyLimits {
  /** The limit of the endpoint serving `method` on `path`, or `undefined` when none does (the body is never read). */
  of(method: string, path: string): { limit: number; endpoint: Endpoint } | undefined;
}

/** A router of the endpoints by declared path. */
const routerOf = oncePerList((endpoints) => {
  const router = new TrieRouter<Endpoint>();
  for (const endpoint of endpoints) router.add(endpoint.method.toUpperCase(), honoPath(endpoint.path), endpoint);
  return router;
});

/** Finds the body limit of any request by routing it as the app does. */
export function bodyLimits(endpoints: readonly Endpoint[], upper: number): BodyLimits {
  const router = routerOf(endpoints);
  return {
    of(method, path) {
      // The app is not strict about a trailing slash: `/shops/` is `/shops`.
      const route = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
      const [matches] = router.match(method.toUpperCase(), route);
      // The first endpoint registered for the path answers, as in the app.
      const endpoint = matches[0]?.[0];
      return endpoint ? { limit: bodyLimitOf(endpoint, upper), endpoint } : undefined;
    },
  };
}

/** A limit as a reader says it: `16 KiB`, `5 MiB`, `1000 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
