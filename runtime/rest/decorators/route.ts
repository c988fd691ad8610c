/**
 * @module
 * Route decorators: `@Path`, the verbs (`@GET` … usable bare), the shorthands (`@Get('/x', { produces })`),
 * `@Consumes`, `@Produces`, `@Status`, `@Header` and `@RouteOrder`.
 */
import { rawCommon, rawMethod } from '../metadata/store.js';
import type { HttpVerb, TypeKey } from '../types.js';

/** A decorator usable on a class or a method. */
export type ClassOrMethodDecorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void;

/**
 * The base path of a class, or the path of a method below it. Variables: `{name}`, `:name`,
 * `{name:regex}`, `:name:regex`.
 *
 * @example
 * ```ts
 * @Path('/users')
 * class Users {
 *   @GET @Path('/{id:[0-9]+}')
 *   get(@PathParam('id', { type: 'integer' }) id: number) { return { id }; }
 * }
 * ```
 */
export function Path(path: string): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).path = path;
  };
}

function verb(name: HttpVerb): MethodDecorator {
  return (target, key) => {
    const method = rawMethod(target, key);
    if (method.verb !== undefined && method.verb !== name) {
      method.verbCount = (method.verbCount ?? 1) + 1;
    }
    method.verb = name;
  };
}

/** `@GET`: the method answers GET. */
export const GET: MethodDecorator = verb('GET');
/** `@POST`: the method answers POST. */
export const POST: MethodDecorator = verb('POST');
/** `@PUT`: the method answers PUT. */
export const PUT: MethodDecorator = verb('PUT');
/** `@PATCH`: the method answers PATCH. */
export const PATCH: MethodDecorator = verb('PATCH');
/** `@DELETE`: the method answers DELETE. */
export const DELETE: MethodDecorator = verb('DELETE');
/** `@HEAD`: the method answers HEAD. */
export const HEAD: MethodDecorator = verb('HEAD');
/** `@OPTIONS`: the method answers OPTIONS. */
export const OPTIONS: MethodDecorator = verb('OPTIONS');
/** `@TRACE`: the method answers TRACE. */
export const TRACE: MethodDecorator = verb('TRACE');

/** Options of the verb shorthands. */
export interface VerbShorthandOptions {
  readonly consumes?: string | readonly string[];
  readonly produces?: string | readonly string[];
}

function shorthand(name: HttpVerb) {
  return (path?: string, options: VerbShorthandOptions = {}): MethodDecorator =>
    (target, key, descriptor) => {
      verb(name)(target, key, descriptor);
      const method = rawMethod(target, key);
      if (path !== undefined) method.path = path;
      if (options.consumes !== undefined) method.consumes = list(options.consumes);
      if (options.produces !== undefined) method.produces = list(options.produces);
    };
}

function list(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? [value] : [...value];
}

/**
 * Verb plus path, consumed and produced types in one decorator.
 *
 * @example
 * ```ts
 * @Get('/items/{id}', { produces: 'application/json' })
 * item(@PathParam('id') id: string) { return { id }; }
 * ```
 */
export const Get = shorthand('GET');
/** `@Post(path?, { consumes?, produces? })`. */
export const Post = shorthand('POST');
/** `@Put(path?, { consumes?, produces? })`. */
export const Put = shorthand('PUT');
/** `@Patch(path?, { consumes?, produces? })`. */
export const Patch = shorthand('PATCH');
/** `@Delete(path?, { consumes?, produces? })`. */
export const Delete = shorthand('DELETE');
/** `@Head(path?, { consumes?, produces? })`. */
export const Head = shorthand('HEAD');
/** `@Options(path?, { consumes?, produces? })`. */
export const Options = shorthand('OPTIONS');
/** `@Trace(path?, { consumes?, produces? })`. */
export const Trace = shorthand('TRACE');

/**
 * Mime types the method (or every method of the class) reads; other Content-Types get 415.
 *
 * @example
 * ```ts
 * @POST @Path('/import') @Consumes('text/csv', 'application/json')
 * import(@BodyParam() rows: unknown) { … }
 * ```
 */
export function Consumes(...mimes: string[]): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).consumes = mimes;
  };
}

/**
 * Mime types the method (or class) writes, in preference order; negotiated against `Accept` (406 when none fits).
 *
 * @example
 * ```ts
 * @GET @Path('/report') @Produces('application/json', 'text/csv')
 * report() { return rows; } // Accept: text/csv → the writer registered for text/csv
 * ```
 */
export function Produces(...mimes: string[]): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).produces = mimes;
  };
}

/**
 * The status sent when the method returns a plain value (not a `Response`). @default 200
 *
 * @example
 * ```ts
 * @POST @Path('/users') @Status(201)
 * create(@BodyParam() user: NewUser): User { return users.add(user); }
 * ```
 */
export function Status(code: number): MethodDecorator {
  return (target, key) => {
    rawMethod(target, key).status = code;
  };
}

/**
 * Static response headers, written `'Name: value'`. `Accept: …` counts as `@Consumes`,
 * `Content-Type: …` as `@Produces` (as in rest.vertx).
 *
 * @example
 * ```ts
 * @GET @Path('/ping') @Header('Cache-Control: max-age=60', 'X-Api: 1')
 * ping() { return 'pong'; }
 * ```
 */
export function Header(...headers: string[]): ClassOrMethodDecorator {
  return (target, key) => {
    const record = rawCommon(target, key);
    record.headers = [...(record.headers ?? []), ...headers];
  };
}

/**
 * Order among routes on the same path: lower runs first, default 0, negative allowed.
 * A route that returns `Response.next()` lets the next one run.
 *
 * @example
 * ```ts
 * @GET @Path('/page') @RouteOrder(-1)
 * cached(@Context() c: Context) { return cache.get(c.req.url) ?? Response.next(); }
 * ```
 */
export function RouteOrder(order: number): MethodDecorator {
  return (target, key) => {
    rawMethod(target, key).order = order;
  };
}

/** Declares the result type, used to check a `@ResponseWriter`'s `type` at registration. */
export function Returns(type: TypeKey): MethodDecorator {
  return (target, key) => {
    rawMethod(target, key).returns = type;
  };
}
