/**
 * @module
 * The reference the JSON codec is checked against: the codec's JSON half as it was while it stood
 * on protobufjs (its ProtoJSON extension for canonical JSON, and the conversions between protobufjs
 * messages and Loom's plain objects), kept here unchanged so that the differential test compares
 * the plain-TypeScript codec with what Loom answered before, value for value and error for error.
 * Binary is not here: that is `protobufBinary`, which did not change.
 */
import protobuf from 'protobufjs';
import protojson from 'protobufjs/ext/protojson.js';
import { errorMessage, RpcError } from '../../../runtime/rpc/errors.js';
import type { JsonReadOptions } from '../../../runtime/rpc/types.js';

type PbType = protobuf.Type;
type PbField = protobuf.Field;
type Plain = Record<string, unknown>;

const LONG_TYPES: ReadonlySet<string> = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const UNSIGNED_LONG: ReadonlySet<string> = new Set(['uint64', 'fixed64']);
const UINT32_TYPES: ReadonlySet<string> = new Set(['uint32', 'fixed32']);
const IGNORE_UNKNOWN = { ignoreUnknownFields: true } as const;

/** How one field's value differs between protobufjs and Loom's plain objects. */
type ValueKind = 'same' | 'long' | 'message' | 'wkt';

/** How a map's keys are checked and converted: proto3 JSON spells every key as a string. */
type MapKey = 'string' | 'bool' | 'int32' | 'uint32' | 'int64' | 'uint64';

/** Where a protobufjs message came from: 64-bit map keys differ between the two. */
type Source = 'binary' | 'json';

interface FieldPlan {
  readonly name: string;
  /** `legacy.Account.id`, for error messages. */
  readonly fullName: string;
  readonly kind: ValueKind;
  readonly unsigned: boolean;
  readonly repeated: boolean;
  /** The key kind of a map field, undefined for other fields. */
  readonly mapKey: MapKey | undefined;
  /** Explicit presence (message, `optional`, oneof member, proto2): absent stays absent. */
  readonly explicit: boolean;
  /** proto2 `required`. */
  readonly required: boolean;
  /** Zero value for implicit-presence singular fields. */
  readonly zero: unknown;
  /** What a reader assumes when a singular non-message field is unset: `[default = …]` or the zero value. */
  readonly default: unknown;
  readonly type: PbType | undefined;
}

interface TypePlan {
  readonly fullName: string;
  readonly fields: readonly FieldPlan[];
  /**
   * Nothing to convert or normalise on the way to protobufjs: no int64, no nested or
   * well-known messages, no map keys but strings, and no field named like a member of
   * `Object.prototype` (which protobufjs would read from the prototype when it is unset).
   */
  readonly simple: boolean;
  /** Members of each real oneof (proto3 `optional` ones have a single member and cannot clash). */
  readonly oneofs: readonly { readonly name: string; readonly members: readonly string[] }[];
  readonly required: readonly FieldPlan[];
  readonly defaults: Readonly<Plain>;
}

type PlanOf = (type: PbType) => TypePlan;

/** What the reference does: the JSON half of a codec, and the messages it makes. */
export interface ReferenceCodec {
  readonly defaults: unknown;
  create(): unknown;
  toJson(message: object): unknown;
  fromJson(json: unknown, options?: JsonReadOptions): unknown;
}

/** Reference codecs for the types of one descriptor, as `createCodecRegistry` made them before. */
export function createReferenceRegistry(descriptor: object): { codec(typeName: string): ReferenceCodec } {
  const root = protobuf.Root.fromJSON(structuredClone(descriptor) as protobuf.INamespace);
  root.resolveAll();
  const plans = new Map<PbType, TypePlan>();
  const planOf: PlanOf = (type) => {
    let plan = plans.get(type);
    if (!plan) {
      plan = buildPlan(type);
      plans.set(type, plan);
    }
    return plan;
  };
  return {
    codec(typeName: string): ReferenceCodec {
      const type = root.lookupType(typeName);
      const name = type.fullName.slice(1);
      return {
        defaults: planOf(type).defaults,
        create: () => createPlain(type, planOf, new Set()),
        toJson(message) {
          try {
            return protojson.toJson(type, toWire(type, message as Plain, planOf));
          } catch (error) {
            throw new RpcError('invalid_argument', `cannot encode message ${name} to JSON: ${errorMessage(error)}`, { cause: error });
          }
        },
        fromJson(json, options) {
          try {
            const parsed = protojson.fromJson(type, json, options?.ignoreUnknownFields ? IGNORE_UNKNOWN : undefined);
            return toPlain(type, parsed as unknown as Plain, planOf, 'json');
          } catch (error) {
            throw new RpcError('invalid_argument', `cannot decode message ${name} from JSON: ${errorMessage(error)}`, { cause: error });
          }
        },
      };
    },
  };
}

