/**
 * @module
 * Proto message → JSON Schema for **validators**: a schema that accepts exactly the proto3 JSON
 * the codec's `fromJson` (protobufjs' ProtoJSON reader) accepts, and rejects what it rejects.
 *
 * What that takes beyond a plain object schema, per the proto3 JSON mapping:
 * - every field under each name a reader accepts: its JSON name (`createdAt`), its proto name
 *   (`created_at`) and the generated property name, but only one of them at a time;
 * - `null` for any field, meaning "not set" (except in list elements and map values, where
 *   only `google.protobuf.Value` and `NullValue` take it);
 * - integers as numbers or strings (`5`, `"5"`, `"1e2"`, `"-0"`), range-checked per type;
 *   floats as numbers or strings, `"NaN"`, `"Infinity"`, `"-Infinity"`;
 * - bytes as standard or URL-safe base64, padded or not; strings well-formed UTF-16;
 * - open (proto3) enums as a known name or any int32, closed (proto2) ones as a known name or
 *   number;
 * - at most one member of a oneof set (a `null` member is not set);
 * - map keys that parse as the key type (`{"abc": …}` is refused for `map<int64, …>`);
 * - proto2 `required` fields present and not `null`;
 * - well-known types in their JSON forms, as strictly as the reader takes them (timestamps in
 *   RFC 3339 with `T` and an offset, between years 1 and 9999; durations within ±10,000 years).
 *
 * The string checks are formats (`proto-int64`, `proto-bytes`, …) whose sources are in
 * {@link PROTO_FORMATS}, copied into generated validators beside the others.
 *
 * What a schema cannot check, so validators accept it while `fromJson` refuses it: two map keys
 * that are the same number spelled differently (`"1"` and `"01"`), a `google.protobuf.Any`
 * whose `@type` names a type the codec does not know or whose fields do not fit that type, and
 * lone surrogates inside `Struct`, `Value` and `ListValue`.
 *
 * Documents (`X.openapi.json`) keep the plain, readable form from `json-schema.ts`.
 */
import type { EnumType, Field, MessageType, NamedType, ScalarName, TypeRef, WellKnownType } from '../model/model.js';
import { assertNever } from '../model/type-utils.js';
import { withDoc, type JsonSchema, type JsonSchemaOptions } from './json-schema.js';

const MAX_FLOAT = 3.4028234663852886e38;

/** Integer ranges as the formats and `minimum`/`maximum` check them. */
const RANGES = {
  int32: { min: '-2147483648', max: '2147483647' },
  uint32: { min: '0', max: '4294967295' },
  int64: { min: '-9223372036854775808', max: '9223372036854775807' },
  uint64: { min: '0', max: '18446744073709551615' },
} as const;
type IntKind = keyof typeof RANGES;

/** `^[+-]?(digits with an optional fraction)(exponent)?$`: ProtoJSON's number syntax for strings. */
const NUMERIC = String.raw`/^[+-]?(?:[0-9]*\.[0-9]+|[0-9]+\.?)(?:[eE][+-]?[0-9]+)?$/`;

/** An integer's string form, as ProtoJSON's `parseIntegerString` takes it: decimal, or a number with an integral value. */
function integerFormat(kind: IntKind): string {
  const { min, max } = RANGES[kind];
  return (
    `(s) => { if (s === '' || /^\\s|\\s$/.test(s)) return false; let n; ` +
    `if (/^[+-]?[0-9]+$/.test(s)) n = BigInt(s); ` +
    `else if (${NUMERIC}.test(s)) { const x = Number(s); if (!Number.isFinite(x) || Math.floor(x) !== x) return false; n = BigInt(x); } ` +
    `else return false; return n >= ${min}n && n <= ${max}n; }`
  );
}

/** A map key of an integer type, as ProtoJSON's `parseMapIntegerKey` takes it: decimal digits only. */
function integerKeyFormat(kind: IntKind): string {
  const { min, max } = RANGES[kind];
  const digits = kind === 'uint32' || kind === 'uint64' ? '/^[0-9]+$/' : '/^-?[0-9]+$/';
  return `(s) => ${digits}.test(s) && BigInt(s) >= ${min}n && BigInt(s) <= ${max}n`;
}

