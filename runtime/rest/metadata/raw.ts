/**
 * @module
 * Raw decorator input, exactly as the decorators saw it, before inheritance is resolved.
 */
import type {
  AuthenticationProvider,
  AuthorizationProvider,
  Class,
  ContextProvider,
  Conversion,
  ErrorClass,
  ExceptionHandler,
  HttpVerb,
  Interceptor,
  ParamOptions,
  ResponseWriter,
  RestEvent,
  SecurityRequirements,
  TypeKey,
  ValidateFunction,
  ValueReader,
} from '../types.js';

/** Where a parameter's value comes from. */
export type ParamSource =
  | { readonly kind: 'path'; readonly name: string }
  | { readonly kind: 'query'; readonly name: string }
  | { readonly kind: 'header'; readonly name: string }
  | { readonly kind: 'cookie'; readonly name: string }
  | { readonly kind: 'form'; readonly name: string }
  | { readonly kind: 'matrix'; readonly name: string }
  | { readonly kind: 'body' }
  | { readonly kind: 'bean'; readonly bean: Class }
  | { readonly kind: 'context'; readonly token: unknown };

/** One parameter (or bean field) as decorated. Several decorators fill one record. */
export interface RawParam {
  source?: ParamSource;
  options?: ParamOptions;
  defaultValue?: unknown;
  hasDefault?: boolean;
  raw?: boolean;
  conversions?: Conversion[];
  contextReader?: ContextProvider;
}

/** Role rules (`@RolesAllowed`, `@PermitAll`, `@DenyAll`). */
export type RoleRule =
  | { readonly kind: 'roles'; readonly roles: readonly string[] }
  | { readonly kind: 'permitAll' }
  | { readonly kind: 'denyAll' };

/** One `@Events` entry. */
export interface EventBinding {
  readonly event: RestEvent;
  /** A status to fire on; `-1` (default) any 2xx; `-2` every status. */
  readonly response?: number;
  /** Fire when this error was thrown. */
  readonly exception?: ErrorClass;
}

/** Options of `@Blocking`. */
export interface BlockingOptions {
  /** The module whose export runs in the worker (a `URL` or a path/`file:` URL string). */
  readonly module: URL | string;
  /** The exported function; receives the method's arguments (structured-cloned) and returns the result. */
  readonly export: string;
  /** The pool to run in (see `nodeRuntime({ workerPools })`). @default 'default' */
  readonly pool?: string;
}

/** A class- or method-level `@ContextReader`: the provider of `@Context(type)` parameters. */
export interface ContextReaderBinding {
  /** The `@Context` token it provides; `undefined` is refused at registration. */
  readonly type: unknown;
  readonly provider: ContextProvider;
}

/** What class- and method-level decorators share. */
export interface RawCommon {
  path?: string;
  consumes?: string[];
  produces?: string[];
  headers?: string[];
  catchWith?: ExceptionHandler[];
  authenticate?: AuthenticationProvider | null;
  authorize?: AuthorizationProvider | null;
  roles?: RoleRule;
  security?: SecurityRequirements;
  reader?: ValueReader;
  writer?: ResponseWriter;
  contextReaders?: ContextReaderBinding[];
  interceptors?: Interceptor[];
  annotations?: Map<unknown, unknown>;
  suppressCheck?: boolean;
}

/** A method's raw decorations. */
export interface RawMethod extends RawCommon {
  verb?: HttpVerb;
  /** How many different verb decorators the method carries (more than one is a registration error). */
  verbCount?: number;
  status?: number;
  order?: number;
  events?: EventBinding[];
  validateResult?: ValidateFunction | object;
  validateResultStatus?: number;
  blocking?: BlockingOptions;
  returns?: TypeKey;
  params: RawParam[];
}

/** A class's raw decorations. */
export interface RawClass extends RawCommon {
  noCache?: boolean;
  methods: Map<string, RawMethod>;
  /** Field decorations (bean fields, `@Context` fields). */
  fields: Map<string, RawParam>;
  /** Constructor parameter decorations (bean constructors). */
  ctorParams: RawParam[];
}
