/**
 * @module
 * The server: the Todos API (HTTP, under `/api`) and the Echo service over Connect on one port,
 * and Echo over gRPC on another. `node dist/src/server.js` runs it; tests import `startServer`.
 *
 * Environment: `PORT` (default 3000), `GRPC_PORT` (default 50051), `HOST` (default 127.0.0.1),
 * `CORS_ORIGIN` (an origin allowed to call from a browser, e.g. `http://localhost:5173`).
 */

import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { createRestRouter } from 'loom/rest';
import { addEchoServiceToGrpc } from '../generated/echo/v1/echo.grpc.js';
import { echoConnectRoutes } from '../generated/echo/v1/echo.server.js';
import { TodoRoutes } from '../generated/todos.server.js';
import { EchoHandler } from './handlers/echo.js';
import { TodoHandler } from './handlers/todos.js';

export interface ServerOptions {
  /** HTTP port; 0 picks a free one. */
  readonly port?: number;
  /** gRPC port; 0 picks a free one. */
  readonly grpcPort?: number;
  readonly host?: string;
  /** An origin allowed to call the APIs from a browser. */
  readonly corsOrigin?: string;
}

export interface RunningServer {
  /** `http://127.0.0.1:3000` */
  readonly url: string;
  /** `127.0.0.1:50051` */
  readonly grpcAddress: string;
  close(): Promise<void>;
}

/** The HTTP app: REST routes and Connect routes, with CORS when an origin is given. */
export function createApp(options: Pick<ServerOptions, 'corsOrigin'> = {}): Hono {
  const app = new Hono();
  if (options.corsOrigin) {
    app.use(
      '*',
      cors({
        origin: options.corsOrigin,
        allowHeaders: ['content-type', 'connect-protocol-version', 'connect-timeout-ms'],
        exposeHeaders: ['content-type'],
      }),
    );
  }
  app.route('/', createRestRouter().register(new TodoRoutes(new TodoHandler())).app());
  app.route('/', echoConnectRoutes(new EchoHandler()));
  return app;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const app = createApp(options);
  const http = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 3000, hostname: host }, () => resolve(server));
  });
  const grpcServer = new grpc.Server();
  addEchoServiceToGrpc(grpcServer, new EchoHandler());
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpcServer.bindAsync(`${host}:${options.grpcPort ?? 50051}`, grpc.ServerCredentials.createInsecure(), (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    grpcAddress: `${host}:${grpcPort}`,
    close: async () => {
      await new Promise<void>((resolve) => grpcServer.tryShutdown(() => resolve()));
      await new Promise<void>((resolve, reject) => http.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

// Run as a program (`node dist/src/server.js`), not when imported by a test.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = process.env;
  const server = await startServer({
    port: Number(env.PORT ?? 3000),
    grpcPort: Number(env.GRPC_PORT ?? 50051),
    host: env.HOST ?? '127.0.0.1',
    corsOrigin: env.CORS_ORIGIN,
  });
  console.log(`HTTP ${server.url} (REST under /api, Connect under /echo.v1.Echo), gRPC ${server.grpcAddress}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
