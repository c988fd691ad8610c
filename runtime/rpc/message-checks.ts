/**
 * @module
 * What both codecs check in a message before they write it, JSON or binary alike, so that a
 * message refused by one is refused by the other with the same words: two members of one oneof
 * set, a proto2 `required` field missing, a map key that is not a number (or boolean) of the
 * map's key type.
 */
import { errorMessage, RpcError } from './errors.js';

/** How a map's keys are checked and spelled: proto3 JSON spells every key as a string. */
export type MapKey = 'string' | 'bool' | 'int32' | 'uint32' | 'int64' | 'uint64';

const LONG_KEYS: ReadonlySet<string> = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const UNSIGNED_KEYS: ReadonlySet<string> = new Set(['uint64', 'fixed64', 'uint32', 'fixed32']);

/** The key kind of a map whose keys are of protobuf type `keyType`. */
export function mapKeyOf(keyType: string): MapKey {
  if (keyType === 'string' || keyType === 'bool') return keyType;
  if (LONG_KEYS.has(keyType)) return UNSIGNED_KEYS.has(keyType) ? 'uint64' : 'int64';
  return UNSIGNED_KEYS.has(keyType) ? 'uint32' : 'int32';
}

/** What {@link checkPresence} needs to know about a message type. */
export interface PresenceRules {
  /** `legacy.Account`, for error messages. */
  readonly fullName: string;
  /** Members of each real oneof (proto3 `optional` ones have a single member and cannot clash). */
  readonly oneofs: readonly { readonly name: string; readonly members: readonly string[] }[];
  /** proto2 `required` fields: their property names and full names. */
  readonly required: readonly { readonly name: string; readonly fullName: string }[];
}

/**
 * Refuses what a writer could put out but a conforming reader rejects (two members of one oneof)
 * or what it cannot write (a missing `required` field), with `invalid_argument`. Reads own
 * properties only; `undefined` and `null` are "not set".
 */
export function checkPresence(rules: PresenceRules, message: Record<string, unknown>): void {
  for (const oneof of rules.oneofs) {
    const set = oneof.members.filter((name) => Object.hasOwn(message, name) && message[name] != null);
    if (set.length > 1) {
      throw new RpcError(
        'invalid_argument',
        `${rules.fullName}: oneof ${oneof.name} has more than one member set (${set.join(', ')}); set one, leave the others undefined`,
      );
    }
  }
  for (const field of rules.required) {
    if (!Object.hasOwn(message, field.name) || message[field.name] == null)
      throw new RpcError('invalid_argument', `${field.fullName}: required field is not set`);
  }
}

/**
 * A map key checked and normalised: integers in decimal without leading zeros, within the key
 * type's range; booleans as `true` or `false`. Anything else is `invalid_argument`, naming the
 * field (`fullName`) and the key.
 *
 * @example
 * normalizeMapKey('s.Keys.i64', 'int64', '007'); // '7'
 */
export function normalizeMapKey(fullName: string, mapKey: MapKey, key: string): string {
  switch (mapKey) {
    case 'string':
      return key;
    case 'bool':
      if (key === 'true' || key === 'false') return key;
      break;
    default: {
      const unsigned = mapKey === 'uint32' || mapKey === 'uint64';
      if (!(unsigned ? /^[0-9]+$/ : /^-?[0-9]+$/).test(key)) break;
      const n = BigInt(key);
      const bits = mapKey === 'int32' || mapKey === 'uint32' ? 32 : 64;
      const min = unsigned ? 0n : -(1n << BigInt(bits - 1));
      const max = unsigned ? (1n << BigInt(bits)) - 1n : (1n << BigInt(bits - 1)) - 1n;
      if (n >= min && n <= max) return n.toString();
      break;
    }
  }
  throw new RpcError('invalid_argument', `${fullName}: invalid ${mapKey} map key ${JSON.stringify(key)}`);
}

/**
 * A 64-bit integer field sent as a JSON string (as proto3 JSON writes them), checked: decimal
 * digits with an optional sign. Returns the text for the caller to turn into its long type.
 */
export function decimalInteger(value: string): string {
  if (!/^-?\d+$/.test(value)) throw new RpcError('invalid_argument', `not an integer: ${JSON.stringify(value)}`);
  return value;
}

/** The refusal of a well-known type's JSON form that does not read (a malformed Timestamp, say) in `field`. */
export function invalidWellKnown(typeName: string, field: string, error: unknown): RpcError {
  return new RpcError('invalid_argument', `invalid ${typeName.slice(1)} in field ${field}: ${errorMessage(error)}`, { cause: error });
}
