import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError } from '@hono/node-server';
import { errorObject, type ErrorSource } from '../jsonapi/errors.js';

/*
 * Requests that Node's HTTP parser refuses never reach the app: a request line and headers over
 * the server's limit (a query of a few hundred filter values does it), a malformed request line,
 * header or Content-Length, Content-Length beside Transfer-Encoding. Node answers those with a
 * bare status line and no body; here they get the errors document every other refusal gets, so a
 * client (or a browser page: the API's CORS header is on it) can read what was wrong.
 */

interface Refusal {
  status: number;
  detail: string;
  source?: ErrorSource;
}

/** What the parser's error code says was wrong, in the client's terms. */
function refusalOf(error: NodeJS.ErrnoException & { reason?: string }, limit: number): Refusal {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        detail: `The request line and headers are larger than ${limit / 1024} KiB, the most this server reads. A long query (many filter values, a long include) does not fit: split it over several requests.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'The request did not arrive in time; send it again.' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, detail: 'The chunk extensions of the request body are too large.', source: { header: 'Transfer-Encoding' } };
    case 'HPE_INVALID_CONTENT_LENGTH':
      return { status: 400, detail: 'The Content-Length header is not a number of bytes.', source: { header: 'Content-Length' } };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, detail: 'A request may give Content-Length or Transfer-Encoding, not both.', source: { header: 'Content-Length' } };
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return {
        status: 400,
        detail: /content-length/i.test(error.reason ?? '')
          ? 'A request may give Content-Length or Transfer-Encoding, not both.'
          : 'The Transfer-Encoding header is not one this server takes (chunked, last).',
        source: { header: 'Transfer-Encoding' },
      };
    case 'HPE_INVALID_METHOD':
      return { status: 400, detail: 'The request method is not an HTTP method.' };
    default:
      // llhttp's reason names the part that broke ("Invalid header value char"); it says nothing about the server.
      return { status: 400, detail: `The request is not valid HTTP/1.1${error.reason ? `: ${error.reason.replace(/\.$/, '')}` : ''}.` };
  }
}

/** The raw HTTP/1.1 answer of a refusal: an errors document, and the connection closes. */
export function clientErrorResponse(error: NodeJS.ErrnoException & { reason?: string }, limit = maxHeaderSize): string {
  const { status, detail, source } = refusalOf(error, limit);
  return rawRefusal(status, detail, source);
}

/** A refusal written straight to the socket, for a request the app never sees. */
function rawRefusal(status: number, detail: string, source?: ErrorSource, kind: RefusalKind = 'malformedRequest'): string {
  const { body } = refusalParts(status, detail, source, kind);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
    'Content-Type: application/vnd.api+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Access-Control-Allow-Origin: *',
    // Every 4xx of an origin server with a clock carries one (RFC 9110 section 6.6.1), as Node's own answers do.
    `Date: ${new Date().toUTCString()}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Answers the requests Node's parser refuses with an errors document (see above). */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection the client reset, or one whose answer has begun, has nothing left to tell (as
    // in Node's own handler, which reads the same field).
    const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (error.code === 'ECONNRESET' || !socket.writable || answering) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error));
  });
}

/**
 * CONNECT asks a proxy for a tunnel, and Node closes the connection of a CONNECT no listener takes
 * without a word: a client that had the sandbox as its proxy (HTTPS_PROXY set to its URL) saw only
 * "socket hang up". It is told that the sandbox is no proxy, in a 501 (RFC 9110 section 15.6.2: a
 * method the server supports for no resource), and the connection closes. The socket is the
 * listener's from here: Node took its own error handler off, so a client's reset is handled here.
 */
export function answerConnect(server: Server): void {
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const detail =
      'CONNECT (a tunnel through a proxy) is not served: the sandbox is an API server, not a proxy. Send requests to it directly; check that HTTP_PROXY or HTTPS_PROXY does not name it.';
    socket.end(rawRefusal(501, detail, undefined, 'methodNotAllowed'));
  });
}

/**
 * An `Expect` header asking for anything but 100-continue (which server/unread-bodies.ts answers):
 * Node answers it with a bare 417 and no body. It gets the errors document of every other refusal,
 * naming the header; 417 stays, as RFC 9110 (section 10.1.1) allows for an expectation the server
 * does not meet.
 */
