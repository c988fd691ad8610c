/**
 * @module
 * JSON Schema (as used by OpenAPI 3.0, 3.1 and Swagger 2.0) → model types.
 *
 * Named schemas (`components/schemas`, `definitions`, `$defs`) become {@link NamedType}s
 * of the file that declares them; everything else becomes an inline {@link TypeRef}.
 * Each `$ref` is resolved once: named targets are registered as shells before their
 * contents are converted, so recursive schemas turn into a reference to themselves
 * instead of expanding forever.
 *
 * Inline enums (in properties and parameters) stay inline as a {@link UnionType} of
 * {@link LiteralType}s; only named enums become {@link EnumType}s.
 * `additionalProperties` that is absent is read as `true`, JSON Schema's default (open):
 * validators then accept extra keys, as the API itself does, and the types emitter adds
 * an index signature only to objects without named properties. Only an explicit `false`
 * closes an object.
 */
import { basename, extname } from 'node:path';
import type {
  AliasType,
  Diagnostic,
  EnumType,
  EnumValue,
  Field,
  InlineProperty,
  JsonValue,
  LiteralType,
  MessageType,
  NamedType,
  ObjectType,
  SchemaFile,
  SchemaFormat,
  Service,
  SourceLocation,
  TypeRef,
  UnionType,
} from '../../model/model.js';
import { pascalCase, safeIdentifier, safePropertyName, UniqueNames } from '../../model/names.js';
import { assertNever, type Mutable } from '../../model/type-utils.js';
import { error, warning } from '../diagnostics.js';
import { mergeFields, mergeOpenness, mergeProperties, opennessOf } from './allof-properties.js';
import { subtypesOf } from './discriminator.js';
import { type At, detectFormat, docOf, isApiDocument, isObject, type Json } from './document.js';
import { childPointer, type DocumentStore, pointerSegments, type SourceDocument } from './refs.js';
import {
  constraintsOf,
  enumKind,
  isBinaryContent,
  isNullable,
  soleRef,
  typeList,
  warnIgnoredKeywords,
  withNullable,
} from './schema-keywords.js';

export type { At } from './document.js';
export { detectFormat, docOf, isApiDocument, isObject } from './document.js';

/** How deep inline schemas are read (each level an object, array or union inside another). */
export const MAX_NESTING = 200;

/** A schema file under construction, with the mutable arrays its read-only view exposes. */
export interface FileEntry {
  readonly doc: SourceDocument;
  readonly file: Mutable<SchemaFile>;
  readonly types: NamedType[];
  readonly services: Service[];
  readonly dependencies: SchemaFile[];
  readonly warnings: Diagnostic[];
  readonly typeNames: UniqueNames;
}

/**
 * Converts schemas of the loaded documents into model types, and owns the per-file results.
 * @example
 * const c = new SchemaConverter(store);
 * c.entry(doc, 'openapi-3.1');
 * const type = c.typeOf({ type: 'array', items: { $ref: '#/components/schemas/Issue' } }, { doc, pointer: '/x' });
 * c.finish(); // fills every named type reached
 */
export class SchemaConverter {
  readonly #store: DocumentStore;
  readonly #entries = new Map<string, FileEntry>();
  readonly #named = new Map<string, NamedType>();
  /** Named types whose contents are not converted yet, with their schema location. */
  readonly #pending = new Map<NamedType, { at: At; raw: unknown }>();
  readonly #inline = new Map<string, TypeRef>();
  readonly #inProgress = new Set<string>();
  readonly errors: Diagnostic[] = [];
  readonly #warned = new Set<string>();
  /** Schema objects being converted right now (to stop on YAML alias cycles). */
  readonly #active = new Set<object>();
  /** Named schemas already reported as part of a `$ref` cycle. */
  readonly #cycleReported = new Set<string>();

  constructor(store: DocumentStore) {
    this.#store = store;
  }

