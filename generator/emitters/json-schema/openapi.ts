/**
 * @module
 * Model → JSON Schema (2020-12 vocabulary that ajv's draft-07 mode also accepts:
 * `$defs`, `$ref`, `type` arrays). Used by the validators emitter (compiled by ajv)
 * and the OpenAPI-document emitter (components/schemas), which differ in where a
 * `$ref` points, in how a discriminated union is spelled (OpenAPI's `discriminator`
 * with `mapping` for documents; ajv's `discriminator` over tag-pinned variants for
 * validators), and in `required`: validators check one side of the exchange (see
 * `direction.ts`), documents keep it as declared. Validators of proto types take the stricter
 * form of `proto-json.ts` instead (see `index.ts`).
 *
 * For proto messages the schema describes the proto3 JSON form: camelCase keys,
 * int64 as a decimal string (or number), enums as names or numbers, well-known
 * types in their special JSON shapes.
 */

import type { Discriminator, Field, LiteralType, MessageType, NamedType, ScalarType, TypeRef, UnionType } from '../../model/model.js';
import { isProtoFile } from '../../model/schema-file.js';
import { assertNever } from '../../model/type-utils.js';
import { requiredOnlyElsewhere } from './direction.js';
import { type JsonSchema, type JsonSchemaOptions, withDoc } from './schema.js';
import { wellKnownSchema } from './well-known.js';

/**
 * The schema of a named type, as it appears under `$defs` / `components/schemas`, in OpenAPI's
 * plain form (a proto type as documents show it).
 *
 * @example
 * openapiNamedTypeSchema(issueMessage, { refTo: (t) => `#/$defs/${t.localName}` });
 * // { type: 'object', properties: { id: { type: 'integer', format: 'int64' }, … }, required: ['id'] }
 */
export function openapiNamedTypeSchema(type: NamedType, options: JsonSchemaOptions): JsonSchema {
  const proto = isProtoFile(type.parent);
  switch (type.kind) {
    case 'message':
      return withDoc(
        type.wellKnown ? wellKnownSchema(type.wellKnown, 'document') : messageSchema(type, proto, options),
        type.doc,
        type.deprecated,
      );
    case 'enum': {
      const values = type.values.filter((v) => !v.alias);
      // A proto enum's JSON is its value's name (proto3 JSON also reads the number, which
      // validators accept); documents show the names, typed, so `/docs` lists them.
      const schema: JsonSchema = proto
        ? { type: 'string', enum: type.values.map((v) => v.name) }
        : { type: type.valueType, enum: values.map((v) => v.value) };
      return withDoc(schema, type.doc, false);
    }
    case 'alias':
      return withDoc(typeRefSchema(type.type, proto, options), type.doc, false);
    default:
      return assertNever(type);
  }
}

function messageSchema(message: MessageType, proto: boolean, options: JsonSchemaOptions): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const field of message.fields) {
    properties[field.jsonName] = fieldSchema(field, proto, options);
    if (field.presence === 'required' && !requiredOnlyElsewhere(field, options.direction)) required.push(field.jsonName);
  }
  const schema: JsonSchema = { type: 'object' };
  if (message.fields.length > 0) schema.properties = properties;
  if (required.length > 0) schema.required = required;
  const extra = additionalPropertiesSchema(message.additionalProperties, proto, options);
  if (extra !== undefined) schema.additionalProperties = extra;
  if (message.subtypes) subtypesSchema(schema, message.subtypes, proto, options);
  return schema;
}

/**
 * A base object's subtypes. Documents write OpenAPI's `discriminator` with its `mapping`.
 * Validators check a value that names a subtype in its tag as that subtype too, one `if`/`then`
 * per tag value (subtypes are flat, so their schemas never lead back here); a value with another
 * tag is checked as the base alone.
 */
