/**
 * @module
 * `loom/grpc`: gRPC over `@grpc/grpc-js`, on Node: `addGrpcService` serves a service descriptor's
 * implementation on a grpc-js `Server`, `createGrpcClient` calls one. The only entry that loads
 * `@grpc/grpc-js`.
 *
 * @example
 * ```ts
 * import * as grpc from '@grpc/grpc-js';
 * import { addGrpcService, createGrpcClient } from 'loom/grpc';
 * const server = new grpc.Server();
 * addGrpcService(server, SystemServiceDescriptor, new SystemHandler());
 * const system = createGrpcClient(SystemServiceDescriptor, '127.0.0.1:50051');
 * ```
 */
export type { Server as GrpcServer } from '@grpc/grpc-js';
export { RpcError } from '../rpc/errors.js';
export type { GrpcClient, GrpcClientOptions } from '../rpc/grpc-client.js';
export { createGrpcClient } from '../rpc/grpc-client.js';
export type { GrpcServiceOptions } from '../rpc/grpc-server.js';
export { addGrpcService } from '../rpc/grpc-server.js';
