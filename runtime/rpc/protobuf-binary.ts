/**
 * @module
 * `protobufBinary`: protobuf's binary encoding of a codec's messages (`application/proto`, gRPC),
 * over protobufjs, apart from the JSON codec so that code speaking JSON alone (a browser's Connect
 * client) never loads protobufjs. The protobufjs `Root` of a descriptor is built once, on first
 * use, and shared by every codec of that descriptor.
 */
import protobuf from 'protobufjs';
import { errorMessage, RpcError } from './errors.js';
import { createPlanner, type PlanOf, safeVerify, toPlain, toWire } from './protobuf-binary-convert.js';
import type { BinaryFormat, MessageCodec, MessageInit } from './types.js';

type Plain = Record<string, unknown>;

/** A codec's type as protobufjs reflects it, with the plans of its descriptor's types. */
interface BinaryType {
  readonly type: protobuf.Type;
  readonly planOf: PlanOf;
}

/** The protobufjs root of a descriptor, and the plans of its types. */
interface BinarySchema {
  readonly root: protobuf.Root;
  readonly planOf: PlanOf;
}

// Keyed by the descriptor object a generated `X.codec.ts` embeds (and by codec, for the lookup):
// they live as long as the module that made them, and no longer here.
const schemas = new WeakMap<object, BinarySchema>();
const types = new WeakMap<MessageCodec<unknown>, BinaryType>();

function binaryTypeOf(codec: MessageCodec<unknown>): BinaryType {
  let found = types.get(codec);
  if (found) return found;
  const descriptor = codec.descriptor;
  if (typeof descriptor !== 'object' || descriptor === null) {
    throw new TypeError(`protobufBinary needs a codec made by createCodecRegistry; ${codec.typeName} has no descriptor`);
  }
  let schema = schemas.get(descriptor);
  if (!schema) {
    const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
    root.resolveAll();
    schema = { root, planOf: createPlanner() };
    schemas.set(descriptor, schema);
  }
  found = { type: schema.root.lookupType(codec.typeName), planOf: schema.planOf };
  types.set(codec, found);
  return found;
}

/**
 * Protobuf binary, over protobufjs: byte for byte what protobufjs writes for the type, read back
 * into Loom's plain objects (64-bit integers as decimal strings, well-known types in their JSON
 * form). Refuses, with `RpcError('invalid_argument')`, what it cannot write faithfully (two
 * members of one oneof, a missing proto2 `required` field, a value of the wrong type) and bytes
 * that are not a message of the type.
 *
 * @example
 * ```ts
 * const bytes = protobufBinary.encode(GetServiceRequestCodec, { name: 'sshd' });
 * protobufBinary.decode(GetServiceRequestCodec, bytes); // { name: 'sshd' }
 * const system = createConnectClient(SystemServiceDescriptor, { baseUrl, binary: protobufBinary });
 * ```
 */
export const protobufBinary: BinaryFormat = {
  encode<T>(codec: MessageCodec<T>, message: MessageInit<T>): Uint8Array {
    const { type, planOf } = binaryTypeOf(codec as MessageCodec<unknown>);
    let wire: Plain | undefined;
    try {
      wire = toWire(type, message as Plain, planOf);
      return type.encode(wire).finish();
    } catch (error) {
      // protobufjs fails deep inside its generated encoder (`string.charCodeAt is not a function`);
      // its verifier names the field and what it expected instead.
      const reason =
        error instanceof RpcError || wire === undefined ? errorMessage(error) : (safeVerify(type, wire) ?? errorMessage(error));
      throw new RpcError('invalid_argument', `cannot encode message ${codec.typeName} to binary: ${reason}`, { cause: error });
    }
  },

  decode<T>(codec: MessageCodec<T>, bytes: Uint8Array): T {
    const { type, planOf } = binaryTypeOf(codec as MessageCodec<unknown>);
    try {
      return toPlain(type, type.decode(bytes) as unknown as Plain, planOf) as T;
    } catch (error) {
      throw new RpcError('invalid_argument', `cannot decode message ${codec.typeName} from binary: ${errorMessage(error)}`, {
        cause: error,
      });
    }
  },
};
