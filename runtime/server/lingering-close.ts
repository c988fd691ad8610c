/**
 * @module
 * Closing a connection whose request body was answered before it was read to its end (a 401 to
 * an anonymous upload, a 413 or Connect's 429 for a body over the limit, the server's own 503):
 * such an answer goes out with `Connection: close` (`http-server.ts`), so the client sends
 * nothing more on the connection, and then the rest of the body is read and thrown away for a
 * bounded time and size before the socket is closed, as nginx's lingering close does. Closing at
 * once, with bytes still arriving, makes the kernel reset the connection, and a client that has
 * not read the answer yet loses it; keeping the connection alive instead, as before, left the
 * unread body in front of the next request until `@hono/node-server` dropped the socket half a
 * second later, and with it the client's next request.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How long a lingering connection may keep sending, in milliseconds. */
export const LINGER_MS = 5_000;
/** How many more body bytes a lingering connection may send before it is cut. */
export const LINGER_BYTES = 8 * 1024 * 1024;

const LINGERING = Symbol('lingering');

interface LingerState {
  [LINGERING]?: boolean;
}

/**
 * Makes `socket` linger, reading `req`'s unread body, when Node closes it after the response
 * (Node calls `destroySoon()` once a `Connection: close` answer is written).
 *
 * @example
 * if (!req.complete) lingerOnClose(req.socket, req);
 */
export function lingerOnClose(socket: Socket, req: IncomingMessage): void {
  // An own property, not the prototype's: only this socket, only from now on.
  socket.destroySoon = () => linger(socket, req);
}

/**
 * Half-closes `socket` once the answer is out and discards what `req` still sends, until it ends,
 * {@link LINGER_BYTES} more arrive or {@link LINGER_MS} pass.
 */
export function linger(socket: Socket, req: IncomingMessage): void {
  const state = socket as Socket & LingerState;
  if (state[LINGERING] || socket.destroyed) return;
  state[LINGERING] = true;
  // FIN after the answer; reading goes on (an http.Server's sockets allow half-open).
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  let discarded = 0;
  // Whoever read the body before (a web stream pausing it when its queue is full) is gone.
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) socket.destroy();
  });
  // The body ended: nothing more is coming, so closing cannot reset the answer away. (A client
  // that closes its side first ends the socket through Node's own handler.)
  req.once('end', () => (socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy())));
  req.resume();
}
