/**
 * @module
 * Router options and the state one router owns (never shared with another router).
 */
import type { Context } from 'hono';
import { RegistrationError } from './errors.js';
import { TypedRegistry } from './io/registry.js';
import type { NodeSupport } from './node-support.js';
import type {
  AuthenticationProvider,
  AuthorizationProvider,
  ContextProvider,
  ExceptionHandler,
  InjectionProvider,
  Interceptor,
  ResponseWriter,
  ValidateFunction,
  ValueReader,
} from './types.js';

/** Options of CORS (`enableCors`). */
export interface CorsOptions {
  /** `'*'` literally, a string taken as a regular expression, a `RegExp`, or a list of exact origins. @default '*' */
  readonly origin?: string | RegExp | readonly string[];
  /** @default false */
  readonly allowCredentials?: boolean;
  /** Seconds; omitted when undefined. */
  readonly maxAge?: number;
  /** @default ['Content-Type', 'Authorization'] */
  readonly allowHeaders?: readonly string[];
  /** Empty means every method. */
  readonly methods?: readonly string[];
  readonly exposeHeaders?: readonly string[];
}

/** Something that compiles JSON Schemas (an `Ajv` instance). */
export interface SchemaCompiler {
  compile(schema: object): ValidateFunction;
}

/** Options of `createRestRouter`. */
export interface RestRouterOptions {
  /** Prefix of every route. */
  readonly prefix?: string;
  /** Compiles `schema` options; default: a private `new Ajv({ allErrors: true })` with formats. */
  readonly ajv?: SchemaCompiler;
  /** Creates registered classes. @default `new Cls()` */
  readonly injector?: InjectionProvider;
  readonly authenticate?: AuthenticationProvider;
  readonly authorize?: AuthorizationProvider;
  /** Called for every 500 caused by an unexpected error and for failing events. @default console.error */
  readonly onError?: (error: unknown, c: Context | undefined) => void;
  /**
   * The parts that need Node's modules: `@Blocking` worker pools, Node stream bodies and the upload
   * folder (`nodeRuntime()` from `loom/rest/node`). Without it the router runs on any runtime Hono
   * runs on, and a route that needs one of them is refused at registration.
   */
  readonly node?: NodeSupport;
  /**
   * Headers every answer of the router carries unless the route sets them itself (xp-forge's
   * defaults); `{}` sends none.
   * @default { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' }
   */
  readonly defaultHeaders?: Readonly<Record<string, string>>;
  /**
   * How many violations a 400 lists at most: validation stops reporting there, so a body with a
   * hundred thousand bad items costs no more to answer than one with a hundred.
   * @default 100
   */
  readonly maxViolations?: number;
  /**
   * The largest request body the routes read, in bytes: a larger one is answered 413 before it is
   * read (from `Content-Length`), or as soon as a chunked one passes the limit. `Infinity` reads
   * any size.
   * @default 1048576 (1 MiB)
   */
  readonly maxBodyBytes?: number;
  /**
   * What a route with `@Produces` does when `Accept` fits none of its types: `'refuse'` answers
   * 406 before the method runs (rest.vertx, JAX-RS); `'first'` answers in its first type anyway,
   * as an API that speaks one format whatever is asked does (Gitea's answers JSON).
   * @default 'refuse'
   */
  readonly unacceptable?: 'refuse' | 'first';
  /**
   * The Content-Type of the JSON the built-in writer writes for a route that produces
   * `application/json` or declares no type, error bodies included. Its media type must be
   * `application/json`; only parameters may be added, as Gitea's `application/json;charset=utf-8`.
   * @default 'application/json'
   */
  readonly jsonContentType?: string;
}

/** A not-found handler with an optional path pattern. */
export interface NotFoundEntry {
  readonly pattern?: RegExp;
  readonly handler: (c: Context) => unknown;
}

/** xp-forge's default headers (rest-api 3.4): no MIME sniffing, no caching without revalidation. */
export const DEFAULT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
});

/** The default of {@link RestRouterOptions.maxViolations}. */
export const DEFAULT_MAX_VIOLATIONS = 100;

/** Everything one router owns. */
export interface RouterState {
  readonly options: RestRouterOptions;
  /** {@link RestRouterOptions.jsonContentType}, resolved. */
  readonly jsonType: string;
  /** {@link RestRouterOptions.defaultHeaders}, resolved, names lower-cased. */
  readonly defaultHeaders: readonly (readonly [string, string])[];
  /** {@link RestRouterOptions.maxViolations}, resolved. */
  readonly maxViolations: number;
  /** Interceptors of every route (`intercepting`), outermost first. */
  readonly interceptors: Interceptor[];
  readonly readers: TypedRegistry<ValueReader>;
  readonly writers: TypedRegistry<ResponseWriter>;
  readonly exceptionHandlers: ExceptionHandler[];
  /** Lazy providers: run when a parameter needs the token, at most once per request. */
  readonly providers: Map<unknown, ContextProvider>;
  /** Eager providers: run on every request. */
  readonly pushed: Map<unknown, ContextProvider>;
  readonly notFound: NotFoundEntry[];
  cors?: CorsOptions;
  injector?: InjectionProvider;
  authenticate?: AuthenticationProvider;
  authorize?: AuthorizationProvider;
  ajv?: SchemaCompiler;
  /** Singletons of classes registered by type. */
  readonly instances: Map<Function, object>;
}

/** A router's empty state; options that can also be set later (`injectWith`, …) start from `options`. */
export function createState(options: RestRouterOptions): RouterState {
  const maxViolations = options.maxViolations ?? DEFAULT_MAX_VIOLATIONS;
  if (!Number.isSafeInteger(maxViolations) || maxViolations < 1) {
    throw new RegistrationError(`maxViolations must be a whole number of 1 or more, got ${String(options.maxViolations)}`);
  }
  return {
    options,
    jsonType: options.jsonContentType ?? 'application/json',
    defaultHeaders: Object.entries(options.defaultHeaders ?? DEFAULT_HEADERS).map(([n, v]) => [n.toLowerCase(), v] as const),
    maxViolations,
    interceptors: [],
    readers: new TypedRegistry(),
    writers: new TypedRegistry(),
    exceptionHandlers: [],
    providers: new Map(),
    pushed: new Map(),
    notFound: [],
    injector: options.injector,
    authenticate: options.authenticate,
    authorize: options.authorize,
    ajv: options.ajv,
    instances: new Map(),
  };
}
