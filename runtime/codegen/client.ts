/**
 * @module
 * The runtime entry generated clients and codecs import (`loom/runtime/client`):
 * fetch client support, protobuf codecs, and the Connect and gRPC clients.
 * It never pulls in Hono or the decorator runtime. On its way out: generated code moves to
 * `runtime/entries/` (`connect.ts` for codecs and the Connect client, `grpc.ts`, `protobuf.ts`),
 * which this module re-exports meanwhile.
 */
export { ApiError, HttpClient } from '../client/index.js';
export type { ApiResponse, Defaulted, HttpClientOptions, OperationSpec, ParamSpec, RequestOptions } from '../client/index.js';
export { createCodecRegistry, createConnectClient, RpcError } from '../entries/connect.js';
export type {
  BinaryFormat,
  CodecRegistry,
  ConnectClientOptions,
  MessageCodec,
  MessageInit,
  RpcCallOptions,
  RpcClient,
  RpcCode,
  RpcMethodDescriptor,
  RpcMethods,
  RpcServiceDescriptor,
} from '../entries/connect.js';
export { createGrpcClient } from '../entries/grpc.js';
export type { GrpcClient, GrpcClientOptions } from '../entries/grpc.js';
export { protobufBinary } from '../entries/protobuf.js';
