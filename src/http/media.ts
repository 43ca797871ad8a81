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

/** One media range of an `Accept` header (`type/subtype`, `type/*` or the range of all types) with its weight. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

const RANGE = /^([!#$%&'*+.^_`|~0-9a-z-]+)\/([!#$%&'*+.^_`|~0-9a-z-]+)$/;

/**
 * The media ranges of an `Accept` header (RFC 9110 section 12.5.1), lower-case. Parameters other
 * than `q` are ignored, and so is what follows `q` (accept extensions). A range that is not
 * `type/subtype`, `type/*` or the range of all types is skipped; a `q` that is not a number
 * counts as 1, one outside 0..1 is clamped.
 */
function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';');
    const match = RANGE.exec(range!.trim().toLowerCase());
    if (!match) continue;
    const type = match[1]!;
    const subtype = match[2]!;
    if (type === '*' && subtype !== '*') continue;
    let q = 1;
    for (const param of params) {
      const equals = param.indexOf('=');
      if (equals < 0 || param.slice(0, equals).trim().toLowerCase() !== 'q') continue;
      const text = param.slice(equals + 1).trim();
      const value = Number(text);
      if (text !== '' && !Number.isNaN(value)) q = Math.min(1, Math.max(0, value));
      break;
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/**
 * How closely `range` names the media type `type` (lower-case): 0 not at all, 1 by the range of all types,
 * 2 as `type/*`, 3 as another JSON type when both are JSON (the sandbox reads every JSON type as
 * JSON:API), 4 by its own name.
 */
function closeness(range: MediaRange, type: string): number {
  if (range.type === '*') return 1;
  const slash = type.indexOf('/');
  if (range.subtype === '*') return type.slice(0, slash) === range.type ? 2 : 0;
  const name = `${range.type}/${range.subtype}`;
  if (name === type) return 4;
  return isJsonMediaType(name) && isJsonMediaType(type) ? 3 : 0;
}

/**
 * The one of `offered` (in the server's order of preference) that an `Accept` header asks for,
 * or `undefined` when it allows none of them (RFC 9110 section 12.5.1). No header, an empty one
 * or one allowing all types alike gives the first offered. A type's weight is the `q` of the range that names it
 * most closely (`image/png` before `image/*` before the range of all types), and `q=0` refuses it. The
 * highest weight wins; between equal weights, the type the client named more exactly (by name
 * or as JSON, then `type/*`, then the range of all types), then the one the client listed first
 * (`application/pdf, image/png` is a preference, as clients mean it), then the one offered first.
 */
export function chooseMediaType(accept: string | undefined, offered: readonly string[]): string | undefined {
  if (accept === undefined || accept === '*/*' || accept.trim() === '') return offered[0];
  const ranges = parseAccept(accept);
  let best: string | undefined;
  let bestQ = 0;
  let bestTier = 0;
  let bestAt = Infinity;
  for (const candidate of offered) {
    const type = candidate.toLowerCase();
    let q = 0;
    let closest = 0;
    // Where in the header the range that decides the type's weight stands.
    let at = Infinity;
    ranges.forEach((range, index) => {
      const close = closeness(range, type);
      if (close > closest || (close === closest && close > 0 && range.q > q)) [closest, q, at] = [close, range.q, index];
    });
    if (closest === 0 || q <= 0) continue;
    // Named by its own name or as JSON are both "named": only the weight tells them apart.
    const tier = Math.min(closest, 3);
    if (q > bestQ || (q === bestQ && (tier > bestTier || (tier === bestTier && at < bestAt)))) [best, bestQ, bestTier, bestAt] = [candidate, q, tier, at];
  }
  return best;
}

/**
 * The type of `produces` to answer with for an `Accept` header (`chooseMediaType`); 406 when it
 * allows none of them. A missing header, the range of all types and plain `application/json` for a JSON
 * endpoint are answered without parsing.
 */
export function negotiate(accept: string | undefined, produces: readonly string[] = [JSONAPI_MEDIA_TYPE]): string {
  // What nearly every client sends, answered without parsing the header.
  if (accept === produces[0] || (accept === 'application/json' && isJsonMediaType(produces[0] ?? ''))) return produces[0]!;
  const chosen = chooseMediaType(accept, produces);
  if (chosen !== undefined) return chosen;
  throw ApiError.of('invalidHeader', `Cannot answer with any type in the Accept header; this endpoint answers with ${produces.join(', ')}.`, {
    source: { header: 'Accept' },
  });
}
