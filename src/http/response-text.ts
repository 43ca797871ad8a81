/**
 * Responses the sandbox builds from a string. They carry the CORS headers from the start and
 * keep their text and headers on the side, so neither the CORS middleware nor the request log
 * has to touch `response.headers` or `response.body`: touching them turns the server's
 * lightweight response into a full one (a Headers object, a body stream), which costs more
 * than the rest of a simple GET.
 */

/**
 * CORS for browsers (the docs site's try-it-out calls the sandbox from another origin). Pages may
 * read the rate-limit headers and Retry-After too (http/rate-limit.ts), or they could not back off,
 * and what a refusal or a download says in its headers: the challenge of a 401 or 403
 * (WWW-Authenticate), the methods of a 405 (Allow), a file's name (Content-Disposition), and the
 * ETag of /openapi.json and the docs' files: a page may send If-None-Match, so it must be able to
 * read the tag it sends back.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'Idempotency-Replay, Location, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Deprecation, Link, WWW-Authenticate, Allow, Content-Disposition, ETag',
} as const;

export type KnownResponse = {
  text: string;
  headers: Record<string, string>;
  /** The value `text` is the JSON of, when the response was made from one (the request log may look into it instead of parsing the text). */
  value?: unknown;
  /** The headers given as `extra` when it was made (they are among `headers`, last). */
  extra?: Record<string, string>;
};

// Kept on the response itself under a private symbol: cheaper than a WeakMap entry per request.
const KNOWN = Symbol('parcel-sandbox.known-response');
type Marked = Response & { [KNOWN]?: KnownResponse };

/**
 * A response with a text body and plain headers, both remembered; `extra` headers go last, as
 * `withHeaders` would add them. A cached GET made with the rate limit's headers as `extra` is one
 * response instead of two: GET /shipments/{id} in-process (no sockets, @hono/node-server's
 * Response class) 11.9 -> 10.1 us of CPU, least of 12 rounds in each of 6 processes.
 */
export function textResponse(
  text: string,
  init: { status?: number; headers: Record<string, string>; value?: unknown; extra?: Record<string, string> },
): Response {
  // Copied key by key, as in withHeaders: keys added to an object made by spreading cost a cached GET ~5 us.
  const headers: Record<string, string> = {};
  for (const name in CORS_HEADERS) headers[name] = CORS_HEADERS[name as keyof typeof CORS_HEADERS];
  for (const name in init.headers) headers[name] = init.headers[name]!;
  if (init.extra) for (const name in init.extra) headers[name] = init.extra[name]!;
  const response: Marked = new Response(text, { status: init.status ?? 200, headers });
  response[KNOWN] = { text, headers, value: init.value, extra: init.extra };
  return response;
}

/** Text and headers of a response made by `textResponse`, if this is one. */
export function knownResponse(response: Response): KnownResponse | undefined {
  return (response as Marked)[KNOWN];
}

/**
 * The response with `extra` headers added. A response made by `textResponse` is made again with
 * them (its headers were handed over when it was made, and touching `response.headers` would turn
 * the server's lightweight response into a full one); any other gets them set.
 */
export function withHeaders(response: Response, extra: Record<string, string>): Response {
  const known = knownResponse(response);
  if (!known) {
    for (const name in extra) response.headers.set(name, extra[name]!);
    return response;
  }
  // Copied key by key, not spread into a literal: see README, Performance.
  const headers: Record<string, string> = {};
  for (const name in known.headers) headers[name] = known.headers[name]!;
  for (const name in extra) headers[name] = extra[name]!;
  const made: Marked = new Response(known.text, { status: response.status, headers });
  made[KNOWN] = { text: known.text, headers, value: known.value };
  return made;
}

/**
 * The response with its text ending in a line break: the sandbox controls are called with curl in
 * a terminal, where an answer without one leaves the prompt at its end. A response not made by
 * `textResponse`, or already ending so, is left as it is.
 */
export function endingWithNewline(response: Response): Response {
  const known = knownResponse(response);
  if (!known || known.text.endsWith('\n')) return response;
  const text = `${known.text}\n`;
  const made: Marked = new Response(text, { status: response.status, headers: known.headers });
  made[KNOWN] = { text, headers: known.headers, value: known.value };
  return made;
}
