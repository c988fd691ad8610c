/**
 * @module
 * The request id and the access log, as one middleware: every request gets an id (an incoming
 * `X-Request-Id` is honoured when it is a sane token, otherwise a UUID is made), echoed on its
 * response, and one structured line with the id, method, path, status and duration when the
 * response is ready, so a client can quote the id when reporting a problem.
 *
 * The id is put on the response after the route answered, on whatever `Response` it answered
 * with: the mounted services answer with `Response`s of their own (the Issues app's `fetch`, the
 * Connect routes), which never see headers prepared on the server's context beforehand, as
 * Hono's `requestId` middleware prepares them.
 */
import type { Context, MiddlewareHandler } from 'hono';
// Declares the `requestId` context variable this middleware sets.
import type {} from 'hono/request-id';
import { CLIENT_CLOSED_REQUEST, clientGone } from '../issues/api/client-gone.js';
import type { Logger } from './logger.js';

/** The header carrying the request id, both ways. */
const REQUEST_ID_HEADER = 'X-Request-Id';

/** What an incoming id may be: Hono's rule (word characters, `-` and `=`, at most 255). */
const SANE_ID = /^[\w\-=]{1,255}$/;

/** Options of {@link requestLog}. */
export interface RequestLogOptions {
  readonly logger: Logger;
}

/**
 * Gives each request its id (`c.get('requestId')`) and logs it when its response is ready:
 * `info` below 400, `warn` for 4xx, `error` for 5xx (with the error, when a handler threw); a
 * request whose client disconnected before the answer at `info`, as status 499 with
 * `aborted: true`.
 *
 * @example
 * ```ts
 * app.use(requestLog({ logger }));
 * // {"level":30,"reqId":"3f1…","method":"GET","path":"/healthz","status":200,"durationMs":0.4,"msg":"request"}
 * ```
 */
export function requestLog({ logger }: RequestLogOptions): MiddlewareHandler {
  return async function requestLog(c, next) {
    const started = performance.now();
    const reqId = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', reqId);
    await next();
    echoRequestId(c, reqId);
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    // The path only: query strings can carry credentials (Gitea's `?token=` and `?access_token=`).
    const path = c.req.path;
    if (clientGone(c)) {
      // Whatever the route made of it, the client left first: nobody gets this answer, and it is
      // no fault of the server's (a body read the disconnect broke would look like a 500).
      const record = { reqId, method: c.req.method, path, status: CLIENT_CLOSED_REQUEST, aborted: true, durationMs };
      logger.info(c.error === undefined ? record : { ...record, err: c.error }, 'request aborted by the client');
      return;
    }
    const status = c.res.status;
    const record = {
      reqId,
      method: c.req.method,
      path,
      status,
      durationMs,
      ...(status >= 500 && c.error !== undefined ? { err: c.error } : {}),
    };
    if (status >= 500) logger.error(record, 'request');
    else if (status >= 400) logger.warn(record, 'request');
    else logger.info(record, 'request');
  };
}

/**
 * A request's id: the caller's `X-Request-Id` when it is a sane token, otherwise a fresh UUID.
 *
 * @example
 * requestIdFrom('abc-123'); // 'abc-123'
 * requestIdFrom('no spaces allowed'); // a UUID
 */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_ID.test(header) ? header : crypto.randomUUID();
}

/** Sets the id on the answer; one with immutable headers (`Response.redirect`, a `fetch` answer) is copied first. */
function echoRequestId(c: Context, reqId: string): void {
  try {
    c.res.headers.set(REQUEST_ID_HEADER, reqId);
  } catch {
    // Hono's setter answers with a copy whose headers can change.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(REQUEST_ID_HEADER, reqId);
  }
}
