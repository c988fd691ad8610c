/**
 * @module
 * Schemas made of other schemas: `oneOf`/`anyOf` become unions (with their discriminator), and
 * `allOf` an object whose properties every part contributes, or an intersection when a part is
 * not an object. A property two parts both declare is merged as allof-properties.ts says.
 */
import type { InlineProperty, TypeRef, UnionType } from '../../model/model.js';
import type { Mutable } from '../../model/type-utils.js';
import { mergeOpenness, mergeProperties, opennessOf } from './allof-properties.js';
import type { Conversion } from './conversion.js';
import { type At, isObject, type Json } from './document.js';
import { ensureFilled } from './named-types.js';
import { additional, objectLike, properties } from './objects.js';
import { mappingTarget } from './references.js';
import { childPointer } from './refs.js';
import { withNullable } from './schema-keywords.js';

/** A `oneOf` or `anyOf`: a union of its parts, or a nullable type when it is `[X, {type: 'null'}]`. */
export function union(c: Conversion, schema: Json, mode: 'oneOf' | 'anyOf', at: At): TypeRef {
  const parts = schema[mode] as unknown[];
  const variants = parts.map((p, i) => c.typeOf(p, { doc: at.doc, pointer: childPointer(at.pointer, mode, i) }));
  // `oneOf: [X, {type: 'null'}]` is how 3.1 spells a nullable X.
  const nonNull = variants.filter((v) => !(v.kind === 'scalar' && v.scalar === 'null' && !v.format));
  if (nonNull.length === 1 && variants.length === 2) return withNullable(nonNull[0]!);
  const union: Mutable<UnionType> = { kind: 'union', mode, variants };
  const disc = schema['discriminator'];
  if (isObject(disc) && typeof disc['propertyName'] === 'string') {
    const mapping: Record<string, TypeRef> = {};
    const discAt = { doc: at.doc, pointer: childPointer(at.pointer, 'discriminator') };
    if (isObject(disc['mapping'])) {
      for (const [value, ref] of Object.entries(disc['mapping'])) {
        if (typeof ref !== 'string') continue;
        // A bare name means a schema under components/schemas.
        const target = mappingTarget(c, value, ref.includes('#') || ref.includes('/') ? ref : `#/components/schemas/${ref}`, discAt);
        if (target !== undefined) mapping[value] = target;
      }
    } else {
      for (const v of variants) if (v.kind === 'ref') mapping[v.target.name] = v;
    }
    union.discriminator = { propertyName: disc['propertyName'], mapping };
  }
  return union;
}

/** An inline `allOf`: a plain reference, an object merging its parts, or an intersection. */
export function allOf(c: Conversion, schema: Json, at: At): TypeRef {
  const parts = (schema['allOf'] as unknown[]).map((p, i) => ({
    raw: p,
    at: { doc: at.doc, pointer: childPointer(at.pointer, 'allOf', i) },
  }));
  const { allOf: _allOf, ...rest } = schema;
  // `type: object` beside allOf adds nothing; properties, required or additionalProperties do.
  const hasOwn = rest['properties'] !== undefined || rest['required'] !== undefined || rest['additionalProperties'] !== undefined;
  // `allOf: [{$ref: X}]` with only a description or nullable beside it is a plain reference.
  if (parts.length === 1 && !hasOwn) return c.typeOf(parts[0]!.raw, parts[0]!.at);
  const all = hasOwn ? [...parts, { raw: rest, at }] : parts;
  if (!all.every((p) => objectLike(c, p.raw, p.at))) {
    return { kind: 'intersection', parts: parts.map((p) => c.typeOf(p.raw, p.at)) };
  }
  const merged = new Map<string, InlineProperty>();
  const openness: (boolean | TypeRef)[] = [];
  const required = new Set<string>();
  const put = (p: InlineProperty) => merged.set(p.name, mergeProperties(merged.get(p.name), p));
  for (const part of parts) {
    const type = c.typeOf(part.raw, part.at);
    for (const p of inlineProperties(c, type)) put(p);
    openness.push(opennessOf(type));
    if (isObject(part.raw) && Array.isArray(part.raw['required']))
      for (const r of part.raw['required']) if (typeof r === 'string') required.add(r);
  }
  if (hasOwn) {
    for (const p of properties(c, rest, at)) {
      const { at: _at, deprecated: _d, ...inline } = p;
      put(inline);
    }
  }
  return {
    kind: 'object',
    properties: [...merged.values()].map((p) => (required.has(p.name) && !p.required ? { ...p, required: true } : p)),
    additionalProperties: mergeOpenness(openness, rest['additionalProperties'] !== undefined ? additional(c, rest, at) : undefined),
  };
}

/** The properties a part of an `allOf` contributes: an inline object's, or a named message's fields. */
function inlineProperties(c: Conversion, type: TypeRef): InlineProperty[] {
  if (type.kind === 'object') return [...type.properties];
  if (type.kind === 'ref' && type.target.kind === 'message') {
    ensureFilled(c, type.target);
    return type.target.fields.map((f) => ({
      name: f.name,
      required: f.presence === 'required',
      type: f.type,
      readOnly: f.readOnly,
      writeOnly: f.writeOnly,
      ...(f.default !== undefined ? { default: f.default } : {}),
      ...(f.doc ? { doc: f.doc } : {}),
    }));
  }
  return [];
}
