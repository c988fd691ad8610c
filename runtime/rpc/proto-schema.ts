/**
 * @module
 * The protobufjs JSON descriptor (`Root.toJSON()` shape) that generated `X.codec.ts` files embed,
 * read into resolved, read-only message and enum types without protobufjs: what the JSON codec
 * walks. It reads the object as protobufjs does (`Root.fromJSON` then `resolveAll`), so that the
 * JSON codec and the binary format agree on every field: type names resolved relative to their
 * scope, editions features for presence and closed enums, proto3 `optional` as a one-member
 * oneof, JSON names from `json_name` or the proto name, proto2 `[default = …]`.
 *
 * Services and extensions are skipped: a codec needs neither.
 */
import { decodeBase64 } from './base64.js';
import { longFromNumber, wrapLong } from './long.js';
import { type Scope, ScopeTree } from './proto-scope.js';

/** The scalar types of protobuf, as descriptors spell them. */
export type ScalarType =
  | 'double'
  | 'float'
  | 'int32'
  | 'uint32'
  | 'sint32'
  | 'fixed32'
  | 'sfixed32'
  | 'int64'
  | 'uint64'
  | 'sint64'
  | 'fixed64'
  | 'sfixed64'
  | 'bool'
  | 'string'
  | 'bytes';

/** Each scalar type's zero value, as protobufjs' `types.defaults` (bytes aside: see {@link zeroOfScalar}). */
const SCALAR_ZERO: Readonly<Record<ScalarType, number | boolean | string | null>> = {
  double: 0,
  float: 0,
  int32: 0,
  uint32: 0,
  sint32: 0,
  fixed32: 0,
  sfixed32: 0,
  int64: 0,
  uint64: 0,
  sint64: 0,
  fixed64: 0,
  sfixed64: 0,
  bool: false,
  string: '',
  bytes: null,
};

/** The 64-bit integer types: decimal strings in JSON and in Loom's messages. */
export const LONG_TYPES: ReadonlySet<string> = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
/** The unsigned 64-bit integer types. */
export const UNSIGNED_LONG_TYPES: ReadonlySet<string> = new Set(['uint64', 'fixed64']);

/** A scalar type's name, or undefined for a message or enum reference. */
export function scalarTypeOf(type: string): ScalarType | undefined {
  return Object.hasOwn(SCALAR_ZERO, type) ? (type as ScalarType) : undefined;
}

/** An enum type. */
export interface DescEnum {
  readonly kind: 'enum';
  /** With a leading dot, as protobufjs spells it in its messages: `.acme.shop.v1.Order.Status`. */
  readonly fullName: string;
  /** Numbers by name, own properties of a null-prototype object (aliases included). */
  readonly values: Readonly<Record<string, number>>;
  /** The first name declared for each number, keyed by the number's decimal spelling. */
  readonly valuesById: Readonly<Record<string, string>>;
  /** JSON spellings other than the name (the `(pb.enumvalue.json).string` option protobufjs honours), by name. */
  readonly jsonNames: ReadonlyMap<string, string>;
  /** proto2 (editions: `enum_type = CLOSED`): a number without a name is not a value. */
  readonly closed: boolean;
}

/** A oneof, real or the synthetic one of a proto3 `optional` field. */
export interface DescOneof {
  readonly name: string;
  /** The member field names, as declared. */
  readonly members: readonly string[];
}

/** A field of a message. */
export interface DescField {
  readonly kind: 'field';
  /** The property name in messages (`displayName`). */
  readonly name: string;
  /** `.v1alpha1.GetServiceResponse.displayName` */
  readonly fullName: string;
  /** The name in the .proto source (`display_name`); a JSON reader accepts it too. */
  readonly protoName: string;
  /** The key in canonical JSON (`displayName`, or the field's `json_name`). */
  readonly jsonName: string;
  readonly id: number;
  /** The scalar type, or undefined when {@link message} or {@link enum} is set. For a map, the value's type. */
  readonly scalar: ScalarType | undefined;
  readonly message: DescMessage | undefined;
  readonly enum: DescEnum | undefined;
  readonly repeated: boolean;
  readonly map: boolean;
  /** A map's key type. */
  readonly keyType: ScalarType | undefined;
  /** The oneof this field is a member of (proto3 `optional` fields have a synthetic one). */
  readonly oneof: DescOneof | undefined;
  /** Set is not the same as default: oneof members, proto3 `optional`, proto2 singular fields, messages aside. */
  readonly hasPresence: boolean;
  /** proto2 `required` (editions: `field_presence = LEGACY_REQUIRED`). */
  readonly required: boolean;
  /**
   * The declared `[default = …]` as protobufjs resolves it (an enum name as its number, a 64-bit
   * integer as a decimal string, bytes decoded), or undefined when none is declared.
   */
  readonly declaredDefault: unknown;
}

