/**
 * @module
 * The request body size limit (413 above `maxBodyBytes`), decided from the headers whenever they
 * can decide it. Hono's `bodyLimit` opens the body stream on every request to see whether there is
 * one; under the Node adapter that builds a full fetch `Request` around the socket (and takes a
 * POST off the adapter's direct body read), a large part of a small request's cost. Only a body
 * without `Content-Length` (chunked) is still counted as it streams, by Hono's middleware.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** What the headers say of a request's body against the limit. */
export type DeclaredBodySize =
  /** No body (GET, HEAD), or a declared length within the limit. */
  | 'within'
  /** A declared length over the limit. */
  | 'over'
  /** No declared length (chunked): only counting the stream can tell. */
  | 'streamed';

/**
 * Judges the body from the request line and headers alone.
 *
 * @example
 * declaredBodySize(c, 1 << 20); // 'over' for `Content-Length: 2000000`
 */
export function declaredBodySize(c: Context, maxBytes: number): DeclaredBodySize {
  // GET and HEAD reach Hono without a body.
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD') return 'within';
  const length = c.req.header('content-length');
  // Node's parser delivers exactly Content-Length bytes, so the header is the body's size.
  if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
    return Number.parseInt(length, 10) > maxBytes ? 'over' : 'within';
  }
  return 'streamed';
}

/**
 * Middleware counting a streamed body as it is read: past `maxBytes` the request is answered by
 * `onTooLarge`. For the requests {@link declaredBodySize} calls `'streamed'`.
 *
 * @example
 * const counted = limitStreamedBody(1 << 20, (c) => c.json({ message: 'too large' }, 413));
 */
export function limitStreamedBody(maxBytes: number, onTooLarge: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  return bodyLimit({ maxSize: maxBytes, onError: onTooLarge });
}
