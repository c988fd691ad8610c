/**
 * @module
 * The Node HTTP server under Hono: listening with errors an operator understands, and
 * draining on shutdown. Draining stops accepting connections, lets requests already
 * accepted finish (their responses carry `Connection: close`, so keep-alive clients do not
 * send another request down a socket about to close), closes idle sockets at once, and
 * cuts whatever is left when the bound runs out.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { StartupError } from './service-module.js';

/** An HTTP server that can be drained. */
export interface HttpServer {
  /** The port actually bound (differs from the configured one when that was 0). */
  readonly port: number;
  /** Requests accepted and not yet answered. */
  inFlight(): number;
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

/** Options of {@link listenHttp}. */
export interface ListenOptions {
  /** Answers each request. Fixed once listening: a caller that swaps apps passes a function that delegates (see `server.ts`). */
  readonly fetch: FetchHandler;
  readonly host: string;
  readonly port: number;
  /** Names the setting in errors (`PORT`). @default 'PORT' */
  readonly setting?: string;
}

/**
 * Serves `app` on `host:port`.
 *
 * @throws StartupError when the port is taken or the address cannot be bound.
 * @example
 * ```ts
 * const http = await listenHttp({ fetch: app.fetch, host: '127.0.0.1', port: 0 });
 * console.log(http.port); // e.g. 41873
 * await http.drain(10_000);
 * ```
 */
export async function listenHttp({ fetch: handle, host, port, setting = 'PORT' }: ListenOptions): Promise<HttpServer> {
  let draining = false;
  const active = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const server = createAdaptorServer({ fetch: handle }) as Server;

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Registered before Hono's listener (createAdaptorServer adds it on 'request' already, so
  // prepend) to mark the response before any header is written.
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    active.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => active.delete(res));
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
    async drain(timeoutMs) {
      draining = true;
      const inFlightAtStart = active.size;
      // Responses already being processed: make Node answer `Connection: close` and end the socket after them.
      for (const res of active) if (!res.headersSent) res.shouldKeepAlive = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let abandoned = 0;
      const timer = setTimeout(() => {
        abandoned = active.size;
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }, timeoutMs);
      // A keep-alive socket that finished its request after close() began is idle now: close it too.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      try {
        await closed;
      } finally {
        clearTimeout(timer);
        clearInterval(sweep);
      }
      return { inFlightAtStart, abandoned };
    },
  };
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
