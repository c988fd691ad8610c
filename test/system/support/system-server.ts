/**
 * @module
 * Test harness: a System service on real sockets (HTTP for Connect, TCP and a Unix socket for
 * gRPC), on ephemeral ports and a temporary directory, around any host adapter.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { HostAdapter } from '../../../runtime/system/host-adapter.js';
import { type SystemGrpcHandle, serveSystemGrpc, systemConnectRoutes } from '../../../runtime/system/serve.js';
import { SystemHandler } from '../../../runtime/system/system-handler.js';

export interface RunningSystem {
  readonly handler: SystemHandler;
  /** `http://127.0.0.1:<port>` */
  readonly baseUrl: string;
  /** `127.0.0.1:<port>` */
  readonly grpcAddress: string;
  readonly socketPath: string;
  readonly grpc: SystemGrpcHandle;
  close(): Promise<void>;
}

export async function startSystem(host: HostAdapter, options: { token?: string } = {}): Promise<RunningSystem> {
  const handler = new SystemHandler(host);
  const app = new Hono();
  app.route('/', systemConnectRoutes(handler, { token: options.token }));
  const http = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const dir = await mkdtemp(join(tmpdir(), 'loom-system-'));
  const socketPath = join(dir, 'run', 'system.sock');
  const grpc = await serveSystemGrpc(handler, { grpcPort: 0, grpcSocket: socketPath, token: options.token });
  return {
    handler,
    baseUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    grpcAddress: `127.0.0.1:${grpc.grpcPort}`,
    socketPath,
    grpc,
    async close() {
      await grpc.close(1_000);
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await handler.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
