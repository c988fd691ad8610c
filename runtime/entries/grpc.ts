/**
 * @module
 * `loom/grpc`: gRPC servers and clients over `@grpc/grpc-js`.
 */

export type { Server as GrpcServer } from '@grpc/grpc-js';
export { RpcError } from '../rpc/errors.js';
export type { GrpcClient, GrpcClientOptions } from '../rpc/grpc-client.js';
export { createGrpcClient } from '../rpc/grpc-client.js';
export type { GrpcServiceOptions } from '../rpc/grpc-server.js';
export { addGrpcService } from '../rpc/grpc-server.js';
