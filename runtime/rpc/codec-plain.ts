/**
 * @module
 * Between Loom's plain objects and the JSON codec's internal form (`proto-json.ts`): zero values
 * present for implicit fields, 64-bit integers as decimal strings (checked, and wrapped to their
 * type as protobufjs wraps them), map keys checked and normalised, well-known types in their
 * JSON form, proto2 `required` fields checked.
 *
 * The same conversions, over protobufjs messages, are the binary format's
 * (`protobuf-binary-convert.ts`); both go through `message-checks.ts` for what they refuse.
 */

import { assertNever } from '../util/assert-never.js';
import { type FieldPlan, fresh, planOf } from './codec-plan.js';
import { wrapLong } from './long.js';
import { checkPresence, decimalInteger, invalidWellKnown, normalizeMapKey } from './message-checks.js';
import { PackedAny, type ProtoMessage, readMessage, writeMessage } from './proto-json.js';
import type { DescMessage } from './proto-schema.js';

type Plain = Record<string, unknown>;

/** Internal form (as read from JSON) → Loom's plain object; throws on a missing proto2 `required` field. */
export function toPlain(type: DescMessage, message: ProtoMessage): Plain {
  const out: Plain = {};
  for (const f of planOf(type).fields) {
    const value = Object.hasOwn(message, f.name) ? message[f.name] : undefined;
    if (f.repeated) {
      const list = value as unknown[] | undefined;
      out[f.name] = list && list.length > 0 ? list.map((v) => plainValue(f, v)) : [];
    } else if (f.mapKey !== undefined) {
      const map: Plain = {};
      if (value) for (const key of Object.keys(value)) map[key] = plainValue(f, (value as Plain)[key]);
      out[f.name] = map;
    } else if (value == null) {
      if (f.required) throw new Error(`${f.fullName}: missing required field`);
      if (!f.explicit) out[f.name] = fresh(f.zero);
    } else {
      out[f.name] = plainValue(f, value);
    }
  }
  return out;
}

function plainValue(f: FieldPlan, value: unknown): unknown {
  switch (f.kind) {
    case 'same':
      // Only a `google.protobuf.Any` codec of its own meets one: the message it holds would be its bytes.
      if (value instanceof PackedAny) {
        throw new Error(`a google.protobuf.Any holds its message as bytes in a message of its own, which needs protobufBinary`);
      }
      return value;
    case 'long':
      return String(value);
    case 'message':
      return toPlain(f.type!, value as ProtoMessage);
    case 'wkt':
      return writeMessage(f.type!, value as ProtoMessage, 0);
    default:
      return assertNever(f.kind, 'value kind');
  }
}

/**
 * Loom's plain object → internal form, for the JSON writer. Refuses (`invalid_argument`) what
 * the binary format refuses too: two members of one oneof, a missing `required` field, a map
 * key or 64-bit integer that is not a number, a well-known type whose JSON form is not valid.
 */
export function fromPlain(type: DescMessage, message: Plain): ProtoMessage {
  const plan = planOf(type);
  checkPresence(plan, message);
  if (plan.simple) return message;
  // No prototype: the writer reads fields without an own-property check, and a plain object
  // would offer it `Object.prototype.constructor` for an unset field named `constructor`.
  const out = Object.create(null) as ProtoMessage;
  for (const f of plan.fields) {
    const value = Object.hasOwn(message, f.name) ? message[f.name] : undefined;
    if (value === undefined || value === null) continue;
    if (f.repeated) out[f.name] = (value as unknown[]).map((v) => internalValue(f, v));
    else if (f.mapKey !== undefined) {
      const map = Object.create(null) as Plain;
      for (const key of Object.keys(value)) map[normalizeMapKey(f.fullName, f.mapKey, key)] = internalValue(f, (value as Plain)[key]);
      out[f.name] = map;
    } else if (f.kind === 'long' && !f.explicit && (value === '0' || value === 0)) {
      // Implicit zero: not written, whatever its spelling.
    } else out[f.name] = internalValue(f, value);
  }
  return out;
}

function internalValue(f: FieldPlan, value: unknown): unknown {
  switch (f.kind) {
    case 'same':
      return value;
    case 'long':
      return typeof value === 'string' ? longFromString(value, f.unsigned) : value;
    case 'message':
      return fromPlain(f.type!, value as Plain);
    case 'wkt':
      try {
        return readMessage(f.type!, value, {}, 0);
      } catch (error) {
        throw invalidWellKnown(f.type!.fullName, f.name, error);
      }
    default:
      return assertNever(f.kind, 'value kind');
  }
}

/** A 64-bit integer written as a decimal string; wrapped to the type's range, as the binary format writes it. */
function longFromString(value: string, unsigned: boolean): string {
  return wrapLong(decimalInteger(value), unsigned);
}
