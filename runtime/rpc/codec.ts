/**
 * @module
 * `MessageCodec`s built from the JSON descriptor a generated `X.codec.ts` embeds: Loom's
 * plain-object messages and their proto3 canonical JSON, in plain TypeScript (no protobufjs, no
 * `node:` module), so that a JSON Connect client runs in browsers, Deno, Bun and edge workers.
 * Protobuf binary is a format object apart (`protobufBinary`, `protobuf-binary.ts`).
 *
 * The JSON is protobufjs' (its ProtoJSON extension), value for value and error for error:
 * `proto-schema.ts` reads the descriptor as protobufjs does, `proto-json.ts` reads and writes
 * ProtoJSON as protobufjs does, `codec-plain.ts` converts between that and Loom's objects.
 */

import { fromPlain, toPlain } from './codec-plain.js';
import { createPlain, planOf } from './codec-plan.js';
import { errorMessage, RpcError } from './errors.js';
import { type ReadOptions, readMessage, writeMessage } from './proto-json.js';
import { type DescMessage, readSchema } from './proto-schema.js';
import type { JsonReadOptions, MessageCodec, MessageInit } from './types.js';

const STRICT: ReadOptions = {};
const IGNORE_UNKNOWN: ReadOptions = { ignoreUnknownFields: true };

/**
 * Builds codecs for the message types of one descriptor.
 *
 * @example
 * ```ts
 * const registry = createCodecRegistry(descriptor);
 * export const GetServiceRequestCodec: MessageCodec<GetServiceRequest> = registry.codec('v1alpha1.GetServiceRequest');
 * ```
 */
export interface CodecRegistry {
  /** The codec of a message type, by its fully-qualified name; throws `no such type: …` for a name the descriptor lacks. */
  codec<T>(typeName: string): MessageCodec<T>;
}

/**
 * Reads a protobufjs JSON descriptor (`Root.toJSON()` shape) once and hands out codecs for its
 * types. Throws, as protobufjs does, on a type reference it cannot resolve or an unknown edition.
 */
export function createCodecRegistry(descriptor: object): CodecRegistry {
  const schema = readSchema(descriptor);
  return {
    codec<T>(typeName: string): MessageCodec<T> {
      return new JsonCodec<T>(schema.lookupMessage(typeName), descriptor);
    },
  };
}

class JsonCodec<T> implements MessageCodec<T> {
  readonly typeName: string;
  readonly #type: DescMessage;
  readonly #descriptor: object;

  constructor(type: DescMessage, descriptor: object) {
    this.#type = type;
    this.#descriptor = descriptor;
    this.typeName = type.fullName.slice(1);
  }

  // A getter, so that the handle stays out of `Object.keys()`, spreads and test diffs.
  get descriptor(): object {
    return this.#descriptor;
  }

  get defaults(): Readonly<Partial<T>> {
    return planOf(this.#type).defaults as Partial<T>;
  }

  create(init?: MessageInit<T>): T {
    const out = createPlain(this.#type);
    if (init) for (const key of Object.keys(init)) out[key] = (init as Record<string, unknown>)[key];
    return out as T;
  }

  toJson(message: MessageInit<T>): unknown {
    try {
      return writeMessage(this.#type, fromPlain(this.#type, message as Record<string, unknown>), 0);
    } catch (error) {
      throw new RpcError('invalid_argument', `cannot encode message ${this.typeName} to JSON: ${errorMessage(error)}`, { cause: error });
    }
  }

  fromJson(json: unknown, options?: JsonReadOptions): T {
    try {
      const message = readMessage(this.#type, json, options?.ignoreUnknownFields ? IGNORE_UNKNOWN : STRICT, 0);
      return toPlain(this.#type, message) as T;
    } catch (error) {
      throw new RpcError('invalid_argument', `cannot decode message ${this.typeName} from JSON: ${errorMessage(error)}`, { cause: error });
    }
  }
}
