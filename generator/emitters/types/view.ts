/**
 * @module
 * View models for the `types/*` templates. All decisions (names, optionality, type
 * spelling, JSDoc text) are made here so that templates only loop and print; a user
 * overriding `templates/types/interface.hbs` gets finished strings to arrange.
 */
import type { AliasType, EnumType, Field, MessageType, TypeRef } from '../../model/model.js';
import { isProtoFile } from '../../model/schema-file.js';
import { jsDocText, stringLiteral } from '../../printer/generated-file.js';
import { hasDirectionalForms } from '../json-schema/index.js';
import { requestTypeName } from '../names.js';
import type { TypeRenderContext } from './render.js';
import {
  indexSignature,
  isOptionalField,
  namedParents,
  optionalHere,
  propertyKey,
  prototypeMemberType,
  refName,
  renderTypeAnnotation,
} from './render.js';

/** View of `templates/types/interface.hbs`. */
export interface InterfaceView {
  /** The JSDoc block (already indented and closed), or '' when there is nothing to say. */
  readonly jsDoc: string;
  readonly name: string;
  /** ` extends A, B` or ''. */
  readonly heritage: string;
  readonly members: readonly { readonly jsDoc: string; readonly signature: string }[];
  /** The model node, for templates that want more (read-only). */
  readonly message: MessageType;
}

/** View of `templates/types/enum.hbs`. */
export interface EnumView {
  readonly jsDoc: string;
  readonly name: string;
  readonly values: readonly { readonly jsDoc: string; readonly key: string; readonly value: string }[];
  readonly enum: EnumType;
}

/** View of `templates/types/alias.hbs`. */
export interface AliasView {
  readonly jsDoc: string;
  readonly name: string;
  /** The type with its leading separator: ` string`, or a line break and `  | a` per variant for long unions. */
  readonly annotation: string;
}

/** `@generated from …` naming the schema declaration. */
export function generatedFrom(node: MessageType | EnumType | AliasType): string {
  if (!isProtoFile(node.parent)) return `@generated from schema ${node.fullName}`;
  return `@generated from ${node.kind === 'enum' ? 'enum' : 'message'} ${node.fullName}`;
}

/** A base object's doc, plus which subtype each value of its discriminator picks. */
function withSubtypes(message: MessageType): string | undefined {
  const subtypes = message.subtypes;
  if (!subtypes) return message.doc;
  const picks = Object.entries(subtypes.mapping).flatMap(([value, subtype]) =>
    subtype.kind === 'ref' ? [`${stringLiteral(value)} is a {@link ${subtype.target.localName}}`] : [],
  );
  const line = `Checked as the subtype its \`${subtypes.propertyName}\` names: ${picks.join(', ')}.`;
  return message.doc ? `${message.doc}\n\n${line}` : line;
}

/**
 * The interface of a message: its declared (response) form, or with `ctx.direction` of
 * `request` its request form, named by {@link requestTypeName}.
 */