function floatFormat(max: number | undefined): string {
  const range = max === undefined ? 'Number.isFinite(x)' : `Number.isFinite(x) && Math.abs(x) <= ${max}`;
  return `(s) => { if (s === 'NaN' || s === 'Infinity' || s === '-Infinity') return true; if (!${NUMERIC}.test(s)) return false; const x = Number(s); return ${range}; }`;
}

/**
 * The string formats proto validators use: name → source of its check (`(s) => boolean`), each
 * self-contained. All apply to strings; a value of another JSON type passes the format and is
 * checked by `type`, `minimum` and `maximum` beside it.
 */
export const PROTO_FORMATS: Readonly<Record<string, string>> = {
  'proto-int32': integerFormat('int32'),
  'proto-uint32': integerFormat('uint32'),
  'proto-int64': integerFormat('int64'),
  'proto-uint64': integerFormat('uint64'),
  'proto-int32-key': integerKeyFormat('int32'),
  'proto-uint32-key': integerKeyFormat('uint32'),
  'proto-int64-key': integerKeyFormat('int64'),
  'proto-uint64-key': integerKeyFormat('uint64'),
  'proto-float': floatFormat(MAX_FLOAT),
  'proto-double': floatFormat(undefined),
  // Well-formed UTF-16: every high surrogate followed by a low one, no low one alone.
  'proto-string': String.raw`(s) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)`,
  // Standard or URL-safe base64, padding optional; decoding stops at a `=` after two digits.
  'proto-bytes': String.raw`(s) => { let j = 0; for (let i = 0; i < s.length; i++) { const c = s[i]; if (c === '=' && j > 1) return true; if (!/[A-Za-z0-9+/_-]/.test(c)) return false; j = (j + 1) % 4; } return j !== 1; }`,
  'proto-timestamp':
    String.raw`(s) => { const m = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,9}))?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/.exec(s); if (m === null) return false; ` +
    String.raw`const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]); const days = mo === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31; if (d > days) return false; ` +
    String.raw`const ms = new Date(s).getTime(); if (Number.isNaN(ms)) return false; const sec = Math.floor(ms / 1000); return sec >= -62135596800 && sec <= 253402300799; }`,
  'proto-duration': String.raw`(s) => { const m = /^-?([0-9]+)(?:\.[0-9]{1,9})?s$/.exec(s); return m !== null && parseInt(m[1], 10) <= 315576000000; }`,
  // Paths in lowerCamelCase, comma-separated; the reader turns them back into snake_case.
  'proto-field-mask': `(s) => !s.includes('_')`,
};

/**
 * The validator schema of a proto named type (what goes under `$defs`).
 *
 * @example
 * protoNamedTypeSchema(orderMessage, { refTo: (t) => `#/$defs/${t.localName}` });
 * // { type: 'object', properties: { createdAt: …, created_at: … }, additionalProperties: false, allOf: [ … ] }
 */
export function protoNamedTypeSchema(type: NamedType, options: JsonSchemaOptions): JsonSchema {
  switch (type.kind) {
    case 'message':
      return withDoc(type.wellKnown ? wellKnownSchema(type.wellKnown) : messageSchema(type, options), type.doc, type.deprecated);
    case 'enum':
      return withDoc(enumSchema(type), type.doc, false);
    case 'alias':
      // Proto files declare no aliases; kept total for the model's sake.
      return withDoc(elementSchema(type.type, options), type.doc, false);
    default:
      return assertNever(type);
  }
}

/** The names a reader accepts for a field: JSON name first (what writers use), then proto name and property name. */
export function protoFieldKeys(field: Field): string[] {
  return [...new Set([field.jsonName, field.name, field.localName])];
}

