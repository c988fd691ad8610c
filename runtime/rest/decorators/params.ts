/**
 * @module
 * Parameter decorators. Each works on a method parameter, on a bean field and on a bean constructor
 * parameter: `@PathParam`, `@QueryParam`, `@HeaderParam`, `@CookieParam`, `@FormParam`, `@MatrixParam`,
 * `@BodyParam`, `@BeanParam`, `@Context`, plus the modifiers `@DefaultValue`, `@Raw` and `@Convert`.
 */

import type { Env, Context as HonoContext, Input } from 'hono';
import type { ParamSource } from '../metadata/raw.js';
import { rawCommon, rawParam } from '../metadata/store.js';
import type { Class, ContextProvider, Conversion, ParamOptions } from '../types.js';

/**
 * Hono's `Context`, under the same name as the `@Context()` decorator so one import serves both:
 * `@Context() ctx: Context`.
 */
// biome-ignore lint/suspicious/noExplicitAny: Hono's own defaults for its `Context`.
export type Context<E extends Env = any, P extends string = any, I extends Input = {}> = HonoContext<E, P, I>;

/** A decorator for a parameter, a bean field or a bean constructor parameter. */
export type ParamDecorator = (target: object, key: string | symbol | undefined, index?: number) => void;

function source(src: ParamSource, options?: ParamOptions): ParamDecorator {
  return (target, key, index) => {
    const param = rawParam(target, key, index);
    if (param.source !== undefined) {
      // Two sources on one parameter is a user error; remember it so registration can name it.
      param.source = { kind: 'context', token: DUPLICATE_SOURCE };
      return;
    }
    param.source = src;
    if (options) param.options = { ...param.options, ...options };
  };
}

/** Marker for "two source decorators on one parameter", reported at registration. */
export const DUPLICATE_SOURCE: unique symbol = Symbol('duplicate parameter source');

/**
 * A path variable (`{name}` or `:name`). Matrix parameters (`;k=v`) are stripped from it.
 *
 * @example
 * ```ts
 * @GET @Path('/issues/{index}')
 * get(@PathParam('index', { type: 'int64' }) index: number) { … }
 * ```
 */
export function PathParam(name: string, options?: ParamOptions): ParamDecorator {
  return source({ kind: 'path', name }, options);
}

/**
 * A query parameter, URL-decoded (`+` is a space) unless `@Raw()` is present.
 *
 * @example
 * ```ts
 * list(@QueryParam('limit', { type: 'integer', minimum: 1, maximum: 100 }) @DefaultValue('20') limit: number) { … }
 * ```
 */
export function QueryParam(name: string, options?: ParamOptions): ParamDecorator {
  return source({ kind: 'query', name }, options);
}

/**
 * A request header (case-insensitive).
 *
 * @example
 * ```ts
 * get(@HeaderParam('If-None-Match') etag?: string) { … }
 * ```
 */
export function HeaderParam(name: string, options?: ParamOptions): ParamDecorator {
  return source({ kind: 'header', name }, options);
}

/** A cookie. */
export function CookieParam(name: string, options?: ParamOptions): ParamDecorator {
  return source({ kind: 'cookie', name }, options);
}

/** A form field, url-encoded or multipart; an uploaded file arrives as a `File` (use `{ type: 'file' }`). */
export function FormParam(name: string, options?: ParamOptions): ParamDecorator {
  return source({ kind: 'form', name }, options);
}

/**
 * A matrix parameter: `;name=value` in any path segment.
 *
 * @example
 * ```ts
 * @GET @Path('/cars/{year}') // GET /cars;color=red/2024
 * cars(@PathParam('year', { type: 'integer' }) year: number, @MatrixParam('color') color?: string) { … }
 * ```
 */
export function MatrixParam(name: string, options?: ParamOptions): ParamDecorator {
  return source({ kind: 'matrix', name }, options);
}