/** A message type. */
export interface DescMessage {
  readonly kind: 'message';
  /** With a leading dot: `.v1alpha1.GetServiceRequest`. */
  readonly fullName: string;
  /** In declaration order. */
  readonly fields: readonly DescField[];
  readonly oneofs: readonly DescOneof[];
  /** The schema it belongs to, where a `google.protobuf.Any` looks up the type it holds. */
  readonly schema: ProtoSchema;
  /**
   * The fields by every key JSON may name them with: property name, JSON name, proto name.
   * Built on first use, and throws then when two fields answer to one key, as protobufjs does.
   */
  jsonKeys(): ReadonlyMap<string, DescField>;
}

/** The types of one descriptor. */
export interface ProtoSchema {
  /** The message type `name` names, looked up from the root as protobufjs does; throws `no such type: …`. */
  lookupMessage(name: string): DescMessage;
}

/** Editions features a codec needs (protobufjs resolves more, for its binary encoding). */
interface Features {
  field_presence?: string;
  enum_type?: string;
  [feature: string]: unknown;
}

const EDITION_DEFAULTS: Readonly<Record<string, Features>> = {
  proto2: { enum_type: 'CLOSED', field_presence: 'EXPLICIT' },
  proto3: { enum_type: 'OPEN', field_presence: 'IMPLICIT' },
  '2023': { enum_type: 'OPEN', field_presence: 'EXPLICIT' },
  '2024': { enum_type: 'OPEN', field_presence: 'EXPLICIT' },
  '2026': { enum_type: 'OPEN', field_presence: 'EXPLICIT' },
};

/** What {@link readSchema} reads: the parts of protobufjs' JSON shapes a codec uses. */
interface JsonNode {
  readonly nested?: Record<string, JsonNode>;
  readonly fields?: Record<string, JsonField>;
  readonly oneofs?: Record<string, { readonly oneof?: readonly string[]; readonly options?: Record<string, unknown> }>;
  readonly values?: Record<string, unknown>;
  readonly valuesOptions?: Record<string, Record<string, unknown> | undefined>;
  readonly methods?: unknown;
  readonly id?: unknown;
  readonly edition?: string;
  readonly options?: Record<string, unknown>;
}

interface JsonField {
  readonly type: string;
  readonly id: number;
  readonly rule?: string;
  readonly keyType?: string;
  readonly protoName?: string;
  readonly jsonName?: string;
  readonly edition?: string;
  readonly options?: Record<string, unknown>;
}

type TypeScope = Scope<MessageType | EnumType>;

class Schema implements ProtoSchema {
  readonly names = new ScopeTree<MessageType | EnumType>();

  lookupMessage(name: string): DescMessage {
    const found = this.names.lookup(this.names.root, name, 'message');
    if (!found) throw new Error(`no such type: ${name}`);
    return found.value as MessageType;
  }
}

class EnumType implements DescEnum {
  readonly kind = 'enum';
  readonly values: Record<string, number> = Object.create(null) as Record<string, number>;
  readonly valuesById: Record<string, string> = Object.create(null) as Record<string, string>;
  readonly jsonNames = new Map<string, string>();
  closed = false;

  constructor(
    readonly fullName: string,
    json: JsonNode,
  ) {
    const values = json.values ?? {};
    for (const name of Object.keys(values)) {
      const id = values[name];
      // As protobufjs' Enum constructor: numbers only, and the first name of a number is its name.
      if (name === '__proto__' || typeof id !== 'number') continue;
      this.values[name] = id;
      this.valuesById[String(id)] ??= name;
    }
    for (const [name, options] of Object.entries(json.valuesOptions ?? {})) {
      const jsonName = options?.['(pb.enumvalue.json).string'];
      if (Object.hasOwn(this.values, name) && typeof jsonName === 'string') this.jsonNames.set(name, jsonName);
    }
  }
}

class MessageType implements DescMessage {
  readonly kind = 'message';
  readonly fields: FieldType[] = [];
  readonly oneofs: DescOneof[] = [];
  #jsonIndex: Map<string, DescField> | undefined;

  constructor(
    readonly fullName: string,
    readonly schema: Schema,
  ) {}