function messageSchema(message: MessageType, options: JsonSchemaOptions): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  const constraints: JsonSchema[] = [];
  const aliasPairs: JsonSchema[] = [];
  for (const field of message.fields) {
    const keys = protoFieldKeys(field);
    const isRequired = field.presence === 'required';
    const value = fieldSchema(field, options);
    const schema = isRequired ? value : withNull(value);
    keys.forEach((key, i) => {
      properties[key] = i === 0 ? annotated(schema, field) : schema;
    });
    for (const [a, b] of pairs(keys)) aliasPairs.push({ required: [a, b] });
    if (isRequired) {
      if (keys.length === 1) required.push(keys[0]!);
      else constraints.push({ anyOf: keys.map((key) => ({ required: [key] })) });
    }
  }
  // One field under two of its names is a duplicate, even when one of them is null.
  if (aliasPairs.length > 0) constraints.unshift({ not: anyOf(aliasPairs) });
  for (const oneof of message.oneofs) {
    const clashes: JsonSchema[] = [];
    for (const [a, b] of pairs(oneof.fields)) {
      for (const ka of protoFieldKeys(a)) for (const kb of protoFieldKeys(b)) clashes.push(bothSet(ka, kb));
    }
    if (clashes.length > 0) constraints.push({ not: anyOf(clashes) });
  }
  const schema: JsonSchema = { type: 'object' };
  if (message.fields.length > 0) schema.properties = properties;
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  if (constraints.length > 0) schema.allOf = constraints;
  return schema;
}

/** `anyOf` of the schemas, or the one schema. */
function anyOf(schemas: JsonSchema[]): JsonSchema {
  return schemas.length === 1 ? schemas[0]! : { anyOf: schemas };
}

/** Both keys present and neither `null` (a `null` oneof member is not set). */
function bothSet(a: string, b: string): JsonSchema {
  return { required: [a, b], properties: { [a]: NOT_NULL, [b]: NOT_NULL } };
}

const NOT_NULL: JsonSchema = { not: { type: 'null' } };

function pairs<T>(items: readonly T[]): [T, T][] {
  const out: [T, T][] = [];
  items.forEach((a, i) => {
    for (const b of items.slice(i + 1)) out.push([a, b]);
  });
  return out;
}

/** A field's value when present and not null: a list, a map or one element. */
function fieldSchema(field: Field, options: JsonSchemaOptions): JsonSchema {
  const type = field.type;
  switch (type.kind) {
    case 'array':
      return { type: 'array', items: elementSchema(type.items, options) };
    case 'map':
      return { type: 'object', propertyNames: mapKeySchema(type.key.scalar), additionalProperties: elementSchema(type.value, options) };
    default:
      return elementSchema(type, options);
  }
}

function mapKeySchema(scalar: ScalarName): JsonSchema {
  switch (scalar) {
    case 'bool':
      return { enum: ['true', 'false'] };
    case 'string':
      return { format: 'proto-string' };
    default: {
      const kind = intKind(scalar);
      if (kind === undefined) throw new Error(`a ${scalar} cannot be a map key`);
      return { format: `proto-${kind}-key` };
    }
  }
}

/** One value of a field's type: a scalar, an enum or a message. `null` only where ProtoJSON reads it as a value. */
function elementSchema(type: TypeRef, options: JsonSchemaOptions): JsonSchema {
  switch (type.kind) {
    case 'scalar':
      return scalarSchema(type.scalar);
    case 'ref': {
      const target = type.target;
      if (target.kind === 'message' && target.wellKnown) return wellKnownSchema(target.wellKnown);
      const ref: JsonSchema = { $ref: options.refTo(target) };
      // `null` is NullValue's one value, also in lists and maps.
      return isNullValue(target) ? withNull(ref) : ref;
    }
    case 'array':
    case 'map':
    case 'object':
    case 'union':
    case 'intersection':
    case 'literal':
    case 'unknown':
      throw new Error(`a ${type.kind} type cannot be a proto list element or map value`);
    default:
      return assertNever(type);
  }
}

function isNullValue(type: NamedType): boolean {
  return type.kind === 'enum' && type.fullName === 'google.protobuf.NullValue';
}

function intKind(scalar: ScalarName): IntKind | undefined {
  switch (scalar) {
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return 'int32';
    case 'uint32':
    case 'fixed32':
      return 'uint32';
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return 'int64';
    case 'uint64':
    case 'fixed64':
      return 'uint64';
    default:
      return undefined;
  }
}

