/**
 * @module
 * `$ref`s, resolved once each. A reference to a named schema becomes a reference to its named
 * type, declared as a shell first (file-entries.ts), so recursive schemas turn into a reference to
 * themselves instead of expanding forever. A reference to any other schema is converted in place,
 * once, and its type reused. Non-schema objects (parameters, responses, …) are followed by
 * {@link deref}.
 */
import type { JsonValue, TypeRef } from '../../model/model.js';
import type { Conversion } from './conversion.js';
import { type At, isObject, type Json } from './document.js';
import { addDependency, declare, namedLocation } from './file-entries.js';
import { BECOMES_UNKNOWN, leftOut } from './problems.js';
import { isNullable } from './schema-keywords.js';

/**
 * Follows `$ref` chains of non-schema objects (parameters, responses, request bodies, headers).
 * Returns undefined when one cannot be resolved, after a refusal whose override leaves out `what`
 * (`'parameter'`, `'response'`, …): the caller does so.
 */
export function deref(c: Conversion, value: unknown, at: At, what: string): { value: Json; at: At } | undefined {
  let current = value;
  let where = at;
  for (let hops = 0; isObject(current) && typeof current['$ref'] === 'string'; hops++) {
    if (hops > 32) {
      c.problems.refuse(where, `$ref chain is circular: '${current['$ref']}' never reaches an object`, leftOut(what));
      return undefined;
    }
    const target = c.store.resolveRef(current['$ref'], where.doc);
    if (typeof target === 'string') {
      refuseUnresolved(c, current['$ref'], target, where, leftOut(what));
      return undefined;
    }
    addDependency(c, where.doc, target.doc);
    current = target.value;
    where = { doc: target.doc, pointer: target.pointer };
  }
  if (!isObject(current)) {
    c.problems.refuse(
      where,
      `expected an object here, found ${Array.isArray(current) ? 'an array' : JSON.stringify(current)}`,
      leftOut(what),
    );
    return undefined;
  }
  return { value: current, at: where };
}

/**
 * The refusal of a `$ref` that cannot be resolved. A file that could not be loaded was reported
 * where it was first referenced, unless `--lenient` left it to each use to say what became of it.
 */
function refuseUnresolved(c: Conversion, ref: string, reason: string, at: At, consequence: string): void {
  const unloadable = c.store.unloadable(ref, at.doc);
  if (unloadable === undefined) c.problems.refuse(at, `$ref '${ref}' cannot be resolved: ${reason}`, consequence);
  else if (!unloadable.reported) c.problems.refuse(at, `$ref '${ref}' cannot be loaded: ${unloadable.reason}`, consequence);
}

/**
 * The `default` a schema declares, following `$ref`s; silent, since a `$ref` that does not
 * resolve is reported where the schema itself is converted.
 */
export function defaultOf(c: Conversion, schema: unknown, at: At): JsonValue | undefined {
  let current = schema;
  let doc = at.doc;
  for (let hops = 0; isObject(current) && typeof current['$ref'] === 'string' && hops <= 32; hops++) {
    const target = c.store.resolveRef(current['$ref'], doc);
    if (typeof target === 'string') return undefined;
    current = target.value;
    doc = target.doc;
  }
  return isObject(current) ? (current['default'] as JsonValue | undefined) : undefined;
}

/** The type a `$ref` names: a reference to a named type, or the inline type it points to. */
export function refType(c: Conversion, ref: string, at: At): TypeRef {
  const target = c.store.resolveRef(ref, at.doc);
  if (typeof target === 'string') {
    refuseUnresolved(c, ref, target, at, BECOMES_UNKNOWN);
    return { kind: 'unknown' };
  }
  addDependency(c, at.doc, target.doc);
  const where: At = { doc: target.doc, pointer: target.pointer };
  const name = namedLocation(where);
  if (name !== undefined) {
    const named = c.named.get(`${where.doc.key}#${where.pointer}`) ?? declare(c, where, name, target.value);
    return isObject(target.value) && isNullable(target.value) && named.kind !== 'alias'
      ? { kind: 'ref', target: named, nullable: true }
      : { kind: 'ref', target: named };
  }
  const key = `${where.doc.key}#${where.pointer}`;
  const cached = c.inline.get(key);
  if (cached) return cached;
  if (c.inProgress.has(key) || (isObject(target.value) && c.active.has(target.value))) {
    c.problems.warn(
      at,
      `$ref '${ref}' is recursive but not a named schema, so it is read as any value; ` +
        `move it under components/schemas (or definitions) to keep its shape`,
    );
    return { kind: 'unknown' };
  }
  c.inProgress.add(key);
  const type = c.typeOf(target.value, where);
  c.inProgress.delete(key);
  c.inline.set(key, type);
  return type;
}

/**
 * The type a discriminator's `mapping` entry names, or undefined (with a warning) when it names
 * nothing loaded: a mapping into a file the description does not bundle is what its authors'
 * tools accept, and a value of that tag is then checked without the subtype.
 */
export function mappingTarget(c: Conversion, value: string, ref: string, at: At): TypeRef | undefined {
  const target = c.store.resolveRef(ref, at.doc);
  if (typeof target === 'string') {
    c.problems.warn(at, `discriminator mapping '${value}' names '${ref}', which cannot be resolved (${target}); the entry is left out`);
    return undefined;
  }
  return refType(c, ref, at);
}