function buildPlan(type: PbType): TypePlan {
  const fields: FieldPlan[] = [];
  const defaults: Plain = {};
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
    const mapKey = field.map ? mapKeyOf(field.keyType!) : undefined;
    const repeated = field.repeated && !field.map;
    if (kind !== 'same' || (mapKey !== undefined && mapKey !== 'string') || field.name in Object.prototype) simple = false;
    // `hasPresence` covers oneof members, proto3 `optional` and proto2 (and editions' EXPLICIT);
    // singular message fields always have presence.
    const explicit = !field.map && !repeated && (messageType !== undefined || field.hasPresence);
    const zero = zeroOf(field, kind);
    const plan: FieldPlan = {
      name: field.name,
      fullName: field.fullName.slice(1),
      kind,
      unsigned: UNSIGNED_LONG.has(field.type),
      repeated,
      mapKey,
      explicit,
      required: field.required,
      zero,
      default: messageType === undefined && field.options?.['default'] != null ? declaredDefault(field, kind) : zero,
      type: messageType,
    };
    fields.push(plan);
    if (!field.map && !repeated && messageType === undefined) defaults[plan.name] = plan.default;
  }
  const oneofs = type.oneofsArray.filter((o) => o.oneof.length > 1).map((o) => ({ name: o.name, members: [...o.oneof] }));
  return {
    fullName: type.fullName.slice(1),
    fields,
    simple,
    oneofs,
    required: fields.filter((f) => f.required),
    defaults: Object.freeze(defaults),
  };
}

function mapKeyOf(keyType: string): MapKey {
  if (keyType === 'string' || keyType === 'bool') return keyType;
  if (LONG_TYPES.has(keyType)) return UNSIGNED_LONG.has(keyType) ? 'uint64' : 'int64';
  return UINT32_TYPES.has(keyType) ? 'uint32' : 'int32';
}

function zeroOf(field: PbField, kind: ValueKind): unknown {
  if (kind === 'long') return '0';
  if (field.resolvedType instanceof protobuf.Enum) return 0;
  switch (field.type) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'bytes':
      return new Uint8Array(0);
    default:
      return 0;
  }
}

/** A proto2 `[default = …]` in Loom's shape; protobufjs has converted it to the field's type on resolve. */
function declaredDefault(field: PbField, kind: ValueKind): unknown {
  const value: unknown = (field as PbField & { typeDefault: unknown }).typeDefault;
  if (kind === 'long') return String(value);
  if (value instanceof Uint8Array) return new Uint8Array(value);
  return value;
}

/** `create()`: zero values for implicit fields and what proto2 `required` promises; set fields only. */
function createPlain(type: PbType, planOf: PlanOf, creating: Set<PbType>): Plain {
  const out: Plain = {};
  creating.add(type);
  for (const f of planOf(type).fields) {
    if (f.repeated) out[f.name] = [];
    else if (f.mapKey !== undefined) out[f.name] = {};
    else if (f.required) {
      // The type says the field is always there; a required message that contains itself
      // cannot be built at all, so the recursion stops there and leaves it to the caller.
      if (f.type === undefined) out[f.name] = fresh(f.default);
      else if (f.kind === 'message' && !creating.has(f.type)) out[f.name] = createPlain(f.type, planOf, creating);
    } else if (!f.explicit) out[f.name] = fresh(f.zero);
  }
  creating.delete(type);
  return out;
}

/** A zero or default value safe to hand out: byte arrays are mutable, so each message gets its own. */
function fresh(value: unknown): unknown {
  return value instanceof Uint8Array ? new Uint8Array(value) : value;
}

/** protobufjs message (decoded, or parsed from ProtoJSON) → Loom plain object. */
function toPlain(type: PbType, message: Plain, planOf: PlanOf, source: Source): Plain {
  const out: Plain = {};
  for (const f of planOf(type).fields) {
    const value = Object.hasOwn(message, f.name) ? message[f.name] : undefined;
    if (f.repeated) {
      const list = value as unknown[] | undefined;
      out[f.name] = list && list.length > 0 ? list.map((v) => plainValue(f, v, planOf, source)) : [];
    } else if (f.mapKey !== undefined) {
      const map: Plain = {};
      if (value) {
        for (const key of Object.keys(value)) map[plainKey(f, key, source)] = plainValue(f, (value as Plain)[key], planOf, source);
      }
      out[f.name] = map;
    } else if (value == null) {
      if (f.required) throw new Error(`${f.fullName}: missing required field`);
      if (!f.explicit) out[f.name] = fresh(f.zero);
    } else {
      out[f.name] = plainValue(f, value, planOf, source);
    }
  }
  return out;
}

