/**
 * @module
 * The extension contracts of the decorator runtime: readers, writers, exception handlers, context
 * providers, authentication and authorization, events, injection, conversions and parameter options.
 */
import type { Context } from 'hono';
import type { FormFields } from './form-coercion.js';
import type { RestResponse } from './response.js';

/**
 * Any class, abstract or not. Its constructor parameters are unknowable here: `never[]` admits every
 * parameter list (and, unlike `any[]`, lets nothing be passed through this type unchecked).
 */
export type Class<T = unknown> = abstract new (...args: never[]) => T;

/**
 * A class used as a key (a reader's or writer's type, a method's result type): any constructor,
 * private ones included (a value class built through `fromString` often hides its constructor).
 */
export type TypeKey<T = unknown> = Function & { readonly prototype: T };

/** ajv's compiled validator shape (what the generator emits and `ajv.compile` returns). */
export type ValidateFunction = ((data: unknown) => boolean) & { errors?: readonly ValidationErrorObject[] | null };

/** The parts of ajv's `ErrorObject` the runtime reads. */
export interface ValidationErrorObject {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params?: Record<string, unknown>;
}

/**
 * Built-in conversions of strings. `file` keeps an uploaded `File` (in memory); `upload` a file the
 * router's upload folder wrote to disk (an {@link UploadedFile}, needs `loom/rest/node`); `json`
 * parses JSON text.
 */
export type ParamType = 'string' | 'number' | 'integer' | 'int64' | 'boolean' | 'date' | 'date-time' | 'file' | 'upload' | 'json';

/**
 * A file of a multipart request that the router's upload folder wrote to disk (`{ type: 'upload' }`).
 * The file is removed once the answer is produced unless the folder keeps files: move or copy it
 * in the handler to keep it.
 */
export interface UploadedFile {
  /** The form field it was sent as. */
  readonly field: string;
  /** The name the client gave it (never used for the path on disk). */
  readonly filename: string;
  /** Its Content-Type as sent (`application/octet-stream` when none). */
  readonly type: string;
  /** Bytes written. */
  readonly size: number;
  /** Where it is on disk, below the upload folder. */
  readonly path: string;
}

/** Turns a string into a value; throw to reject it (the message becomes the 400 violation). */
export interface Converter<T = unknown> {
  convert(value: string): T;
}

/** A generated enum object (`{ Open: 'open', Closed: 'closed' }`): accepts its values, and its keys. */
export type EnumValues = Readonly<Record<string, string | number>>;

/**
 * What a parameter is converted to: a built-in type name, `Number`/`String`/`Boolean`/`Date`,
 * a class with a static `fromString`/`valueOf` or a string constructor, a converter or an enum object.
 */
export type TypeRef = ParamType | Converter | EnumValues | TypeKey | StringFactory;

/** A class with a static `fromString` (its constructor may be private). */
export interface StringFactory {
  fromString(value: string): unknown;
}

/** Options every parameter decorator takes. */
export interface ParamOptions {
  readonly type?: TypeRef;
  /** Missing values give 400. Path parameters are always required. @default false */
  readonly required?: boolean;
  /** Collect repeated values (`?a=1&a=2`), or split one value on a separator. */
  readonly array?: boolean | { readonly separator: string };
  readonly enum?: readonly (string | number)[];
  /** `date`, `date-time`, `email`, `uuid`, `uri`: checked after conversion. */
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** An ajv validator run on the converted value. */
  readonly validate?: ValidateFunction;
  /** A JSON Schema compiled with the router's ajv at registration. */
  readonly schema?: object;
  /** A reader for this parameter (takes precedence over every other reader). */
  readonly reader?: ValueReader;
  /** An object-valued query parameter (see {@link ObjectQuery}); `validate` then checks the object. */
  readonly object?: ObjectQuery;
  /**
   * For a body, form or stream parameter: the largest request body this route reads, in bytes,
   * instead of the router's `maxBodyBytes` (an upload route may take more than the rest).
   */
  readonly maxBytes?: number;
}

/**
 * An object sent in the query, as OpenAPI's `style` and `explode` describe it:
 * - `deepObject`: `filter[name]=rex&filter[age]=3`;
 * - `form`, exploded (OpenAPI's default for query objects): each field its own query parameter,
 *   `name=rex&age=3` (only the listed fields are read);
 * - `form`, not exploded: `filter=name,rex,age,3`.
 *
 * Field values are converted by their types (those of `formBody`) before `validate` runs.
 *
 * @example
 * ```ts
 * list(@QueryParam('filter', { object: { style: 'deepObject', fields: { name: 'string', age: 'integer' } } }) filter: PetFilter) { … }
 * ```
 */
export interface ObjectQuery {
  readonly style: 'deepObject' | 'form';
  /** @default true */
  readonly explode?: boolean;
  readonly fields: FormFields;
}

/**
 * A user-defined conversion applied after the value is read and before the type conversion
 * (xp-forge's `Conversion`). Throw to reject the value with 400.
 */
export interface Conversion {
  convert(input: unknown): unknown;
}

/** Reads a request string (a parameter value or the body text) into a value. */
export interface ValueReader<T = unknown> {
  read(value: string, c: Context): T | Promise<T>;
  /**
   * For binary formats (protobuf, images): when present, a body this reader reads is taken as
   * bytes, empty ones included, and handed here instead of to `read`.
   */
  readBytes?(bytes: Uint8Array, c: Context): T | Promise<T>;
  /** Mime types this reader serves when registered by mime (body only). */
  readonly consumes?: readonly string[];
  /** The type it produces, checked against the parameter's `type` at registration. */
  readonly type?: TypeRef;
}

