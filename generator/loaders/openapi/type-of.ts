/**
 * @module
 * One schema → one type: `$ref`s, enums and consts, compositions, objects, arrays and scalars. Inline
 * enums (in properties and parameters) stay inline as a union of literals; only named enums become
 * enum types (named-types.ts). Reading is bounded: a YAML alias that nests an object inside itself,
 * and nesting deeper than {@link MAX_NESTING}, are read as any value with a warning.
 */
import type { LiteralType, TypeRef, UnionType } from '../../model/model.js';
import { allOf, union } from './composition.js';
import type { Conversion } from './conversion.js';
import { type At, isObject, type Json } from './document.js';
import { object } from './objects.js';
import { BECOMES_UNKNOWN } from './problems.js';
import { refType } from './references.js';
import { childPointer } from './refs.js';
import { constraintsOf, isBinaryContent, isNullable, typeList, warnIgnoredKeywords, withNullable } from './schema-keywords.js';

/** How deep inline schemas are read (each level an object, array or union inside another). */
export const MAX_NESTING = 200;

/** Converts a schema object at a location into a type. */
export function typeOf(c: Conversion, schema: unknown, at: At): TypeRef {
  if (schema === true || (isObject(schema) && Object.keys(schema).length === 0)) return { kind: 'unknown' };
  if (schema === false) {
    c.problems.warn(at, "schema 'false' (nothing allowed) is read as any value");
    return { kind: 'unknown' };
  }
  if (!isObject(schema)) {
    c.problems.refuse(at, `a schema must be an object, found ${JSON.stringify(schema)}`, BECOMES_UNKNOWN);
    return { kind: 'unknown' };
  }
  if (typeof schema['$ref'] === 'string') {
    const ref = refType(c, schema['$ref'], at);
    return isNullable(schema) ? withNullable(ref) : ref;
  }
  if (c.active.has(schema)) {
    // Only YAML aliases (`&a` … `*a`) can nest an object inside itself without a `$ref`.
    c.problems.warn(
      at,
      'this schema contains itself through a YAML alias, so it is read as any value; use a $ref to a named schema for recursion',
    );
    return { kind: 'unknown' };
  }
  if (c.active.size >= MAX_NESTING) {
    // Bounded, not recursive without end: deeper than any description means, and deeper than the
    // stack of every step after this one would take.
    c.problems.warn(
      at,
      `this schema nests deeper than ${MAX_NESTING} levels; from here on it is read as any value ` +
        `(give its inner parts names under components to keep them)`,
    );
    return { kind: 'unknown' };
  }
  c.active.add(schema);
  try {
    warnIgnoredKeywords(schema, at, c.problems);
    const nullable = isNullable(schema);
    const type = typeOfKeywords(c, schema, at);
    return nullable ? withNullable(type) : type;
  } finally {
    c.active.delete(schema);
  }
}

/** The type a schema object's keywords describe, nullability aside. */
function typeOfKeywords(c: Conversion, schema: Json, at: At): TypeRef {
  if (schema['const'] !== undefined) return literal(c, schema['const'], at);
  if (Array.isArray(schema['enum'])) {
    // Inline enums stay a union of literals; a `null` value is kept as the literal null.
    const values = schema['enum'];
    if (values.length === 1) return literal(c, values[0], at);
    return { kind: 'union', mode: 'oneOf', variants: values.map((v) => literal(c, v, at)) } satisfies UnionType;
  }
  if (Array.isArray(schema['allOf'])) return allOf(c, schema, at);
  for (const mode of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[mode])) return union(c, schema, mode, at);
  }
  const types = typeList(schema).filter((t) => t !== 'null');
  if (types.length > 1) {
    return { kind: 'union', mode: 'anyOf', variants: types.map((t) => typeOfKeywords(c, { ...schema, type: t }, at)) };
  }
  const type =
    types[0] ??
    (schema['properties'] !== undefined || schema['additionalProperties'] !== undefined
      ? 'object'
      : schema['items'] !== undefined
        ? 'array'
        : typeList(schema).includes('null')
          ? 'null'
          : undefined);
  const constraints = constraintsOf(schema, at, c.problems);
  const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
  switch (type) {
    case undefined:
      return { kind: 'unknown' };
    case 'object':
      return object(c, schema, at);
    case 'array':
      return {
        kind: 'array',
        items:
          schema['items'] === undefined
            ? { kind: 'unknown' }
            : c.typeOf(schema['items'], { doc: at.doc, pointer: childPointer(at.pointer, 'items') }),
        ...(constraints ? { constraints } : {}),
      };
    case 'string': {
      const binary = format === undefined && isBinaryContent(schema);
      return {
        kind: 'scalar',
        scalar: 'string',
        ...(binary ? { format: 'binary' } : format ? { format } : {}),
        ...(constraints ? { constraints } : {}),
      };
    }
    case 'file':
      // Swagger 2.0 `type: file` (formData uploads): a binary string, as OpenAPI 3 spells it.
      return { kind: 'scalar', scalar: 'string', format: 'binary' };
    case 'integer': {
      const scalar = format === 'int32' || format === 'int64' ? format : 'integer';
      return { kind: 'scalar', scalar, ...(format ? { format } : {}), ...(constraints ? { constraints } : {}) };
    }
    case 'number': {
      const scalar = format === 'float' || format === 'double' ? format : 'number';
      return { kind: 'scalar', scalar, ...(format ? { format } : {}), ...(constraints ? { constraints } : {}) };
    }
    case 'boolean':
      return { kind: 'scalar', scalar: 'bool' };
    case 'null':
      return { kind: 'scalar', scalar: 'null' };
    default:
      c.problems.refuse(
        { doc: at.doc, pointer: childPointer(at.pointer, 'type') },
        `unsupported type '${type}': use one of string, number, integer, boolean, array, object or null`,
        BECOMES_UNKNOWN,
      );
      return { kind: 'unknown' };
  }
}

/** An `enum` or `const` value as a literal type; one that is not a JSON scalar is read as its JSON text. */
function literal(c: Conversion, value: unknown, at: At): LiteralType {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return { kind: 'literal', value };
  c.problems.warn(at, `enum/const value ${JSON.stringify(value)} is not a string, number, boolean or null; it is read as its JSON text`);
  return { kind: 'literal', value: JSON.stringify(value) };
}
