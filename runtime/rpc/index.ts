/**
 * @module
 * Loom's RPC runtime: proto3 JSON codecs, protobuf binary, the Connect protocol on Hono, gRPC
 * through grpc-js, and typed clients for both. Everything at once, for the server; the public
 * entries by protocol are in `runtime/entries/`.
 */
export { createCodecRegistry } from './codec.js';
export type { CodecRegistry } from './codec.js';
export { protobufBinary } from './protobuf-binary.js';
export { connectHandler, connectRoutes, errorResponse } from './connect-server.js';
export { connectPeer, DEFAULT_MAX_BODY_BYTES, readBody } from './connect-request.js';
export type { ConnectApp, ConnectRoutesOptions } from './connect-server.js';
export { CONNECT_ERRORS, connectCall, connectStream } from './connect-decorated.js';
export { createConnectClient } from './connect-client.js';
export type { ConnectClientOptions } from './connect-client.js';
export { addGrpcService } from './grpc-server.js';
export { grpcServiceDefinition } from './grpc-wire.js';
export type { GrpcServiceOptions } from './grpc-server.js';
export type { Server as GrpcServer } from '@grpc/grpc-js';
export { createGrpcClient } from './grpc-client.js';
export type { GrpcClient, GrpcClientOptions } from './grpc-client.js';
export { CONNECT_HTTP_STATUS, GRPC_STATUS, RpcError, codeFromGrpcStatus, codeFromHttpStatus, isRpcCode, toRpcError } from './errors.js';
export type { RpcCode } from './errors.js';
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
