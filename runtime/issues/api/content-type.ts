/**
 * @module
 * Gitea's Content-Type rules for request bodies, applied before routing: a body without a type
 * is 422 `[]: Empty Content-Type`. `text/plain` is read as JSON, because gitea-js sends some
 * bodies (issue dependencies) without a type and fetch then labels the JSON text `text/plain`.
 */
import type { Context } from 'hono';
import { validationError } from './errors.js';

/**
 * Applies the rules to a request: throws the 422, or relabels a `text/plain` body as JSON.
 *
 * @example
 * applyGiteaContentType(c); // POST without Content-Type but with a body: throws 422
 */
export function applyGiteaContentType(c: Context): void {
  const method = c.req.method;
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return;
  const type = c.req.header('content-type')?.trim() ?? '';
  const hasBody = (c.req.header('content-length') ?? '0') !== '0' || c.req.header('transfer-encoding') !== undefined;
  if (type === '' && hasBody) throw validationError('[]: Empty Content-Type');
  if (type.toLowerCase().startsWith('text/plain')) {
    const headers = new Headers(c.req.raw.headers);
    headers.set('content-type', 'application/json');
    // The body stream moves to the new request unread; nothing has consumed it yet.
    c.req.raw = new Request(c.req.raw, { headers });
  }
}
