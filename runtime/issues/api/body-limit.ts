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

/**
 * The middleware; `onTooLarge` answers a body over `maxBytes`.
 *
 * @example
 * app.use('/api/v1/*', limitBodySize(1 << 20, (c) => c.json({ message: 'too large' }, 413)));
 */
export function limitBodySize(maxBytes: number, onTooLarge: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize: maxBytes, onError: onTooLarge });
  return async function limitBodySizeMiddleware(c, next) {
    // GET and HEAD reach Hono without a body.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    // Node's parser delivers exactly Content-Length bytes, so the header is the body's size.
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length, 10) > maxBytes ? onTooLarge(c) : next();
    }
    return streamed(c, next);
  };
}