/** What a writer may return: a body, or a full `Response` when it wants total control. */
export type WriterOutput = string | Uint8Array | ReadableStream<Uint8Array> | null | globalThis.Response;

/** Writes a handler's result. */
export interface ResponseWriter<T = unknown> {
  write(value: T, c: Context): WriterOutput | Promise<WriterOutput>;
  /** Content-Type this writer sends; also registers it for that mime when none is registered. */
  readonly produces?: string;
  /** Static headers added to every response it writes. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The result type it accepts, checked against the method's `@Returns` at registration. */
  readonly type?: TypeKey;
}

/** An error class, matched with `instanceof`. */
export type ErrorClass = Class<Error> | Class;

/** Writes an error. Return a `RestResponse`, a `Response`, or a value sent as JSON with the error's status. */
export interface ExceptionHandler<E = unknown> {
  readonly catches: ErrorClass | readonly ErrorClass[];
  handle(error: E, c: Context): RestResponse | globalThis.Response | unknown | Promise<unknown>;
}

/** Supplies a `@Context` value; `undefined` means it cannot (400 unless a default is given). */
export type ContextProvider<T = unknown> =
  | ((c: Context) => T | undefined | Promise<T | undefined>)
  | { provide(c: Context): T | undefined | Promise<T | undefined> };

/** The authenticated principal. */
export interface RestUser {
  readonly name?: string;
  readonly roles?: readonly string[];
  /** Permissions keyed by authorization-provider id. */
  readonly authorizations?: Readonly<Record<string, readonly string[]>>;
  /** Overrides the role check of `@RolesAllowed` when present. */
  hasRole?(role: string): boolean;
}

/**
 * Identifies the user. Credentials that `authenticate` rejects (`null`/`undefined`) are 401. A request
 * without credentials (`provideCredentials` gives `null`/`undefined`) has no user: it is 401 unless
 * the provider is `optional` or the route lets it through (`@PermitAll`) or decides by role
 * (`@RolesAllowed`, `@DenyAll`: 403).
 */
export interface AuthenticationProvider<C = unknown> {
  /** `route` says what the route requires (`route.security`), for providers that accept several schemes. */
  provideCredentials(c: Context, route?: RouteInfo): C | null | undefined | Promise<C | null | undefined>;
  authenticate(credentials: C, c: Context): RestUser | null | undefined | Promise<RestUser | null | undefined>;
  /**
   * Anonymous callers may reach routes that need no user (no roles, no authorization provider);
   * `@Context('user')` is then absent. Rejected credentials are still 401.
   * @default false
   */
  readonly optional?: boolean;
}

/** Decides whether a user may call a route: `false` gives 403. */
export interface AuthorizationProvider {
  readonly id?: string;
  authorize(user: RestUser, c: Context, route: RouteInfo): boolean | Promise<boolean>;
}

/** Runs after the response is produced (`@Events`). */
export type RestEvent<T = unknown> =
  | ((value: T, c: Context) => void | Promise<void>)
  | { execute(value: T, c: Context): void | Promise<void> };

/** Creates instances of registered classes (RESTs, readers, writers, handlers, providers). */
export interface InjectionProvider {
  getInstance<T>(cls: Class<T>): T;
}

/** The method an {@link Interceptor} runs around. */
export interface InvocationTarget {
  /** The method's name (xp-forge's `target()->name()`). */
  readonly name: string;
  readonly className: string;
  /** Verb, path, types and status of the route. */
  readonly route: RouteInfo;
  /** `@Annotate(key, value)` of the class, then of the method (the method's win). */
  readonly annotations: ReadonlyMap<unknown, unknown>;
  /** The object whose method runs. */
  readonly instance: object;
}

/** One call of a route as interceptors see it (xp-forge's `Invocation`). */
export interface Invocation {
  readonly target: InvocationTarget;
  readonly context: Context;
  /** Runs the next interceptor, or the method itself, with these arguments; resolves to its result. */
  proceed(args: readonly unknown[]): Promise<unknown>;
}

/**
 * Runs around a route's method, after its parameters were read and validated: call
 * `invocation.proceed(args)` to go on (with the same or other arguments), or return a value (or a
 * `RestResponse`) without calling it to answer instead. What it returns is written as the result.
 */
export type Interceptor =
  | ((invocation: Invocation, args: unknown[]) => unknown)
  | { intercept(invocation: Invocation, args: unknown[]): unknown };

/** What a running route knows about itself (`@Context('route')`). */
export interface RouteInfo {
  readonly className: string;
  readonly methodName: string;
  readonly verb: HttpVerb;
  /** The path as declared (`/users/{id}`), class and router prefixes included. */
  readonly path: string;
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  readonly status: number;
  readonly order: number;
  /** What the route requires, as its description says (`@Security`): any one requirement, each scheme by name with its scopes. */
  readonly security?: SecurityRequirements;
}

/**
 * Security requirements as an OpenAPI description writes them: alternatives, each naming the schemes
 * it needs together (`[{ BasicAuth: [] }, { Token: [] }]`); `{}` allows anonymous calls.
 */
export type SecurityRequirements = readonly Readonly<Record<string, readonly string[]>>[];

/** The methods a route can answer. */
export type HttpVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'TRACE';