/** JSON numbers are doubles: 2^63 and 2^64 are exact, so `exclusiveMaximum` bounds the 64-bit types exactly. */
const NUMBER_BOUNDS: Readonly<Record<IntKind, JsonSchema>> = {
  int32: { minimum: -2147483648, maximum: 2147483647 },
  uint32: { minimum: 0, maximum: 4294967295 },
  int64: { minimum: -(2 ** 63), exclusiveMaximum: 2 ** 63 },
  uint64: { minimum: 0, exclusiveMaximum: 2 ** 64 },
};

function scalarSchema(scalar: ScalarName): JsonSchema {
  const kind = intKind(scalar);
  if (kind !== undefined) return { type: ['integer', 'string'], ...NUMBER_BOUNDS[kind], format: `proto-${kind}` };
  switch (scalar) {
    case 'float':
      return { type: ['number', 'string'], minimum: -MAX_FLOAT, maximum: MAX_FLOAT, format: 'proto-float' };
    case 'double':
      return { type: ['number', 'string'], format: 'proto-double' };
    case 'bool':
      return { type: 'boolean' };
    case 'string':
      return { type: 'string', format: 'proto-string' };
    case 'bytes':
      return { type: 'string', format: 'proto-bytes' };
    default:
      throw new Error(`'${scalar}' is not a protobuf scalar`);
  }
}

/** Open enums (proto3) take any int32 besides their names; closed ones (proto2) only known numbers. */
function enumSchema(type: EnumType): JsonSchema {
  const names = type.values.map((v) => v.name);
  if (type.parent.format === 'proto2') return { enum: [...names, ...type.values.filter((v) => !v.alias).map((v) => v.value)] };
  return { anyOf: [{ enum: names }, { type: 'integer', ...NUMBER_BOUNDS.int32 }] };
}

/** A well-known type's JSON form, as strictly as ProtoJSON reads it (the value of a set field; `null` is added per field). */
function wellKnownSchema(wkt: WellKnownType): JsonSchema {
  switch (wkt) {
    case 'Timestamp':
      return { type: 'string', format: 'proto-timestamp' };
    case 'Duration':
      return { type: 'string', format: 'proto-duration' };
    case 'FieldMask':
      return { type: 'string', format: 'proto-field-mask' };
    case 'Struct':
      return { type: 'object' };
    case 'Value':
      return {};
    case 'ListValue':
      return { type: 'array' };
    case 'NullValue':
      return { enum: [null, 'NULL_VALUE', 0] };
    case 'Empty':
      return { type: 'object', additionalProperties: false };
    case 'Any':
      return { type: 'object', properties: { '@type': { type: 'string' } } };
    case 'DoubleValue':
      return scalarSchema('double');
    case 'FloatValue':
      return scalarSchema('float');
    case 'Int64Value':
      return scalarSchema('int64');
    case 'UInt64Value':
      return scalarSchema('uint64');
    case 'Int32Value':
      return scalarSchema('int32');
    case 'UInt32Value':
      return scalarSchema('uint32');
    case 'BoolValue':
      return scalarSchema('bool');
    case 'StringValue':
      return scalarSchema('string');
    case 'BytesValue':
      return scalarSchema('bytes');
    default:
      return assertNever(wkt);
  }
}

/** `schema` or `null`. */
function withNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema; // anything, null included
  if (Array.isArray(schema.enum)) return schema.enum.includes(null) ? schema : { ...schema, enum: [...schema.enum, null] };
  if (schema.$ref === undefined && schema.anyOf === undefined && typeof schema.type === 'string')
    return { ...schema, type: [schema.type, 'null'] };
  if (schema.$ref === undefined && schema.anyOf === undefined && Array.isArray(schema.type))
    return { ...schema, type: [...schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** Documentation on the field's first name: description, deprecation, proto2 default. */
function annotated(schema: JsonSchema, field: Field): JsonSchema {
  const out = withDoc(schema, field.doc, field.deprecated);
  if (field.default !== undefined) out.default = field.default;
  return out;
}
