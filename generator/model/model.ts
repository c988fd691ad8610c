/**
 * @module
 * The intermediate model: what every loader produces and every emitter reads.
 *
 * Loaders (protobufjs for .proto, yaml plus `$ref` resolution for OpenAPI 3.x and
 * Swagger 2.0) turn a schema file into a {@link SchemaFile}. Emitters never see
 * protobufjs objects or raw OpenAPI: only these read-only, `kind`-tagged nodes.
 *
 * Conventions, borrowed from protobuf-es descriptors:
 * - `name` is the name as written in the schema (wire name); `localName` is a
 *   safe TypeScript identifier derived from it (escaped, never a reserved word).
 * - Nodes link to their `parent` so that an emitter can always find the file
 *   (for imports and `@generated from` lines) and the service of an operation.
 * - `doc` holds the schema's own description or leading comment, trimmed.
 * - `source` says where in the schema a node was declared, for error messages.
 * - Arrays are in schema declaration order; emitters must keep that order so
 *   that output is deterministic.
 */

/** Where a node was declared: the file (relative to the generation root) and either a line or a JSON pointer. */
export interface SourceLocation {
  readonly file: string;
  /** 1-based line, when the loader knows it (proto, YAML). */
  readonly line?: number;
  /** JSON pointer into the document, for OpenAPI nodes (e.g. `/paths/~1repos~1{owner}/get`). */
  readonly pointer?: string;
}

export type SchemaFormat = 'proto3' | 'proto2' | 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0';

/** One schema file after loading. The unit of generation: each emits its own output files. */
export interface SchemaFile {
  readonly kind: 'file';
  /** Path relative to the generation root, with `/` separators (e.g. `system/v1alpha1/system.proto`). */
  readonly path: string;
  readonly format: SchemaFormat;
  /** Proto package (`v1alpha1`), or the OpenAPI `info.title` slugged; used for namespacing. */
  readonly packageName: string;
  /** OpenAPI `info` (title, version, description); for proto, the package as title. */
  readonly info: ApiInfo;
  readonly services: readonly Service[];
  /** Named types declared in this file, in declaration order (nested messages included, flattened, parents first). */
  readonly types: readonly NamedType[];
  /** Files this one imports (proto imports; OpenAPI documents reached through cross-file `$ref`). */
  readonly dependencies: readonly SchemaFile[];
  /** Non-fatal findings a person should see (unsupported keyword ignored, etc.). */
  readonly warnings: readonly Diagnostic[];
  /** How clients authenticate (OpenAPI `securitySchemes`, Swagger 2.0 `securityDefinitions`), in declaration order. */
  readonly securitySchemes?: readonly SecurityScheme[];
  /** The document's own `security`: what every operation requires unless it says otherwise. */
  readonly security?: readonly SecurityRequirement[];
}

/**
 * A way to authenticate, by the name requirements use (`BasicAuth`, `Token`). Swagger 2.0's
 * `basic` is an `http` scheme `basic`; its OAuth2 flows are spelled as OpenAPI 3's.
 */
export type SecurityScheme =
  | {
      readonly kind: 'http';
      readonly name: string;
      /** Lower case: `basic`, `bearer`, `digest`, … */
      readonly scheme: string;
      readonly bearerFormat?: string;
      readonly doc?: string;
    }
  | {
      readonly kind: 'apiKey';
      readonly name: string;
      readonly in: 'header' | 'query' | 'cookie';
      /** The header, query parameter or cookie carrying the key. */
      readonly parameter: string;
      readonly doc?: string;
    }
  | { readonly kind: 'oauth2'; readonly name: string; readonly flows: JsonValue; readonly doc?: string }
  | { readonly kind: 'openIdConnect'; readonly name: string; readonly url: string; readonly doc?: string }
  | { readonly kind: 'mutualTLS'; readonly name: string; readonly doc?: string };

export interface ApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /** OpenAPI `servers[0].url` / Swagger `basePath`, e.g. `/api/v1`. Empty for proto. */
  readonly basePath: string;
}

export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly source: SourceLocation;
}

// ---------------------------------------------------------------------------
// Services and operations
// ---------------------------------------------------------------------------

/**
 * A service: a proto `service`, or one OpenAPI document's operations grouped by tag
 * (operations without a tag go to a service named after the document).
 */
