/**
 * @module
 * `loom/connect/server`: the Connect protocol served on Hono, unary and streaming, JSON and binary
 * (`application/proto` through protobufjs, which servers may load). `connectRoutes` mounts a
 * service as a Hono app; `connectCall`, `connectStream` and `CONNECT_ERRORS` serve it through a
 * generated routes class instead. Runs wherever Hono does (nothing here imports a `node:`
 * module; the caller's address is read from `@hono/node-server` when it is there).
 *
 * @example
 * ```ts
 * import { connectRoutes, RpcError } from 'loom/connect/server';
 * app.route('/', connectRoutes(SystemServiceDescriptor, new SystemHandler()));
 * ```
 */
export { CONNECT_ERRORS, connectCall, connectStream } from '../../rpc/connect-decorated.js';
export type { ConnectApp, ConnectRoutesOptions } from '../../rpc/connect-server.js';
export { connectRoutes } from '../../rpc/connect-server.js';
export { RpcError } from '../../rpc/errors.js';
export type {
  BinaryFormat,
  MessageCodec,
  MessageInit,
  RpcCallOptions,
  RpcClient,
  RpcContext,
  RpcMethodDescriptor,
  RpcMethods,
  RpcServiceDescriptor,
  RpcServiceImpl,
} from '../../rpc/types.js';