function subtypesSchema(schema: JsonSchema, subtypes: Discriminator, proto: boolean, options: JsonSchemaOptions): void {
  const tag = subtypes.propertyName;
  if (options.openapi) {
    const mapping: Record<string, string> = {};
    for (const [value, subtype] of Object.entries(subtypes.mapping))
      if (subtype.kind === 'ref') mapping[value] = options.refTo(subtype.target);
    schema.discriminator = { propertyName: tag, mapping };
    return;
  }
  schema.allOf = Object.entries(subtypes.mapping).map(([value, subtype]) => ({
    if: { properties: { [tag]: { const: value } }, required: [tag] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `if`/`then` keyword, data for a validator, never awaited.
    then: typeRefSchema(subtype, proto, options),
  }));
}

function fieldSchema(field: Field, proto: boolean, options: JsonSchemaOptions): JsonSchema {
  const schema = typeRefSchema(field.type, proto, options);
  // A `$ref` with siblings is fine in 2020-12 and in ajv; annotations help docs.
  const out: JsonSchema = { ...schema };
  if (field.doc) out.description = field.doc;
  if (field.deprecated) out.deprecated = true;
  if (field.readOnly) out.readOnly = true;
  if (field.writeOnly) out.writeOnly = true;
  if (field.default !== undefined) out.default = field.default;
  return out;
}

function additionalPropertiesSchema(
  value: boolean | TypeRef,
  proto: boolean,
  options: JsonSchemaOptions,
): JsonSchema | boolean | undefined {
  if (value === true) return undefined; // JSON Schema's default: anything goes
  if (value === false) return false;
  return typeRefSchema(value, proto, options);
}

/**
 * The schema of an anonymous type reference.
 *
 * @example
 * typeRefSchema({ kind: 'array', items: { kind: 'scalar', scalar: 'string' } }, false, opts);
 * // { type: 'array', items: { type: 'string' } }
 */
export function typeRefSchema(type: TypeRef, proto: boolean, options: JsonSchemaOptions): JsonSchema {
  switch (type.kind) {
    case 'scalar':
      return nullable(scalarSchema(type, proto, options), type.nullable);
    case 'ref': {
      const target = type.target;
      // Well-known types have fixed JSON shapes: inline them rather than point into google/protobuf files.
      if (target.kind === 'message' && target.wellKnown) return nullable(wellKnownSchema(target.wellKnown, 'document'), type.nullable);
      return nullable({ $ref: options.refTo(target) }, type.nullable);
    }
    case 'array': {
      const schema: JsonSchema = { type: 'array', items: typeRefSchema(type.items, proto, options) };
      return nullable(Object.assign(schema, type.constraints), type.nullable);
    }
    case 'map':
      return nullable({ type: 'object', additionalProperties: typeRefSchema(type.value, proto, options) }, type.nullable);
    case 'object': {
      const properties: JsonSchema = {};
      const required: string[] = [];
      for (const p of type.properties) {
        const s: JsonSchema = { ...typeRefSchema(p.type, proto, options) };
        if (p.doc) s.description = p.doc;
        if (p.readOnly) s.readOnly = true;
        if (p.writeOnly) s.writeOnly = true;
        if (p.default !== undefined) s.default = p.default;
        properties[p.name] = s;
        if (p.required && !requiredOnlyElsewhere(p, options.direction)) required.push(p.name);
      }
      const schema: JsonSchema = { type: 'object' };
      if (type.properties.length > 0) schema.properties = properties;
      if (required.length > 0) schema.required = required;
      const extra = additionalPropertiesSchema(type.additionalProperties, proto, options);
      if (extra !== undefined) schema.additionalProperties = extra;
      return nullable(Object.assign(schema, type.constraints), type.nullable);
    }
    case 'union':
      return unionSchema(type, proto, options);
    case 'intersection':
      return nullable({ allOf: type.parts.map((p) => typeRefSchema(p, proto, options)) }, type.nullable);
    case 'literal':
      return { const: type.value };
    case 'unknown':
      return {};
    default:
      return assertNever(type);
  }
}

/**
 * `oneOf`/`anyOf`. Two shapes read better than a plain list of variants:
 * - every variant a literal (an inline enum): `enum`, so a wrong value is one error that lists
 *   the allowed values instead of one "must be equal to constant" per value;
 * - a discriminated union, for validators: ajv's `discriminator` keyword, so the tag picks the
 *   one variant whose errors are reported (not the errors of every variant that failed).
 */
function unionSchema(type: UnionType, proto: boolean, options: JsonSchemaOptions): JsonSchema {
  const literals = type.variants.flatMap((v) => (v.kind === 'literal' ? [v.value] : []));
  if (literals.length > 0 && literals.length === type.variants.length) {
    const values = type.nullable && !literals.includes(null) ? [...literals, null] : literals;
    // Docs show the JSON type too; validators leave it out, which would only repeat the enum error.
    if (!options.openapi) return { enum: values };
    const types = [...new Set(values.map(jsonType))];
    return { type: types.length === 1 ? types[0] : types, enum: values };
  }
  const tagged = type.discriminator ? Object.entries(type.discriminator.mapping) : [];
  if (!options.openapi && type.discriminator && tagged.length > 0) {
    // Each variant is pinned to its tag value (`properties/<tag>/const`, as the keyword needs):
    // variants that accept the same objects (open objects usually do) would otherwise make
    // `oneOf` fail on valid data. The top-level `enum` of the tag names the allowed values
    // when the tag is unknown.
    const property = type.discriminator.propertyName;
    return nullable(
      {
        type: 'object',
        discriminator: { propertyName: property },
        properties: { [property]: { enum: tagged.map(([value]) => value) } },
        required: [property],
        oneOf: tagged.map(([value, variant]) => ({
          properties: { [property]: { const: value } },
          allOf: [typeRefSchema(variant, proto, options)],
        })),
      },
      type.nullable,
    );
  }
  const schema: JsonSchema = { [type.mode]: type.variants.map((v) => typeRefSchema(v, proto, options)) };
  if (options.openapi && type.discriminator) {
    const mapping: Record<string, string> = {};
    for (const [value, variant] of Object.entries(type.discriminator.mapping)) {
      if (variant.kind === 'ref') mapping[value] = options.refTo(variant.target);
    }
    schema.discriminator = { propertyName: type.discriminator.propertyName, mapping };
  }
  return nullable(schema, type.nullable);
}

function jsonType(value: LiteralType['value']): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Custom formats Loom adds on top of the standard ones, with range checks (see validators/formats.ts). */
function scalarSchema(type: ScalarType, proto: boolean, options: JsonSchemaOptions): JsonSchema {
  // A `binary` string is a file (a `Blob` once parsed): documents say string, validators accept it as is.
  if (type.format === 'binary' && !proto && !options.openapi) return {};
  const schema = scalarBase(type, proto);
  if (type.format !== undefined && schema.format === undefined) schema.format = type.format;
  return Object.assign(schema, type.constraints);
}

function scalarBase(type: ScalarType, proto: boolean): JsonSchema {
  switch (type.scalar) {
    case 'string':
      return { type: 'string' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'bool':
      return { type: 'boolean' };
    case 'double':
    case 'float':
      return { type: 'number', format: type.scalar };
    case 'number':
      return { type: 'number' };
    case 'integer':
      return { type: 'integer' };
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return { type: 'integer', format: 'int32' };
    case 'uint32':
    case 'fixed32':
      return { type: 'integer', format: 'uint32' };
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      // proto3 JSON writes 64-bit integers as strings and reads either form.
      return proto ? { type: ['string', 'integer'], format: 'int64' } : { type: 'integer', format: 'int64' };
    case 'uint64':
    case 'fixed64':
      return proto ? { type: ['string', 'integer'], format: 'uint64' } : { type: 'integer', format: 'uint64' };
    case 'null':
      return { type: 'null' };
    default:
      return assertNever(type.scalar);
  }
}

/** Adds `null` to a schema: into `type` when it has one, else as an `anyOf` branch. */
function nullable(schema: JsonSchema, isNullable: boolean | undefined): JsonSchema {
  if (!isNullable) return schema;
  const type = schema.type;
  if (typeof type === 'string') return { ...schema, type: type === 'null' ? 'null' : [type, 'null'] };
  if (Array.isArray(type)) return { ...schema, type: type.includes('null') ? type : [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}
