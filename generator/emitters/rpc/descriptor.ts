/**
 * @module
 * Builds the protobufjs JSON descriptor (`Root.toJSON()` shape) that a generated
 * `X.codec.ts` embeds, from the model alone: the types this file declares and
 * every type they and its services reach, in other files too (imports,
 * well-known types). Keys are inserted in sorted order, so output is stable.
 */
import type { EnumType, Field, MessageType, NamedType, SchemaFile, TypeRef } from '../../model/model.js';
import { stringLiteral } from '../../printer/generated-file.js';

/** A JSON value as printed into generated code. */
export type Literal = string | number | boolean | null | readonly Literal[] | { readonly [key: string]: Literal };

type JsonObject = { [key: string]: Literal | JsonObject };

/** The descriptor literal for `file`, or undefined when it has no messages, enums or services. */
export function protoDescriptor(file: SchemaFile): Literal | undefined {
  const reached = reachableTypes(file);
  if (reached.length === 0) return undefined;
  const root: JsonObject = {};
  for (const type of reached) {
    const node = namespaceNode(root, type.fullName.split('.'));
    Object.assign(node, type.kind === 'enum' ? enumJson(type) : messageJson(type));
  }
  return root;
}

/** Proto messages and enums this file needs, sorted by full name. */
export function reachableTypes(file: SchemaFile): (MessageType | EnumType)[] {
  const seen = new Map<string, MessageType | EnumType>();
  const visit = (type: NamedType): void => {
    if (type.kind === 'alias' || seen.has(type.fullName)) return;
    seen.set(type.fullName, type);
    if (type.kind === 'message') for (const field of type.fields) visitRef(field.type);
  };
  const visitRef = (ref: TypeRef): void => {
    switch (ref.kind) {
      case 'ref':
        visit(ref.target);
        break;
      case 'array':
        visitRef(ref.items);
        break;
      case 'map':
        visitRef(ref.value);
        break;
      default:
        break; // scalars and OpenAPI-only shapes carry no proto type
    }
  };
  for (const type of file.types) visit(type);
  for (const service of file.services) {
    for (const op of service.operations) {
      if (op.kind !== 'rpc') continue;
      visit(op.input);
      visit(op.output);
    }
  }
  return [...seen.values()].sort((a, b) => (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0));
}

/** Walks (creating) `nested` objects down a dotted name; returns the node for the last segment. */
function namespaceNode(root: JsonObject, segments: readonly string[]): JsonObject {
  let node = root;
  for (const segment of segments) {
    const nested = (node['nested'] ??= {}) as JsonObject;
    node = (nested[segment] ??= {}) as JsonObject;
  }
  return node;
}

function enumJson(type: EnumType): JsonObject {
  const values: JsonObject = {};
  for (const v of type.values) values[v.name] = v.value as number;
  const out: JsonObject = {};
  // proto2 enums are closed: an unknown number is an unknown field on decode, and an error in JSON.
  if (type.parent.format === 'proto2') out['edition'] = 'proto2';
  if (type.values.some((v) => v.alias)) out['options'] = { allow_alias: true };
  out['values'] = values;
  return out;
}

function messageJson(type: MessageType): JsonObject {
  const proto2 = type.parent.format === 'proto2';
  const out: JsonObject = {};
  if (proto2) out['edition'] = 'proto2';
  // A group's field is encoded between start- and end-group tags; protobufjs decides that from
  // this flag on the type (as its own parser sets it), not from the field.
  if (type.group) out['group'] = true;
  const oneofs: JsonObject = {};
  for (const group of type.oneofs) oneofs[group.name] = { oneof: group.fields.map((f) => f.localName) };
  for (const field of type.fields) {
    // proto3 `optional` is a synthetic oneof in descriptors; protobufjs needs it for presence.
    if (!proto2 && field.presence === 'optional' && field.oneof === undefined && isSingularScalar(field)) {
      oneofs[`_${field.name}`] = { oneof: [field.localName] };
    }
  }
  if (Object.keys(oneofs).length > 0) out['oneofs'] = oneofs;
  const fields: JsonObject = {};
  for (const field of type.fields) fields[field.localName] = fieldJson(field, proto2);
  out['fields'] = fields;
  return out;
}

function isSingularScalar(field: Field): boolean {
  return field.type.kind === 'scalar' || (field.type.kind === 'ref' && field.type.target.kind === 'enum');
}

function fieldJson(field: Field, proto2: boolean): JsonObject {
  const out: JsonObject = {};
  const ref = field.type;
  if (ref.kind === 'array') {
    out['rule'] = 'repeated';
    out['type'] = typeName(ref.items, field);
  } else if (ref.kind === 'map') {
    out['keyType'] = ref.key.scalar;
    out['type'] = typeName(ref.value, field);
  } else {
    if (proto2 && field.presence === 'required') out['rule'] = 'required';
    out['type'] = typeName(ref, field);
  }
  if (field.number === undefined) throw new Error(`field ${field.parent.fullName}.${field.name} has no field number`);
  out['id'] = field.number;
  if (field.name !== field.localName) out['protoName'] = field.name;
  const options: JsonObject = {};
  // protobufjs derives the JSON name from the proto name as protoc does; an explicit
  // `json_name` that differs from that must be spelled out, whatever the property is called.
  if (field.jsonName !== defaultJsonName(field.name)) options['json_name'] = field.jsonName;
  if (!proto2 && field.presence === 'optional' && field.oneof === undefined && isSingularScalar(field)) options['proto3_optional'] = true;
  // proto2 `[default = …]`: what a reader of an unset field sees (`MessageCodec.defaults`).
  if (proto2 && field.default !== undefined && field.default !== null) options['default'] = field.default as Literal;
  if (Object.keys(options).length > 0) out['options'] = options;
  return out;
}

/** protoc's (and protobufjs') default JSON name: underscores dropped, the next letter upper-cased. */
function defaultJsonName(name: string): string {
  return name.replace(/_+(.?)/g, (_, c: string) => c.toUpperCase());
}

function typeName(ref: TypeRef, field: Field): string {
  if (ref.kind === 'scalar') return ref.scalar;
  // Absolute (leading dot) so protobufjs never resolves it relative to the enclosing scope.
  if (ref.kind === 'ref') return `.${ref.target.fullName}`;
  throw new Error(`field ${field.parent.fullName}.${field.name}: a ${ref.kind} cannot appear in a protobuf descriptor`);
}

/**
 * Prints a literal as TypeScript: single quotes, bare keys where possible,
 * trailing commas, objects kept on one line when they fit in `width` columns —
 * as a person would write it. `used` is how much of the first line is taken
 * already (indent, key).
 */
export function printLiteral(value: Literal, indent = '', used = indent.length, width = 100): string {
  const inline = inlineLiteral(value);
  if (value === null || typeof value !== 'object' || used + inline.length + 1 <= width) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => `${inner}${printLiteral(v, inner, inner.length, width)},\n`).join('')}${indent}]`;
  }
  const entries = Object.entries(value as Record<string, Literal>);
  const lines = entries.map(([k, v]) => `${inner}${key(k)}: ${printLiteral(v, inner, inner.length + key(k).length + 2, width)},\n`);
  return `{\n${lines.join('')}${indent}}`;
}

function inlineLiteral(value: Literal): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(inlineLiteral).join(', ')}]`;
  const entries = Object.entries(value as Record<string, Literal>);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([k, v]) => `${key(k)}: ${inlineLiteral(v)}`).join(', ')} }`;
}

function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : stringLiteral(name);
}
