/**
 * @module
 * The route plan: everything about a route but its parameters, decided and checked at
 * registration — verb, path, status, order, media types, writer, security, exception handlers,
 * events, result validation and how the method is called. Mistakes fail here, naming the class
 * and method, never on the first request.
 */
import type { Context } from 'hono';
import type { RouterState } from '../config.js';
import { errorMessage, RegistrationError } from '../errors.js';
import { createNegotiator } from '../io/negotiate.js';
import type { ResolvedClass, ResolvedMethod } from '../metadata/builder.js';
import type { EventBinding } from '../metadata/raw.js';
import { needsNode } from '../node-support.js';
import type { ContextProvider, ExceptionHandler, HttpVerb, RouteInfo, ValidateFunction, ValueReader } from '../types.js';
import { createDefaultAjv } from '../validation.js';
import type { Exchange } from './exchange.js';
import { headerRules } from './header-rules.js';
import type { Invoke } from './invoke.js';
import { compileInvoker } from './invoke.js';
import type { PathTemplate } from './path.js';
import { joinPaths, toHonoPath } from './path.js';
import { compileSecurity } from './security.js';
import type { WritePlan } from './write.js';
import { compileWritePlan } from './write.js';

/** A route as decided at registration, parameters apart. */
export interface RoutePlan {
  /** `Class.method`, for registration errors. */
  readonly where: string;
  readonly info: RouteInfo;
  readonly verb: HttpVerb;
  readonly template: PathTemplate;
  readonly consumes: readonly string[];
  /** How results are written. */
  readonly write: WritePlan;
  /**
   * How an exception handler's answer is written: not with the method's writer or type (an image
   * or CSV route cannot carry `{status,message}`), but as a route without `@Produces` would.
   */
  readonly writeError: WritePlan;
  /** Authentication, roles and authorization; `undefined` when the route has none. */
  readonly security: ((x: Exchange) => Promise<void>) | undefined;
  /** With `@Produces` and no writer of its own, an `Accept` that fits none of them is refused before the method runs. */
  readonly checkAccept: boolean;
  /** `@CatchWith` of the method, then of the class (rest.vertx joins them in this order). */
  readonly catchWith: readonly ExceptionHandler[];
  /** False when the method opted out of the class's and router's handlers with an empty `@CatchWith()`. */
  readonly useRouterHandlers: boolean;
  readonly events: readonly EventBinding[];
  readonly onEventError: (error: unknown, c: Context) => void;
  readonly validateResult: ValidateFunction | undefined;
  /** The status of a result that fails `@ValidateResult` (500: the server's fault, unless said otherwise). */
  readonly resultStatus: number;
  readonly invoke: Invoke;
  /** The body reader of the method or class (`@RequestReader`). */
  readonly reader: ValueReader | undefined;
  /** `@ContextReader`s of the method, then the class, by the type they provide. */
  readonly contextReaders: ReadonlyMap<unknown, ContextProvider>;
  readonly suppressCheck: boolean;
}

