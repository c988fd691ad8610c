/**
 * @module
 * Model type references → TypeScript type expressions, following the type mapping of
 * `docs/design/contracts.md`. References to named types in other schema files become
 * type-only imports of that file's `.types.ts`, registered on the printer.
 */
import type { MessageType, NamedType, ScalarType, SchemaFile, TypeRef, WellKnownType } from '../../model/model.js';
import { isProtoFile } from '../../model/schema-file.js';
import { assertNever } from '../../model/type-utils.js';
import type { GeneratedFile } from '../../printer/generated-file.js';
import { importSymbol, stringLiteral } from '../../printer/generated-file.js';
import type { Direction } from '../json-schema/index.js';
import { hasDirectionalForms, requiredOnlyElsewhere } from '../json-schema/index.js';
import { requestTypeName } from '../names.js';

/** Where a type expression is printed: the file being written and the schema it comes from. */
export interface TypeRenderContext {
  readonly f: GeneratedFile;
  readonly file: SchemaFile;
  /** Output path of a schema file's `.types.ts`, rooted with `/` for `importSymbol`. */
  typesPath(file: SchemaFile): string;
  /**
   * The side of the exchange the type describes. `request` (what a client sends: request
   * bodies) makes required `readOnly` properties optional and names the request form of a
   * type that has one ({@link requestTypeName}); `response` (the named types themselves)
   * makes required `writeOnly` properties optional. Unset: `required` as declared.
   */
  readonly direction?: Direction;
}

/** True when a property the schema requires is optional on this side of the exchange. */
export function optionalHere(property: { readonly readOnly: boolean; readonly writeOnly: boolean }, ctx: TypeRenderContext): boolean {
  return requiredOnlyElsewhere(property, ctx.direction);
}

/**
 * The TypeScript spelling of a type reference, e.g. `Issue[] | null`.
 *
 * @example
 * renderType({ kind: 'map', key: { kind: 'scalar', scalar: 'string' }, value: { kind: 'scalar', scalar: 'int64' } }, ctx);
 * // '{ [key: string]: string }' in a proto file
 */
export function renderType(type: TypeRef, ctx: TypeRenderContext, indent = ''): string {
  switch (type.kind) {
    case 'scalar':
      return orNull(scalarType(type, ctx), type.nullable);
    case 'ref':
      return orNull(refName(type.target, ctx), type.nullable);
    case 'array':
      return orNull(`${wrap(renderType(type.items, ctx, indent))}[]`, type.nullable);
    case 'map':
      return orNull(`{ [key: string]: ${renderType(type.value, ctx, indent)} }`, type.nullable);
    case 'object':
      return orNull(renderInlineObject(type.properties, type.additionalProperties, ctx, indent), type.nullable);
    case 'union': {
      const discriminator = type.discriminator;
      const mapped = discriminator ? Object.entries(discriminator.mapping) : [];
      // A discriminated union names the tag value of each variant, so `switch (x.kind)` narrows.
      const variants =
        discriminator && mapped.length > 0
          ? mapped.map(
              ([value, variant]) =>
                `(${wrap(renderType(variant, ctx, indent))} & { ${propertyKey(discriminator.propertyName)}: ${stringLiteral(value)} })`,
            )
          : type.variants.map((v) => wrap(renderType(v, ctx, indent)));
      return orNull(unique(variants).join(' | ') || 'never', type.nullable);
    }
    case 'intersection':
      return orNull(type.parts.map((p) => wrap(renderType(p, ctx, indent))).join(' & ') || 'unknown', type.nullable);
    case 'literal':
      return type.value === null ? 'null' : typeof type.value === 'string' ? stringLiteral(type.value) : String(type.value);
    case 'unknown':
      return 'unknown';
    default:
      return assertNever(type);
  }
}

/**
 * A global type's name as generated code must spell it where `file` may shadow it: a
 * schema that declares its own `Blob` or `AsyncIterable` (a git API's blob object, a
 * message called `AsyncIterable`) gets `globalThis.Blob` wherever the global is meant,
 * so the field is a file upload and not silently the schema's object.
 *
 * @example
 * `file: ${globalTypeName('Blob', file)}` // 'file: Blob', or 'file: globalThis.Blob'
 */
export function globalTypeName(name: string, file: SchemaFile): string {
  return declaresType(file, name, new Set()) ? `globalThis.${name}` : name;
}

