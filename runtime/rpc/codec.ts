/**
 * @module
 * `MessageCodec`s over protobufjs reflection, built from the JSON descriptor a
 * generated `X.codec.ts` embeds.
 *
 * protobufjs does the wire work (its per-type generated encoders and decoders)
 * and its ProtoJSON extension the canonical JSON; this module converts between
 * protobufjs messages and Loom's plain objects (zero values present, int64 as
 * strings, well-known types in JSON form). Each type gets a conversion plan
 * once; types made only of strings, numbers, bools, enums and bytes skip the
 * conversion on encode entirely, which is the common case for RPC requests.
 */
import protobuf from 'protobufjs';
import protojson from 'protobufjs/ext/protojson.js';
import { RpcError, errorMessage } from './errors.js';
import type { JsonReadOptions, MessageCodec } from './types.js';

type PbType = protobuf.Type;
type PbField = protobuf.Field;
type Plain = Record<string, unknown>;

const LONG_TYPES: ReadonlySet<string> = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const UNSIGNED_LONG: ReadonlySet<string> = new Set(['uint64', 'fixed64']);
const IGNORE_UNKNOWN = { ignoreUnknownFields: true } as const;

/** How one field's value differs between protobufjs and Loom's plain objects. */
type ValueKind = 'same' | 'long' | 'message' | 'wkt';

interface FieldPlan {
  readonly name: string;
  readonly kind: ValueKind;
  readonly unsigned: boolean;
  readonly repeated: boolean;
  readonly map: boolean;
  /** Explicit presence (message, `optional`, oneof member): absent stays absent. */
  readonly explicit: boolean;
  /** Zero value for implicit-presence singular fields. */
  readonly zero: unknown;
  readonly type: PbType | undefined;
}

interface TypePlan {
  readonly fields: readonly FieldPlan[];
  /** Nothing to convert on the way to protobufjs (no int64, no nested or well-known messages). */
  readonly simple: boolean;
}

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
  codec<T>(typeName: string): MessageCodec<T>;
}

/** Parses a protobufjs JSON descriptor (`Root.toJSON()` shape) once and hands out codecs for its types. */
export function createCodecRegistry(descriptor: object): CodecRegistry {
  const root = protobuf.Root.fromJSON(descriptor as protobuf.INamespace);
  root.resolveAll();
  const plans = new Map<PbType, TypePlan>();
  const planOf = (type: PbType): TypePlan => {
    let plan = plans.get(type);
    if (!plan) {
      plan = buildPlan(type);
      plans.set(type, plan);
    }
    return plan;
  };
  return {
    codec<T>(typeName: string): MessageCodec<T> {
      return new ReflectionCodec<T>(root.lookupType(typeName), planOf);
    },
  };
}

class ReflectionCodec<T> implements MessageCodec<T> {
  readonly typeName: string;
  readonly #type: PbType;
  readonly #planOf: (type: PbType) => TypePlan;

  constructor(type: PbType, planOf: (type: PbType) => TypePlan) {
    this.#type = type;
    this.#planOf = planOf;
    this.typeName = type.fullName.slice(1);
  }

