/**
 * @module
 * The OpenAPI 3.0/3.1 and Swagger 2.0 loader: documents → services, operations,
 * parameters, bodies and responses. Schemas are converted by {@link SchemaConverter}.
 *
 * Services are the operations' first tags (declaration order of first use); operations
 * without tags go to a service named after `info.title`. An operation or path item marked
 * `x-loom-skip: true` is left out, unread: the override a user can write into a description (or an
 * overlay of it) for one place where Loom would refuse it, instead of `--lenient` for all.
 */

import { bareMediaType, isFormMediaType } from '../../model/media-types.js';
import type {
  FormSeparator,
  HttpMethod,
  HttpOperation,
  JsonValue,
  MediaContent,
  Parameter,
  RequestBody,
  ResponseHeader,
  ResponseSpec,
  SchemaFile,
  SchemaFormat,
  SecurityRequirement,
  SecurityScheme,
  Service,
  TypeRef,
} from '../../model/model.js';
import { camelCase, MemberNames, pascalCase, safeIdentifier, safeVariableName, UniqueNames } from '../../model/names.js';
import type { Mutable } from '../../model/type-utils.js';
import { SchemaError } from '../diagnostics.js';
import { type At, detectFormat, docOf, isObject } from './document.js';
import { leftOut, type SkipScope } from './problems.js';
import { childPointer, type DocumentStore, type SourceDocument } from './refs.js';
import { type FileEntry, SchemaConverter } from './schema-converter.js';
import { securityRequirementsOf, securitySchemesOf } from './security.js';
import { collectionFormatStyle, formMediaTypes, formSeparator, mediaList, swaggerParameterSchema } from './swagger2.js';

type Json = Record<string, unknown>;

/** A path item as its operations read it: its object, its place, and what `x-loom-skip` on it would leave out. */
interface PathItem {
  readonly value: Json;
  readonly at: At;
  readonly scope: SkipScope;
}

