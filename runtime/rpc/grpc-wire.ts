/**
 * @module
 * What the gRPC server and client share about the wire: the grpc-js
 * `ServiceDefinition` built from a descriptor, metadata as `Headers`, and
 * zero-copy `Buffer`s. Kept apart so that the client does not load the server.
 */
import type * as grpc from '@grpc/grpc-js';
import { protobufBinary } from './protobuf-binary.js';
import type { RpcMethodDescriptor, RpcServiceDescriptor } from './types.js';

type AnyMethod = RpcMethodDescriptor<unknown, unknown>;

/**
 * The members of grpc-js' `Client` and of `Object.prototype`. grpc-js also puts each method on the
 * client under its proto name (`originalName`), which would replace one of these: an `rpc close`
 * would make `client.close()` call the RPC instead of closing the channel.
 */
const CLIENT_MEMBERS: ReadonlySet<string> = new Set([
  'close',
  'getChannel',
  'waitForReady',
  'makeUnaryRequest',
  'makeClientStreamRequest',
  'makeServerStreamRequest',
  'makeBidiStreamRequest',
  ...Object.getOwnPropertyNames(Object.prototype),
]);

/**
 * The grpc-js `ServiceDefinition` of a descriptor. Incoming messages stay raw
 * `Buffer`s on both sides: the server decodes requests inside the handler (so bad
 * bytes give `INVALID_ARGUMENT`, not grpc-js' generic `INTERNAL`) and the client
 * decodes responses where it can turn a failure into an `RpcError`.
 *
 * @example
 * ```ts
 * const Ctor = grpc.makeGenericClientConstructor(grpcServiceDefinition(SystemServiceDescriptor), 'v1alpha1.System');
 * ```
 */
export function grpcServiceDefinition(descriptor: RpcServiceDescriptor): grpc.ServiceDefinition {
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const method of Object.values(descriptor.methods) as AnyMethod[]) {
    definition[method.localName] = {
      path: method.path,
      requestStream: method.clientStreaming,
      responseStream: method.serverStreaming,
      ...(CLIENT_MEMBERS.has(method.name) ? {} : { originalName: method.name }),
      requestSerialize: requestSerializer(method),
      requestDeserialize: keepBytes,
      responseSerialize: (message: unknown) => toBuffer(protobufBinary.encode(method.output, message as never)),
      responseDeserialize: keepBytes,
    };
  }
  return definition as grpc.ServiceDefinition;
}

/** Encodes a method's request message for grpc-js. */
export function requestSerializer(method: AnyMethod): (message: unknown) => Buffer {
  return (message) => toBuffer(protobufBinary.encode(method.input, message as never));
}

/** The identity deserializer: messages are decoded later, where errors can be mapped. */
export function keepBytes(bytes: Buffer): Buffer {
  return bytes;
}

/** gRPC metadata as `Headers`; binary (`-bin`) values as base64, as on the wire. */
export function metadataToHeaders(metadata: grpc.Metadata): Headers {
  const headers = new Headers();
  const map = metadata.getMap();
  for (const key of Object.keys(map)) {
    const value = map[key]!;
    headers.set(key, typeof value === 'string' ? value : value.toString('base64'));
  }
  return headers;
}

/** The bytes as a `Buffer` without copying (protobufjs already hands out Buffers on Node). */
export function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
