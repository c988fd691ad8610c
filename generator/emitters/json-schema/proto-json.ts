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
 * `PROTO_FORMATS` (`proto-scalars.ts`), copied into generated validators beside the others.
 *
 * What a schema cannot check, so validators accept it while `fromJson` refuses it: two map keys
 * that are the same number spelled differently (`"1"` and `"01"`), a `google.protobuf.Any`
 * whose `@type` names a type the codec does not know or whose fields do not fit that type, and
 * lone surrogates inside `Struct`, `Value` and `ListValue`.
 *
 * Documents (`X.openapi.json`) keep the plain, readable form from `openapi.ts`.
 */
import type { EnumType, Field, MessageType, NamedType, ScalarName, TypeRef } from '../../model/model.js';
import { assertNever } from '../../model/type-utils.js';
import { intKind, NUMBER_BOUNDS, protoScalarSchema } from './proto-scalars.js';
import { type JsonSchema, type JsonSchemaOptions, withDoc } from './schema.js';
import { wellKnownSchema } from './well-known.js';

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
      return withDoc(
        type.wellKnown ? wellKnownSchema(type.wellKnown, 'validator') : messageSchema(type, options),
        type.doc,
        type.deprecated,
      );
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
  const names: string[][] = [];
  for (const field of message.fields) {
    const keys = protoFieldKeys(field);
    const isRequired = field.presence === 'required';
    const value = fieldSchema(field, options);
    const schema = isRequired ? value : withNull(value);
    keys.forEach((key, i) => {
      properties[key] = i === 0 ? annotated(schema, field) : schema;
    });
    if (keys.length > 1) names.push(keys);
    if (isRequired) {
      if (keys.length === 1) required.push(keys[0]!);
      else constraints.push({ anyOf: keys.map((key) => ({ required: [key] })) });
    }
  }
  const oneofs = message.oneofs.filter((o) => o.fields.length > 1).map((o) => o.fields.map(protoFieldKeys));
  const schema: JsonSchema = { type: 'object' };
  if (message.fields.length > 0) schema.properties = properties;
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  if (constraints.length > 0) schema.allOf = constraints;
  // One field under two of its names is a duplicate, even when one of them is null.
  if (names.length > 0) schema[ONE_NAME_EACH] = names;
  if (oneofs.length > 0) schema[ONE_MEMBER] = oneofs;
  return schema;
}

/**
 * Keyword of a proto message's schema: for each field given, the names a reader accepts for it
 * (`["createdAt", "created_at"]`), at most one of which an object may have (own, even `null`).
 * JSON Schema can say it only as a `not` over every pair of names, which grows with the square of
 * the names; generated validators compile this keyword in linear code.
 */
export const ONE_NAME_EACH = 'x-loom-one-name-each';

/**
 * Keyword of a proto message's schema: for each oneof, its members' names (each member a list of
 * the names a reader accepts for it), at most one member of which an object may set (present and
 * not `null`, under any of its names). As a `not` over every pair it would grow with the square of
 * the oneof's size: Google Ads' `Recommendation` has a oneof of 58 members.
 */
export const ONE_MEMBER = 'x-loom-one-member';

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
      return protoScalarSchema(type.scalar);
    case 'ref': {
      const target = type.target;
      if (target.kind === 'message' && target.wellKnown) return wellKnownSchema(target.wellKnown, 'validator');
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

/** Open enums (proto3) take any int32 besides their names; closed ones (proto2) only known numbers. */
function enumSchema(type: EnumType): JsonSchema {
  const names = type.values.map((v) => v.name);
  if (type.parent.format === 'proto2') return { enum: [...names, ...type.values.filter((v) => !v.alias).map((v) => v.value)] };
  return { anyOf: [{ enum: names }, { type: 'integer', ...NUMBER_BOUNDS.int32 }] };
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