  jsonKeys(): ReadonlyMap<string, DescField> {
    return (this.#jsonIndex ??= this.#indexJsonKeys());
  }

  #indexJsonKeys(): Map<string, DescField> {
    const index = new Map<string, DescField>();
    for (const field of this.fields) {
      for (const key of [field.name, field.jsonName, field.protoName]) {
        const existing = index.get(key);
        if (existing !== undefined && existing !== field)
          throw new Error(`${this.fullName}: duplicate ProtoJSON field name ${JSON.stringify(key)}`);
        index.set(key, field);
      }
    }
    return index;
  }
}

class FieldType implements DescField {
  readonly kind = 'field';
  scalar: ScalarType | undefined;
  message: DescMessage | undefined;
  enum: DescEnum | undefined;
  oneof: DescOneof | undefined;
  hasPresence = false;
  required = false;
  declaredDefault: unknown;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly keyType: ScalarType | undefined;
  readonly protoName: string;
  readonly jsonName: string;
  readonly id: number;

  constructor(
    readonly name: string,
    readonly fullName: string,
    readonly json: JsonField,
  ) {
    this.id = json.id;
    this.map = json.keyType !== undefined;
    this.repeated = !this.map && json.rule === 'repeated';
    this.keyType = this.map ? scalarTypeOf(json.keyType!) : undefined;
    this.protoName = json.protoName || name;
    this.jsonName = json.jsonName ?? (json.options?.['json_name'] as string | undefined) ?? jsonNameOf(this.protoName);
  }
}

/** protoc's (and protobufjs') JSON name of a proto field name: underscores dropped, the next character upper-cased. */
export function jsonNameOf(name: string): string {
  let result = '';
  let upperNext = false;
  for (let i = 0; i < name.length; i++) {
    const ch = name.charAt(i);
    if (ch === '_') upperNext = true;
    else if (upperNext) {
      result += ch.toUpperCase();
      upperNext = false;
    } else result += ch;
  }
  return result;
}

/**
 * Reads a descriptor and resolves every type reference in it, failing as protobufjs' `Root.fromJSON`
 * does on a reference it cannot resolve or an unknown edition.
 *
 * @example
 * const schema = readSchema({ nested: { demo: { nested: { Ping: { fields: { id: { type: 'string', id: 1 } } } } } } });
 * schema.lookupMessage('demo.Ping').fields[0]!.jsonName; // 'id'
 */
export function readSchema(descriptor: object): ProtoSchema {
  const schema = new Schema();
  const { names } = schema;
  const pending: { type: MessageType; scope: TypeScope; json: JsonNode; inherited: Inherited }[] = [];

  // protobufjs tells a nested object's kind by its shape, in this order; in a message, a
  // field-shaped entry comes first (an extension, skipped like the services).
  const addNested = (parent: TypeScope, nested: Record<string, JsonNode> | undefined, inherited: Inherited | undefined): void => {
    for (const name of Object.keys(nested ?? {})) {
      const json = nested![name]!;
      if (inherited !== undefined && json.id !== undefined) continue;
      if (json.fields !== undefined) addMessage(parent, name, json, inherited);
      else if (json.values !== undefined) addEnum(parent, name, json, inherited);
      // A namespace is no message: what it holds starts from its own edition, as at the top.
      else if (json.methods === undefined && json.id === undefined) addNested(names.add('namespace', name, parent), json.nested, undefined);
    }
  };

  const addMessage = (parent: TypeScope, name: string, json: JsonNode, outer: Inherited | undefined): void => {
    const type = new MessageType(`${parent.fullName}.${name}`, schema);
    const scope = names.add('message', name, parent, type);
    for (const fieldName of Object.keys(json.fields!)) {
      type.fields.push(new FieldType(fieldName, `${type.fullName}.${fieldName}`, json.fields![fieldName]!));
      names.add('member', fieldName, scope);
    }
    for (const oneofName of Object.keys(json.oneofs ?? {})) {
      const oneof: DescOneof = { name: oneofName, members: [...(json.oneofs![oneofName]!.oneof ?? [])] };
      type.oneofs.push(oneof);
      for (const member of oneof.members) {
        const field = type.fields.find((f) => f.name === member);
        if (field && field.oneof === undefined) field.oneof = oneof;
      }
      if (!scope.nested.has(oneofName)) names.add('member', oneofName, scope);
    }
    const inherited = featuresOf(json, outer);
    pending.push({ type, scope, json, inherited });
    addNested(scope, json.nested, inherited);
  };

  const addEnum = (parent: TypeScope, name: string, json: JsonNode, inherited: Inherited | undefined): void => {
    const type = new EnumType(`${parent.fullName}.${name}`, json);
    type.closed = featuresOf(json, inherited).features.enum_type === 'CLOSED';
    names.add('enum', name, parent, type);
  };

  addNested(names.root, (descriptor as JsonNode).nested, undefined);
  for (const { type, scope, json, inherited } of pending) {
    for (const field of type.fields) resolveField(names, scope, field, json, inherited);
  }
  return schema;
}