export function answerExpectations(server: Server): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const detail = 'The Expect header asks for something other than 100-continue, the only expectation this server meets; send the request without it.';
    const { body, headers } = refusalParts(417, detail, { header: 'Expect' }, 'invalidHeader');
    response.writeHead(417, { ...headers, 'content-length': Buffer.byteLength(body) }).end(body);
  });
}

type RefusalKind = 'malformedRequest' | 'methodNotAllowed' | 'invalidHeader';

/** A refusal the app never saw: an errors document any page can read, and the connection closes. */
function refusalParts(status: number, detail: string, source?: ErrorSource, kind: RefusalKind = 'malformedRequest') {
  const body = JSON.stringify({ errors: [errorObject(kind, detail, { status, ...(source ? { source } : {}) })] });
  return { body, headers: { 'content-type': 'application/vnd.api+json', 'access-control-allow-origin': '*', connection: 'close' } };
}

function refusal(status: number, detail: string, source?: ErrorSource): Response {
  const { body, headers } = refusalParts(status, detail, source);
  return new Response(body, { status, headers });
}

/**
 * What answers a request the Hono adapter cannot make a URL of (a Host that is no host, a
 * backslash in the path, a request target such as `*`): the adapter's own answer is a bare 400.
 * The adapter's message names the part that broke; a failure of the app itself (it answers its
 * own errors, so this is not expected) is a 500 that tells nothing about the server.
 */
export function requestErrorResponse(error: unknown): Response {
  if (!(error instanceof RequestError)) return refusal(500, 'The server failed to handle the request.');
  const host = /host/i.test(error.message);
  return refusal(400, `The request is not valid HTTP/1.1: ${error.message.replace(/\.$/, '')}.`, host ? { header: 'Host' } : undefined);
}

/**
 * How many Host lines a request has (Node keeps only the first in `headers`). It runs on every
 * request: a name is lower-cased only when it has four letters, so the count allocates nothing.
 */
function hostLines(incoming: IncomingMessage): number {
  const raw = incoming.rawHeaders;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count += 1;
  return count;
}

/**
 * The host and port the client reached this server at, as its socket says: what an HTTP/1.0
 * request without a Host header is taken to have named (an address of IPv4 mapped into IPv6
 * written as IPv4).
 */
function reachedHost(incoming: IncomingMessage): string | undefined {
  const { localAddress, localPort } = incoming.socket;
  if (!localAddress || !localPort) return undefined;
  const address = localAddress.startsWith('::ffff:') ? localAddress.slice('::ffff:'.length) : localAddress;
  return address.includes(':') ? `[${address}]:${localPort}` : `${address}:${localPort}`;
}

/**
 * The Host header as RFC 9112 (section 3.2) asks: HTTP/1.1 requires one, which Node checks by
 * answering a bare 400 before any listener runs; the server turns that check off
 * (`requireHostHeader: false`) so this listener answers it with an errors document instead. An
 * empty one names no host (an http URI needs one, RFC 9110 section 4.2.1) and is refused the
 * same; so is a request with two Host lines, which Node answered as if only the first were there
 * (a proxy in front may have routed it by the other). HTTP/1.0 may leave Host out: it is taken to
 * name the address and port the client reached, where the adapter wrote links without the port
 * (http://127.0.0.1/openapi.json), which lead nowhere.
 */
export function requiringHost(listener: RequestListener): RequestListener {
  return (incoming: IncomingMessage, outgoing) => {
    const lines = hostLines(incoming);
    if (lines === 1 && incoming.headers.host !== '') return listener(incoming, outgoing);
    let detail: string | undefined;
    if (lines > 1) detail = 'The request has more than one Host header; send one, naming the host and port the sandbox is reached at.';
    else if (lines === 1) detail = 'The Host header is empty; send the host and port the sandbox is reached at.';
    else if (incoming.httpVersion === '1.1') detail = 'An HTTP/1.1 request needs a Host header; send the host and port the sandbox is reached at.';
    if (detail === undefined) {
      const reached = reachedHost(incoming);
      if (reached) incoming.headers.host = reached;
      return listener(incoming, outgoing);
    }
    const { body, headers } = refusalParts(400, detail, { header: 'Host' });
    outgoing.writeHead(400, { ...headers, 'content-length': Buffer.byteLength(body) }).end(body);
  };
}
