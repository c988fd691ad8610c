/**
 * @module
 * Which named types read differently in a request than in a response.
 *
 * OpenAPI's `readOnly` properties are sent by the server only, `writeOnly` ones by the client
 * only; `required` applies to the side that sends them. A schema with a required `readOnly`
 * `id` is therefore two schemas for validation: the request form (no `id` needed) and the
 * response form (`id` required). Only types with such a property somewhere inside them, or
 * that reach such a type through references, need two; every other type has one form, which
 * serves both sides.
 */
import type { NamedType, TypeRef } from '../../model/model.js';
import { assertNever } from '../../model/type-utils.js';

/** The side of an exchange a schema validates. */
export type Direction = 'request' | 'response';

/**
 * True when a property marked like this is required only in the other direction: a
 * `readOnly` property is never required in a request, a `writeOnly` one never in a response.
 *
 * @example
 * requiredOnlyElsewhere({ readOnly: true, writeOnly: false }, 'request'); // true
 */
export function requiredOnlyElsewhere(
  property: { readonly readOnly: boolean; readonly writeOnly: boolean },
  direction: Direction | undefined,
): boolean {
  return (direction === 'request' && property.readOnly) || (direction === 'response' && property.writeOnly);
}

/** The marker whose required properties a direction leaves out. */
type Marker = 'readOnly' | 'writeOnly';

const caches: Readonly<Record<Marker, WeakMap<NamedType, boolean>>> = { readOnly: new WeakMap(), writeOnly: new WeakMap() };

/**
 * True when `type`'s request form and response form differ: a required `readOnly` or
 * `writeOnly` property inside it, or a reference (at any depth, cycles included) to a type
 * with one.
 *
 * @example
 * hasDirectionalForms(pet); // true: Pet has `id` (required, readOnly)
 */
export function hasDirectionalForms(type: NamedType): boolean {
  return reaches(type, 'readOnly') || reaches(type, 'writeOnly');
}

/**
 * Whether `type` has a required property with `marker`, itself or through references.
 * Answers are cached per type: the model is immutable once loaded.
 */
function reaches(type: NamedType, marker: Marker): boolean {
  const cache = caches[marker];
  const known = cache.get(type);
  if (known !== undefined) return known;
  // Every type reachable from here, with the types it refers to; then the answer propagates
  // backwards from the types that have the property themselves until nothing changes
  // (cycles settle).
  const refs = new Map<NamedType, Set<NamedType>>();
  const pending = [type];
  const found = new Set<NamedType>();
  while (pending.length > 0) {
    const current = pending.pop()!;
    if (refs.has(current) || cache.has(current)) continue;
    const targets = new Set<NamedType>();
    refs.set(current, targets);
    if (ownHas(current, marker, targets)) found.add(current);
    for (const target of targets) pending.push(target);
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const [current, targets] of refs) {
      if (found.has(current)) continue;
      if ([...targets].some((t) => found.has(t) || cache.get(t) === true)) {
        found.add(current);
        changed = true;
      }
    }
  }
  for (const current of refs.keys()) cache.set(current, found.has(current));
  return cache.get(type)!;
}

/** Whether the type itself (not counting references) has a required property with `marker`; collects its references. */
function ownHas(type: NamedType, marker: Marker, refs: Set<NamedType>): boolean {
  switch (type.kind) {
    case 'message': {
      let has = false;
      for (const field of type.fields) {
        if (field.presence === 'required' && field[marker]) has = true;
        if (inlineHas(field.type, marker, refs)) has = true;
      }
      if (typeof type.additionalProperties === 'object' && inlineHas(type.additionalProperties, marker, refs)) has = true;
      // A value of a base object is checked as its subtype too.
      for (const subtype of Object.values(type.subtypes?.mapping ?? {})) if (inlineHas(subtype, marker, refs)) has = true;
      return has;
    }
    case 'enum':
      return false;
    case 'alias':
      return inlineHas(type.type, marker, refs);
    default:
      return assertNever(type);
  }
}

function inlineHas(type: TypeRef, marker: Marker, refs: Set<NamedType>): boolean {
  switch (type.kind) {
    case 'ref':
      refs.add(type.target);
      return false;
    case 'array':
      return inlineHas(type.items, marker, refs);
    case 'map':
      return inlineHas(type.value, marker, refs);
    case 'object': {
      let has = false;
      for (const p of type.properties) {
        if (p.required && p[marker]) has = true;
        if (inlineHas(p.type, marker, refs)) has = true;
      }
      if (typeof type.additionalProperties === 'object' && inlineHas(type.additionalProperties, marker, refs)) has = true;
      return has;
    }
    case 'union':
      // Validators check the discriminator's mapping, which may name variants not listed.
      return [...type.variants, ...Object.values(type.discriminator?.mapping ?? {})].map((v) => inlineHas(v, marker, refs)).some(Boolean);
    case 'intersection':
      return type.parts.map((p) => inlineHas(p, marker, refs)).some(Boolean);
    case 'scalar':
    case 'literal':
    case 'unknown':
      return false;
    default:
      return assertNever(type);
  }
}
