/**
 * @module
 * Loom's plain-object shape of a message type, worked out once per type: which fields are
 * present only when set, what an unset field reads as, which values differ between Loom's
 * objects and the codec's internal form, and what `create()` fills in.
 *
 * Presence: a field with explicit presence (a message, a oneof member, proto3 `optional`, every
 * proto2 singular field) is an own property of a plain object only when it is set.
 */
import { type MapKey, mapKeyOf, type PresenceRules } from './message-checks.js';
import { type DescMessage, LONG_TYPES, UNSIGNED_LONG_TYPES, zeroOfScalar } from './proto-schema.js';

/**
 * How one field's value differs between the internal form and Loom's plain objects: not at all,
 * a 64-bit integer (normalised on the way in), a message (converted field by field), or a
 * well-known type (its JSON form in Loom's objects).
 */
export type ValueKind = 'same' | 'long' | 'message' | 'wkt';

/**
 * What a conversion plan knows of one field, over the message types of one type system: the JSON
 * codec's descriptors here, protobufjs' types in the binary format (`protobuf-binary-convert.ts`).
 */
export interface FieldShape<T> {
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
  /** The message type of a message or well-known-type field. */
  readonly type: T | undefined;
}

export interface FieldPlan extends FieldShape<DescMessage> {
  /** What a reader assumes when a singular non-message field is unset: `[default = …]` or the zero value. */
  readonly default: unknown;
}

export interface TypePlan extends PresenceRules {
  readonly fields: readonly FieldPlan[];
  /**
   * Nothing to convert or normalise on the way to the internal form: no int64, no nested or
   * well-known messages, no map keys but strings, and no field named like a member of
   * `Object.prototype` (which the writer would read from the prototype when it is unset).
   */
  readonly simple: boolean;
  readonly required: readonly FieldPlan[];
  readonly defaults: Readonly<Record<string, unknown>>;
}

const plans = new WeakMap<DescMessage, TypePlan>();

/** The plan of `type`, built on first use. */
export function planOf(type: DescMessage): TypePlan {
  let plan = plans.get(type);
  if (!plan) {
    plan = buildPlan(type);
    plans.set(type, plan);
  }
  return plan;
}

function buildPlan(type: DescMessage): TypePlan {
  const fields: FieldPlan[] = [];
  const defaults: Record<string, unknown> = {};
  let simple = true;
  for (const field of type.fields) {
    let kind: ValueKind = 'same';
    if (field.message !== undefined) kind = field.message.fullName.startsWith('.google.protobuf.') ? 'wkt' : 'message';
    else if (field.scalar !== undefined && LONG_TYPES.has(field.scalar)) kind = 'long';
    const mapKey = field.map ? mapKeyOf(field.keyType!) : undefined;
    if (kind !== 'same' || (mapKey !== undefined && mapKey !== 'string') || field.name in Object.prototype) simple = false;
    const explicit = !field.map && !field.repeated && (field.message !== undefined || field.hasPresence);
    // Message fields have no zero: they are explicit. Enums are numbers.
    const zero = field.scalar !== undefined ? zeroOfScalar(field.scalar) : 0;
    const plan: FieldPlan = {
      name: field.name,
      fullName: field.fullName.slice(1),
      kind,
      unsigned: field.scalar !== undefined && UNSIGNED_LONG_TYPES.has(field.scalar),
      repeated: field.repeated,
      mapKey,
      explicit,
      required: field.required,
      zero,
      default: field.declaredDefault !== undefined ? fresh(field.declaredDefault) : zero,
      type: field.message,
    };
    fields.push(plan);
    if (!field.map && !field.repeated && field.message === undefined) defaults[plan.name] = plan.default;
  }
  return {
    fullName: type.fullName.slice(1),
    fields,
    simple,
    oneofs: type.oneofs.filter((o) => o.members.length > 1),
    required: fields.filter((f) => f.required),
    defaults: Object.freeze(defaults),
  };
}

/** A zero or default value safe to hand out: byte arrays are mutable, so each message gets its own. */
export function fresh(value: unknown): unknown {
  return value instanceof Uint8Array ? new Uint8Array(value) : value;
}

/** `create()`: zero values for implicit fields and what proto2 `required` promises; set fields only. */
export function createPlain(type: DescMessage, creating: Set<DescMessage> = new Set()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  creating.add(type);
  for (const f of planOf(type).fields) {
    if (f.repeated) out[f.name] = [];
    else if (f.mapKey !== undefined) out[f.name] = {};
    else if (f.required) {
      // The type says the field is always there; a required message that contains itself
      // cannot be built at all, so the recursion stops there and leaves it to the caller.
      if (f.type === undefined) out[f.name] = fresh(f.default);
      else if (f.kind === 'message' && !creating.has(f.type)) out[f.name] = createPlain(f.type, creating);
    } else if (!f.explicit) out[f.name] = fresh(f.zero);
  }
  creating.delete(type);
  return out;
}