/**
 * A map key as proto3 JSON spells it. protobufjs' binary decoder keys 64-bit maps by an
 * 8-character hash of the number (its `util.longToHash`); ProtoJSON already gives decimals.
 */
function plainKey(f: FieldPlan, key: string, source: Source): string {
  if (source === 'json' || (f.mapKey !== 'int64' && f.mapKey !== 'uint64')) return key;
  // Without long.js protobufjs reads 64-bit numbers as JS numbers, so keys are decimal already;
  // with it every key read is a hash (8 characters), and only a missing key is the default "0".
  if (!protobuf.util.Long || key.length !== 8) return key;
  return String(protobuf.util.longFromHash(key, f.mapKey === 'uint64'));
}

function plainValue(f: FieldPlan, value: unknown, planOf: PlanOf, source: Source): unknown {
  switch (f.kind) {
    case 'same':
      return value;
    // protobufjs gives `Long` objects (or plain numbers when they fit); both print as decimal.
    case 'long':
      return String(value);
    case 'message':
      return toPlain(f.type!, value as Plain, planOf, source);
    case 'wkt':
      return protojson.toJson(f.type!, value as Plain);
    default:
      return assertNever(f.kind);
  }
}

/** Loom plain object → something protobufjs' encoder and ProtoJSON writer accept. */
function toWire(type: PbType, message: Plain, planOf: PlanOf): Plain {
  const plan = planOf(type);
  checkPresence(plan, message);
  if (plan.simple) return message;
  // No prototype: protobufjs reads some fields without an own-property check, and a plain
  // object would offer it `Object.prototype.constructor` for an unset field named `constructor`.
  const out: Plain = Object.create(null) as Plain;
  for (const f of plan.fields) {
    const value = Object.hasOwn(message, f.name) ? message[f.name] : undefined;
    if (value === undefined || value === null) continue;
    if (f.repeated) out[f.name] = (value as unknown[]).map((v) => wireValue(f, v, planOf));
    else if (f.mapKey !== undefined) {
      const map: Plain = Object.create(null) as Plain;
      for (const key of Object.keys(value)) map[wireKey(f, key)] = wireValue(f, (value as Plain)[key], planOf);
      out[f.name] = map;
    } else if (f.kind === 'long' && !f.explicit && (value === '0' || value === 0)) {
    } else out[f.name] = wireValue(f, value, planOf);
  }
  return out;
}

/**
 * What protobufjs would write anyway but a conforming reader rejects: two members of one oneof; or
 * cannot write: a missing required field.
 */
function checkPresence(plan: TypePlan, message: Plain): void {
  for (const oneof of plan.oneofs) {
    const set = oneof.members.filter((name) => Object.hasOwn(message, name) && message[name] != null);
    if (set.length > 1) {
      throw new RpcError(
        'invalid_argument',
        `${plan.fullName}: oneof ${oneof.name} has more than one member set (${set.join(', ')}); set one, leave the others undefined`,
      );
    }
  }
  for (const f of plan.required) {
    if (!Object.hasOwn(message, f.name) || message[f.name] == null)
      throw new RpcError('invalid_argument', `${f.fullName}: required field is not set`);
  }
}

/** A map key checked and in the form protobufjs' encoder expects (decimal for integers, `true`/`false`). */
function wireKey(f: FieldPlan, key: string): string {
  switch (f.mapKey) {
    case 'string':
    case undefined:
      return key;
    case 'bool':
      if (key === 'true' || key === 'false') return key;
      break;
    case 'int32':
    case 'uint32':
    case 'int64':
    case 'uint64': {
      const unsigned = f.mapKey === 'uint32' || f.mapKey === 'uint64';
      if (!(unsigned ? /^[0-9]+$/ : /^-?[0-9]+$/).test(key)) break;
      const n = BigInt(key);
      const bits = f.mapKey === 'int32' || f.mapKey === 'uint32' ? 32 : 64;
      const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
      const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
      if (n >= min && n <= max) return n.toString();
      break;
    }
    default:
      return assertNever(f.mapKey);
  }
  throw new RpcError('invalid_argument', `${f.fullName}: invalid ${f.mapKey} map key ${JSON.stringify(key)}`);
}

function wireValue(f: FieldPlan, value: unknown, planOf: PlanOf): unknown {
  switch (f.kind) {
    case 'same':
      return value;
    case 'long':
      return typeof value === 'string' ? longFromString(value, f.unsigned) : value;
    case 'message':
      return toWire(f.type!, value as Plain, planOf);
    case 'wkt':
      try {
        return protojson.fromJson(f.type!, value);
      } catch (error) {
        throw new RpcError('invalid_argument', `invalid ${f.type!.fullName.slice(1)} in field ${f.name}: ${errorMessage(error)}`, {
          cause: error,
        });
      }
    default:
      return assertNever(f.kind);
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
