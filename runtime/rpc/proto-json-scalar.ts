/**
 * @module
 * Proto3 JSON scalars and enums, read and written as protobufjs' ProtoJSON extension does, with
 * its error messages: integers from numbers or strings (exponents and `+` allowed, fractions
 * and out-of-range values refused), 64-bit integers as decimal strings, floats with `NaN` and
 * the infinities as strings, bytes as base64, strings checked for lone surrogates, enums by name
 * or number.
 *
 * Values are in the codec's internal form: 64-bit integers as normalised decimal strings (where
 * protobufjs has `Long`s), bytes as `Uint8Array`s, enums as numbers.
 */
import { decodeBase64, encodeBase64 } from './base64.js';
import { type DescEnum, type DescField, LONG_TYPES, type ScalarType, UNSIGNED_LONG_TYPES } from './proto-schema.js';

/** What a reader returns for an unknown enum name it was told to skip: the element or field is left out. */
export const SKIP: unique symbol = Symbol('skip');

/** Reading options of the ProtoJSON reader. */
export interface ReadOptions {
  readonly ignoreUnknownFields?: boolean;
}

const INT_RANGE: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int32: [-2147483648n, 2147483647n],
  sint32: [-2147483648n, 2147483647n],
  sfixed32: [-2147483648n, 2147483647n],
  uint32: [0n, 4294967295n],
  fixed32: [0n, 4294967295n],
  int64: [-9223372036854775808n, 9223372036854775807n],
  sint64: [-9223372036854775808n, 9223372036854775807n],
  sfixed64: [-9223372036854775808n, 9223372036854775807n],
  uint64: [0n, 18446744073709551615n],
  fixed64: [0n, 18446744073709551615n],
};

const MAX_FLOAT = 3.4028234663852886e38;
const NUMERIC_RE = /^[+-]?(?:[0-9]*\.[0-9]+|[0-9]+\.?)(?:[eE][+-]?[0-9]+)?$/;
const EDGE_SPACE_RE = /^\s|\s$/;

/** The error protobufjs raises for a value: `<name>: <what>: <value as JSON>`. */
export function invalid(name: string, value: unknown, what: string): Error {
  return new Error(`${name}: ${what}: ${JSON.stringify(value)}`);
}

function normalizeIntegerString(text: string, name: string, what: string): string {
  let str = text.replace(/^\+/, '').replace(/^(-?)0+(?=\d)/, '$1');
  if (str === '-0') str = '0';
  // Longer than the longest 64-bit integer: refused before BigInt reads it.
  if (str.length > 20) throw new Error(`${name}: out of range for ${what}`);
  return str;
}

function numberToIntString(num: number): string {
  return num >= -9007199254740991 && num <= 9007199254740991 ? String(num) : num.toFixed(0);
}

/** An integer of `type` from a JSON number or string, as a normalised decimal string. */
function parseIntegerString(value: unknown, type: string, name: string): string {
  let str: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.floor(value) !== value) throw invalid(name, value, 'not an integer');
    str = numberToIntString(value);
  } else if (typeof value === 'string') {
    if (value.length === 0 || EDGE_SPACE_RE.test(value)) throw invalid(name, value, 'invalid integer');
    if (/^[+-]?[0-9]+$/.test(value)) str = value;
    else if (NUMERIC_RE.test(value)) {
      const num = Number(value);
      if (!Number.isFinite(num) || Math.floor(num) !== num) throw invalid(name, value, 'not an integer');
      str = numberToIntString(num);
    } else throw invalid(name, value, 'invalid integer');
  } else throw invalid(name, value, 'expected integer (number or string)');
  const [min, max] = INT_RANGE[type]!;
  str = normalizeIntegerString(str, name, type);
  const big = BigInt(str);
  if (big < min || big > max) throw invalid(name, value, `out of range for ${type}`);
  return str;
}

function parseFloat32Or64(value: unknown, isFloat: boolean, name: string): number {
  let num: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(name, value, 'number out of range');
    num = value;
  } else if (value === 'NaN') return Number.NaN;
  else if (value === 'Infinity') return Number.POSITIVE_INFINITY;
  else if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
  else if (typeof value === 'string') {
    if (value.length === 0 || EDGE_SPACE_RE.test(value) || !NUMERIC_RE.test(value)) throw invalid(name, value, 'invalid number');
    num = Number(value);
    if (!Number.isFinite(num)) throw invalid(name, value, 'invalid number');
  } else throw invalid(name, value, 'expected number');
  if (isFloat && Math.abs(num) > MAX_FLOAT) throw invalid(name, value, 'out of range for float');
  return num;
}

/** Refuses a string with a lone surrogate, which has no UTF-8 form. */
export function validateUtf16(value: string, name: string): void {
  for (let i = 0; i < value.length; ++i) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) throw invalid(name, value, 'unpaired high surrogate');
      ++i;
    } else if (c >= 0xdc00 && c <= 0xdfff) throw invalid(name, value, 'unpaired low surrogate');
  }
}

function parseBytes(value: unknown, name: string): Uint8Array {
  if (typeof value !== 'string') throw invalid(name, value, 'expected base64 string');
  return decodeBase64(value);
}