/** Whether `file` or a file it imports declares a type whose local name is `name`. */
function declaresType(file: SchemaFile, name: string, seen: Set<SchemaFile>): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  return file.types.some((t) => t.localName === name) || file.dependencies.some((d) => declaresType(d, name, seen));
}

/** Unions longer than this many characters are printed one variant per line. */
const UNION_WIDTH = 80;

/**
 * The type after `name: ` or `type X =`, with its leading separator: ` T` on one line, or
 * (as Prettier does for long unions) a line break and one `| variant` per line.
 *
 * @example
 * `  state?:${renderTypeAnnotation(stateUnion, ctx, '  ')};`
 * // "  state?: 'open' | 'closed';" or "  state?:\n    | 'open'\n    | …;"
 */
export function renderTypeAnnotation(type: TypeRef, ctx: TypeRenderContext, indent = ''): string {
  const oneLine = renderType(type, ctx, indent);
  if (type.kind !== 'union' || oneLine.length <= UNION_WIDTH || oneLine.includes('\n')) return ` ${oneLine}`;
  const variants = splitTopLevel(oneLine);
  if (variants.length < 3) return ` ${oneLine}`;
  return variants.map((v) => `\n${indent}  | ${v}`).join('');
}

/** Splits `a | (b | c) | 'x|y'` at its top-level `|` only. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  scanTopLevel(text, (c, i) => {
    if (c !== '|') return false;
    parts.push(text.slice(start, i).trim());
    start = i + 1;
    return false;
  });
  parts.push(text.slice(start).trim());
  return parts;
}

/**
 * Calls `visit` with each character of a rendered type that stands outside quotes and brackets,
 * and its index, until `visit` returns true; returns whether it did.
 */
function scanTopLevel(text: string, visit: (c: string, i: number) => boolean): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === '{' || c === '(' || c === '[' || c === '<') depth++;
    else if (c === '}' || c === ')' || c === ']' || c === '>') depth--;
    else if (depth === 0 && visit(c, i)) return true;
  }
  return false;
}

/** The name to use for a named type here: a well-known type's JSON shape, a local name, or an import. */
export function refName(target: NamedType, ctx: TypeRenderContext): string {
  if (target.kind === 'message' && target.wellKnown) return wellKnownType(target.wellKnown);
  const name = ctx.direction === 'request' && hasDirectionalForms(target) ? requestTypeName(target) : target.localName;
  // The printer drops the import when the symbol lives in the file being written.
  return ctx.f.text(importSymbol(name, ctx.typesPath(target.parent), { typeOnly: true }));
}

/** The TypeScript type of a well-known type's proto3 JSON form. */
export function wellKnownType(wkt: WellKnownType): string {
  switch (wkt) {
    case 'Timestamp':
    case 'Duration':
    case 'FieldMask':
      return 'string';
    case 'Struct':
      return '{ [key: string]: unknown }';
    case 'Value':
      return 'unknown';
    case 'ListValue':
      return 'unknown[]';
    case 'NullValue':
      return 'null';
    case 'Empty':
      return 'Record<string, never>';
    case 'Any':
      return "{ '@type': string; [key: string]: unknown }";
    case 'DoubleValue':
    case 'FloatValue':
    case 'Int32Value':
    case 'UInt32Value':
      return 'number | undefined';
    case 'Int64Value':
    case 'UInt64Value':
    case 'StringValue':
      return 'string | undefined';
    case 'BoolValue':
      return 'boolean | undefined';
    case 'BytesValue':
      return 'Uint8Array | undefined';
    default:
      return assertNever(wkt);
  }
}

function scalarType(type: ScalarType, ctx: TypeRenderContext): string {
  const proto = isProtoFile(ctx.file);
  switch (type.scalar) {
    case 'string':
      // OpenAPI `format: binary` is a file upload or download.
      return !proto && type.format === 'binary' ? globalTypeName('Blob', ctx.file) : 'string';
    case 'bytes':
      return proto ? 'Uint8Array' : 'string';
    case 'bool':
      return 'boolean';
    case 'double':
    case 'float':
    case 'int32':
    case 'uint32':
    case 'sint32':
    case 'fixed32':
    case 'sfixed32':
    case 'integer':
    case 'number':
      return 'number';
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      // proto3 JSON carries 64-bit integers as strings; OpenAPI APIs (Gitea) send numbers.
      return proto ? 'string' : 'number';
    case 'null':
      return 'null';
    default:
      return assertNever(type.scalar);
  }
}