export interface Service {
  readonly kind: 'service';
  readonly parent: SchemaFile;
  /** `System`, or the OpenAPI tag (`issue`). */
  readonly name: string;
  /** PascalCase identifier: `System`, `Issue`. */
  readonly localName: string;
  /** Fully-qualified name: `v1alpha1.System`; for OpenAPI the same as `name`. */
  readonly fullName: string;
  readonly protocol: 'rpc' | 'http';
  readonly doc?: string;
  readonly operations: readonly Operation[];
  readonly source: SourceLocation;
}

export type Operation = RpcOperation | HttpOperation;

/** A proto rpc. Served over Connect (`POST /{fullName}/{name}`) and gRPC. */
export interface RpcOperation {
  readonly kind: 'rpc';
  readonly parent: Service;
  /** `GetService` */
  readonly name: string;
  /** camelCase identifier: `getService` */
  readonly localName: string;
  readonly input: MessageType;
  readonly output: MessageType;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
  /** `idempotency_level` option, when set. */
  readonly idempotency?: 'NO_SIDE_EFFECTS' | 'IDEMPOTENT';
  readonly deprecated: boolean;
  readonly doc?: string;
  readonly source: SourceLocation;
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** An OpenAPI operation. */
export interface HttpOperation {
  readonly kind: 'http';
  readonly parent: Service;
  /** `operationId`, or derived from method and path when absent. */
  readonly name: string;
  /** camelCase identifier derived from `name`. */
  readonly localName: string;
  readonly method: HttpMethod;
  /** Path template as in the schema, relative to `info.basePath`: `/repos/{owner}/{repo}/issues`. */
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly requestBody?: RequestBody;
  /** In schema order; `status` `'default'` last if present. */
  readonly responses: readonly ResponseSpec[];
  /**
   * What the operation requires, any one requirement sufficing: its own `security`, else the
   * document's. Undefined or empty: nothing (`[]` lifts the document's requirement).
   */
  readonly security?: readonly SecurityRequirement[];
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly summary?: string;
  readonly doc?: string;
  readonly source: SourceLocation;
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface Parameter {
  readonly kind: 'parameter';
  /** Wire name (`priority_repo_id`, `X-Request-Id`). */
  readonly name: string;
  /** camelCase identifier (`priorityRepoId`, `xRequestId`), unique within the operation. */
  readonly localName: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly type: TypeRef;
  /** Serialization of arrays/objects: OpenAPI `style`/`explode`, Swagger `collectionFormat` mapped onto them. */
  readonly style?: 'form' | 'simple' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'matrix' | 'label';
  readonly explode?: boolean;
  /**
   * Set when OpenAPI describes the parameter with `content` instead of `schema`: the media type
   * of its one entry (`application/json`). The value is then that media type's text (JSON), and
   * `style`/`explode` do not apply.
   */
  readonly mediaType?: string;
  /**
   * The schema's `default` of an optional parameter: the value the server hands the handler when
   * the request leaves the parameter out (clients need not send it). Absent on required ones.
   */
  readonly default?: JsonValue;
  readonly deprecated: boolean;
  readonly doc?: string;
  readonly source: SourceLocation;
}

export interface RequestBody {
  readonly required: boolean;
  /** One entry per media type, in schema order (`application/json`, `multipart/form-data`, ...). */
  readonly contents: readonly MediaContent[];
  readonly doc?: string;
}

export interface MediaContent {
  /** `application/json`, `application/x-www-form-urlencoded`, `multipart/form-data`, `text/plain`, `application/octet-stream`, ... */
  readonly mediaType: string;
  /** Absent when the schema gives no shape (then the payload is opaque). */
  readonly type?: TypeRef;
  /**
   * Form bodies: the array properties sent as one field holding every element, joined by the
   * separator (OpenAPI 3 `encoding` with `explode: false` or a delimited style; Swagger 2.0
   * `collectionFormat` other than `multi`, whose default is `csv`). Array properties not listed
   * repeat the field once per element.
   */
  readonly delimited?: ReadonlyMap<string, FormSeparator>;
}

/** What joins the elements of an array sent in one form field: csv, ssv, tsv, pipes. */
export type FormSeparator = ',' | ' ' | '\t' | '|';

export interface ResponseSpec {
  /** HTTP status, or `'default'`. Ranges like `2XX` are kept as the string. */
  readonly status: number | 'default' | `${1 | 2 | 3 | 4 | 5}XX`;
  readonly doc?: string;
  readonly headers: readonly ResponseHeader[];
  /** Empty for responses without a body (204, or `description` only). */
  readonly contents: readonly MediaContent[];
}

export interface ResponseHeader {
  readonly name: string;
  readonly required: boolean;
  readonly type: TypeRef;
  readonly doc?: string;
}

/** One way to satisfy an operation: every scheme it names, together (`{}` names none: anonymous access). */
export interface SecurityRequirement {
  /** Scheme name → scopes. */
  readonly schemes: Readonly<Record<string, readonly string[]>>;
}

// ---------------------------------------------------------------------------
// Named types: messages, enums, and named OpenAPI schemas
// ---------------------------------------------------------------------------

export type NamedType = MessageType | EnumType | AliasType;

/** A proto message, or an OpenAPI schema of `type: object` under `components/schemas` / `definitions`. */
export interface MessageType {
  readonly kind: 'message';
  readonly parent: SchemaFile;
  /** Containing message for nested proto messages. */
  readonly outer?: MessageType;
  /** Name as declared (`GetServiceRequest`, `Issue`). */
  readonly name: string;
  /** Unique TypeScript identifier within the file: nested messages are joined with `_` (`Outer_Inner`). */
  readonly localName: string;
  /** Proto: `v1alpha1.GetServiceRequest`. OpenAPI: `#/components/schemas/Issue` style pointer of its declaration. */
  readonly fullName: string;
  readonly fields: readonly Field[];
  /** Proto `oneof` groups (real ones, not synthetic `optional` oneofs). */
  readonly oneofs: readonly OneofGroup[];
  /** `additionalProperties` of an OpenAPI object: `false` (closed), `true` (any), or a type. */
  readonly additionalProperties: boolean | TypeRef;
  /** Set for google.protobuf well-known types, which have special JSON forms. */
  readonly wellKnown?: WellKnownType;
  /**
   * Proto2 `group`: the type declared by a group field. It is a nested message in the
   * generated types, but on the wire it is delimited by start/end-group tags rather than
   * length-prefixed, so the codec must know.
   */
  readonly group?: boolean;
  /** OpenAPI: allOf parts this object extends (already merged into `fields`; kept for docs). */
  readonly extends: readonly TypeRef[];
  /**
   * OpenAPI: a discriminator on this object that subtypes extend (`allOf`): a value of this type
   * is also a value of the subtype its tag names, and is checked as that subtype.
   */
  readonly subtypes?: Discriminator;
  readonly deprecated: boolean;
  readonly doc?: string;
  readonly source: SourceLocation;
}

export type WellKnownType =
  | 'Any'
  | 'Duration'
  | 'Empty'
  | 'FieldMask'
  | 'Struct'
  | 'Value'
  | 'ListValue'
  | 'NullValue'
  | 'Timestamp'
  | 'DoubleValue'
  | 'FloatValue'
  | 'Int64Value'
  | 'UInt64Value'
  | 'Int32Value'
  | 'UInt32Value'
  | 'BoolValue'
  | 'StringValue'
  | 'BytesValue';

export interface Field {
  readonly kind: 'field';
  readonly parent: MessageType;
  /** Name as declared (`display_name`, `due_date`). For OpenAPI this is the JSON key. */
  readonly name: string;
  /** JSON key on the wire: proto `json_name` (`displayName`); for OpenAPI the same as `name`. */
  readonly jsonName: string;
  /**
   * Property name in generated TypeScript. For OpenAPI the JSON key itself (quoted by the
   * printer when it is not an identifier), so objects can be passed to `JSON.stringify`.
   * For proto the camelCase `jsonName`, as protobufjs and ts-proto do.
   */
  readonly localName: string;
  /** Proto field number; absent for OpenAPI. */
  readonly number?: number;
  readonly type: TypeRef;
  /**
   * Presence: `required` (OpenAPI `required`), `optional` (may be absent), or `implicit`
   * (proto3 scalar without `optional`: always present on decode, zero value by default).
   */
  readonly presence: 'required' | 'optional' | 'implicit';
  /** Name of the proto oneof this field belongs to. */
  readonly oneof?: string;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly deprecated: boolean;
  /** Default value from the schema (OpenAPI `default`, proto2 `default`). */
  readonly default?: JsonValue;
  readonly doc?: string;
  readonly source: SourceLocation;
}

export interface OneofGroup {
  readonly name: string;
  readonly localName: string;
  readonly fields: readonly Field[];
}

export interface EnumType {
  readonly kind: 'enum';
  readonly parent: SchemaFile;
  readonly outer?: MessageType;
  readonly name: string;
  readonly localName: string;
  readonly fullName: string;
  /** Proto enums and OpenAPI integer enums are `'integer'`; OpenAPI string enums are `'string'`. */
  readonly valueType: 'string' | 'integer';
  readonly values: readonly EnumValue[];
  readonly doc?: string;
  readonly source: SourceLocation;
}

export interface EnumValue {
  /** `RUNNING`; for OpenAPI string enums the string itself (`open`). */
  readonly name: string;
  /** Identifier for a TS const member: `RUNNING`, `Open`, `Value_1`. Unique within the enum. */
  readonly localName: string;
  /** The wire value: the number for proto/integer enums, the string for string enums. */
  readonly value: number | string;
  /** Proto `allow_alias`: this value repeats an earlier one. */
  readonly alias: boolean;
  readonly doc?: string;
}

/** A named OpenAPI schema that is not an object: `type Labels = string[]`, a named union, etc. */
export interface AliasType {
  readonly kind: 'alias';
  readonly parent: SchemaFile;
  readonly name: string;
  readonly localName: string;
  readonly fullName: string;
  readonly type: TypeRef;
  readonly doc?: string;
  readonly source: SourceLocation;
}

// ---------------------------------------------------------------------------
// Type references: the shape of a value
// ---------------------------------------------------------------------------

export type TypeRef = ScalarType | RefType | ArrayType | MapType | ObjectType | UnionType | IntersectionType | LiteralType | UnknownType;

export type ScalarName =
  // Proto scalars (also used for OpenAPI `integer`/`number` with formats).
  | 'double'
  | 'float'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'sint32'
  | 'sint64'
  | 'fixed32'
  | 'fixed64'
  | 'sfixed32'
  | 'sfixed64'
  | 'bool'
  | 'string'
  | 'bytes'
  // JSON Schema scalars without a narrower format.
  | 'integer'
  | 'number'
  | 'null';

export interface ScalarType {
  readonly kind: 'scalar';
  readonly scalar: ScalarName;
  /** JSON Schema `format` (`date-time`, `date`, `email`, `uri`, `uuid`, `binary`, `byte`, `int64`, ...). */
  readonly format?: string;
  readonly constraints?: Constraints;
  /** `nullable: true` (3.0), `type: [x, 'null']` (3.1), `x-nullable` (Swagger 2). */
  readonly nullable?: boolean;
}

/** JSON Schema validation keywords kept for validators and docs. */
export interface Constraints {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

/** A reference to a named type (message, enum or alias), possibly in another file. */
export interface RefType {
  readonly kind: 'ref';
  readonly target: NamedType;
  readonly nullable?: boolean;
}

export interface ArrayType {
  readonly kind: 'array';
  readonly items: TypeRef;
  readonly constraints?: Constraints;
  readonly nullable?: boolean;
}

/** Proto `map<K, V>`, or an OpenAPI object with only `additionalProperties`. */
export interface MapType {
  readonly kind: 'map';
  /** Proto key scalar; `string` for OpenAPI. */
  readonly key: ScalarType;
  readonly value: TypeRef;
  readonly nullable?: boolean;
}

/** An inline (anonymous) object schema. */
export interface ObjectType {
  readonly kind: 'object';
  readonly properties: readonly InlineProperty[];
  readonly additionalProperties: boolean | TypeRef;
  readonly constraints?: Constraints;
  readonly nullable?: boolean;
}

export interface InlineProperty {
  readonly name: string;
  readonly required: boolean;
  readonly type: TypeRef;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly default?: JsonValue;
  readonly doc?: string;
}

/** `oneOf` / `anyOf`, with the discriminator when the schema declares one. */
export interface UnionType {
  readonly kind: 'union';
  readonly mode: 'oneOf' | 'anyOf';
  readonly variants: readonly TypeRef[];
  readonly discriminator?: Discriminator;
  readonly nullable?: boolean;
}

export interface Discriminator {
  readonly propertyName: string;
  /** Discriminator value → variant (explicit `mapping`, or the schema names when absent). */
  readonly mapping: Readonly<Record<string, TypeRef>>;
}

/** An inline `allOf` that could not be flattened into one object. */
export interface IntersectionType {
  readonly kind: 'intersection';
  readonly parts: readonly TypeRef[];
  readonly nullable?: boolean;
}

/** `const`, or a single-value enum. */
export interface LiteralType {
  readonly kind: 'literal';
  readonly value: string | number | boolean | null;
}

/** `{}` / a schema with no type: any JSON value. */
export interface UnknownType {
  readonly kind: 'unknown';
}

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
