import type { Context } from 'hono';

/** The status the logs give a request whose client closed the connection before the answer (nginx's 499: nothing was sent). */
export const CLIENT_CLOSED_REQUEST = 499;

/** The part of Node's ServerResponse this looks at; @hono/node-server hands it over as `c.env.outgoing`. */
type Outgoing = { destroyed?: boolean; writableEnded?: boolean };

/**
 * Whether the client closed the connection before the answer was written. The middleware and the
 * error renderer run before the node server writes the answer, so a response already destroyed
 * and not ended means the client went away. In-process requests (`app.request`) never do.
 */
export function clientClosed(c: Context): boolean {
  const outgoing = (c.env as { outgoing?: Outgoing } | undefined)?.outgoing;
  return outgoing?.destroyed === true && outgoing.writableEnded !== true;
}

/** The status a log gives the request: 499 when its client went away before the answer, else the answer's. */
export function loggedStatus(c: Context): number {
  return clientClosed(c) ? CLIENT_CLOSED_REQUEST : c.res.status;
}
