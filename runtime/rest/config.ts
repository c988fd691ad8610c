/**
 * @module
 * Router options and the state one router owns (never shared with another router).
 */
import type { Context } from 'hono';
import { TypedRegistry } from './io/registry.js';
import type {
  AuthenticationProvider,
  AuthorizationProvider,
  ContextProvider,
  ExceptionHandler,
  InjectionProvider,
  ResponseWriter,
  ValidateFunction,
  ValueReader,
} from './types.js';
import type { WorkerPool } from './worker/pool.js';

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

/** A worker pool for `@Blocking` methods. */
export interface WorkerPoolOptions {
  /** @default 2 */
  readonly size?: number;
  /** Milliseconds before the answer is 503 and the worker is replaced. @default 30000 */
  readonly maxExecutionTime?: number;
  /** Shown as the worker threads' name. @default 'loom-rest' */
  readonly name?: string;
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
  /** Pools for `@Blocking` methods, by name (`default` unless the decorator names one). */
  readonly workerPools?: Readonly<Record<string, WorkerPoolOptions>>;
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

/** Everything one router owns. */
export interface RouterState {
  readonly options: RestRouterOptions;
  /** {@link RestRouterOptions.jsonContentType}, resolved. */
  readonly jsonType: string;
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
  /** Worker pools of `@Blocking` methods, created on first use. */
  readonly pools: Map<string, WorkerPool>;
}

/** A router's empty state; options that can also be set later (`injectWith`, …) start from `options`. */
export function createState(options: RestRouterOptions): RouterState {
  return {
    options,
    jsonType: options.jsonContentType ?? 'application/json',
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
    pools: new Map(),
  };
}
