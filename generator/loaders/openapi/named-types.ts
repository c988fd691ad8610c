/**
 * @module
 * The contents of named types, converted after their shells are declared (file-entries.ts): an
 * enum's values, a message's fields (an `allOf` of objects extends the messages it lists, and
 * copies their fields), or an alias's type. A type is filled once, when {@link finish} reaches it
 * or earlier when a subtype needs its fields ({@link ensureFilled}).
 */
import type { AliasType, EnumType, EnumValue, Field, MessageType, NamedType, TypeRef } from '../../model/model.js';
import { pascalCase, safePropertyName, UniqueNames } from '../../model/names.js';
import { assertNever, type Mutable } from '../../model/type-utils.js';
import { mergeFields, mergeOpenness, opennessOf } from './allof-properties.js';
import type { Conversion } from './conversion.js';
import { subtypesOf } from './discriminator.js';
import { type At, isObject, type Json } from './document.js';
import { additional, properties, type ReadProperty } from './objects.js';
import { BECOMES_UNKNOWN } from './problems.js';
import { childPointer, pointerSegments } from './refs.js';
import { soleRef, warnIgnoredKeywords } from './schema-keywords.js';

/** Converts every named schema not converted yet (references may add more while this runs). */
export function finish(c: Conversion): void {
  while (c.pending.size > 0) {
    const [type, { at, raw }] = c.pending.entries().next().value as [NamedType, { at: At; raw: unknown }];
    fill(c, type, at, raw);
  }
}

/** Converts a named type's contents now, if that has not happened yet. */
export function ensureFilled(c: Conversion, type: NamedType): void {
  const pending = c.pending.get(type);
  if (pending) fill(c, type, pending.at, pending.raw);
}

function fill(c: Conversion, type: NamedType, at: At, raw: unknown): void {
  c.pending.delete(type);
  // A named type is generated whichever operation reaches it first: marking that operation
  // x-loom-skip would not keep its refusals away, so they offer --lenient alone.
  c.problems.within(undefined, () => {
    try {
      fillType(c, type, at, raw);
    } catch (e) {
      // A bug in Loom, or input it cannot handle: said where it happened, not as a stack trace.
      c.problems.refuse(
        at,
        `cannot read this schema: ${e instanceof Error ? e.message : String(e)}; please report this with the description`,
        empty(type),
      );
    }
  });
}

/** Clears what a fill that failed halfway left in a named type; says what the type is then. */
function empty(type: NamedType): string {
  switch (type.kind) {
    case 'enum':
      (type as Mutable<EnumType>).values = [];
      return 'this enum has no values';
    case 'message': {
      const message = type as Mutable<MessageType>;
      message.fields = [];
      message.extends = [];
      message.additionalProperties = true;
      delete message.subtypes;
      return 'this schema becomes an object with no declared properties';
    }
    case 'alias':
      (type as Mutable<AliasType>).type = { kind: 'unknown' };
      return BECOMES_UNKNOWN;
    default:
      return assertNever(type, 'named type');
  }
}

function fillType(c: Conversion, type: NamedType, at: At, raw: unknown): void {
  const schema = isObject(raw) ? raw : {};
  switch (type.kind) {
    case 'enum':
      fillEnum(c, type as Mutable<EnumType>, schema, at);
      break;
    case 'message':
      fillMessage(c, type as Mutable<MessageType>, schema, at);
      break;
    case 'alias': {
      // `A: {$ref: B}`, `B: {$ref: A}` describes no value at all; converted as is, it
      // becomes aliases of each other that overflow the stack of whatever reads them.
      if (reportRefCycle(c, schema, at)) break;
      const t = c.typeOf(schema, at);
      (type as Mutable<AliasType>).type = t;
      break;
    }
    default:
      assertNever(type, 'named type');
  }
}

/**
 * Follows a named schema's chain of `$ref`s; when it comes back to the schema without
 * reaching a schema that is not a `$ref`, reports it once (at the first member reached)
 * and returns true.
 */
function reportRefCycle(c: Conversion, raw: Json, at: At): boolean {
  const start = `${at.doc.key}#${at.pointer}`;
  if (c.cycleReported.has(start)) return true;
  const chain = [start];
  const names = [pointerSegments(at.pointer).at(-1) ?? at.pointer];
  let schema: unknown = raw;
  let where = at;
  for (let ref = soleRef(schema); ref !== undefined; ref = soleRef(schema)) {
    const target = c.store.resolveRef(ref, where.doc);
    if (typeof target === 'string') return false; // reported where the $ref is converted
    where = { doc: target.doc, pointer: target.pointer };
    const key = `${where.doc.key}#${where.pointer}`;
    names.push(pointerSegments(where.pointer).at(-1) ?? where.pointer);
    if (key === start) {
      for (const member of chain) c.cycleReported.add(member);
      c.problems.refuse(
        at,
        `$ref chain ${names.join(' → ')} never reaches a schema: each one only refers to the next; ` +
          `give one of them a real schema (type, properties, …) or point the $ref elsewhere`,
        'each schema of the chain becomes unknown',
      );
      return true;
    }
    // A chain that runs into a cycle elsewhere: that cycle's own first member reports it.
    if (chain.includes(key)) return false;
    chain.push(key);
    schema = target.value;
  }
  return false;
}

