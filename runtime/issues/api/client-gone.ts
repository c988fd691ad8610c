/**
 * @module
 * Whether the client of a request has gone: its connection closed before the answer was sent
 * (it disconnected mid-body, or the server cut it on a timeout). A failure then (the body read
 * that the disconnect broke) is the client's doing, not a fault of the server: it is logged as an
 * aborted request, never as a 500, which would trip alerts on every impatient client.
 */
import type { Context } from 'hono';

/** What `@hono/node-server` puts in a request's bindings (`c.env`), as far as this module reads it. */
interface NodeBindings {
  readonly incoming?: { readonly socket?: { readonly destroyed?: boolean } | null };
}

/**
 * True when the request came over a Node socket that is closed now.
 *
 * @example
 * if (clientGone(c)) return new Response(null, { status: 499 });
 */
export function clientGone(c: Context): boolean {
  const socket = (c.env as NodeBindings | undefined)?.incoming?.socket;
  return socket?.destroyed === true;
}

/**
 * The status an answer to a gone client is logged with: nginx's 499 "client closed request". The
 * answer itself reaches nobody.
 */
export const CLIENT_CLOSED_REQUEST = 499;
