/**
 * @module
 * Object schemas: their properties, `additionalProperties`, and whether a raw schema is an object
 * at all. `additionalProperties` that is absent is read as `true`, JSON Schema's default (open):
 * validators then accept extra keys, as the API itself does, and the types emitter adds an index
 * signature only to objects without named properties. Only an explicit `false` closes an object.
 */
import type { InlineProperty, JsonValue, ObjectType, TypeRef } from '../../model/model.js';
import type { Conversion } from './conversion.js';
import { type At, docOf, isObject, type Json } from './document.js';
import { leftOut } from './problems.js';
import { childPointer } from './refs.js';
import { constraintsOf, typeList } from './schema-keywords.js';

/** A property of an object schema, read: what a message field and an inline property are both made from. */
export interface ReadProperty {
  readonly name: string;
  readonly required: boolean;
  readonly type: TypeRef;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly deprecated: boolean;
  readonly default?: JsonValue;
  readonly doc?: string;
  readonly at: At;
}

/** The `properties` of an object schema, in order, each with its type and where it is. */
export function properties(c: Conversion, schema: Json, at: At): ReadProperty[] {
  const props = isObject(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((x): x is string => typeof x === 'string') : []);
  const out = [];
  for (const [name, raw] of Object.entries(props)) {
    const propAt = { doc: at.doc, pointer: childPointer(at.pointer, 'properties', name) };
    if (name === '__proto__') {
      // As the proto loader says of such a field: JavaScript objects cannot hold it as data.
      c.problems.refuse(
        propAt,
        "property '__proto__' cannot be generated: JavaScript treats that name as an object's prototype, " +
          'so validators and documents would silently drop it; rename the property',
        leftOut('property'),
      );
      continue;
    }
    const type = c.typeOf(raw, propAt);
    const p = isObject(raw) ? raw : {};
    const doc = docOf(p) ?? (typeof p['title'] === 'string' ? p['title'] : undefined);
    out.push({
      name,
      required: required.has(name),
      type,
      readOnly: p['readOnly'] === true,
      writeOnly: p['writeOnly'] === true,
      deprecated: p['deprecated'] === true,
      ...(p['default'] !== undefined ? { default: p['default'] as JsonValue } : {}),
      ...(doc ? { doc } : {}),
      at: propAt,
    });
  }
  return out;
}

/** What `additionalProperties` says: closed (`false`), open (`true`, `{}` or absent), or the type of extra values. */
export function additional(c: Conversion, schema: Json, at: At): boolean | TypeRef {
  const ap = schema['additionalProperties'];
  if (ap === false) return false;
  if (ap === undefined || ap === true || (isObject(ap) && Object.keys(ap).length === 0)) return true;
  return c.typeOf(ap, { doc: at.doc, pointer: childPointer(at.pointer, 'additionalProperties') });
}

/** An inline object schema: an object type, or a map when it names no properties and is not closed. */
export function object(c: Conversion, schema: Json, at: At): TypeRef {
  const additionalProperties = additional(c, schema, at);
  const hasProperties = isObject(schema['properties']) && Object.keys(schema['properties']).length > 0;
  if (!hasProperties && additionalProperties !== false) {
    return {
      kind: 'map',
      key: { kind: 'scalar', scalar: 'string' },
      value: additionalProperties === true ? { kind: 'unknown' } : additionalProperties,
    };
  }
  const constraints = constraintsOf(schema, at, c.problems);
  const props: InlineProperty[] = properties(c, schema, at).map(({ at: _at, deprecated: _d, ...p }) => p);
  return { kind: 'object', properties: props, additionalProperties, ...(constraints ? { constraints } : {}) } satisfies ObjectType;
}

/** True when a raw schema describes an object (following refs and allOf), without converting it. */
export function objectLike(c: Conversion, raw: unknown, at: At, seen = new Set<string>()): boolean {
  let schema = raw;
  let where = at;
  while (isObject(schema) && typeof schema['$ref'] === 'string') {
    const key = `${where.doc.key}#${schema['$ref']}`;
    if (seen.has(key)) return true;
    seen.add(key);
    const target = c.store.resolveRef(schema['$ref'], where.doc);
    if (typeof target === 'string') return false;
    schema = target.value;
    where = { doc: target.doc, pointer: target.pointer };
  }
  if (!isObject(schema)) return false;
  if (schema['oneOf'] !== undefined || schema['anyOf'] !== undefined || schema['enum'] !== undefined) return false;
  const types = typeList(schema).filter((t) => t !== 'null');
  if (types.length > 0) return types.length === 1 && types[0] === 'object';
  if (schema['properties'] !== undefined || schema['additionalProperties'] !== undefined) return true;
  if (Array.isArray(schema['allOf'])) return schema['allOf'].every((p) => objectLike(c, p, where, seen));
  return false;
}