  create(init?: Partial<T>): T {
    const out = toPlain(this.#type, {}, this.#planOf) as Plain;
    if (init) for (const key of Object.keys(init)) out[key] = (init as Plain)[key];
    return out as T;
  }

  encode(message: Partial<T>): Uint8Array {
    const wire = toWire(this.#type, message as Plain, this.#planOf);
    return this.#type.encode(wire).finish();
  }

  decode(bytes: Uint8Array): T {
    let decoded: protobuf.Message;
    try {
      decoded = this.#type.decode(bytes);
    } catch (error) {
      throw new RpcError('invalid_argument', `cannot decode message ${this.typeName} from binary: ${errorMessage(error)}`, { cause: error });
    }
    return toPlain(this.#type, decoded as unknown as Plain, this.#planOf) as T;
  }

  toJson(message: Partial<T>): unknown {
    return protojson.toJson(this.#type, toWire(this.#type, message as Plain, this.#planOf));
  }

  fromJson(json: unknown, options?: JsonReadOptions): T {
    let parsed: protobuf.Message;
    try {
      parsed = protojson.fromJson(this.#type, json, options?.ignoreUnknownFields ? IGNORE_UNKNOWN : undefined);
    } catch (error) {
      throw new RpcError('invalid_argument', `cannot decode message ${this.typeName} from JSON: ${errorMessage(error)}`, { cause: error });
    }
    return toPlain(this.#type, parsed as unknown as Plain, this.#planOf) as T;
  }
}

function buildPlan(type: PbType): TypePlan {
  const fields: FieldPlan[] = [];
  let simple = true;
  for (const raw of type.fieldsArray) {
    const field = raw.resolve() as PbField & { keyType?: string };
    const resolved = field.resolvedType;
    let kind: ValueKind = 'same';
    let messageType: PbType | undefined;
    if (resolved instanceof protobuf.Type) {
      messageType = resolved;
      kind = resolved.fullName.startsWith('.google.protobuf.') ? 'wkt' : 'message';
    } else if (LONG_TYPES.has(field.type)) {
      kind = 'long';
    }
    const isMap = field.map === true;
    // Map keys of 64-bit types are strings in both shapes; only values may need converting.
    if (kind !== 'same') simple = false;
    const explicit = !isMap && !field.repeated && (messageType !== undefined || field.partOf !== null || field.options?.['proto3_optional'] === true);
    fields.push({
      name: field.name,
      kind,
      unsigned: UNSIGNED_LONG.has(field.type),
      repeated: field.repeated && !isMap,
      map: isMap,
      explicit,
      zero: zeroOf(field, kind),
      type: messageType,
    });
  }
  return { fields, simple };
}

function zeroOf(field: PbField, kind: ValueKind): unknown {
  if (kind === 'long') return '0';
  if (field.resolvedType instanceof protobuf.Enum) return 0;
  switch (field.type) {
    case 'string': return '';
    case 'bool': return false;
    case 'bytes': return new Uint8Array(0);
    default: return 0;
  }
}

/** protobufjs message (or ProtoJSON-parsed message) → Loom plain object. */
function toPlain(type: PbType, message: Plain, planOf: (type: PbType) => TypePlan): Plain {
  const out: Plain = {};
  for (const f of planOf(type).fields) {
    const value = message[f.name];
    if (f.repeated) {
      const list = value as unknown[] | undefined;
      out[f.name] = list && list.length > 0 ? list.map((v) => plainValue(f, v, planOf)) : [];
    } else if (f.map) {
      const map: Plain = {};
      if (value) for (const key of Object.keys(value)) map[key] = plainValue(f, (value as Plain)[key], planOf);
      out[f.name] = map;
    } else if (value == null) {
      if (!f.explicit) out[f.name] = f.kind === 'same' && f.zero instanceof Uint8Array ? new Uint8Array(0) : f.zero;
    } else {
      out[f.name] = plainValue(f, value, planOf);
    }
  }
  return out;
}

function plainValue(f: FieldPlan, value: unknown, planOf: (type: PbType) => TypePlan): unknown {
  switch (f.kind) {
    case 'same': return value;
    // protobufjs gives `Long` objects (or plain numbers when they fit); both print as decimal.
    case 'long': return String(value);
    case 'message': return toPlain(f.type!, value as Plain, planOf);
    case 'wkt': return protojson.toJson(f.type!, value as Plain);
    default: return assertNever(f.kind);
  }
}

/** Loom plain object → something protobufjs' encoder and ProtoJSON writer accept. */
function toWire(type: PbType, message: Plain, planOf: (type: PbType) => TypePlan): Plain {
  const plan = planOf(type);
  if (plan.simple) return message;
  const out: Plain = {};
  for (const f of plan.fields) {
    const value = message[f.name];
    if (value === undefined || value === null) continue;
    if (f.repeated) out[f.name] = (value as unknown[]).map((v) => wireValue(f, v, planOf));
    else if (f.map) {
      const map: Plain = {};
      for (const key of Object.keys(value)) map[key] = wireValue(f, (value as Plain)[key], planOf);
      out[f.name] = map;
    } else if (f.kind === 'long' && !f.explicit && (value === '0' || value === 0)) {
      // Implicit zero: protobufjs would write a string "0" since it only recognises numeric and Long zeros.
      continue;
    } else out[f.name] = wireValue(f, value, planOf);
  }
  return out;
}

function wireValue(f: FieldPlan, value: unknown, planOf: (type: PbType) => TypePlan): unknown {
  switch (f.kind) {
    case 'same': return value;
    case 'long': return typeof value === 'string' ? longFromString(value, f.unsigned) : value;
    case 'message': return toWire(f.type!, value as Plain, planOf);
    case 'wkt':
      try {
        return protojson.fromJson(f.type!, value);
      } catch (error) {
        throw new RpcError('invalid_argument', `invalid ${f.type!.fullName.slice(1)} in field ${f.name}: ${errorMessage(error)}`, { cause: error });
      }
    default: return assertNever(f.kind);
  }
}

function longFromString(value: string, unsigned: boolean): unknown {
  if (!/^-?\d+$/.test(value)) throw new RpcError('invalid_argument', `not an integer: ${JSON.stringify(value)}`);
  const Long = protobuf.util.Long as unknown as { fromString(s: string, unsigned: boolean, radix: number): unknown };
  return Long.fromString(value, unsigned, 10);
}

function assertNever(value: never): never {
  throw new Error(`unexpected value kind: ${String(value)}`);
}
