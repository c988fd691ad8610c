/**
 * @module
 * The runtime entry generated clients and codecs import (`loom/runtime/client`):
 * fetch client support, protobuf codecs, and the Connect and gRPC clients.
 * It never pulls in Hono or the decorator runtime.
 */
export { ApiError, HttpClient } from '../client/index.js';
export type { ApiResponse, Defaulted, HttpClientOptions, OperationSpec, ParamSpec, RequestOptions } from '../client/index.js';
export { createCodecRegistry } from '../rpc/codec.js';
export { protobufBinary } from '../rpc/protobuf-binary.js';
export type { CodecRegistry } from '../rpc/codec.js';
export { createConnectClient } from '../rpc/connect-client.js';
export type { ConnectClientOptions } from '../rpc/connect-client.js';
export { createGrpcClient } from '../rpc/grpc-client.js';
export type { GrpcClient, GrpcClientOptions } from '../rpc/grpc-client.js';
export { RpcError } from '../rpc/errors.js';
export type { RpcCode } from '../rpc/errors.js';
export type {
  BinaryFormat,
  MessageCodec,
  MessageInit,
  RpcCallOptions,
  RpcClient,
  RpcMethodDescriptor,
  RpcMethods,
  RpcServiceDescriptor,
} from '../rpc/types.js';