export function interfaceView(message: MessageType, ctx: TypeRenderContext): InterfaceView {
  const proto = isProtoFile(message.parent);
  const tags = [generatedFrom(message)];
  const request = ctx.direction === 'request';
  if (message.deprecated) tags.unshift('@deprecated');
  if (!request && hasDirectionalForms(message)) tags.push(`@see {@link ${requestTypeName(message)}}, the form a client sends`);
  // Fields inherited unchanged from an `allOf` parent are left to `extends`; but parents that
  // declare one property with different types cannot both be extended (TS2320), and then every
  // field is printed here instead.
  let parents = namedParents(message);
  const inherited = new Map<string, string>();
  for (const parent of parents) {
    for (const pf of parent.fields) {
      const signature = memberSignature(pf, proto, ctx);
      const earlier = inherited.get(pf.localName);
      if (earlier !== undefined && earlier !== signature) parents = [];
      inherited.set(pf.localName, signature);
    }
  }
  if (parents.length === 0) inherited.clear();
  const members: { jsDoc: string; signature: string }[] = [];
  for (const field of message.fields) {
    const signature = memberSignature(field, proto, ctx);
    if (inherited.get(field.localName) === signature) continue;
    const fieldTags: string[] = [];
    if (field.deprecated) fieldTags.push('@deprecated');
    if (proto) fieldTags.push(`@generated from field: ${protoFieldDeclaration(field)}`);
    members.push({ jsDoc: jsDocText(field.doc, fieldTags, '  '), signature });
  }
  const index = indexSignature(message.additionalProperties, message.fields.length > 0 || parents.length > 0, ctx, '  ');
  if (index) members.push({ jsDoc: '', signature: index });
  return {
    jsDoc: request ? requestFormDoc(message) : jsDocText(withSubtypes(message), tags),
    name: request ? requestTypeName(message) : message.localName,
    heritage: parents.length > 0 ? ` extends ${parents.map((p) => refName(p, ctx)).join(', ')}` : '',
    members,
    message,
  };
}

function memberSignature(field: Field, proto: boolean, ctx: TypeRenderContext): string {
  const optional = isOptionalField(field, proto) || optionalHere(field, ctx);
  const annotation = renderTypeAnnotation(field.type, ctx, '  ');
  if (!optional) return `${propertyKey(field.localName)}:${annotation}`;
  // `valueOf?: number | Object['valueOf']`: see optionalPropertyType.
  const member = prototypeMemberType(field.localName);
  const suffix = member === undefined ? '' : annotation.startsWith('\n') ? `\n    | ${member}` : ` | ${member}`;
  return `${propertyKey(field.localName)}?:${annotation}${suffix}`;
}

export function enumView(type: EnumType): EnumView {
  const proto = isProtoFile(type.parent);
  return {
    jsDoc: jsDocText(type.doc, [generatedFrom(type)]),
    name: type.localName,
    values: type.values.map((v) => ({
      jsDoc: jsDocText(v.doc, proto ? [`@generated from enum value: ${v.name} = ${v.value};`] : [], '  '),
      key: propertyKey(v.localName),
      value: typeof v.value === 'string' ? stringLiteral(v.value) : String(v.value),
    })),
    enum: type,
  };
}

/** An alias's declared (response) form, or its request form with `ctx.direction` of `request`. */
export function aliasView(type: AliasType, ctx: TypeRenderContext): AliasView {
  const request = ctx.direction === 'request';
  return {
    jsDoc: request ? requestFormDoc(type) : jsDocText(type.doc, [generatedFrom(type)]),
    name: request ? requestTypeName(type) : type.localName,
    annotation: renderTypeAnnotation(type.type, ctx),
  };
}

/** JSDoc of a request form: what differs from the declared type, and where it comes from. */
function requestFormDoc(type: MessageType | AliasType): string {
  return jsDocText(
    `{@link ${type.localName}} as a client sends it: \`readOnly\` properties, which the server sets, are optional,\n` +
      `and the types it refers to are in their request forms too.`,
    [generatedFrom(type)],
  );
}

/** `string display_name = 1;`, `repeated Issue items = 2;`, `map<string, int64> counts = 3;` */
function protoFieldDeclaration(field: Field): string {
  // Message fields always have presence; only scalars and enums spell it with `optional`.
  const isMessage = field.type.kind === 'ref' && field.type.target.kind === 'message';
  const prefix = field.presence === 'optional' && field.oneof === undefined && !isMessage ? 'optional ' : '';
  return `${prefix}${protoTypeName(field.type)} ${field.name} = ${field.number ?? 0};`;
}

function protoTypeName(type: TypeRef): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar;
    case 'ref':
      return type.target.fullName;
    case 'array':
      return `repeated ${protoTypeName(type.items)}`;
    case 'map':
      return `map<${type.key.scalar}, ${protoTypeName(type.value)}>`;
    default:
      return type.kind;
  }
}