/** A scalar of `type` from its JSON value; `name` (a field's full name) goes into error messages. */
export function readScalar(type: ScalarType, value: unknown, name: string): unknown {
  switch (type) {
    case 'int32':
    case 'sint32':
    case 'sfixed32':
    case 'uint32':
    case 'fixed32':
      return Number(parseIntegerString(value, type, name));
    case 'int64':
    case 'sint64':
    case 'sfixed64':
    case 'uint64':
    case 'fixed64':
      return parseIntegerString(value, type, name);
    case 'float':
      return parseFloat32Or64(value, true, name);
    case 'double':
      return parseFloat32Or64(value, false, name);
    case 'bool':
      if (typeof value !== 'boolean') throw invalid(name, value, 'expected boolean');
      return value;
    case 'string':
      if (typeof value !== 'string') throw invalid(name, value, 'expected string');
      validateUtf16(value, name);
      return value;
    case 'bytes':
      return parseBytes(value, name);
    default:
      throw new Error(`${name}: unsupported scalar type ${String(type)}`);
  }
}

/** An enum value from its JSON name (or `json_name`-like alias) or number; {@link SKIP} for an unknown name when asked. */
export function readEnum(type: DescEnum, value: unknown, name: string, options: ReadOptions): number | typeof SKIP {
  if (typeof value === 'string') {
    if (Object.hasOwn(type.values, value)) return type.values[value]!;
    for (const [valueName, jsonName] of type.jsonNames) if (jsonName === value) return type.values[valueName]!;
    if (options.ignoreUnknownFields) return SKIP;
    throw invalid(name, value, 'unknown enum value');
  }
  if (typeof value === 'number') {
    if ((value | 0) !== value) throw invalid(name, value, 'invalid enum number');
    if (type.closed && type.valuesById[String(value)] === undefined) throw invalid(name, value, 'unknown enum value');
    return value;
  }
  if (value === null && type.fullName === '.google.protobuf.NullValue') return 0;
  throw invalid(name, value, 'expected enum string or number');
}

function parseMapIntegerKey(key: string, type: ScalarType, name: string): string {
  const unsigned = type === 'uint32' || type === 'fixed32' || type === 'uint64' || type === 'fixed64';
  if (!(unsigned ? /^[0-9]+$/ : /^-?[0-9]+$/).test(key)) throw invalid(name, key, `invalid ${type} map key`);
  const [min, max] = INT_RANGE[type]!;
  const normalized = normalizeIntegerString(key, name, `${type} map key`);
  const big = BigInt(normalized);
  if (big < min || big > max) throw invalid(name, normalized, `out of range for ${type} map key`);
  return big.toString();
}

/** A map key of `field` from its JSON spelling, normalised (`"007"` is `"7"`). */
export function readMapKey(field: DescField, key: string): string {
  switch (field.keyType) {
    case 'bool':
      if (key !== 'true' && key !== 'false') throw invalid(field.fullName, key, 'invalid bool map key');
      return key;
    case 'string':
      validateUtf16(key, field.fullName);
      return key;
    case 'int32':
    case 'sint32':
    case 'sfixed32':
    case 'uint32':
    case 'fixed32':
    case 'int64':
    case 'sint64':
    case 'sfixed64':
    case 'uint64':
    case 'fixed64':
      return parseMapIntegerKey(key, field.keyType, field.fullName);
    default:
      throw new Error(`${field.fullName}: unsupported map key type ${String(field.keyType)}`);
  }
}

/** A scalar's JSON value: 64-bit integers and non-finite floats as strings, bytes as base64, the rest as they are. */
export function writeScalar(type: ScalarType, value: unknown): unknown {
  switch (type) {
    case 'int64':
    case 'sint64':
    case 'sfixed64':
    case 'uint64':
    case 'fixed64':
      return value == null ? '0' : String(value);
    case 'float':
    case 'double':
      return typeof value === 'number' && !Number.isFinite(value) ? String(value) : value;
    case 'bytes':
      return value == null ? '' : encodeBase64(value as ArrayLike<number>);
    default:
      return value;
  }
}

/** An enum value's JSON: its first name (or its JSON alias); a number without a name as the number. */
export function writeEnum(type: DescEnum, value: unknown): unknown {
  if (type.fullName === '.google.protobuf.NullValue') return null;
  const name = type.valuesById[String(value)];
  if (name === undefined) return value;
  return type.jsonNames.get(name) ?? name;
}

/** A 64-bit (or any) integer value as a number, as protobufjs' `longToNumber` reads one for zero checks. */
export function longToNumber(value: unknown): number {
  if (value == null) return 0;
  if (typeof value === 'number') return value;
  if (typeof (value as { toNumber?: unknown }).toNumber === 'function') return (value as { toNumber(): number }).toNumber();
  return Number(value) || 0;
}

/**
 * Whether `value` is the zero value of an implicit-presence field, which proto3 neither writes nor
 * keeps: never for fields with presence, lists, maps and messages.
 */
export function isImplicitDefault(field: DescField, value: unknown): boolean {
  if (field.hasPresence || field.repeated || field.map || field.message !== undefined) return false;
  if (field.enum !== undefined) return value === 0;
  switch (field.scalar) {
    case 'bool':
      return value === false;
    case 'string':
      return value === '';
    case 'bytes':
      return value == null || (value as { length?: number }).length === 0;
    default:
      return longToNumber(value) === 0;
  }
}

/** Whether `type` is a 64-bit integer type. */
export function isLong(type: ScalarType | undefined): boolean {
  return type !== undefined && LONG_TYPES.has(type);
}

/** Whether `type` is an unsigned 64-bit integer type. */
export function isUnsignedLong(type: ScalarType | undefined): boolean {
  return type !== undefined && UNSIGNED_LONG_TYPES.has(type);
}
