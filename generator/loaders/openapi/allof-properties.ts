/**
 * @module
 * A property that two parts of an `allOf` both declare. Every part applies (JSON Schema's
 * `allOf`), so the merged property is required when either declares it required, and its type
 * must satisfy both: a part that only adds a description (no type) keeps the other's type and
 * constraints; two strings (or numbers, arrays) merge their bounds into the stricter ones; other
 * pairs become an intersection, which validators check as `allOf` and TypeScript as `A & B`.
 * Taking the later declaration alone would drop the earlier one's `required`, type and bounds,
 * and a subtype would no longer compile against the base it extends.
 */
import type { Constraints, Field, InlineProperty, TypeRef } from '../../model/model.js';

/**
 * The type a property has when `earlier` and `later` both declare it.
 *
 * @example
 * mergeDeclaredTypes({ kind: 'scalar', scalar: 'string', constraints: { maxLength: 5 } }, { kind: 'unknown' });
 * // { kind: 'scalar', scalar: 'string', constraints: { maxLength: 5 } }
 */
export function mergeDeclaredTypes(earlier: TypeRef, later: TypeRef): TypeRef {
  if (later.kind === 'unknown') return earlier;
  if (earlier.kind === 'unknown') return later;
  if (JSON.stringify(simple(earlier)) === JSON.stringify(simple(later))) return earlier;
  if (
    earlier.kind === 'scalar' &&
    later.kind === 'scalar' &&
    earlier.scalar === later.scalar &&
    earlier.nullable === later.nullable &&
    (earlier.format === later.format || later.format === undefined)
  ) {
    const constraints = mergeConstraints(earlier.constraints, later.constraints);
    if (constraints !== undefined) return { ...earlier, ...(Object.keys(constraints).length > 0 ? { constraints } : {}) };
  }
  return { kind: 'intersection', parts: [earlier, later] };
}

/** Both sets of bounds at once, the stricter of each; `undefined` when two patterns or multiples differ. */
function mergeConstraints(a: Constraints | undefined, b: Constraints | undefined): Constraints | undefined {
  if (!a || !b) return { ...a, ...b };
  if (a.pattern !== undefined && b.pattern !== undefined && a.pattern !== b.pattern) return undefined;
  if (a.multipleOf !== undefined && b.multipleOf !== undefined && a.multipleOf !== b.multipleOf) return undefined;
  const pick = (x: number | undefined, y: number | undefined, f: (p: number, q: number) => number) =>
    x === undefined ? y : y === undefined ? x : f(x, y);
  const merged: Record<string, number | string | boolean | undefined> = {
    minLength: pick(a.minLength, b.minLength, Math.max),
    maxLength: pick(a.maxLength, b.maxLength, Math.min),
    pattern: a.pattern ?? b.pattern,
    minimum: pick(a.minimum, b.minimum, Math.max),
    maximum: pick(a.maximum, b.maximum, Math.min),
    exclusiveMinimum: pick(a.exclusiveMinimum, b.exclusiveMinimum, Math.max),
    exclusiveMaximum: pick(a.exclusiveMaximum, b.exclusiveMaximum, Math.min),
    multipleOf: a.multipleOf ?? b.multipleOf,
    minItems: pick(a.minItems, b.minItems, Math.max),
    maxItems: pick(a.maxItems, b.maxItems, Math.min),
    uniqueItems: a.uniqueItems || b.uniqueItems ? true : undefined,
    minProperties: pick(a.minProperties, b.minProperties, Math.max),
    maxProperties: pick(a.maxProperties, b.maxProperties, Math.min),
  };
  return Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)) as Constraints;
}

/** A type as JSON, named targets by name (they are cyclic objects). */
function simple(type: TypeRef): unknown {
  return JSON.parse(
    JSON.stringify(type, (key, value: unknown) =>
      key === 'target' && value !== null && typeof value === 'object' ? `#${(value as { name?: string }).name ?? ''}` : value,
    ),
  );
}

/** What an object type says about keys beyond its named properties. */
export function opennessOf(type: TypeRef): boolean | TypeRef {
  switch (type.kind) {
    case 'object':
      return type.additionalProperties;
    case 'map':
      return type.value.kind === 'unknown' ? true : type.value;
    case 'ref':
      return type.target.kind === 'message' ? type.target.additionalProperties : true;
    default:
      return true;
  }
}

/**
 * `additionalProperties` of an allOf: the schema's own when it declares one; else the first
 * typed one of the parts; else closed only when every part is closed. (Strict allOf semantics,
 * where one closed part rejects the other parts' properties, is never what authors mean.)
 */
export function mergeOpenness(parts: readonly (boolean | TypeRef)[], own: boolean | TypeRef | undefined): boolean | TypeRef {
  if (own !== undefined) return own;
  const typed = parts.find((p): p is TypeRef => typeof p !== 'boolean');
  if (typed) return typed;
  return !(parts.length > 0 && parts.every((p) => p === false));
}

/** What a field and an inline property both say of a declaration. */
export type Declared = Pick<InlineProperty, 'type' | 'readOnly' | 'writeOnly' | 'default' | 'doc'>;

/**
 * A declaration two `allOf` parts both make: the later one, of a type that satisfies both, with
 * what only the earlier one said (`readOnly`, a default, a description) kept.
 */
export function mergeDeclared<T extends Declared>(earlier: T, later: T): T {
  return {
    ...later,
    type: mergeDeclaredTypes(earlier.type, later.type),
    readOnly: earlier.readOnly || later.readOnly,
    writeOnly: earlier.writeOnly || later.writeOnly,
    ...(later.default === undefined && earlier.default !== undefined ? { default: earlier.default } : {}),
    ...(later.doc === undefined && earlier.doc !== undefined ? { doc: earlier.doc } : {}),
  };
}

/** A field two `allOf` parts declare: required if either says so. */
export function mergeFields(earlier: Field | undefined, later: Field): Field {
  if (earlier === undefined) return later;
  return { ...mergeDeclared(earlier, later), presence: earlier.presence === 'required' ? 'required' : later.presence };
}

/** {@link mergeFields} for the properties of an inline object. */
export function mergeProperties(earlier: InlineProperty | undefined, later: InlineProperty): InlineProperty {
  if (earlier === undefined) return later;
  return { ...mergeDeclared(earlier, later), required: earlier.required || later.required };
}