function fillEnum(c: Conversion, type: Mutable<EnumType>, schema: Json, at: At): void {
  warnIgnoredKeywords(schema, at, c.problems);
  const raw = (schema['enum'] as unknown[]).filter((v) => v !== null) as (string | number)[];
  const varNames = [schema['x-enum-varnames'], schema['x-enumNames']].find(
    (v): v is string[] => Array.isArray(v) && v.length === raw.length && v.every((x) => typeof x === 'string'),
  );
  const descriptions = Array.isArray(schema['x-enum-descriptions']) ? schema['x-enum-descriptions'] : [];
  const names = new UniqueNames();
  const seen = new Set<string | number>();
  const values: EnumValue[] = raw.map((value, i) => {
    const base =
      varNames?.[i] ?? (typeof value === 'string' ? pascalCase(value) || 'Empty' : `Value_${value < 0 ? `Minus${-value}` : value}`);
    const doc = typeof descriptions[i] === 'string' ? (descriptions[i] as string) : undefined;
    const v: EnumValue = {
      name: String(value),
      localName: names.take(safePropertyName(base)),
      value,
      alias: seen.has(value),
      ...(doc ? { doc } : {}),
    };
    seen.add(value);
    return v;
  });
  if ((schema['enum'] as unknown[]).includes(null))
    c.problems.warn(
      at,
      `enum '${type.name}' lists null: the value is dropped from the enum; mark the properties that use it nullable instead`,
    );
  type.values = values;
}

function fillMessage(c: Conversion, message: Mutable<MessageType>, schema: Json, at: At): void {
  // Named objects are read here, not through `typeOf`: the same checks as inline schemas get.
  warnIgnoredKeywords(schema, at, c.problems);
  const fields = new Map<string, Field>();
  const required = new Set<string>(
    Array.isArray(schema['required']) ? schema['required'].filter((x): x is string => typeof x === 'string') : [],
  );
  const extendsList: TypeRef[] = [];
  const openness: (boolean | TypeRef)[] = [];
  // A property an earlier part declared too keeps what that part said of it (allof-properties.ts).
  const put = (f: Field) => fields.set(f.name, mergeFields(fields.get(f.name), f));
  if (Array.isArray(schema['allOf'])) {
    schema['allOf'].forEach((part, i) => {
      const partAt = { doc: at.doc, pointer: childPointer(at.pointer, 'allOf', i) };
      const type = c.typeOf(part, partAt);
      if (type.kind === 'ref' && type.target.kind === 'message') {
        extendsList.push(type);
        ensureFilled(c, type.target);
        for (const f of type.target.fields) put({ ...f, parent: message });
      } else if (type.kind === 'object') {
        for (const p of type.properties) {
          put(
            field(
              c,
              message,
              p.name,
              { ...p, deprecated: false },
              { doc: partAt.doc, pointer: childPointer(partAt.pointer, 'properties', p.name) },
            ),
          );
        }
      }
      openness.push(opennessOf(type));
      if (isObject(part) && Array.isArray(part['required'])) for (const r of part['required']) if (typeof r === 'string') required.add(r);
    });
  }
  for (const p of properties(c, schema, at)) put(field(c, message, p.name, p, p.at));
  const own = schema['additionalProperties'] !== undefined || openness.length === 0 ? additional(c, schema, at) : undefined;
  const additionalProperties = mergeOpenness(openness, own);
  for (const name of required) {
    const f = fields.get(name);
    if (f && f.presence !== 'required') fields.set(name, { ...f, presence: 'required' });
  }
  message.fields = [...fields.values()];
  message.extends = extendsList;
  message.additionalProperties = additionalProperties;
  // After the fields: a subtype read from here copies them.
  if (schema['discriminator'] !== undefined) {
    const subtypes = subtypesOf(c, message, schema['discriminator'], at);
    if (subtypes) message.subtypes = subtypes;
  }
}

function field(c: Conversion, parent: MessageType, name: string, p: Omit<ReadProperty, 'name' | 'at'>, at: At): Field {
  return {
    kind: 'field',
    parent,
    name,
    jsonName: name,
    localName: name,
    type: p.type,
    presence: p.required ? 'required' : 'optional',
    readOnly: p.readOnly,
    writeOnly: p.writeOnly,
    deprecated: p.deprecated,
    ...(p.default !== undefined ? { default: p.default } : {}),
    ...(p.doc ? { doc: p.doc } : {}),
    source: c.store.location(at.doc, at.pointer),
  };
}
