/**
 * @module
 * The `openapi-doc` emitter: `X.openapi.json`, an OpenAPI 3.1 document of every service
 * in a schema file. HTTP services appear as they are; RPC services as the Connect routes
 * they are served on. `components/schemas` holds the file's named types and every type
 * they reach in other files, so the document stands alone. Key order is fixed and the
 * JSON is indented by 2 spaces, so output is byte-stable.
 */
import type { Emitter } from '../../emit.js';
import { GENERATOR_NAME, GENERATOR_VERSION } from '../../emit.js';
import type {
  FormSeparator,
  HttpOperation,
  NamedType,
  Operation,
  ResponseSpec,
  SchemaFile,
  SecurityRequirement,
  SecurityScheme,
} from '../../model/model.js';
import { isProtoFile } from '../../model/schema-file.js';
import { assertNever } from '../../model/type-utils.js';
import type { JsonSchema, JsonSchemaOptions } from '../json-schema/index.js';
import { namedTypeSchema, typeRefSchema } from '../json-schema/index.js';
import { CONNECT_ERROR_SCHEMA, connectErrorSchema, connectPath, rpcOperation } from './rpc.js';

/** Marker key at the document root; the CLI recognises generated JSON by it. */
export const GENERATED_BY_KEY = 'x-generated-by';

/**
 * Emits `X.openapi.json` for every schema file with services.
 *
 * @example
 * emit(files, [openapiDocEmitter], options);
 * // system/v1alpha1/system.openapi.json: { "openapi": "3.1.0", "paths": { "/v1alpha1.System/GetService": … } }
 */
export const openapiDocEmitter: Emitter = {
  name: 'openapi-doc',
  emit(file, ctx) {
    if (file.services.length === 0) return;
    ctx.addFile(ctx.outputPath(file, 'openapi.json'), `${JSON.stringify(openapiDocument(file), null, 2)}\n`);
  },
};

/** Builds the OpenAPI 3.1 document of a schema file's services. */
export function openapiDocument(file: SchemaFile): JsonSchema {
  const components = new ComponentNames();
  const options: JsonSchemaOptions = { refTo: (t) => `#/components/schemas/${components.keyOf(t)}`, openapi: true };
  const proto = isProtoFile(file);

  // Own types first (declaration order), then types of other files as refs reach them.
  for (const type of file.types) components.keyOf(type);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  let usesConnect = false;
  for (const service of file.services) {
    for (const op of service.operations) {
      const [path, method, operation] = describe(op);
      (paths[path] ??= {})[method] = operation;
    }
  }

  function describe(op: Operation): [string, string, JsonSchema] {
    switch (op.kind) {
      case 'rpc':
        usesConnect = true;
        return [connectPath(op), 'post', rpcOperation(op, (which) => typeRefSchema({ kind: 'ref', target: op[which] }, true, options))];
      case 'http': {
        const operation = httpOperation(op, proto, options);
        // An operation's own requirement when it differs from the document's (`[]` lifts it).
        if (JSON.stringify(op.security ?? []) !== JSON.stringify(file.security ?? [])) operation.security = requirements(op.security ?? []);
        return [op.path, op.method, operation];
      }
      default:
        return assertNever(op);
    }
  }

  const schemas: Record<string, JsonSchema> = {};
  for (let i = 0; i < components.types.length; i++) {
    const type = components.types[i]!;
    schemas[components.keyOf(type)] = namedTypeSchema(type, options);
  }
  if (usesConnect) schemas[CONNECT_ERROR_SCHEMA] = connectErrorSchema();

  const info: JsonSchema = { title: file.info.title, version: file.info.version };
  if (file.info.description) info.description = file.info.description;
  const doc: JsonSchema = { openapi: '3.1.0', info };
  if (file.info.basePath) doc.servers = [{ url: file.info.basePath }];
  doc.tags = file.services.map((s) => (s.doc ? { name: s.fullName, description: s.doc } : { name: s.fullName }));
  doc.paths = paths;
  doc.components = { schemas };
  if (file.securitySchemes && file.securitySchemes.length > 0) {
    (doc.components as JsonSchema).securitySchemes = Object.fromEntries(file.securitySchemes.map((s) => [s.name, securitySchemeObject(s)]));
  }
  if (file.security && file.security.length > 0) doc.security = requirements(file.security);
  doc[GENERATED_BY_KEY] = `${GENERATOR_NAME} ${GENERATOR_VERSION} from ${file.path}`;
  return doc;
}

/** A security scheme as OpenAPI 3.1 writes it. */
function securitySchemeObject(scheme: SecurityScheme): JsonSchema {
  const out: JsonSchema = { type: scheme.kind };
  switch (scheme.kind) {
    case 'http':
      out.scheme = scheme.scheme;
      if (scheme.bearerFormat) out.bearerFormat = scheme.bearerFormat;
      break;
    case 'apiKey':
      out.in = scheme.in;
      out.name = scheme.parameter;
      break;
    case 'oauth2':
      out.flows = scheme.flows;
      break;
    case 'openIdConnect':
      out.openIdConnectUrl = scheme.url;
      break;
    case 'mutualTLS':
      break;
    default:
      assertNever(scheme, 'security scheme');
  }
  if (scheme.doc) out.description = scheme.doc;
  return out;
}

