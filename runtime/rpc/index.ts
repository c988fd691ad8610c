/**
 * @module
 * Loom's RPC runtime: proto3 JSON codecs, protobuf binary, the Connect protocol on Hono, gRPC
 * through grpc-js, and typed clients for both. Everything at once, for the server; the public
 * entries by protocol are in `runtime/entries/`.
 */

export type { Server as GrpcServer } from '@grpc/grpc-js';
export type { CodecRegistry } from './codec.js';
export { createCodecRegistry } from './codec.js';
export type { ConnectClientOptions } from './connect-client.js';
export { createConnectClient } from './connect-client.js';
export { CONNECT_ERRORS, connectCall, connectStream } from './connect-decorated.js';
export { connectPeer, DEFAULT_MAX_BODY_BYTES, readBody } from './connect-request.js';
export type { ConnectApp, ConnectRoutesOptions } from './connect-server.js';
export { connectHandler, connectRoutes, errorResponse } from './connect-server.js';
export type { RpcCode } from './errors.js';
export { CONNECT_HTTP_STATUS, codeFromGrpcStatus, codeFromHttpStatus, GRPC_STATUS, isRpcCode, RpcError, toRpcError } from './errors.js';
export type { GrpcClient, GrpcClientOptions } from './grpc-client.js';
export { createGrpcClient } from './grpc-client.js';
export type { GrpcServiceOptions } from './grpc-server.js';
export { addGrpcService } from './grpc-server.js';
export { grpcServiceDefinition } from './grpc-wire.js';
export { protobufBinary } from './protobuf-binary.js';
export type {
  BinaryFormat,
  JsonReadOptions,
  MessageCodec,
  MessageInit,
  RpcAuthorize,
  RpcCallOptions,
  RpcClient,
  RpcClientMethod,
  RpcContext,
  RpcHandler,
  RpcMethodDescriptor,
  RpcMethods,
  RpcPeer,
  RpcServerOptions,
  RpcServiceDescriptor,
  RpcServiceImpl,
} from './types.js';