function renderInlineObject(
  properties: readonly { name: string; required: boolean; readOnly: boolean; writeOnly: boolean; type: TypeRef; doc?: string }[],
  additional: boolean | TypeRef,
  ctx: TypeRenderContext,
  indent: string,
): string {
  const inner = `${indent}  `;
  if (properties.length === 0) {
    // Only an index signature (or nothing): a map, on one line.
    const index = indexSignature(additional, false, ctx, indent);
    return index ? `{ ${index} }` : 'Record<string, never>';
  }
  const lines: string[] = [];
  for (const p of properties) {
    if (p.doc) lines.push(`${inner}/** ${p.doc.replace(/\*\//g, '*\\/').replace(/\s*\n\s*/g, ' ')} */`);
    const type = renderType(p.type, ctx, inner);
    lines.push(
      p.required && !optionalHere(p, ctx)
        ? `${inner}${propertyKey(p.name)}: ${type};`
        : `${inner}${propertyKey(p.name)}?: ${optionalPropertyType(p.name, type)};`,
    );
  }
  const index = indexSignature(additional, true, ctx, inner);
  if (index) lines.push(`${inner}${index};`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/**
 * The index signature for `additionalProperties`, or undefined when closed.
 * When named properties exist the value type widens to `unknown`: TypeScript requires
 * every property to fit the index signature, and optional ones add `undefined`.
 */
export function indexSignature(
  additional: boolean | TypeRef,
  hasProperties: boolean,
  ctx: TypeRenderContext,
  indent = '',
): string | undefined {
  if (additional === false) return undefined;
  if (additional === true) return hasProperties ? undefined : '[key: string]: unknown';
  return `[key: string]: ${hasProperties ? 'unknown' : renderType(additional, ctx, indent)}`;
}

/** The members TypeScript's `Object` interface declares: every object has them, through its prototype. */
export const OBJECT_PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set([
  'constructor',
  'toString',
  'toLocaleString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
]);

/**
 * The type of an optional property, given its type as the schema says. A property named like a
 * member of `Object.prototype` is also that member's type: an object that lacks the property
 * still has the member (`({}).valueOf` is a function), and TypeScript checks object literals
 * against it, so without it `{ name: 'x' }` would not be assignable to an interface with
 * `valueOf?: number` ("Type '() => Object' is not assignable to type 'number'").
 *
 * @example
 * optionalPropertyType('valueOf', 'number'); // "number | Object['valueOf']"
 * optionalPropertyType('name', 'string'); // 'string'
 */
export function optionalPropertyType(name: string, type: string): string {
  const member = prototypeMemberType(name);
  return member === undefined ? type : `${type} | ${member}`;
}

/** `Object['valueOf']` for a name `Object.prototype` has, else undefined. */
export function prototypeMemberType(name: string): string | undefined {
  return OBJECT_PROTOTYPE_MEMBERS.has(name) ? `Object[${stringLiteral(name)}]` : undefined;
}

/** True when a message field must be optional (`?`) in TypeScript. */
export function isOptionalField(field: { presence: string; oneof?: string; type: TypeRef }, proto: boolean): boolean {
  if (field.presence === 'optional' || field.oneof !== undefined) return true;
  if (field.presence === 'required') return false;
  // proto3 implicit presence: scalars always present, message fields may be unset.
  return proto && field.type.kind === 'ref' && field.type.target.kind === 'message';
}

/** Message parts an `allOf` extends, when they are plain named interfaces. */
export function namedParents(message: MessageType): MessageType[] {
  const parents: MessageType[] = [];
  for (const part of message.extends) {
    if (part.kind === 'ref' && part.target.kind === 'message' && !part.target.wellKnown && !part.nullable) parents.push(part.target);
  }
  return parents;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key: bare when an identifier (reserved words are fine as keys), quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : stringLiteral(name);
}

function orNull(text: string, isNullable: boolean | undefined): string {
  if (!isNullable || text === 'null' || text.endsWith(' | null')) return text;
  return `${text} | null`;
}

/** Parenthesizes unions and intersections where an array suffix or `&` would bind wrongly. */
function wrap(text: string): string {
  return depthZeroOperator(text) ? `(${text})` : text;
}

function depthZeroOperator(text: string): boolean {
  return scanTopLevel(text, (c) => c === '|' || c === '&');
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