/** What a type nested in a message inherits from it. */
interface Inherited {
  readonly features: Features;
  readonly edition: string;
}

/**
 * A type's features, as protobufjs resolves them: a top-level type (or one declaring its
 * `edition`) starts from its edition's defaults (proto3 when none is declared, protobufjs'
 * choice for JSON descriptors); a nested one from its parent's features.
 */
function featuresOf(json: JsonNode, inherited: Inherited | undefined): Inherited {
  const own = ownFeatures(json.options);
  if (json.edition === undefined && inherited !== undefined)
    return { features: { ...inherited.features, ...own }, edition: inherited.edition };
  const edition = json.edition ?? 'proto3';
  return { features: { ...editionDefaults(edition), ...own }, edition };
}

function editionDefaults(edition: string): Features {
  const defaults = Object.hasOwn(EDITION_DEFAULTS, edition) ? EDITION_DEFAULTS[edition] : undefined;
  if (defaults === undefined) throw new Error(`Unknown edition: ${edition}`);
  return defaults;
}

function resolveField(
  names: ScopeTree<MessageType | EnumType>,
  scope: TypeScope,
  field: FieldType,
  type: JsonNode,
  { features, edition }: Inherited,
): void {
  const json = field.json;
  field.scalar = scalarTypeOf(json.type);
  if (field.scalar === undefined) {
    const found = names.lookup(scope, json.type, 'type');
    if (!found) throw new Error(`no such Type or Enum '${json.type}' in Type ${scope.fullName}`);
    if (found.value instanceof MessageType) field.message = found.value;
    else field.enum = found.value;
  }
  const own = ownFeatures(json.options);
  // What proto2 and proto3 syntax say that editions spell as features: `required`.
  const legacy: Features = (json.edition ?? edition) === 'proto2' || (json.edition ?? edition) === 'proto3' ? legacyFeatures(json) : {};
  let resolved: Features;
  if (json.edition !== undefined) resolved = { ...editionDefaults(json.edition), ...own, ...legacy };
  else if (field.oneof !== undefined)
    resolved = { ...features, ...ownFeatures(type.oneofs?.[field.oneof.name]?.options), ...own, ...legacy };
  else resolved = { ...features, ...own, ...legacy };
  field.required = resolved.field_presence === 'LEGACY_REQUIRED';
  field.hasPresence = !field.repeated && !field.map && (field.oneof !== undefined || resolved.field_presence !== 'IMPLICIT');
  const declared = json.options?.['default'];
  if (declared !== undefined && declared !== null && field.message === undefined) field.declaredDefault = resolveDefault(field, declared);
}

function ownFeatures(options: Record<string, unknown> | undefined): Features {
  return (options?.['features'] ?? {}) as Features;
}

function legacyFeatures(json: JsonField): Features {
  return json.rule === 'required' ? { field_presence: 'LEGACY_REQUIRED' } : {};
}

/** A `[default = …]` converted as protobufjs' `Field#resolve` converts it. */
function resolveDefault(field: FieldType, declared: unknown): unknown {
  if (field.enum !== undefined) return typeof declared === 'string' ? field.enum.values[declared] : declared;
  if (field.scalar !== undefined && LONG_TYPES.has(field.scalar)) {
    const unsigned = UNSIGNED_LONG_TYPES.has(field.scalar);
    if (typeof declared !== 'string') return longFromNumber(Number(declared), unsigned);
    // long.js reads anything else as digits up to the first that is not one; a declared default is digits.
    return /^-?\d+$/.test(declared) ? wrapLong(declared, unsigned) : '0';
  }
  if (field.scalar === 'bytes' && typeof declared === 'string') return bytesDefault(declared);
  return declared;
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_URL_RE = /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}(?:==)?|[A-Za-z0-9_-]{3}=?)?$/;

/** A bytes default: base64 when it looks like base64 (protobufjs' test), else the string's UTF-8. */
function bytesDefault(declared: string): Uint8Array {
  const base64 = BASE64_RE.test(declared) || (/[-_]/.test(declared) && BASE64_URL_RE.test(declared));
  return base64 ? decodeBase64(declared) : new TextEncoder().encode(declared);
}

/** The zero value of a scalar type in Loom's messages: 64-bit integers as `'0'`, bytes empty. */
export function zeroOfScalar(type: ScalarType): unknown {
  if (LONG_TYPES.has(type)) return '0';
  if (type === 'bytes') return new Uint8Array(0);
  return SCALAR_ZERO[type];
}
