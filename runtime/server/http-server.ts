/**
 * @module
 * The Node HTTP server under Hono: listening with errors an operator understands, limits that
 * keep one client from holding the server, and draining on shutdown.
 *
 * - **Timeouts**: headers must arrive within `headersTimeoutMs` and the whole request within
 *   `requestTimeoutMs` (Node answers 408 and closes); a body that sends nothing for
 *   `bodyIdleTimeoutMs` is answered 408 and its connection closed.
 * - **Body budget**: the request body bytes held by all requests together stay within
 *   `bodyBudgetBytes`; past it a request with a body is answered 503 before any of it is read
 *   (`body-budget.ts`).
 * - **Answers before the body's end**: a response written while its request body is still
 *   arriving carries `Connection: close`, and the rest of the body is read and discarded, bounded,
 *   before the socket closes (`lingering-close.ts`), so the answer is never reset away and no next
 *   request is ever sent down a connection whose framing is lost.
 * - **Draining**: stops accepting connections, lets requests already accepted finish (their
 *   responses carry `Connection: close`), answers a request that arrives on an idle keep-alive
 *   connection within `drainGraceMs` (with `Connection: close`) instead of resetting it, then
 *   closes idle connections, and cuts whatever is left when the bound runs out.
 */
import { createServer, type IncomingMessage, ServerResponse } from 'node:http';
import { type AddressInfo, Server as NetServer, type Socket } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { BodyBudget, BudgetedRequest } from './body-budget.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js';
import { lingerOnClose } from './lingering-close.js';
import { requestIdFrom } from './request-log.js';
import { StartupError } from './service-module.js';

export { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js';

/** An HTTP server that can be drained. */
export interface HttpServer {
  /** The port actually bound (differs from the configured one when that was 0). */
  readonly port: number;
  /** Requests accepted and not yet answered. */
  inFlight(): number;
  /** Request body bytes held now (see {@link HttpLimits.bodyBudgetBytes}). */
  bodyBytesInFlight(): number;
  /**
   * Stops accepting, waits for in-flight requests up to `timeoutMs`, then destroys what is left.
   * Resolves with how the drain ended.
   */
  drain(timeoutMs: number): Promise<DrainResult>;
}

/** How a drain ended. */
export interface DrainResult {
  /** Requests in flight when the drain began. */
  readonly inFlightAtStart: number;
  /** Requests cut off because the bound ran out (0 in a clean drain). */
  readonly abandoned: number;
}

/** What answers requests: a Hono app's `fetch`. */
export type FetchHandler = (request: Request, env: unknown) => Response | Promise<Response>;

/** Where the HTTP layer reports what it answers itself (refusals, timeouts); a pino logger fits. */
export interface HttpLog {
  warn(record: object, message: string): void;
}

/** Options of {@link listenHttp}. */
export interface ListenOptions {
  /** Answers each request. Fixed once listening: a caller that swaps apps passes a function that delegates (see `server.ts`). */
  readonly fetch: FetchHandler;
  readonly host: string;
  readonly port: number;
  /** Names the setting in errors (`PORT`). @default 'PORT' */
  readonly setting?: string;
  /** @default DEFAULT_HTTP_LIMITS */
  readonly limits?: Partial<HttpLimits>;
  /** @default nothing is logged */
  readonly log?: HttpLog;
}

/** How often Node checks the header and request timeouts (its default is every 30 s). */
const TIMEOUT_CHECK_MS = 1_000;
/** How often a drain closes keep-alive connections that became idle after its grace. */
const DRAIN_SWEEP_MS = 50;

/**
 * Serves `fetch` on `host:port`.
 *
 * @throws StartupError when the port is taken or the address cannot be bound.
 * @example
 * ```ts
 * const http = await listenHttp({ fetch: app.fetch, host: '127.0.0.1', port: 0, limits: { bodyBudgetBytes: 16 << 20 } });
 * console.log(http.port); // e.g. 41873
 * await http.drain(10_000);
 * ```
 */
export async function listenHttp({ fetch: handle, host, port, setting = 'PORT', limits: given, log }: ListenOptions): Promise<HttpServer> {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...given };
  let draining = false;
  const active = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const budget = new BodyBudget(limits.bodyBudgetBytes);
  const serve = getRequestListener(handle);

  /** The server's responses: `Connection: close` when the request body is still arriving, or while draining. */
  class Response extends ServerResponse<IncomingMessage> {
    // Node's overloads of writeHead cannot be spelled as one signature; every form passes through.
    // biome-ignore lint/suspicious/noExplicitAny: the arguments go to Node unchanged.
    override writeHead(...args: any[]): this {
      const req = this.req;
      if (!req.complete) {
        this.shouldKeepAlive = false;
        lingerOnClose(req.socket, req);
      } else if (draining) {
        this.shouldKeepAlive = false;
      }
      return (ServerResponse.prototype.writeHead as (...a: unknown[]) => this).apply(this, args);
    }
  }

  const server = createServer(
    {
      IncomingMessage: BudgetedRequest,
      ServerResponse: Response,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
    },
    (req, res) => {
      active.add(res);
      res.once('close', () => active.delete(res));
      if (hasBody(req)) {
        if (!budget.admit(req, declaredLength(req))) {
          refuse(req, res, 503, 'unavailable', 'too many request bodies are being received; retry later', log, { 'Retry-After': '1' });
          return;
        }
        res.once('close', () => budget.release(req));
        if (!req.complete && limits.bodyIdleTimeoutMs > 0) watchIdleBody(req, res, limits.bodyIdleTimeoutMs, log);
      }
      void serve(req, res);
    },
  );

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(listenError(error, host, port, setting));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });

  return {
    port: (server.address() as AddressInfo).port,
    inFlight: () => active.size,
    bodyBytesInFlight: () => budget.inFlight(),
    async drain(timeoutMs) {
      draining = true;
      const inFlightAtStart = active.size;
      // Responses already being processed: make Node answer `Connection: close` and end the socket after them.
      for (const res of active) if (!res.headersSent) res.shouldKeepAlive = false;
      // Stop accepting connections, but not as http.Server's close() does it, which also resets
      // every idle keep-alive connection at once: a client that sent its next request just then
      // would lose it. Those connections get the grace to bring one more request, answered with
      // `Connection: close`.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      let sweep: NodeJS.Timeout | undefined;
      const grace = setTimeout(
        () => {
          server.closeIdleConnections();
          // A keep-alive socket whose response began before the drain is idle after it: close it too.
          sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
        },
        Math.min(limits.drainGraceMs, timeoutMs),
      );
      let abandoned = 0;
      const timer = setTimeout(() => {
        abandoned = active.size;
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }, timeoutMs);
      try {
        await closed;
      } finally {
        clearTimeout(grace);
        clearTimeout(timer);
        clearInterval(sweep);
        // Ends the header and request timeout checks too (http.Server's own close()).
        server.close();
      }
      return { inFlightAtStart, abandoned };
    },
  };
}

