/**
 * @module
 * `loom/connect`: RPC descriptors, JSON codecs and the Connect client over `fetch`.
 */

export type { CodecRegistry } from '../rpc/codec.js';
export { createCodecRegistry } from '../rpc/codec.js';
export type { ConnectClientOptions } from '../rpc/connect-client.js';
export { createConnectClient } from '../rpc/connect-client.js';
export type { RpcCode } from '../rpc/errors.js';
export { RpcError } from '../rpc/errors.js';
export type {
  MessageCodec,
  MessageInit,
  RpcCallOptions,
  RpcClient,
  RpcMethodDescriptor,
  RpcMethods,
  RpcServiceDescriptor,
} from '../rpc/types.js';
