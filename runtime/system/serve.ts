/**
 * @module
 * Serving the System service: Connect routes for the shared Hono app, and the gRPC listeners
 * (TCP and an owner-only Unix socket) of its own, all around one {@link SystemHandler} so that
 * both transports share one keyed mutex and one host adapter.
 */
import { chmod, lstat, mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import type { Hono } from 'hono';
import { addHealthServiceToGrpc } from '../../generated/grpc/health/v1/health.grpc.js';
import type { HealthService } from '../../generated/grpc/health/v1/health.server.js';
import { addSystemServiceToGrpc } from '../../generated/system/v1alpha1/system.grpc.js';
import { systemConnectRoutes as generatedSystemConnectRoutes } from '../../generated/system/v1alpha1/system.server.js';
import type { RpcAuthorize, RpcContext } from '../rpc/index.js';
import { requireBearerToken } from './bearer-token.js';
import { requireLocalPeer } from './peer-access.js';
import type { SystemHandler } from './system-handler.js';

/** What the Connect routes and the gRPC listeners share. */
export interface SystemTransportOptions {
  /** `SYSTEM_TOKEN`: when set, every call needs `authorization: Bearer <token>` (UNAUTHENTICATED otherwise). */
  readonly token?: string;
  /** Sees errors that are not `RpcError`s (bugs), for logging. */
  readonly onError?: (error: unknown, ctx: RpcContext) => void;
}

/** Options of {@link systemConnectRoutes}. */
export interface SystemConnectOptions extends SystemTransportOptions {
  /** Largest request body in bytes (`resource_exhausted` beyond it). @default 4 MiB, as on gRPC */
  readonly maxBodyBytes?: number;
}

/** Options of {@link serveSystemGrpc}: where to listen (TCP, a Unix socket, or both) and the shared transport options. */
export interface ServeSystemGrpcOptions extends SystemTransportOptions {
  /** `GRPC_PORT`; 0 picks a free port; absent means no TCP listener. */
  readonly grpcPort?: number;
  /** Interface of the TCP listener. Node control is sensitive, hence loopback. @default '127.0.0.1' */
  readonly grpcHost?: string;
  /** `GRPC_SOCKET`: also listen on this Unix socket, created with mode 0600. */
  readonly grpcSocket?: string;
  /**
   * `grpc.health.v1.Health` to serve beside the System service. It answers without the token,
   * as Kubernetes gRPC probes and load balancers send none; it tells nothing but up or down.
   */
  readonly health?: HealthService;
}

/** Running gRPC listeners. */
export interface SystemGrpcHandle {
  /** The bound TCP port, when a TCP listener was asked for. */
  readonly grpcPort?: number;
  /** grpc-js targets clients can use: `127.0.0.1:50051`, `unix:/run/loom/system.sock`. */
  readonly addresses: readonly string[];
  /** Stops accepting calls, waits for in-flight ones (then cancels them after `graceMs`), removes the socket file. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The token check of both transports, or undefined when no token is configured. On its own it is
 * the gRPC rule (whose listener is loopback unless `GRPC_HOST` says otherwise); the Connect routes
 * add {@link systemConnectAuthorize}'s loopback rule when there is no token.
 *
 * @example
 * ```ts
 * addSystemServiceToGrpc(server, handler, { authorize: systemAuthorize(process.env.SYSTEM_TOKEN) });
 * ```
 */
export function systemAuthorize(token: string | undefined): RpcAuthorize | undefined {
  return token ? requireBearerToken(token) : undefined;
}

/**
 * The access rule of the Connect routes: with a token, the token check; without one, calls from
 * this machine only (PERMISSION_DENIED for other hosts), because the HTTP port listens on every
 * interface by default and StartService and StopService change node state.
 *
 * @example
 * ```ts
 * connectRoutes(SystemServiceDescriptor, handler, { authorize: systemConnectAuthorize(process.env.SYSTEM_TOKEN) });
 * ```
 */
export function systemConnectAuthorize(token: string | undefined): RpcAuthorize {
  return token ? requireBearerToken(token) : requireLocalPeer();
}

/**
 * The Connect routes (`POST /v1alpha1.System/<Method>`, JSON and binary) to mount on the app.
 * Without a token they answer callers on this machine only (see {@link systemConnectAuthorize}).
 *
 * @example
 * ```ts
 * app.route('/', systemConnectRoutes(handler, { token: config.systemToken }));
 * ```
 */
export function systemConnectRoutes(handler: SystemHandler, options: SystemConnectOptions = {}): Hono {
  return generatedSystemConnectRoutes(handler, {
    authorize: systemConnectAuthorize(options.token),
    onError: options.onError,
    maxBodyBytes: options.maxBodyBytes,
  });
}

/**
 * Starts one grpc-js server listening on TCP and/or a Unix socket.
 *
 * The socket is created owner-only: the umask is narrowed to 0177 while grpc-js creates it
 * (so there is no window in which others could connect), then its mode is set to 0600 again in
 * case the platform ignores the umask for sockets. A stale socket file left by a crash is
 * removed first; any other file at that path is an error.
 *
 * @example
 * ```ts
 * const grpcHandle = await serveSystemGrpc(handler, { grpcPort: 50051, grpcSocket: '/run/loom/system.sock', token });
 * // …
 * await grpcHandle.close();
 * ```
 */
export async function serveSystemGrpc(handler: SystemHandler, options: ServeSystemGrpcOptions): Promise<SystemGrpcHandle> {
  const server = new grpc.Server();
  addSystemServiceToGrpc(server, handler, { authorize: systemAuthorize(options.token), onError: options.onError });
  if (options.health) addHealthServiceToGrpc(server, options.health, { onError: options.onError });
  const addresses: string[] = [];
  let grpcPort: number | undefined;
  try {
    if (options.grpcPort !== undefined) {
      const host = options.grpcHost ?? '127.0.0.1';
      grpcPort = await bind(server, hostPort(host, options.grpcPort));
      addresses.push(hostPort(host, grpcPort));
    }
    if (options.grpcSocket !== undefined) {
      await bindUnixSocket(server, options.grpcSocket);
      addresses.push(`unix:${options.grpcSocket}`);
    }
  } catch (error) {
    server.forceShutdown();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    grpcPort,
    addresses,
    close(graceMs = 5_000) {
      closed ??= (async () => {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => server.forceShutdown(), graceMs);
          server.tryShutdown(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (options.grpcSocket !== undefined) await unlink(options.grpcSocket).catch(() => undefined);
      })();
      return closed;
    },
  };
}

/** A grpc-js TCP target: IPv6 addresses need brackets so that the port stays apart. */
function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * A gRPC listener that could not be opened. grpc-js reports a taken port only in its message
 * text; `addressInUse` reads it here, next to grpc-js, so that callers can word their own error.
 */
export class GrpcListenError extends Error {
  override readonly name = 'GrpcListenError';
  readonly addressInUse: boolean;

  constructor(target: string, cause: Error) {
    super(`cannot listen for gRPC on ${target}: ${cause.message}`, { cause });
    this.addressInUse = cause.message.includes('EADDRINUSE');
  }
}

function bind(server: grpc.Server, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(target, grpc.ServerCredentials.createInsecure(), (error, port) => {
      if (error) reject(new GrpcListenError(target, error));
      else resolve(port);
    });
  });
}

async function bindUnixSocket(server: grpc.Server, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const existing = await lstat(path).catch(() => undefined);
  if (existing?.isSocket()) await unlink(path);
  else if (existing) throw new Error(`cannot listen for gRPC on ${path}: a file that is not a socket is in the way`);
  // The umask is process-wide; narrowing it only makes files created meanwhile more private.
  // Worker threads cannot change it: there the chmod below is the only guard.
  const previous = narrowUmask();
  try {
    await bind(server, `unix:${path}`);
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
  await chmod(path, 0o600);
}

function narrowUmask(): number | undefined {
  try {
    return process.umask(0o177);
  } catch {
    return undefined;
  }
}