const METHODS: ReadonlySet<string> = new Set<HttpMethod>(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const LOCATIONS: ReadonlySet<string> = new Set(['path', 'query', 'header', 'cookie']);
/** Names the generated input object and handler signature already use. */
const RESERVED_PARAMETER_NAMES = ['body', 'ctx'];
/**
 * Method names an operation cannot take: `constructor` is no method of a class (the routes class,
 * the client class, a handler implementing the interface), `api` is the routes class's field
 * holding the handler, and a `then` method makes a client thenable, so `await` would call it.
 * Reserved words are handled by `safeVariableName`.
 */
const RESERVED_OPERATION_NAMES = ['constructor', 'api', 'then'];

/**
 * Converts parsed OpenAPI/Swagger documents into schema files.
 *
 * @param docs the documents asked for (already parsed by `store`)
 * @param options `lenient`: every refusal the loader can step past is a warning, and stepped past
 * @returns one SchemaFile per document, in the order given; documents reached through
 *   `$ref` become their `dependencies` (types only: their paths are not loaded)
 * @throws SchemaError listing every problem found
 *
 * @example
 * const store = new DocumentStore(root);
 * const [file] = await loadOpenApiDocuments([await store.load('/abs/api.yaml')], store);
 */
export async function loadOpenApiDocuments(
  docs: readonly SourceDocument[],
  store: DocumentStore,
  options: { readonly lenient?: boolean } = {},
): Promise<SchemaFile[]> {
  const converter = new SchemaConverter(store, options);
  // Every referenced file first (a no-op when the caller loaded them already): a file outside the
  // root widens it, and the files' paths must be final before any of them is converted.
  for (const doc of docs) converter.errors.push(...(await store.loadReferenced(doc, options.lenient)));
  const entries: FileEntry[] = [];
  for (const doc of docs) {
    const data = doc.data as Json;
    const format = detectFormat(data);
    if (format !== 'openapi-3.0' && format !== 'openapi-3.1' && format !== 'swagger-2.0') {
      converter.fail({ doc, pointer: data['swagger'] !== undefined ? '/swagger' : '/openapi' }, format);
      continue;
    }
    entries.push(converter.entry(doc, format));
  }
  // A file that cannot be loaded stops nothing else: references to it are reported once (above),
  // and everything else in the documents is still read and checked, so that one run lists every
  // problem.
  for (const entry of entries) new OperationReader(converter, entry).read();
  converter.finish();
  if (converter.errors.length > 0) throw new SchemaError(converter.errors);
  return entries.map((e) => e.file as SchemaFile);
}

/** Reads the `paths` of one document into services. */
class OperationReader {
  readonly #c: SchemaConverter;
  readonly #entry: FileEntry;
  readonly #doc: SourceDocument;
  readonly #data: Json;
  readonly #format: SchemaFormat;
  readonly #services = new Map<string, { service: Service; operations: HttpOperation[] }>();
  readonly #serviceNames = new UniqueNames();
  /**
   * Operation names are unique in the file, not only in their service: the services of a file share
   * one `X.server.ts` and `X.client.ts`, where each operation declares `…Input`, `…Operation` and
   * `validate…Body`. Each name also claims the client's `…WithResponse` twin.
   */
  readonly #operationNames = new MemberNames(RESERVED_OPERATION_NAMES, (name) => [name, `${name}WithResponse`]);
  readonly #operationIds = new Map<string, string>();
  #schemes: readonly SecurityScheme[] = [];
  #globalSecurity: SecurityRequirement[] | undefined;

  constructor(converter: SchemaConverter, entry: FileEntry) {
    this.#c = converter;
    this.#entry = entry;
    this.#doc = entry.doc;
    this.#data = entry.doc.data as Json;
    this.#format = entry.file.format;
  }

  #at(pointer: string): At {
    return { doc: this.#doc, pointer };
  }

  read(): void {
    (this.#entry.file.info as Mutable<SchemaFile['info']>).basePath = this.#basePath();
    const schemes = securitySchemesOf(this.#data, this.#format, this.#at(''), this.#c);
    this.#schemes = schemes;
    const security = securityRequirementsOf(this.#data['security'], schemes, this.#at('/security'), this.#c);
    this.#globalSecurity = security;
    if (schemes.length > 0) this.#entry.file.securitySchemes = schemes;
    if (security !== undefined) this.#entry.file.security = security;
    if (isObject(this.#data['webhooks']) && Object.keys(this.#data['webhooks']).length > 0) {
      this.#c.warn(this.#at('/webhooks'), "'webhooks' are ignored: Loom generates the API's own operations only");
    }
    const paths = this.#data['paths'];
    if (paths === undefined) return;
    if (!isObject(paths)) {
      this.#c.refuse(this.#at('/paths'), "'paths' must be an object of path templates", 'the document gets no operations');
      return;
    }
    const routes = new Map<string, string>();
    for (const [key, rawItem] of Object.entries(paths)) {
      if (key.startsWith('x-')) continue;
      const itemAt = this.#at(childPointer('/paths', key));
      if (this.#skipped(rawItem, itemAt)) continue;
      const { path, queryNames } = this.#pathOf(key, itemAt);
      const pathItem: SkipScope = { what: 'path item', name: `'${key}'` };
      const item = this.#c.within(pathItem, () => this.#c.deref(rawItem, itemAt, 'path item'));
      if (!item || this.#skipped(item.value, item.at)) continue;
      for (const [method, rawOp] of Object.entries(item.value)) {
        if (!METHODS.has(method)) continue;
        const opAt = { doc: item.at.doc, pointer: childPointer(item.at.pointer, method) };
        if (!isObject(rawOp)) {
          this.#c.within(pathItem, () =>
            this.#c.refuse(opAt, `operation '${method.toUpperCase()} ${key}' must be an object`, leftOut('operation')),
          );
          continue;
        }
        if (this.#skipped(rawOp, opAt)) continue;
        // Two keys that read as one route (`/uploads` and `/uploads?convert={convert}`): the first wins.
        const route = `${method.toUpperCase()} ${path}`;
        const first = routes.get(route);
        if (first !== undefined) {
          this.#c.warn(
            opAt,
            `${method.toUpperCase()} '${key}' is the same route as ${method.toUpperCase()} '${first}' ` +
              `once its query string is set aside; it is left out`,
          );
          continue;
        }
        routes.set(route, key);
        const operation: SkipScope = { what: 'operation', name: `${method.toUpperCase()} ${key}` };
        this.#c.within(operation, () => {
          try {
            this.#operation(path, method as HttpMethod, rawOp, opAt, operation, { ...item, scope: pathItem }, queryNames);
          } catch (e) {
            // A bug in Loom, or input it cannot handle: said where it happened, not as a stack trace.
            if (e instanceof SchemaError) throw e;
            this.#c.refuse(
              opAt,
              `cannot read this operation: ${e instanceof Error ? e.message : String(e)}; please report this with the description`,
              leftOut('operation'),
            );
          }
        });
      }
    }
  }

  /**
   * True when a path item or operation says `x-loom-skip: true`: it is left out, unread, without a
   * word (its author asked for that).
   */
  #skipped(node: unknown, at: At): boolean {
    const mark = isObject(node) ? node['x-loom-skip'] : undefined;
    if (mark === true) return true;
    if (mark !== undefined && mark !== false) {
      this.#c.warn(
        { doc: at.doc, pointer: childPointer(at.pointer, 'x-loom-skip') },
        `x-loom-skip is ${JSON.stringify(mark)}, not true or false; it is ignored (write x-loom-skip: true to leave this out)`,
      );
    }
    return false;
  }

  /**
   * The path template of a `paths` key. Keys its authors' tools accept though OpenAPI does not are
   * read with a warning: a query string (`/search?query={query}`, whose variables become query
   * parameters) is set aside, and a missing leading `/` is added.
   */
  #pathOf(key: string, at: At): { path: string; queryNames: readonly string[] } {
    let path = key;
    let queryNames: string[] = [];
    const q = path.indexOf('?');
    if (q >= 0) {
      queryNames = [...path.slice(q).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      path = path.slice(0, q);
      this.#c.warn(
        at,
        `path '${key}' carries a query string, which OpenAPI paths cannot; it is read as '${path || '/'}'` +
          `${queryNames.length > 0 ? ` with ${queryNames.map((n) => `'${n}'`).join(', ')} as query parameters` : ''}`,
      );
    }
    if (!path.startsWith('/')) {
      if (q < 0) this.#c.warn(at, `path '${key}' does not start with '/'; it is read as '/${path}'`);
      path = `/${path}`;
    }
    return { path, queryNames };
  }

  #basePath(): string {
    if (this.#format === 'swagger-2.0') {
      const base = typeof this.#data['basePath'] === 'string' ? this.#data['basePath'] : '';
      return base.replace(/\/+$/, '');
    }
    const servers = this.#data['servers'];
    const first = Array.isArray(servers) && isObject(servers[0]) ? servers[0] : undefined;
    if (!first || typeof first['url'] !== 'string') return '';
    const variables = isObject(first['variables']) ? first['variables'] : {};
    const url = first['url'].replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const v = variables[name];
      return isObject(v) && v['default'] !== undefined ? String(v['default']) : '';
    });
    let path = url;
    const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(.*)$/i.exec(url);
    if (absolute) path = absolute[1]!;
    path = path.split(/[?#]/)[0]!;
    if (path !== '' && !path.startsWith('/')) path = `/${path}`;
    return path.replace(/\/+$/, '');
  }

  #service(tag: string | undefined, firstUse: At): { service: Service; operations: HttpOperation[] } {
    const name = tag ?? this.#entry.file.info.title;
    const existing = this.#services.get(name);
    if (existing) return existing;
    const operations: HttpOperation[] = [];
    let doc: string | undefined;
    if (tag !== undefined && Array.isArray(this.#data['tags'])) {
      const declared = this.#data['tags'].find((t) => isObject(t) && t['name'] === tag);
      if (isObject(declared)) doc = docOf(declared);
    }
    const tagIndex = Array.isArray(this.#data['tags']) ? this.#data['tags'].findIndex((t) => isObject(t) && t['name'] === tag) : -1;
    const service: Service = {
      kind: 'service',
      parent: this.#entry.file,
      name,
      localName: this.#serviceNames.take(safeIdentifier(pascalCase(name) || 'Api')),
      fullName: name,
      protocol: 'http',
      ...(doc ? { doc } : {}),
      operations,
      // Where the tag is described, else the first operation that uses it.
      source: this.#c.location(tagIndex >= 0 ? this.#at(`/tags/${tagIndex}`) : firstUse),
    };
    const created = { service, operations };
    this.#services.set(name, created);
    this.#entry.services.push(service);
    return created;
  }

  #operation(path: string, method: HttpMethod, op: Json, at: At, scope: SkipScope, item: PathItem, queryNames: readonly string[]): void {
    const tags = Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string') : [];
    const derived = camelCase(`${method} ${path.replace(/[{}]/g, ' ')}`) || method;
    const explicit = typeof op['operationId'] === 'string' && op['operationId'] !== '';
    let name = explicit ? (op['operationId'] as string) : derived;
    const previous = this.#operationIds.get(name);
    if (previous !== undefined) {
      // Ambiguous for code, not for the API: the later operation gets a numbered name, and says so.
      let unique = name;
      for (let i = 2; this.#operationIds.has(unique); i++) unique = `${name}${i}`;
      this.#c.warn(
        at,
        explicit
          ? `operationId '${name}' is also used by ${previous}; this one is named '${unique}' in generated code ` +
              `(give it an operationId of its own to choose)`
          : `this operation has no operationId and the one derived from its method and path, '${name}', ` +
              `is already used by ${previous}; it is named '${unique}' (add an operationId to choose)`,
      );
      name = unique;
    }
    this.#operationIds.set(name, `${method.toUpperCase()} ${path}`);
    const { parameters, body } = this.#parameters(path, op, at, scope, item, queryNames);
    const requestBody = body ?? this.#requestBody(op, at);
    const localNames = new UniqueNames(requestBody ? RESERVED_PARAMETER_NAMES : RESERVED_PARAMETER_NAMES.filter((n) => n !== 'body'));
    const security =
      op['security'] === undefined
        ? this.#globalSecurity
        : securityRequirementsOf(op['security'], this.#schemes, { doc: at.doc, pointer: childPointer(at.pointer, 'security') }, this.#c);
    if (op['callbacks'] !== undefined)
      this.#c.warn(
        { doc: at.doc, pointer: childPointer(at.pointer, 'callbacks') },
        "'callbacks' are ignored: Loom generates the API's own operations only",
      );
    const summary = typeof op['summary'] === 'string' && op['summary'].trim() !== '' ? op['summary'].trim() : undefined;
    const doc = docOf(op);
    const responses = this.#responses(op, at);
    // Only now, with nothing left to fail: an operation left out leaves no empty service behind.
    const { service, operations } = this.#service(tags[0], at);
    const operation: HttpOperation = {
      kind: 'http',
      parent: service,
      name,
      localName: this.#operationNames.take(safeVariableName(camelCase(name) || method)),
      method,
      path,
      parameters: parameters.map((p) => ({ ...p, localName: localNames.take(safeVariableName(camelCase(p.name) || 'param')) })),
      ...(requestBody ? { requestBody } : {}),
      responses,
      ...(security ? { security } : {}),
      tags,
      deprecated: op['deprecated'] === true,
      ...(summary ? { summary } : {}),
      ...(doc ? { doc } : {}),
      source: this.#c.location(at),
    };
    operations.push(operation);
  }

  /** Path-level and operation-level parameters merged (the operation's win), checked against the template. */
  #parameters(
    path: string,
    op: Json,
    at: At,
    operation: SkipScope,
    item: PathItem,
    queryNames: readonly string[],
  ): { parameters: Parameter[]; body?: RequestBody } {
    // Each with what x-loom-skip would leave out instead of its refusals: the operation, or for a
    // parameter of the path item, the path item (every operation of it reads the parameter).
    const merged = new Map<string, { raw: Json; at: At; scope: SkipScope }>();
    const collect = (list: unknown, listAt: At, scope: SkipScope) =>
      this.#c.within(scope, () => {
        if (list === undefined) return;
        if (!Array.isArray(list)) {
          this.#c.refuse(listAt, "'parameters' must be an array", 'these parameters are left out');
          return;
        }
        list.forEach((raw, i) => {
          const param = this.#c.deref(raw, { doc: listAt.doc, pointer: childPointer(listAt.pointer, i) }, 'parameter');
          if (!param) return;
          const name = param.value['name'];
          const location = param.value['in'];
          if (typeof name !== 'string' || typeof location !== 'string') {
            this.#c.refuse(param.at, "a parameter needs a string 'name' and 'in'", leftOut('parameter'));
            return;
          }
          // A variable of a query string in the path key (`?query={query}`) is a query parameter, whatever it says.
          const value = location === 'path' && queryNames.includes(name) ? { ...param.value, in: 'query' } : param.value;
          merged.set(`${value['in'] as string}\0${name}`, { raw: value, at: param.at, scope });
        });
      });
    collect(item.value['parameters'], { doc: item.at.doc, pointer: childPointer(item.at.pointer, 'parameters') }, item.scope);
    collect(op['parameters'], { doc: at.doc, pointer: childPointer(at.pointer, 'parameters') }, operation);

    const parameters: Parameter[] = [];
    const form: { name: string; raw: Json; at: At }[] = [];
    let body: RequestBody | undefined;
    for (const { raw, at: pAt, scope } of merged.values()) {
      this.#c.within(scope, () => {
        const location = raw['in'] as string;
        if ((location === 'body' || location === 'formData') && this.#format !== 'swagger-2.0') {
          // A Swagger 2.0 habit in an OpenAPI 3 document: name the replacement, not just the mistake.
          this.#c.refuse(
            { doc: pAt.doc, pointer: childPointer(pAt.pointer, 'in') },
            `parameter '${String(raw['name'])}' has 'in: ${location}', which is Swagger 2.0: ` +
              `OpenAPI 3 describes the body with the operation's 'requestBody' (content: { ` +
              `${location === 'body' ? 'application/json' : 'application/x-www-form-urlencoded'}: { schema: … } }); move it there`,
            leftOut('parameter'),
          );
        } else if (location === 'body') {
          body = this.#swaggerBody(raw, pAt, op);
        } else if (location === 'formData') {
          form.push({ name: raw['name'] as string, raw, at: pAt });
        } else if (!LOCATIONS.has(location)) {
          this.#c.refuse(
            { doc: pAt.doc, pointer: childPointer(pAt.pointer, 'in') },
            `parameter '${String(raw['name'])}' has unknown location 'in: ${location}': use path, query, header or cookie`,
            leftOut('parameter'),
          );
        } else {
          const p = this.#parameter(raw, pAt, location as Parameter['in']);
          if (p) parameters.push(p);
        }
      });
    }
    if (form.length > 0) {
      if (body)
        this.#c.refuse(
          at,
          "an operation cannot have both 'in: body' and 'in: formData' parameters; keep one of them",
          "the 'in: formData' parameters are left out",
        );
      else body = this.#formBody(form, op);
    }

    // A template and its parameters that disagree are what their authors' tools accept: the
    // template wins, with a warning at the operation.
    const declared = new Set(parameters.filter((p) => p.in === 'path').map((p) => p.name));
    const template = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    for (const name of template) {
      if (declared.has(name)) continue;
      this.#c.warn(
        at,
        `path parameter '{${name}}' of '${path}' is not declared; it is read as a required string ` +
          `(declare it with 'name: ${name}' and 'in: path' to give it a type)`,
      );
      parameters.push({
        kind: 'parameter',
        name,
        localName: name,
        in: 'path',
        required: true,
        type: { kind: 'scalar', scalar: 'string' },
        style: 'simple',
        explode: false,
        deprecated: false,
        source: this.#c.location(at),
      });
    }
    const kept = parameters.filter((p) => {
      if (p.in !== 'path' || template.includes(p.name)) return true;
      this.#c.warn(
        at,
        `path parameter '${p.name}' does not appear in '${path}'; it is left out (add '{${p.name}}' to the path, or change its 'in')`,
      );
      return false;
    });
    return { parameters: kept, ...(body ? { body } : {}) };
  }

  #parameter(raw: Json, at: At, location: Parameter['in']): Parameter | undefined {
    const name = raw['name'] as string;
    let type: TypeRef;
    let mediaType: string | undefined;
    if (this.#format === 'swagger-2.0') {
      type = this.#c.typeOf(swaggerParameterSchema(raw), at);
    } else if (raw['schema'] !== undefined) {
      type = this.#c.typeOf(raw['schema'], { doc: at.doc, pointer: childPointer(at.pointer, 'schema') });
    } else if (isObject(raw['content'])) {
      const [media, content] = Object.entries(raw['content'])[0] ?? [];
      mediaType = media;
      type =
        isObject(content) && content['schema'] !== undefined
          ? this.#c.typeOf(content['schema'], { doc: at.doc, pointer: childPointer(at.pointer, 'content', media ?? '', 'schema') })
          : { kind: 'unknown' };
    } else {
      this.#c.warn(at, `parameter '${name}' has no schema; it is read as a string`);
      type = { kind: 'scalar', scalar: 'string' };
    }
    let required = raw['required'] === true;
    if (location === 'path' && !required) {
      if (raw['required'] === false) this.#c.warn(at, `path parameter '${name}' says required: false; path parameters are always required`);
      required = true;
    }
    // A `content` parameter travels as its media type's text: `style` and `explode` do not apply.
    const serialization = mediaType === undefined ? this.#style(raw, at, location) : { mediaType };
    const doc = docOf(raw);
    const fallback = required ? undefined : this.#parameterDefault(raw, type, at);
    return {
      kind: 'parameter',
      name,
      localName: name, // made unique per operation by the caller
      in: location,
      required,
      type,
      ...serialization,
      ...(fallback !== undefined ? { default: fallback } : {}),
      deprecated: raw['deprecated'] === true,
      ...(doc ? { doc } : {}),
      source: this.#c.location(at),
    };
  }

  /**
   * A parameter's `default`: on the parameter itself in Swagger 2.0, on its schema (through
   * `$ref`s) in OpenAPI 3. A `content` parameter's default would be JSON text, which OpenAPI
   * does not define; it is not read.
   */
  #parameterDefault(raw: Json, type: TypeRef, at: At): JsonValue | undefined {
    const value = this.#format === 'swagger-2.0' ? (raw['default'] as JsonValue | undefined) : this.#c.defaultOf(raw['schema'], at);
    if (value === undefined || type.kind !== 'scalar') return value;
    // A text default is converted like a value sent (`'20'` to 20, or a 400 at registration if it
    // cannot be); any other must already be of the parameter's type.
    const expected = type.scalar === 'bool' ? 'boolean' : type.scalar === 'string' || type.scalar === 'bytes' ? 'string' : 'number';
    if (typeof value === expected || typeof value === 'string') return value;
    this.#c.warn(
      at,
      `parameter '${raw['name'] as string}' has default ${JSON.stringify(value)}, which is not a ${expected}; the default is ignored`,
    );
    return undefined;
  }

  /** The effective `style`/`explode`, spelled out so emitters need not know each version's defaults. */
  #style(raw: Json, at: At, location: Parameter['in']): Pick<Parameter, 'style' | 'explode'> {
    if (this.#format === 'swagger-2.0') {
      const s = collectionFormatStyle(raw['collectionFormat'], location);
      if (s) return s;
      this.#c.warn(
        at,
        `collectionFormat '${String(raw['collectionFormat'])}' has no OpenAPI 3 equivalent; values are read comma-separated`,
      );
      return collectionFormatStyle('csv', location)!;
    }
    const defaultStyle = location === 'query' || location === 'cookie' ? 'form' : 'simple';
    const style = typeof raw['style'] === 'string' ? (raw['style'] as NonNullable<Parameter['style']>) : defaultStyle;
    const explode = typeof raw['explode'] === 'boolean' ? raw['explode'] : style === 'form';
    return { style, explode };
  }

  #consumes(op: Json): string[] {
    return mediaList(op['consumes']) ?? mediaList(this.#data['consumes']) ?? ['application/json'];
  }

  #produces(op: Json): string[] {
    return mediaList(op['produces']) ?? mediaList(this.#data['produces']) ?? ['application/json'];
  }

  #swaggerBody(raw: Json, at: At, op: Json): RequestBody {
    const type = this.#c.typeOf(raw['schema'] ?? {}, { doc: at.doc, pointer: childPointer(at.pointer, 'schema') });
    const doc = docOf(raw);
    return {
      required: raw['required'] === true,
      contents: this.#consumes(op).map((mediaType) => ({ mediaType, type })),
      ...(doc ? { doc } : {}),
    };
  }

  #formBody(form: readonly { name: string; raw: Json; at: At }[], op: Json): RequestBody {
    const properties = form.map(({ name, raw, at }) => {
      const doc = docOf(raw);
      return {
        name,
        required: raw['required'] === true,
        type: this.#c.typeOf(swaggerParameterSchema(raw), at),
        readOnly: false,
        writeOnly: false,
        ...(raw['default'] !== undefined ? { default: raw['default'] as never } : {}),
        ...(doc ? { doc } : {}),
      };
    });
    // Open like any schema without `additionalProperties`: extra form fields are not an error.
    const type: TypeRef = { kind: 'object', properties, additionalProperties: true };
    const hasFile = form.some(({ raw }) => raw['type'] === 'file');
    const delimited = new Map<string, FormSeparator>();
    for (const { name, raw } of form) {
      const separator = raw['type'] === 'array' ? formSeparator(raw['collectionFormat']) : undefined;
      if (separator) delimited.set(name, separator);
    }
    return {
      required: properties.some((p) => p.required),
      contents: formMediaTypes(this.#consumes(op), hasFile).map((mediaType) => ({
        mediaType,
        type,
        ...(delimited.size > 0 ? { delimited } : {}),
      })),
    };
  }

  #requestBody(op: Json, at: At): RequestBody | undefined {
    if (op['requestBody'] === undefined) return undefined;
    const body = this.#c.deref(op['requestBody'], { doc: at.doc, pointer: childPointer(at.pointer, 'requestBody') }, 'request body');
    if (!body) return undefined;
    const doc = docOf(body.value);
    return { required: body.value['required'] === true, contents: this.#contents(body.value['content'], body.at), ...(doc ? { doc } : {}) };
  }

  #contents(content: unknown, at: At): MediaContent[] {
    if (!isObject(content)) return [];
    return Object.entries(content).map(([mediaType, media]) => {
      const schema = isObject(media) ? media['schema'] : undefined;
      const delimited = isObject(media) ? this.#delimited(mediaType, media['encoding']) : undefined;
      return {
        mediaType,
        ...(schema === undefined
          ? {}
          : { type: this.#c.typeOf(schema, { doc: at.doc, pointer: childPointer(at.pointer, 'content', mediaType, 'schema') }) }),
        ...(delimited ? { delimited } : {}),
      };
    });
  }

  /**
   * The properties of a form body whose `encoding` sends an array in one field: `explode: false`
   * (`style: form` joins with commas) or `spaceDelimited`/`pipeDelimited`. Style and explode
   * describe url-encoded bodies; OpenAPI 3.1 extends them to multipart parts that set either.
   */
  #delimited(mediaType: string, encoding: unknown): ReadonlyMap<string, FormSeparator> | undefined {
    const multipart = bareMediaType(mediaType) === 'multipart/form-data';
    if (!isObject(encoding) || !isFormMediaType(mediaType) || (multipart && this.#format !== 'openapi-3.1')) return undefined;
    const out = new Map<string, FormSeparator>();
    for (const [name, field] of Object.entries(encoding)) {
      if (!isObject(field) || (multipart && field['style'] === undefined && field['explode'] === undefined)) continue;
      const style = field['style'] ?? 'form';
      const explode = field['explode'] ?? style === 'form';
      if (explode !== false) continue;
      const separator = style === 'form' ? ',' : style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : undefined;
      if (separator) out.set(name, separator);
    }
    return out.size > 0 ? out : undefined;
  }

  #responses(op: Json, at: At): ResponseSpec[] {
    const responses = op['responses'];
    const responsesAt = { doc: at.doc, pointer: childPointer(at.pointer, 'responses') };
    if (!isObject(responses)) {
      if (responses !== undefined)
        this.#c.refuse(responsesAt, "'responses' must be an object keyed by status code", 'the operation has no responses');
      return [];
    }
    const out: ResponseSpec[] = [];
    let fallback: ResponseSpec | undefined;
    for (const [code, raw] of Object.entries(responses)) {
      if (code.startsWith('x-')) continue;
      const codeAt = { doc: responsesAt.doc, pointer: childPointer(responsesAt.pointer, code) };
      let status: ResponseSpec['status'];
      if (code === 'default') status = 'default';
      else if (/^[1-5]\d\d$/.test(code)) status = Number(code);
      else if (/^[1-5]XX$/i.test(code)) status = code.toUpperCase() as ResponseSpec['status'];
      else {
        this.#c.refuse(
          codeAt,
          `response status '${code}' is not a status code: use 100–599, a range such as 4XX, or 'default'`,
          leftOut('response'),
        );
        continue;
      }
      const response = this.#c.deref(raw, codeAt, 'response');
      if (!response) continue;
      const spec = this.#response(status, response.value, response.at, op);
      if (status === 'default') fallback = spec;
      else out.push(spec);
    }
    if (fallback) out.push(fallback);
    return out;
  }

  #response(status: ResponseSpec['status'], raw: Json, at: At, op: Json): ResponseSpec {
    const doc = docOf(raw);
    let contents: MediaContent[];
    if (this.#format === 'swagger-2.0') {
      const schema = raw['schema'];
      const type = schema === undefined ? undefined : this.#c.typeOf(schema, { doc: at.doc, pointer: childPointer(at.pointer, 'schema') });
      contents = type ? this.#produces(op).map((mediaType) => ({ mediaType, type })) : [];
    } else {
      contents = this.#contents(raw['content'], at);
    }
    return { status, ...(doc ? { doc } : {}), headers: this.#headers(raw['headers'], at), contents };
  }

  #headers(headers: unknown, at: At): ResponseHeader[] {
    if (!isObject(headers)) return [];
    const out: ResponseHeader[] = [];
    for (const [name, raw] of Object.entries(headers)) {
      const header = this.#c.deref(raw, { doc: at.doc, pointer: childPointer(at.pointer, 'headers', name) }, 'header');
      if (!header) continue;
      const h = header.value;
      let type: TypeRef;
      if (this.#format === 'swagger-2.0') type = this.#c.typeOf(swaggerParameterSchema(h), header.at);
      else if (h['schema'] !== undefined)
        type = this.#c.typeOf(h['schema'], { doc: header.at.doc, pointer: childPointer(header.at.pointer, 'schema') });
      else if (isObject(h['content'])) type = this.#contents(h['content'], header.at)[0]?.type ?? { kind: 'unknown' };
      else type = { kind: 'scalar', scalar: 'string' };
      const doc = docOf(h);
      out.push({ name, required: h['required'] === true, type, ...(doc ? { doc } : {}) });
    }
    return out;
  }
}