/**
 * The request body, read by the reader chosen for it (JSON by default) and validated with `validate`
 * or `schema` when given. `type: 'string'` passes the raw text.
 *
 * @example
 * ```ts
 * @POST @Path('/issues')
 * create(@BodyParam({ validate: validateCreateIssueOption, required: true }) body: CreateIssueOption) { … }
 * ```
 */
export function BodyParam(options?: ParamOptions): ParamDecorator {
  return source({ kind: 'body' }, options);
}

/**
 * An object built from a class whose fields (or constructor parameters) carry parameter decorators.
 *
 * @example
 * ```ts
 * class Paging { @QueryParam('page', { type: 'integer' }) @DefaultValue(1) page!: number; }
 * list(@BeanParam(Paging) paging: Paging) { … }
 * ```
 */
export function BeanParam(bean: Class): ParamDecorator {
  return source({ kind: 'bean', bean });
}

/**
 * A value from the request context. Without a token: Hono's `Context`. Tokens: `'request'` (the
 * standard `Request`), `'headers'` (response headers to add), `'user'`, `'route'`, `'env'`, or any
 * token with a registered or pushed provider; a string token also falls back to `c.get(token)`.
 * When nothing can provide it the answer is 400 (unless `@DefaultValue` is given).
 * On a class field it makes the class per-request: a new instance gets the value on every request.
 */
export function Context(token?: unknown): ParamDecorator {
  return source({ kind: 'context', token: token ?? HONO_CONTEXT });
}

/** The token of Hono's `Context` (what `@Context()` injects). */
export const HONO_CONTEXT: unique symbol = Symbol('hono context');

/**
 * The value used when the parameter is absent. Strings are converted like request values;
 * other values are used as they are.
 */
export function DefaultValue(value: unknown): ParamDecorator {
  return (target, key, index) => {
    const param = rawParam(target, key, index);
    param.defaultValue = value;
    param.hasDefault = true;
  };
}

/** Keeps a query (or path) value undecoded. */
export function Raw(): ParamDecorator {
  return (target, key, index) => {
    rawParam(target, key, index).raw = true;
  };
}

/**
 * User-defined conversions, applied in order after the value is read and before the type conversion.
 * A conversion that throws gives 400 with its message.
 */
export function Convert(...conversions: Conversion[]): ParamDecorator {
  return (target, key, index) => {
    const param = rawParam(target, key, index);
    // Decorators on one parameter run bottom-up; prepend so declaration order is application order.
    param.conversions = [...conversions, ...(param.conversions ?? [])];
  };
}

/** Options of a class- or method-level `@ContextReader`. */
export interface ContextReaderOptions {
  /** The `@Context(type)` token the provider provides: it applies to those parameters only. */
  readonly type: unknown;
}

/**
 * Overrides the context provider of a `@Context` parameter (rest.vertx's `@ContextReader`). On a
 * method or class it provides the `@Context` parameters of the type named in its options (several
 * may be given, one per type); the built-in tokens (the Hono context, the request, the user) stay
 * what they are. One on the parameter itself needs no type.
 *
 * @example
 * ```ts
 * @GET @Path('/report') @ContextReader((c) => tenantOf(c), { type: Tenant })
 * report(@Context(Tenant) tenant: Tenant, @Context(Clock) clock: Clock) { … } // the reader gives only the Tenant
 * ```
 */
export function ContextReader(
  provider: ContextProvider,
  options?: ContextReaderOptions,
): ParamDecorator & MethodDecorator & ClassDecorator {
  return ((target: object, key: string | symbol | undefined, index?: number | PropertyDescriptor) => {
    if (typeof index === 'number' || (key !== undefined && index === undefined)) {
      rawParam(target, key, index as number | undefined).contextReader = provider;
      return;
    }
    // Class or method: keyed by type, so each provides only its own parameters.
    const record = rawCommon(target, key);
    record.contextReaders = [...(record.contextReaders ?? []), { type: options?.type, provider }];
  }) as ParamDecorator & MethodDecorator & ClassDecorator;
}