/** Whether a request has a body: a non-zero `Content-Length`, or a `Transfer-Encoding`. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The declared body length; 0 for a chunked body, which counts as it arrives. */
function declaredLength(req: IncomingMessage): number {
  if (req.headers['transfer-encoding'] !== undefined) return 0;
  const length = Number(req.headers['content-length']);
  return Number.isSafeInteger(length) && length > 0 ? length : 0;
}

/**
 * Answers a request whose body stops arriving for `idleMs`: 408, or a cut connection when the
 * answer has begun. The socket's inactivity timer runs only while the body is incomplete (Node
 * emits the request's `timeout` then); once it is complete, a slow handler is nobody's timeout.
 */
function watchIdleBody(req: IncomingMessage, res: ServerResponse, idleMs: number, log: HttpLog | undefined): void {
  const socket = req.socket;
  const disarm = () => socket.setTimeout(0);
  socket.setTimeout(idleMs);
  req.once('end', disarm);
  res.once('finish', disarm);
  // The body is complete and the handler still working: not an idle body.
  res.on('timeout', disarm);
  req.on('timeout', () => {
    if (res.headersSent) socket.destroy();
    else refuse(req, res, 408, 'request_timeout', `the request body sent nothing for ${idleMs} ms`, log, {}, { linger: false });
  });
}

/**
 * The HTTP layer's own answer, JSON with the server's error shape (plus `code`, which Connect
 * clients read), `Connection: close`. The application may still be working on the request (its
 * body read now fails): whatever it answers later goes nowhere.
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  log: HttpLog | undefined,
  headers: Record<string, string>,
  { linger = true }: { linger?: boolean } = {},
): void {
  const reqId = requestIdFrom(req.headers['x-request-id']);
  const path = (req.url ?? '/').split('?', 1)[0];
  log?.warn({ reqId, method: req.method, path, status, reason: code }, 'request refused by the HTTP server');
  res.shouldKeepAlive = false;
  const body = JSON.stringify({ error: code, code, message, requestId: reqId });
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': reqId,
    ...headers,
  });
  res.end(body);
  if (!linger) res.once('finish', () => req.socket.destroy());
  res.writeHead = () => res;
  res.write = () => true;
  res.end = () => res;
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number, setting: string): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartupError(`port ${port} is already in use on ${host}; stop the other process or choose another ${setting}`);
    case 'EACCES':
      return new StartupError(`no permission to listen on port ${port}; use a port above 1023 or choose another ${setting}`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(`cannot listen on address ${host}: it is not an address of this machine (HOST)`);
    default:
      return new StartupError(`cannot listen on ${host}:${port}: ${error.message}`);
  }
}