/** Compiles the plan of one route method. */
export function compileRoutePlan(cls: ResolvedClass, method: ResolvedMethod, state: RouterState): RoutePlan {
  const where = `${cls.name}.${method.name}`;
  const verb = method.verb!;
  if ((method.verbCount ?? 1) > 1) throw new RegistrationError(`${where}: more than one HTTP verb decorator`);
  if (cls.path === undefined && method.path === undefined) {
    throw new RegistrationError(
      `${where}: @${verb} has no path (put @Path on the class or the method, or use @${verb[0]}${verb.slice(1).toLowerCase()}('/path'))`,
    );
  }
  const template = compilePath(where, state.options.prefix, cls.path, method.path);
  const status = method.status ?? 200;
  if (!Number.isInteger(status) || status < 100 || status > 599)
    throw new RegistrationError(`${where}: @Status(${status}) is not an HTTP status`);
  if (method.order !== undefined && !Number.isSafeInteger(method.order))
    throw new RegistrationError(`${where}: @RouteOrder(${method.order}) is not an integer`);

  const cRules = headerRules(cls.headers, cls.name);
  const mRules = headerRules(method.headers, where);
  const consumes =
    method.consumes ?? (mRules.accept.length ? mRules.accept : undefined) ?? cls.consumes ?? (cRules.accept.length ? cRules.accept : []);
  const produces =
    method.produces ??
    (mRules.contentType ? [mRules.contentType] : undefined) ??
    cls.produces ??
    (cRules.contentType ? [cRules.contentType] : []);
  const writer = method.writer ?? cls.writer;
  const suppressCheck = method.suppressCheck === true || cls.suppressCheck === true;
  if (writer?.type && method.returns && !suppressCheck) {
    const fits = writer.type === method.returns || method.returns.prototype instanceof writer.type;
    if (!fits)
      throw new RegistrationError(
        `${where}: @ResponseWriter writes ${writer.type.name} but the method returns ${method.returns.name} ` +
          '(add @SuppressCheck() to skip this check)',
      );
  }

  const info: RouteInfo = {
    className: cls.name,
    methodName: method.name,
    verb,
    path: template.declared,
    consumes,
    produces,
    status,
    order: method.order ?? 0,
    ...((method.security ?? cls.security) ? { security: method.security ?? cls.security } : {}),
  };
  // Without @Produces, JSON comes first so that `Accept: */*` keeps it; a registered mime writer
  // answers when Accept names its type.
  const anyType = createNegotiator(['application/json', ...state.writers.mimeList, 'text/plain']);
  const write = compileWritePlan(state, {
    status,
    staticHeaders: [...cRules.statics, ...mRules.statics],
    ...(writer ? { writer } : {}),
    produces,
    negotiate: produces.length ? createNegotiator(produces) : anyType,
  });
  const writeError = compileWritePlan(state, { status, staticHeaders: [], produces: [], negotiate: anyType });

  // An empty @CatchWith() on the method opts out of the class's and the router's handlers.
  const optOut = method.catchWith !== undefined && method.catchWith.length === 0;
  const blocking = method.blocking;
  let runner: ((args: readonly unknown[]) => Promise<unknown>) | undefined;
  if (blocking) {
    const node = state.options.node;
    if (!node) throw needsNode(where, '@Blocking');
    try {
      runner = node.blocking(blocking, where);
    } catch (e) {
      throw e instanceof RegistrationError ? e : new RegistrationError(errorMessage(e));
    }
  }
  const annotations = new Map([...(cls.annotations ?? []), ...(method.annotations ?? [])]);
  return {
    where,
    info,
    verb,
    template,
    consumes,
    write,
    writeError,
    security: compileSecurity(method, cls, state, info),
    checkAccept: produces.length > 0 && !writer,
    catchWith: optOut ? [] : [...(method.catchWith ?? []), ...(cls.catchWith ?? [])],
    useRouterHandlers: !optOut,
    events: method.events ?? [],
    onEventError: state.options.onError ?? ((e: unknown) => console.error('[loom/rest] event failed:', e)),
    validateResult: compileResultValidator(method, state, where),
    resultStatus: method.validateResultStatus ?? 500,
    invoke: compileInvoker({
      methodName: method.name,
      info,
      ...(runner ? { runner } : {}),
      interceptors: [...state.interceptors, ...(cls.interceptors ?? []), ...(method.interceptors ?? [])],
      annotations,
    }),
    reader: method.reader ?? cls.reader,
    contextReaders: contextReaders(method, cls, where),
    suppressCheck,
  };
}

/** The route's path: router prefix, class path, method path; a method path's trailing slash is kept. */
function compilePath(
  where: string,
  prefix: string | undefined,
  classPath: string | undefined,
  methodPath: string | undefined,
): PathTemplate {
  try {
    // A method path's trailing slash is part of it: a schema's `/items/` is not `/items`.
    const joined = joinPaths(prefix, classPath, methodPath);
    return toHonoPath(
      methodPath !== undefined && methodPath.length > 1 && methodPath.endsWith('/') && joined !== '/' ? `${joined}/` : joined,
    );
  } catch (e) {
    throw new RegistrationError(`${where}: ${errorMessage(e)}`);
  }
}

/** The method's `@ContextReader`s, then the class's, by type; each must name the type it provides. */
function contextReaders(method: ResolvedMethod, cls: ResolvedClass, where: string): ReadonlyMap<unknown, ContextProvider> {
  const byType = new Map<unknown, ContextProvider>();
  for (const binding of [...(method.contextReaders ?? []), ...(cls.contextReaders ?? [])]) {
    if (binding.type === undefined) {
      throw new RegistrationError(
        `${where}: a @ContextReader on a method or class needs the type it provides ({ type: Tenant }), ` +
          'so that it reaches only @Context(Tenant) parameters',
      );
    }
    if (!byType.has(binding.type)) byType.set(binding.type, binding.provider);
  }
  return byType;
}

function compileResultValidator(method: ResolvedMethod, state: RouterState, where: string): ValidateFunction | undefined {
  const v = method.validateResult;
  if (v === undefined) return undefined;
  if (typeof v === 'function') return v as ValidateFunction;
  try {
    return (state.ajv ??= createDefaultAjv()).compile(v);
  } catch (e) {
    throw new RegistrationError(`${where}: invalid result JSON Schema: ${errorMessage(e)}`);
  }
}
