/**
 * @module
 * `loom/connect`: the Connect client side, for browsers, Deno, Bun, edge workers and Node alike.
 * A typed client over `fetch` (`createConnectClient`), the codecs generated `X.codec.ts` files
 * build (`createCodecRegistry`) and the RPC types generated codecs and clients name. Everything
 * reached from here is web-standard TypeScript: no `node:` module, no `@grpc/grpc-js`, and no
 * protobufjs. Calls speak JSON; for binary, pass `protobufBinary` from `loom/protobuf`.
 *
 * @example
 * ```ts
 * import { createConnectClient } from 'loom/connect';
 * const system = createConnectClient(SystemServiceDescriptor, { baseUrl: 'https://example.com' });
 * const { status } = await system.getService({ name: 'sshd' });
 * ```
 */

export type { CodecRegistry } from '../rpc/codec.js';
export { createCodecRegistry } from '../rpc/codec.js';
export type { ConnectClientOptions } from '../rpc/connect-client.js';
export { createConnectClient } from '../rpc/connect-client.js';
export type { RpcCode } from '../rpc/errors.js';
export { RpcError } from '../rpc/errors.js';
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
