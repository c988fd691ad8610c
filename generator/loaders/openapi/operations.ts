/**
 * @module
 * The OpenAPI 3.0/3.1 and Swagger 2.0 loader: documents → services and operations. An
 * operation's parameters are read by parameters.ts, its bodies and responses by bodies.ts, and
 * schemas are converted by {@link SchemaConverter}.
 *
 * Services are the operations' first tags (declaration order of first use); operations
 * without tags go to a service named after `info.title`. An operation or path item marked
 * `x-loom-skip: true` is left out, unread: the override a user can write into a description (or an
 * overlay of it) for one place where Loom would refuse it, instead of `--lenient` for all.
 */

import type {
  HttpMethod,
  HttpOperation,
  SchemaFile,
  SchemaFormat,
  SecurityRequirement,
  SecurityScheme,
  Service,
} from '../../model/model.js';
import { camelCase, MemberNames, pascalCase, safeIdentifier, safeVariableName, UniqueNames } from '../../model/names.js';
import type { Mutable } from '../../model/type-utils.js';
import { SchemaError } from '../diagnostics.js';
import { type OperationContext, requestBodyOf, responsesOf } from './bodies.js';
import { type At, detectFormat, docOf, isObject } from './document.js';
import { type PathItem, parametersOf } from './parameters.js';
import { leftOut, type SkipScope } from './problems.js';
import { childPointer, type DocumentStore, type SourceDocument } from './refs.js';
import { type FileEntry, SchemaConverter } from './schema-converter.js';
import { securityRequirementsOf, securitySchemesOf } from './security.js';

type Json = Record<string, unknown>;

const METHODS: ReadonlySet<string> = new Set<HttpMethod>(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
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
  /** What the readers of parameters, bodies and responses need. */
  readonly #ctx: OperationContext;
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
    this.#ctx = { c: converter, format: this.#format, data: this.#data };
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
    const { parameters, body } = parametersOf(this.#ctx, path, op, at, scope, item, queryNames);
    const requestBody = body ?? requestBodyOf(this.#ctx, op, at);
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
    const responses = responsesOf(this.#ctx, op, at);
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
}
