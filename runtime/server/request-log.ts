/**
 * @module
 * Access log middleware: one structured line per request with the request id, method,
 * path, status and duration. The request id comes from Hono's `requestId` middleware
 * (an incoming `X-Request-Id` is honoured, otherwise a UUID is generated, and it is
 * echoed on the response), so a client can quote it when reporting a problem.
 */
import type { MiddlewareHandler } from 'hono';
// Declares the `requestId` context variable this middleware reads.
import type {} from 'hono/request-id';
import type { Logger } from './logger.js';

/** Options of {@link requestLog}. */
export interface RequestLogOptions {
  readonly logger: Logger;
}

/**
 * Logs every request when its response is ready: `info` below 400, `warn` for 4xx,
 * `error` for 5xx (with the error, when a handler threw). Install after `requestId()`.
 *
 * @example
 * ```ts
 * app.use(requestId(), requestLog({ logger }));
 * // {"level":30,"reqId":"3f1…","method":"GET","path":"/healthz","status":200,"durationMs":0.4,"msg":"request"}
 * ```
 */
export function requestLog({ logger }: RequestLogOptions): MiddlewareHandler {
  return async function requestLog(c, next) {
    const started = performance.now();
    await next();
    const status = c.res.status;
    const record = {
      reqId: c.get('requestId'),
      method: c.req.method,
      // The path only: query strings can carry credentials (Gitea's `?token=` and `?access_token=`).
      path: c.req.path,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(status >= 500 && c.error !== undefined ? { err: c.error } : {}),
    };
    if (status >= 500) logger.error(record, 'request');
    else if (status >= 400) logger.warn(record, 'request');
    else logger.info(record, 'request');
  };
}