  /** The file entry for a document, created (with its named schemas declared in order) on first use. */
  entry(doc: SourceDocument, fallback: SchemaFormat): FileEntry {
    const existing = this.#entries.get(doc.key);
    if (existing) return existing;
    const detected = isApiDocument(doc.data) ? detectFormat(doc.data) : fallback;
    const format: SchemaFormat =
      detected === 'swagger-2.0' || detected === 'openapi-3.0' || detected === 'openapi-3.1' ? detected : fallback;
    const types: NamedType[] = [];
    const services: Service[] = [];
    const dependencies: SchemaFile[] = [];
    const warnings: Diagnostic[] = [];
    const data = isObject(doc.data) ? doc.data : {};
    const info = isObject(data['info']) ? data['info'] : {};
    const title =
      typeof info['title'] === 'string' && info['title'].trim() !== '' ? info['title'].trim() : basename(doc.path, extname(doc.path));
    const description = docOf(info);
    const file: Mutable<SchemaFile> = {
      kind: 'file',
      path: doc.path,
      format,
      packageName:
        title
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '') || 'api',
      info: {
        title,
        version: info['version'] === undefined ? '' : String(info['version']),
        ...(description ? { description } : {}),
        basePath: '',
      },
      services,
      types,
      dependencies,
      warnings,
    };
    const entry: FileEntry = { doc, file, types, services, dependencies, warnings, typeNames: new UniqueNames() };
    this.#entries.set(doc.key, entry);
    // Declare every named schema up front so that `types` follows declaration order
    // no matter in which order references reach them.
    const components = isObject(data['components']) ? data['components'] : {};
    const containers: [Json | undefined, string][] = [
      [isObject(components['schemas']) ? components['schemas'] : undefined, '/components/schemas'],
      [isObject(data['definitions']) ? data['definitions'] : undefined, '/definitions'],
      [isObject(data['$defs']) ? data['$defs'] : undefined, '/$defs'],
    ];
    for (const [container, base] of containers) {
      if (!container) continue;
      for (const name of Object.keys(container)) this.#declare({ doc, pointer: childPointer(base, name) }, name, container[name]);
    }
    return entry;
  }

  /** A model source location (with line when known) for a node. */
  location(at: At): SourceLocation {
    return this.#store.location(at.doc, at.pointer);
  }

  warn(at: At, message: string): void {
    // A schema reached both directly and through a `$ref` is read twice; say things once.
    const key = `${at.doc.key}#${at.pointer}\0${message}`;
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    const entry = this.#entries.get(at.doc.key);
    if (entry) entry.warnings.push(warning(message, this.#store.location(at.doc, at.pointer)));
  }

  fail(at: At, message: string): void {
    this.errors.push(error(message, this.#store.location(at.doc, at.pointer)));
  }

  /** Converts every named schema not converted yet (references may add more while this runs). */
  finish(): void {
    while (this.#pending.size > 0) {
      const [type, { at, raw }] = this.#pending.entries().next().value as [NamedType, { at: At; raw: unknown }];
      this.#fill(type, at, raw);
    }
  }

  /**
   * Follows `$ref` chains of non-schema objects (parameters, responses, request bodies, headers).
   * Returns undefined (after recording an error) when a reference cannot be resolved.
   */
  deref(value: unknown, at: At): { value: Json; at: At } | undefined {
    let current = value;
    let where = at;
    for (let hops = 0; isObject(current) && typeof current['$ref'] === 'string'; hops++) {
      if (hops > 32) {
        this.fail(where, `$ref chain is circular: '${current['$ref']}' never reaches an object`);
        return undefined;
      }
      const target = this.#store.resolveRef(current['$ref'], where.doc);
      if (typeof target === 'string') {
        // A file that could not be loaded was reported where it was first referenced.
        if (!this.#store.unloadable(current['$ref'], where.doc))
          this.fail(where, `$ref '${current['$ref']}' cannot be resolved: ${target}`);
        return undefined;
      }
      this.#dependency(where.doc, target.doc);
      current = target.value;
      where = { doc: target.doc, pointer: target.pointer };
    }
    if (!isObject(current)) {
      this.fail(where, `expected an object here, found ${Array.isArray(current) ? 'an array' : JSON.stringify(current)}`);
      return undefined;
    }
    return { value: current, at: where };
  }

  /**
   * The `default` a schema declares, following `$ref`s; silent, since a `$ref` that does not
   * resolve is reported where the schema itself is converted.
   */
  defaultOf(schema: unknown, at: At): JsonValue | undefined {
    let current = schema;
    let doc = at.doc;
    for (let hops = 0; isObject(current) && typeof current['$ref'] === 'string' && hops <= 32; hops++) {
      const target = this.#store.resolveRef(current['$ref'], doc);
      if (typeof target === 'string') return undefined;
      current = target.value;
      doc = target.doc;
    }
    return isObject(current) ? (current['default'] as JsonValue | undefined) : undefined;
  }

  /** Converts a schema object at a location into a type. */
  typeOf(schema: unknown, at: At): TypeRef {
    if (schema === true || (isObject(schema) && Object.keys(schema).length === 0)) return { kind: 'unknown' };
    if (schema === false) {
      this.warn(at, "schema 'false' (nothing allowed) is read as any value");
      return { kind: 'unknown' };
    }
    if (!isObject(schema)) {
      this.fail(at, `a schema must be an object, found ${JSON.stringify(schema)}`);
      return { kind: 'unknown' };
    }
    if (typeof schema['$ref'] === 'string') {
      const ref = this.refType(schema['$ref'], at);
      return isNullable(schema) ? withNullable(ref) : ref;
    }
    if (this.#active.has(schema)) {
      // Only YAML aliases (`&a` … `*a`) can nest an object inside itself without a `$ref`.
      this.warn(
        at,
        'this schema contains itself through a YAML alias, so it is read as any value; use a $ref to a named schema for recursion',
      );
      return { kind: 'unknown' };
    }
    if (this.#active.size >= MAX_NESTING) {
      // Bounded, not recursive without end: deeper than any description means, and deeper than the
      // stack of every step after this one would take.
      this.warn(
        at,
        `this schema nests deeper than ${MAX_NESTING} levels; from here on it is read as any value ` +
          `(give its inner parts names under components to keep them)`,
      );
      return { kind: 'unknown' };
    }
    this.#active.add(schema);
    try {
      return this.#typeOfObject(schema, at);
    } finally {
      this.#active.delete(schema);
    }
  }

  #typeOfObject(schema: Json, at: At): TypeRef {
    warnIgnoredKeywords(schema, at, this);
    const nullable = isNullable(schema);
    const type = this.#typeOf(schema, at);
    return nullable ? withNullable(type) : type;
  }

  #typeOf(schema: Json, at: At): TypeRef {
    if (schema['const'] !== undefined) return this.#literal(schema['const'], at);
    if (Array.isArray(schema['enum'])) {
      // Inline enums stay a union of literals; a `null` value is kept as the literal null.
      const values = schema['enum'];
      if (values.length === 1) return this.#literal(values[0], at);
      return { kind: 'union', mode: 'oneOf', variants: values.map((v) => this.#literal(v, at)) } satisfies UnionType;
    }
    if (Array.isArray(schema['allOf'])) return this.#allOf(schema, at);
    for (const mode of ['oneOf', 'anyOf'] as const) {
      if (Array.isArray(schema[mode])) return this.#union(schema, mode, at);
    }
    const types = typeList(schema).filter((t) => t !== 'null');
    if (types.length > 1) {
      return { kind: 'union', mode: 'anyOf', variants: types.map((t) => this.#typeOf({ ...schema, type: t }, at)) };
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
    const constraints = constraintsOf(schema, at, this);
    const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
    switch (type) {
      case undefined:
        return { kind: 'unknown' };
      case 'object':
        return this.#object(schema, at);
      case 'array':
        return {
          kind: 'array',
          items:
            schema['items'] === undefined
              ? { kind: 'unknown' }
              : this.typeOf(schema['items'], { doc: at.doc, pointer: childPointer(at.pointer, 'items') }),
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
        this.fail(
          { doc: at.doc, pointer: childPointer(at.pointer, 'type') },
          `unsupported type '${type}': use one of string, number, integer, boolean, array, object or null`,
        );
        return { kind: 'unknown' };
    }
  }

  #literal(value: unknown, at: At): LiteralType {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      return { kind: 'literal', value };
    this.warn(at, `enum/const value ${JSON.stringify(value)} is not a string, number, boolean or null; it is read as its JSON text`);
    return { kind: 'literal', value: JSON.stringify(value) };
  }

  #properties(
    schema: Json,
    at: At,
  ): {
    name: string;
    required: boolean;
    type: TypeRef;
    readOnly: boolean;
    writeOnly: boolean;
    deprecated: boolean;
    default?: JsonValue;
    doc?: string;
    at: At;
  }[] {
    const props = isObject(schema['properties']) ? schema['properties'] : {};
    const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((x): x is string => typeof x === 'string') : []);
    const out = [];
    for (const [name, raw] of Object.entries(props)) {
      const propAt = { doc: at.doc, pointer: childPointer(at.pointer, 'properties', name) };
      if (name === '__proto__') {
        // As the proto loader says of such a field: JavaScript objects cannot hold it as data.
        this.fail(
          propAt,
          "property '__proto__' cannot be generated: JavaScript treats that name as an object's prototype, " +
            'so validators and documents would silently drop it; rename the property',
        );
        continue;
      }
      const type = this.typeOf(raw, propAt);
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

  #additional(schema: Json, at: At): boolean | TypeRef {
    const ap = schema['additionalProperties'];
    if (ap === false) return false;
    if (ap === undefined || ap === true || (isObject(ap) && Object.keys(ap).length === 0)) return true;
    return this.typeOf(ap, { doc: at.doc, pointer: childPointer(at.pointer, 'additionalProperties') });
  }

  #object(schema: Json, at: At): TypeRef {
    const additionalProperties = this.#additional(schema, at);
    const hasProperties = isObject(schema['properties']) && Object.keys(schema['properties']).length > 0;
    if (!hasProperties && additionalProperties !== false) {
      return {
        kind: 'map',
        key: { kind: 'scalar', scalar: 'string' },
        value: additionalProperties === true ? { kind: 'unknown' } : additionalProperties,
      };
    }
    const constraints = constraintsOf(schema, at, this);
    const properties: InlineProperty[] = this.#properties(schema, at).map(({ at: _at, deprecated: _d, ...p }) => p);
    return { kind: 'object', properties, additionalProperties, ...(constraints ? { constraints } : {}) } satisfies ObjectType;
  }

  #union(schema: Json, mode: 'oneOf' | 'anyOf', at: At): TypeRef {
    const parts = schema[mode] as unknown[];
    const variants = parts.map((p, i) => this.typeOf(p, { doc: at.doc, pointer: childPointer(at.pointer, mode, i) }));
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
          const target = this.mappingTarget(value, ref.includes('#') || ref.includes('/') ? ref : `#/components/schemas/${ref}`, discAt);
          if (target !== undefined) mapping[value] = target;
        }
      } else {
        for (const v of variants) if (v.kind === 'ref') mapping[v.target.name] = v;
      }
      union.discriminator = { propertyName: disc['propertyName'], mapping };
    }
    return union;
  }

  #allOf(schema: Json, at: At): TypeRef {
    const parts = (schema['allOf'] as unknown[]).map((p, i) => ({
      raw: p,
      at: { doc: at.doc, pointer: childPointer(at.pointer, 'allOf', i) },
    }));
    const { allOf: _allOf, ...rest } = schema;
    // `type: object` beside allOf adds nothing; properties, required or additionalProperties do.
    const hasOwn = rest['properties'] !== undefined || rest['required'] !== undefined || rest['additionalProperties'] !== undefined;
    // `allOf: [{$ref: X}]` with only a description or nullable beside it is a plain reference.
    if (parts.length === 1 && !hasOwn) return this.typeOf(parts[0]!.raw, parts[0]!.at);
    const all = hasOwn ? [...parts, { raw: rest, at }] : parts;
    if (!all.every((p) => this.#objectLike(p.raw, p.at))) {
      return { kind: 'intersection', parts: parts.map((p) => this.typeOf(p.raw, p.at)) };
    }
    const properties = new Map<string, InlineProperty>();
    const openness: (boolean | TypeRef)[] = [];
    const required = new Set<string>();
    const put = (p: InlineProperty) => properties.set(p.name, mergeProperties(properties.get(p.name), p));
    for (const part of parts) {
      const type = this.typeOf(part.raw, part.at);
      for (const p of this.#inlineProperties(type)) put(p);
      openness.push(opennessOf(type));
      if (isObject(part.raw) && Array.isArray(part.raw['required']))
        for (const r of part.raw['required']) if (typeof r === 'string') required.add(r);
    }
    if (hasOwn) {
      for (const p of this.#properties(rest, at)) {
        const { at: _at, deprecated: _d, ...inline } = p;
        put(inline);
      }
    }
    return {
      kind: 'object',
      properties: [...properties.values()].map((p) => (required.has(p.name) && !p.required ? { ...p, required: true } : p)),
      additionalProperties: mergeOpenness(openness, rest['additionalProperties'] !== undefined ? this.#additional(rest, at) : undefined),
    };
  }

  #inlineProperties(type: TypeRef): InlineProperty[] {
    if (type.kind === 'object') return [...type.properties];
    if (type.kind === 'ref' && type.target.kind === 'message') {
      this.#ensureFilled(type.target);
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

  /** True when a raw schema describes an object (following refs and allOf), without converting it. */
  #objectLike(raw: unknown, at: At, seen = new Set<string>()): boolean {
    let schema = raw;
    let where = at;
    while (isObject(schema) && typeof schema['$ref'] === 'string') {
      const key = `${where.doc.key}#${schema['$ref']}`;
      if (seen.has(key)) return true;
      seen.add(key);
      const target = this.#store.resolveRef(schema['$ref'], where.doc);
      if (typeof target === 'string') return false;
      schema = target.value;
      where = { doc: target.doc, pointer: target.pointer };
    }
    if (!isObject(schema)) return false;
    if (schema['oneOf'] !== undefined || schema['anyOf'] !== undefined || schema['enum'] !== undefined) return false;
    const types = typeList(schema).filter((t) => t !== 'null');
    if (types.length > 0) return types.length === 1 && types[0] === 'object';
    if (schema['properties'] !== undefined || schema['additionalProperties'] !== undefined) return true;
    if (Array.isArray(schema['allOf'])) return schema['allOf'].every((p) => this.#objectLike(p, where, seen));
    return false;
  }

  // -------------------------------------------------------------------------
  // References and named types
  // -------------------------------------------------------------------------

  /**
   * The type a discriminator's `mapping` entry names, or undefined (with a warning) when it names
   * nothing loaded: a mapping into a file the description does not bundle is what its authors'
   * tools accept, and a value of that tag is then checked without the subtype.
   */
  mappingTarget(value: string, ref: string, at: At): TypeRef | undefined {
    const target = this.#store.resolveRef(ref, at.doc);
    if (typeof target === 'string') {
      this.warn(at, `discriminator mapping '${value}' names '${ref}', which cannot be resolved (${target}); the entry is left out`);
      return undefined;
    }
    return this.refType(ref, at);
  }

  /** The type a `$ref` names: a reference to a named type, or the inline type it points to. */
  refType(ref: string, at: At): TypeRef {
    const target = this.#store.resolveRef(ref, at.doc);
    if (typeof target === 'string') {
      // A file that could not be loaded was reported where it was first referenced.
      if (!this.#store.unloadable(ref, at.doc)) this.fail(at, `$ref '${ref}' cannot be resolved: ${target}`);
      return { kind: 'unknown' };
    }
    this.#dependency(at.doc, target.doc);
    const where: At = { doc: target.doc, pointer: target.pointer };
    const name = this.#namedLocation(where);
    if (name !== undefined) {
      const named = this.#named.get(`${where.doc.key}#${where.pointer}`) ?? this.#declare(where, name, target.value);
      return isObject(target.value) && isNullable(target.value) && named.kind !== 'alias'
        ? { kind: 'ref', target: named, nullable: true }
        : { kind: 'ref', target: named };
    }
    const key = `${where.doc.key}#${where.pointer}`;
    const cached = this.#inline.get(key);
    if (cached) return cached;
    if (this.#inProgress.has(key) || (isObject(target.value) && this.#active.has(target.value))) {
      this.warn(
        at,
        `$ref '${ref}' is recursive but not a named schema, so it is read as any value; ` +
          `move it under components/schemas (or definitions) to keep its shape`,
      );
      return { kind: 'unknown' };
    }
    this.#inProgress.add(key);
    const type = this.typeOf(target.value, where);
    this.#inProgress.delete(key);
    this.#inline.set(key, type);
    return type;
  }

  /** The name a location is declared under, when it declares a named type. */
  #namedLocation(at: At): string | undefined {
    const segments = pointerSegments(at.pointer);
    const last = segments[segments.length - 1];
    const api = isApiDocument(at.doc.data);
    if (api) {
      if (segments.length === 3 && segments[0] === 'components' && segments[1] === 'schemas') return last;
      if (segments.length === 2 && segments[0] === 'definitions') return last;
      if (segments.length >= 2 && segments[segments.length - 2] === '$defs') return last;
      return undefined;
    }
    // A schema fragment file: the whole file, or one entry of a file of schemas.
    if (segments.length === 0) return pascalCase(basename(at.doc.path, extname(at.doc.path))) || 'Schema';
    if (segments.length === 1) return last;
    if (segments.length === 2 && (segments[0] === 'definitions' || segments[0] === '$defs' || segments[0] === 'schemas')) return last;
    return undefined;
  }

  #dependency(from: SourceDocument, to: SourceDocument): void {
    if (from.key === to.key) return;
    const a = this.#entries.get(from.key);
    if (!a) return;
    const b = this.#entries.get(to.key) ?? this.entry(to, a.file.format);
    if (!a.dependencies.includes(b.file)) a.dependencies.push(b.file);
  }

  /** Creates the shell of a named type (kind decided from the raw schema) and queues its contents. */
  #declare(at: At, name: string, raw: unknown): NamedType {
    const key = `${at.doc.key}#${at.pointer}`;
    const existing = this.#named.get(key);
    if (existing) return existing;
    const entry = this.#entries.get(at.doc.key) ?? this.entry(at.doc, 'openapi-3.0');
    const schema = isObject(raw) ? raw : {};
    const localName = entry.typeNames.take(safeIdentifier(name));
    const fullName = `#${at.pointer}`;
    const source = this.#store.location(at.doc, at.pointer);
    const doc = docOf(schema) ?? (typeof schema['title'] === 'string' ? schema['title'] : undefined);
    const common = { parent: entry.file, name, localName, fullName, ...(doc ? { doc } : {}), source };
    let type: NamedType;
    const enumValueType = enumKind(schema);
    if (enumValueType) {
      type = { kind: 'enum', ...common, valueType: enumValueType, values: [] } satisfies EnumType;
    } else if (this.#isMessage(schema, at)) {
      type = {
        kind: 'message',
        ...common,
        fields: [],
        oneofs: [],
        additionalProperties: false,
        extends: [],
        deprecated: schema['deprecated'] === true,
      } satisfies MessageType;
    } else {
      type = { kind: 'alias', ...common, type: { kind: 'unknown' } } satisfies AliasType;
    }
    this.#named.set(key, type);
    this.#pending.set(type, { at, raw });
    entry.types.push(type);
    return type;
  }

  /**
   * Follows a named schema's chain of `$ref`s; when it comes back to the schema without
   * reaching a schema that is not a `$ref`, reports it once (at the first member reached)
   * and returns true.
   */
  #reportRefCycle(raw: Json, at: At): boolean {
    const start = `${at.doc.key}#${at.pointer}`;
    if (this.#cycleReported.has(start)) return true;
    const chain = [start];
    const names = [pointerSegments(at.pointer).at(-1) ?? at.pointer];
    let schema: unknown = raw;
    let where = at;
    for (let ref = soleRef(schema); ref !== undefined; ref = soleRef(schema)) {
      const target = this.#store.resolveRef(ref, where.doc);
      if (typeof target === 'string') return false; // reported where the $ref is converted
      where = { doc: target.doc, pointer: target.pointer };
      const key = `${where.doc.key}#${where.pointer}`;
      names.push(pointerSegments(where.pointer).at(-1) ?? where.pointer);
      if (key === start) {
        for (const member of chain) this.#cycleReported.add(member);
        this.fail(
          at,
          `$ref chain ${names.join(' → ')} never reaches a schema: each one only refers to the next; ` +
            `give one of them a real schema (type, properties, …) or point the $ref elsewhere`,
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

  #isMessage(schema: Json, at: At): boolean {
    if (schema['oneOf'] !== undefined || schema['anyOf'] !== undefined) return false;
    if (Array.isArray(schema['allOf'])) return this.#objectLike(schema, at);
    const types = typeList(schema).filter((t) => t !== 'null');
    const objectTyped = types.length === 1 && types[0] === 'object';
    const hasProperties = isObject(schema['properties']);
    if (!objectTyped && !(types.length === 0 && hasProperties)) return false;
    // An object with only `additionalProperties` is a dictionary: an alias of a map reads better.
    const ap = schema['additionalProperties'];
    return hasProperties || ap === undefined || ap === false;
  }

  #ensureFilled(type: NamedType): void {
    const pending = this.#pending.get(type);
    if (pending) this.#fill(type, pending.at, pending.raw);
  }

  #fill(type: NamedType, at: At, raw: unknown): void {
    this.#pending.delete(type);
    try {
      this.#fillType(type, at, raw);
    } catch (e) {
      // A bug in Loom, or input it cannot handle: said where it happened, not as a stack trace.
      this.fail(at, `cannot read this schema: ${e instanceof Error ? e.message : String(e)}; please report this with the description`);
    }
  }

  #fillType(type: NamedType, at: At, raw: unknown): void {
    const schema = isObject(raw) ? raw : {};
    switch (type.kind) {
      case 'enum':
        this.#fillEnum(type as Mutable<EnumType>, schema, at);
        break;
      case 'message':
        this.#fillMessage(type as Mutable<MessageType>, schema, at);
        break;
      case 'alias': {
        // `A: {$ref: B}`, `B: {$ref: A}` describes no value at all; converted as is, it
        // becomes aliases of each other that overflow the stack of whatever reads them.
        if (this.#reportRefCycle(schema, at)) break;
        const t = this.typeOf(schema, at);
        (type as Mutable<AliasType>).type = t;
        break;
      }
      default:
        assertNever(type, 'named type');
    }
  }

  #fillEnum(type: Mutable<EnumType>, schema: Json, at: At): void {
    warnIgnoredKeywords(schema, at, this);
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
      this.warn(at, `enum '${type.name}' lists null: the value is dropped from the enum; mark the properties that use it nullable instead`);
    type.values = values;
  }

  #fillMessage(message: Mutable<MessageType>, schema: Json, at: At): void {
    // Named objects are read here, not through `typeOf`: the same checks as inline schemas get.
    warnIgnoredKeywords(schema, at, this);
    const fields = new Map<string, Field>();
    const required = new Set<string>(
      Array.isArray(schema['required']) ? schema['required'].filter((x): x is string => typeof x === 'string') : [],
    );
    const extendsList: TypeRef[] = [];
    const openness: (boolean | TypeRef)[] = [];
    // A property an earlier part declared too keeps what that part said of it (allof-properties.ts).
    const put = (field: Field) => fields.set(field.name, mergeFields(fields.get(field.name), field));
    const addProperties = (owner: Json, ownerAt: At) => {
      for (const p of this.#properties(owner, ownerAt)) put(this.#field(message, p.name, p, p.at));
    };
    if (Array.isArray(schema['allOf'])) {
      schema['allOf'].forEach((part, i) => {
        const partAt = { doc: at.doc, pointer: childPointer(at.pointer, 'allOf', i) };
        const type = this.typeOf(part, partAt);
        if (type.kind === 'ref' && type.target.kind === 'message') {
          extendsList.push(type);
          this.#ensureFilled(type.target);
          for (const f of type.target.fields) put({ ...f, parent: message });
        } else if (type.kind === 'object') {
          for (const p of type.properties) {
            put(
              this.#field(
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
    addProperties(schema, at);
    const own = schema['additionalProperties'] !== undefined || openness.length === 0 ? this.#additional(schema, at) : undefined;
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
      const subtypes = subtypesOf(this, message, schema['discriminator'], at);
      if (subtypes) message.subtypes = subtypes;
    }
  }

  #field(
    parent: MessageType,
    name: string,
    p: { required: boolean; type: TypeRef; readOnly: boolean; writeOnly: boolean; deprecated: boolean; default?: JsonValue; doc?: string },
    at: At,
  ): Field {
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
      source: this.#store.location(at.doc, at.pointer),
    };
  }
}
