/**
 * @module
 * Between Loom's plain objects and protobufjs messages, for the binary format
 * (`protobuf-binary.ts`): zero values present, int64 as strings (protobufjs has `Long`s),
 * well-known types in JSON form (converted through protobufjs' ProtoJSON extension), 64-bit map
 * keys as decimals (protobufjs' decoder keys them by a hash). Each type gets a conversion plan
 * once; types made only of strings, numbers, bools, enums and bytes skip the conversion on encode
 * entirely, which is the common case for RPC requests.
 *
 * Presence: a field with explicit presence (a message, a oneof member, proto3 `optional`, every
 * proto2 singular field) is an own property of a plain object only when it is set, and only own
 * properties are ever read. protobufjs keeps defaults on its messages' prototypes and reads
 * inherited members of plain objects, which would turn an unset oneof member into a set zero
 * value and a field named `constructor` into `Object`.
 *
 * The JSON codec makes the same conversions over its own internal form (`codec-plain.ts`); both
 * go through `message-checks.ts` for what they refuse.
 */
import protobuf from 'protobufjs';
import protojson from 'protobufjs/ext/protojson.js';
import { assertNever } from '../util/assert-never.js';
import type { FieldShape, ValueKind } from './codec-plan.js';
import { checkPresence, decimalInteger, invalidWellKnown, mapKeyOf, normalizeMapKey, type PresenceRules } from './message-checks.js';

type PbType = protobuf.Type;
type PbField = protobuf.Field;
type Plain = Record<string, unknown>;

const LONG_TYPES: ReadonlySet<string> = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const UNSIGNED_LONG: ReadonlySet<string> = new Set(['uint64', 'fixed64']);

/** A field's plan over protobufjs' types: the same shape the JSON codec plans with. */
type FieldPlan = FieldShape<PbType>;

interface TypePlan extends PresenceRules {
  readonly fields: readonly FieldPlan[];
  /**
   * Nothing to convert or normalise on the way to protobufjs: no int64, no nested or
   * well-known messages, no map keys but strings, and no field named like a member of
   * `Object.prototype` (which protobufjs would read from the prototype when it is unset).
   */
  readonly simple: boolean;
  readonly required: readonly FieldPlan[];
}

/** The plan of a type, built once. */
export type PlanOf = (type: PbType) => TypePlan;

/** A plan cache: one per protobufjs `Root`, as plans hold its types. */
export function createPlanner(): PlanOf {
  const plans = new Map<PbType, TypePlan>();
  return (type) => {
    let plan = plans.get(type);
    if (!plan) {
      plan = buildPlan(type);
      plans.set(type, plan);
    }
    return plan;
  };
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
    const mapKey = field.map ? mapKeyOf(field.keyType!) : undefined;
    const repeated = field.repeated && !field.map;
    if (kind !== 'same' || (mapKey !== undefined && mapKey !== 'string') || field.name in Object.prototype) simple = false;
    // `hasPresence` covers oneof members, proto3 `optional` and proto2 (and editions' EXPLICIT);
    // singular message fields always have presence.
    const explicit = !field.map && !repeated && (messageType !== undefined || field.hasPresence);
    fields.push({
      name: field.name,
      fullName: field.fullName.slice(1),
      kind,
      unsigned: UNSIGNED_LONG.has(field.type),
      repeated,
      mapKey,
      explicit,
      required: field.required,
      zero: zeroOf(field, kind),
      type: messageType,
    });
  }
  const oneofs = type.oneofsArray.filter((o) => o.oneof.length > 1).map((o) => ({ name: o.name, members: [...o.oneof] }));
  return {
    fullName: type.fullName.slice(1),
    fields,
    simple,
    oneofs,
    required: fields.filter((f) => f.required),
  };
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

/** A zero value safe to hand out: byte arrays are mutable, so each message gets its own. */
function fresh(value: unknown): unknown {
  return value instanceof Uint8Array ? new Uint8Array(value) : value;
}

/** A decoded protobufjs message → Loom plain object; throws on a missing proto2 `required` field. */
export function toPlain(type: PbType, message: Plain, planOf: PlanOf): Plain {
  const out: Plain = {};
  for (const f of planOf(type).fields) {
    const value = Object.hasOwn(message, f.name) ? message[f.name] : undefined;
    if (f.repeated) {
      const list = value as unknown[] | undefined;
      out[f.name] = list && list.length > 0 ? list.map((v) => plainValue(f, v, planOf)) : [];
    } else if (f.mapKey !== undefined) {
      const map: Plain = {};
      if (value) {
        for (const key of Object.keys(value)) map[plainKey(f, key)] = plainValue(f, (value as Plain)[key], planOf);
      }
      out[f.name] = map;
    } else if (value == null) {
      if (f.required) throw new Error(`${f.fullName}: missing required field`);
      if (!f.explicit) out[f.name] = fresh(f.zero);
    } else {
      out[f.name] = plainValue(f, value, planOf);
    }
  }
  return out;
}

/**
 * A map key as proto3 JSON spells it. protobufjs' binary decoder keys 64-bit maps by an
 * 8-character hash of the number (its `util.longToHash`).
 */
function plainKey(f: FieldPlan, key: string): string {
  if (f.mapKey !== 'int64' && f.mapKey !== 'uint64') return key;
  // Without long.js protobufjs reads 64-bit numbers as JS numbers, so keys are decimal already;
  // with it every key read is a hash (8 characters), and only a missing key is the default "0".
  if (!protobuf.util.Long || key.length !== 8) return key;
  return String(protobuf.util.longFromHash(key, f.mapKey === 'uint64'));
}

function plainValue(f: FieldPlan, value: unknown, planOf: PlanOf): unknown {
  switch (f.kind) {
    case 'same':
      return value;
    // protobufjs gives `Long` objects (or plain numbers when they fit); both print as decimal.
    case 'long':
      return String(value);
    case 'message':
      return toPlain(f.type!, value as Plain, planOf);
    case 'wkt':
      return protojson.toJson(f.type!, value as Plain);
    default:
      return assertNever(f.kind, 'value kind');
  }
}

/** Loom plain object → something protobufjs' encoder accepts. */
export function toWire(type: PbType, message: Plain, planOf: PlanOf): Plain {
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
      for (const key of Object.keys(value)) map[normalizeMapKey(f.fullName, f.mapKey, key)] = wireValue(f, (value as Plain)[key], planOf);
      out[f.name] = map;
    } else if (f.kind === 'long' && !f.explicit && (value === '0' || value === 0)) {
    } else out[f.name] = wireValue(f, value, planOf);
  }
  return out;
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
        throw invalidWellKnown(f.type!.fullName, f.name, error);
      }
    default:
      return assertNever(f.kind, 'value kind');
  }
}

function longFromString(value: string, unsigned: boolean): unknown {
  const Long = protobuf.util.Long as unknown as { fromString(s: string, unsigned: boolean, radix: number): unknown };
  return Long.fromString(decimalInteger(value), unsigned, 10);
}

/** protobufjs' verifier on a message it failed to encode; it may itself trip over the same value. */
export function safeVerify(type: PbType, message: Plain): string | undefined {
  try {
    return type.verify(message) ?? undefined;
  } catch {
    return undefined;
  }
}
