/**
 * @module
 * Subtypes of a base object: a `discriminator` on an object that other schemas extend with `allOf`.
 */
import type { Discriminator, MessageType, NamedType, TypeRef } from '../../model/model.js';
import type { Conversion } from './conversion.js';
import { type At, isObject } from './document.js';
import { mappingTarget, refType } from './references.js';
import { childPointer } from './refs.js';

/**
 * Polymorphism through a base object: Swagger 2.0's `discriminator: petType`, or OpenAPI 3's
 * `discriminator: { propertyName, mapping }` on an object its subtypes extend with `allOf` (not
 * on a `oneOf`, which composition.ts reads). The subtypes are the `mapping`'s targets, and the schemas
 * of the same file whose `allOf` lists the base; an unmapped subtype's tag value is its
 * `x-discriminator-value` or its name, as both specifications say.
 */
export function subtypesOf(c: Conversion, base: MessageType, discriminator: unknown, at: At): Discriminator | undefined {
  const swagger = typeof discriminator === 'string';
  const propertyName = swagger
    ? discriminator
    : isObject(discriminator) && typeof discriminator['propertyName'] === 'string'
      ? discriminator['propertyName']
      : undefined;
  if (propertyName === undefined) return undefined;
  const discAt: At = { doc: at.doc, pointer: childPointer(at.pointer, 'discriminator') };
  if (!base.fields.some((f) => f.jsonName === propertyName)) {
    c.problems.warn(
      discAt,
      `discriminator '${propertyName}' is not a property of '${base.name}': ` +
        `add it to the properties (and to 'required'), or values cannot say which subtype they are`,
    );
  }
  const container = swagger ? 'definitions' : 'components/schemas';
  const mapping: Record<string, TypeRef> = {};
  const mapped = new Set<NamedType>();
  const explicit = !swagger && isObject(discriminator) && isObject(discriminator['mapping']) ? discriminator['mapping'] : {};
  for (const [value, ref] of Object.entries(explicit)) {
    if (typeof ref !== 'string') continue;
    const type = mappingTarget(c, value, ref.includes('#') || ref.includes('/') ? ref : `#/${container}/${ref}`, discAt);
    if (type === undefined) continue;
    if (type.kind !== 'ref' || type.target.kind !== 'message') {
      if (type.kind !== 'unknown')
        c.problems.warn(discAt, `discriminator mapping '${value}' names '${ref}', which is not an object schema; it is left out`);
      continue;
    }
    mapping[value] = { kind: 'ref', target: type.target };
    mapped.add(type.target);
  }
  const data = isObject(at.doc.data) ? at.doc.data : {};
  const schemas = swagger ? data['definitions'] : isObject(data['components']) ? data['components']['schemas'] : undefined;
  const self = `#${at.pointer}`;
  for (const [name, raw] of Object.entries(isObject(schemas) ? schemas : {})) {
    const allOf = isObject(raw) ? raw['allOf'] : undefined;
    if (!Array.isArray(allOf) || !allOf.some((part) => isObject(part) && part['$ref'] === self)) continue;
    const type = refType(c, `#${childPointer(`/${container}`, name)}`, discAt);
    if (type.kind !== 'ref' || type.target.kind !== 'message' || mapped.has(type.target)) continue;
    const tag = isObject(raw) && typeof raw['x-discriminator-value'] === 'string' ? raw['x-discriminator-value'] : name;
    if (mapping[tag] === undefined) mapping[tag] = { kind: 'ref', target: type.target };
  }
  return Object.keys(mapping).length > 0 ? { propertyName, mapping } : undefined;
}