function requirements(list: readonly SecurityRequirement[]): JsonSchema[] {
  return list.map((r) => Object.fromEntries(Object.entries(r.schemes).map(([name, scopes]) => [name, [...scopes]])));
}

function httpOperation(op: HttpOperation, proto: boolean, options: JsonSchemaOptions): JsonSchema {
  const operation: JsonSchema = { tags: op.tags.length > 0 ? [...op.tags] : [op.parent.fullName] };
  if (op.summary) operation.summary = op.summary;
  if (op.doc) operation.description = op.doc;
  operation.operationId = op.name;
  if (op.deprecated) operation.deprecated = true;
  if (op.parameters.length > 0) {
    operation.parameters = op.parameters.map((p) => {
      const param: JsonSchema = { name: p.name, in: p.in };
      if (p.doc) param.description = p.doc;
      param.required = p.required;
      if (p.deprecated) param.deprecated = true;
      if (p.style) param.style = p.style;
      if (p.explode !== undefined) param.explode = p.explode;
      // `content` says the value is that media type's text (JSON), not `style`-serialized.
      if (p.mediaType !== undefined) param.content = { [p.mediaType]: { schema: typeRefSchema(p.type, proto, options) } };
      else param.schema = typeRefSchema(p.type, proto, options);
      // Beside a `$ref` too: OpenAPI 3.1 schemas allow it.
      if (p.default !== undefined && param.schema !== undefined) param.schema = { ...param.schema, default: p.default };
      return param;
    });
  }
  if (op.requestBody) {
    const body: JsonSchema = {};
    if (op.requestBody.doc) body.description = op.requestBody.doc;
    body.required = op.requestBody.required;
    body.content = content(op.requestBody.contents, proto, options);
    operation.requestBody = body;
  }
  const responses: JsonSchema = {};
  for (const r of op.responses) responses[String(r.status)] = response(r, proto, options);
  if (op.responses.length === 0) responses.default = { description: 'No response documented.' };
  operation.responses = responses;
  return operation;
}

function response(r: ResponseSpec, proto: boolean, options: JsonSchemaOptions): JsonSchema {
  const out: JsonSchema = { description: r.doc ?? (r.status === 'default' ? 'Any other response.' : `Status ${r.status}.`) };
  if (r.headers.length > 0) {
    const headers: JsonSchema = {};
    for (const h of r.headers) {
      const header: JsonSchema = {};
      if (h.doc) header.description = h.doc;
      if (h.required) header.required = true;
      header.schema = typeRefSchema(h.type, proto, options);
      headers[h.name] = header;
    }
    out.headers = headers;
  }
  if (r.contents.length > 0) out.content = content(r.contents, proto, options);
  return out;
}

function content(contents: HttpOperation['responses'][number]['contents'], proto: boolean, options: JsonSchemaOptions): JsonSchema {
  const out: JsonSchema = {};
  for (const c of contents) {
    const media: JsonSchema = c.type ? { schema: typeRefSchema(c.type, proto, options) } : {};
    if (c.delimited) media.encoding = encoding(c.delimited);
    out[c.mediaType] = media;
  }
  return out;
}

const DELIMITED_STYLES: Readonly<Record<FormSeparator, string | undefined>> = {
  ',': 'form',
  ' ': 'spaceDelimited',
  '|': 'pipeDelimited',
  '\t': undefined,
};

/**
 * A form body's delimited arrays as OpenAPI 3.1 `encoding` (which covers multipart parts too).
 * Tab-separated values (Swagger 2.0's `tsv`) have no OpenAPI 3 style: a vendor extension says so.
 */
function encoding(delimited: ReadonlyMap<string, FormSeparator>): JsonSchema {
  // Without a prototype, a field named `__proto__` is a key like any other.
  const out = Object.create(null) as JsonSchema;
  for (const [name, separator] of delimited) {
    const style = DELIMITED_STYLES[separator];
    out[name] = style ? { style, explode: false } : { 'x-collection-format': 'tsv' };
  }
  return out;
}

/**
 * Assigns each named type reached from a file a unique `components/schemas` key: the proto
 * full name (`v1alpha1.GetServiceRequest`), or the OpenAPI schema name, made to fit
 * OpenAPI's `^[a-zA-Z0-9._-]+$` and suffixed on clashes across files.
 */
class ComponentNames {
  readonly types: NamedType[] = [];
  readonly #keys = new Map<NamedType, string>();
  readonly #taken = new Set<string>([CONNECT_ERROR_SCHEMA]);

  keyOf(type: NamedType): string {
    const existing = this.#keys.get(type);
    if (existing) return existing;
    const base = (isProtoFile(type.parent) ? type.fullName : type.name).replace(/[^A-Za-z0-9._-]/g, '_') || 'Schema';
    let key = base;
    for (let i = 2; this.#taken.has(key); i++) key = `${base}_${i}`;
    this.#taken.add(key);
    this.#keys.set(type, key);
    this.types.push(type);
    return key;
  }
}
