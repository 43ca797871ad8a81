import { ApiError } from '../jsonapi/errors.js';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';

/** Media types that mean "JSON" when a client sends or accepts them. */
export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || type === JSONAPI_MEDIA_TYPE || /^application\/[\w.+-]*\+json$/.test(type);
}

/** The bare media type of a header value: lower-case, without parameters. */
export function mediaType(header: string): string {
  return header.split(';')[0]!.trim().toLowerCase();
}

/**
 * Rejects (406) an `Accept` header that allows none of the types the endpoint can answer with.
 * A missing header, wildcards and plain `application/json` are always fine.
 */
export function negotiate(accept: string | undefined, produces: readonly string[] = [JSONAPI_MEDIA_TYPE]): void {
  if (!accept || accept === '*/*' || accept.trim() === '') return;
  // What nearly every client sends, answered without parsing the header.
  if (accept === produces[0] || (accept === 'application/json' && isJsonMediaType(produces[0] ?? ''))) return;
  const wanted = accept.split(',').map(mediaType).filter(Boolean);
  const fits = (type: string) =>
    wanted.some(
      (want) =>
        want === '*/*' || want === type || (want.endsWith('/*') && type.startsWith(want.slice(0, -1))) || (isJsonMediaType(want) && isJsonMediaType(type)),
    );
  if (produces.some(fits)) return;
  throw ApiError.of('invalidHeader', `Cannot answer with any type in the Accept header; this endpoint answers with ${produces.join(', ')}.`, {
    source: { header: 'Accept' },
  });
}

/** Which representation of `produces` the client asked for first (the first listed when it does not care). */
export function preferred(accept: string | undefined, produces: readonly string[]): string {
  const wanted = (accept ?? '').split(',').map(mediaType).filter(Boolean);
  for (const want of wanted) {
    const hit = produces.find((type) => type === want || (isJsonMediaType(want) && isJsonMediaType(type)));
    if (hit) return hit;
  }
  return produces[0]!;
}
