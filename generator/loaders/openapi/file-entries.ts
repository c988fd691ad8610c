/**
 * @module
 * The schema files a conversion builds, one per document reached, and the named types each
 * declares. A file's named schemas (`components/schemas`, `definitions`, `$defs`) are declared as
 * shells when the file is first reached, in declaration order, so that `types` follows the
 * document whatever order references reach them in; named-types.ts fills them later.
 */
import { basename, extname } from 'node:path';
import type { AliasType, Diagnostic, EnumType, MessageType, NamedType, SchemaFile, SchemaFormat, Service } from '../../model/model.js';
import { pascalCase, safeIdentifier, UniqueNames } from '../../model/names.js';
import type { Mutable } from '../../model/type-utils.js';
import type { Conversion } from './conversion.js';
import { type At, detectFormat, docOf, isApiDocument, isObject, type Json } from './document.js';
import { objectLike } from './objects.js';
import { childPointer, pointerSegments, type SourceDocument } from './refs.js';
import { enumKind, typeList } from './schema-keywords.js';

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

/** The file entry for a document, created (with its named schemas declared in order) on first use. */
export function fileEntry(c: Conversion, doc: SourceDocument, fallback: SchemaFormat): FileEntry {
  const existing = c.entries.get(doc.key);
  if (existing) return existing;
  const detected = isApiDocument(doc.data) ? detectFormat(doc.data) : fallback;
  const format: SchemaFormat = detected === 'swagger-2.0' || detected === 'openapi-3.0' || detected === 'openapi-3.1' ? detected : fallback;
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
  c.entries.set(doc.key, entry);
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
    for (const name of Object.keys(container)) declare(c, { doc, pointer: childPointer(base, name) }, name, container[name]);
  }
  return entry;
}

/** Records that `from` uses a type of `to` (another file), so that its generated code imports `to`'s. */
export function addDependency(c: Conversion, from: SourceDocument, to: SourceDocument): void {
  if (from.key === to.key) return;
  const a = c.entries.get(from.key);
  if (!a) return;
  const b = c.entries.get(to.key) ?? fileEntry(c, to, a.file.format);
  if (!a.dependencies.includes(b.file)) a.dependencies.push(b.file);
}

/** Creates the shell of a named type (kind decided from the raw schema) and queues its contents. */
export function declare(c: Conversion, at: At, name: string, raw: unknown): NamedType {
  const key = `${at.doc.key}#${at.pointer}`;
  const existing = c.named.get(key);
  if (existing) return existing;
  const entry = c.entries.get(at.doc.key) ?? fileEntry(c, at.doc, 'openapi-3.0');
  const schema = isObject(raw) ? raw : {};
  const localName = entry.typeNames.take(safeIdentifier(name));
  const fullName = `#${at.pointer}`;
  const source = c.store.location(at.doc, at.pointer);
  const doc = docOf(schema) ?? (typeof schema['title'] === 'string' ? schema['title'] : undefined);
  const common = { parent: entry.file, name, localName, fullName, ...(doc ? { doc } : {}), source };
  let type: NamedType;
  const enumValueType = enumKind(schema);
  if (enumValueType) {
    type = { kind: 'enum', ...common, valueType: enumValueType, values: [] } satisfies EnumType;
  } else if (isMessage(c, schema, at)) {
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
  c.named.set(key, type);
  c.pending.set(type, { at, raw });
  entry.types.push(type);
  return type;
}

/** The name a location is declared under, when it declares a named type. */
export function namedLocation(at: At): string | undefined {
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

/** True when a named schema becomes a message (an interface): an object with properties, or an allOf of objects. */
function isMessage(c: Conversion, schema: Json, at: At): boolean {
  if (schema['oneOf'] !== undefined || schema['anyOf'] !== undefined) return false;
  if (Array.isArray(schema['allOf'])) return objectLike(c, schema, at);
  const types = typeList(schema).filter((t) => t !== 'null');
  const objectTyped = types.length === 1 && types[0] === 'object';
  const hasProperties = isObject(schema['properties']);
  if (!objectTyped && !(types.length === 0 && hasProperties)) return false;
  // An object with only `additionalProperties` is a dictionary: an alias of a map reads better.
  const ap = schema['additionalProperties'];
  return hasProperties || ap === undefined || ap === false;
}
