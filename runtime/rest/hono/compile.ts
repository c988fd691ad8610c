/**
 * @module
 * Compiles a registered class into route handlers: path, verb, order, security, body reading,
 * parameter extractors, the instance to call, result validation, writing, errors and events. All
 * decisions are made here, once; a request runs the precompiled steps.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, Next } from 'hono';
import type { RouterState } from '../config.js';
import { BadRequestError, errorMessage, HttpError, RegistrationError } from '../errors.js';
import { compileBodyReader, compileFormReader } from './body.js';
import { compileBodyAdmission, DEFAULT_MAX_BODY_BYTES } from './body-limit.js';
import { compileInstance } from './instances.js';
import type { InstanceFactory } from './instances.js';
import type { Violation } from '../errors.js';
import { createNegotiator } from '../io/negotiate.js';
import { parameterList, resolveClass } from '../metadata/builder.js';
import type { ResolvedClass, ResolvedMethod } from '../metadata/builder.js';
import type { ParamSource, RawParam } from '../metadata/raw.js';
import { DUPLICATE_SOURCE } from '../decorators/params.js';
import { RestResponse } from '../response.js';
import type { HttpVerb, RouteInfo, ValidateFunction } from '../types.js';
import { createDefaultAjv, validationViolations } from '../validation.js';
import { WorkerPool } from '../worker/pool.js';
import { handleError } from './catch.js';
import { fireEvents } from './events.js';
import { Exchange } from './exchange.js';
import { compileParam } from './extract.js';
import type { Extractor, ParamPlan } from './extract.js';
import { joinPaths, toHonoPath } from './path.js';
import type { PathTemplate } from './path.js';
import { compileSecurity } from './security.js';
import { writeResult } from './write.js';
import type { WritePlan } from './write.js';

/** A compiled route, ready to be added to a Hono app. */
export interface CompiledRoute {
  readonly info: RouteInfo;
  readonly honoPath: string;
  readonly template: PathTemplate;
  /** Registration sequence, to keep declaration order among equal `@RouteOrder`s. */
  readonly sequence: number;
  readonly handler: (c: Context, next: Next) => Promise<Response | void>;
}

const NO_BODY_VERBS: ReadonlySet<HttpVerb> = new Set(['HEAD', 'TRACE']);
const QUERY_BY_NAME: ReadonlySet<HttpVerb> = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** What was registered: an instance (used as is) or a class (created through the injector). */
export interface Registered {
  readonly cls: Function;
  readonly instance?: object;
}

/**
 * Compiles every route of a registered class. Throws `RegistrationError` naming the class and method
 * for any decoration that cannot work.
 */
export function compileClass(registered: Registered, state: RouterState, sequenceStart: number): CompiledRoute[] {
  const resolved = resolveClass(registered.cls);
  const routes = resolved.methods.filter((m) => m.verb !== undefined);
  if (routes.length === 0) {
    throw new RegistrationError(
      `${resolved.name}: no route methods (decorate a method with @GET, @POST, … or a shorthand such as @Get('/path'))`,
    );
  }
  const instanceOf = compileInstance(registered, resolved, state);
  return routes.map((method, i) => compileMethod(resolved, method, state, instanceOf, sequenceStart + i));
}

function headerRules(
  headers: readonly string[] | undefined,
  where: string,
): { statics: [string, string][]; accept: string[]; contentType?: string } {
  const statics: [string, string][] = [];
  const accept: string[] = [];
  let contentType: string | undefined;
  for (const h of headers ?? []) {
    const colon = h.indexOf(':');
    if (colon <= 0) throw new RegistrationError(`${where}: @Header('${h}') must be written 'Name: value'`);
    const name = h.slice(0, colon).trim();
    const value = h.slice(colon + 1).trim();
    if (name.toLowerCase() === 'accept') accept.push(...value.split(',').map((v) => v.trim()));
    else if (name.toLowerCase() === 'content-type') contentType = value;
    else statics.push([name, value]);
  }
  return { statics, accept, ...(contentType ? { contentType } : {}) };
}

function compileMethod(
  cls: ResolvedClass,
  method: ResolvedMethod,
  state: RouterState,
  instanceOf: InstanceFactory,
  sequence: number,
): CompiledRoute {
  const where = `${cls.name}.${method.name}`;
  const verb = method.verb!;
  if ((method.verbCount ?? 1) > 1) throw new RegistrationError(`${where}: more than one HTTP verb decorator`);
  if (cls.path === undefined && method.path === undefined) {
    throw new RegistrationError(
      `${where}: @${verb} has no path (put @Path on the class or the method, or use @${verb[0]}${verb.slice(1).toLowerCase()}('/path'))`,
    );
  }
  let template;
  try {
    // A method path's trailing slash is part of it: a schema's `/items/` is not `/items`.
    const joined = joinPaths(state.options.prefix, cls.path, method.path);
    template = toHonoPath(
      method.path !== undefined && method.path.length > 1 && method.path.endsWith('/') && joined !== '/' ? `${joined}/` : joined,
    );
  } catch (e) {
    throw new RegistrationError(`${where}: ${errorMessage(e)}`);
  }
  const status = method.status ?? 200;
  if (!Number.isInteger(status) || status < 100 || status > 599)
    throw new RegistrationError(`${where}: @Status(${status}) is not an HTTP status`);
  if (method.order !== undefined && !Number.isSafeInteger(method.order))
    throw new RegistrationError(`${where}: @RouteOrder(${method.order}) is not an integer`);

  const cRules = headerRules(cls.headers, cls.name);
  const mRules = headerRules(method.headers, where);
  const headers = [...cRules.statics, ...mRules.statics];
  const consumes =
    method.consumes ?? (mRules.accept.length ? mRules.accept : undefined) ?? cls.consumes ?? (cRules.accept.length ? cRules.accept : []);
  const writer = method.writer ?? cls.writer;
  const produces =
    method.produces ??
    (mRules.contentType ? [mRules.contentType] : undefined) ??
    cls.produces ??
    (cRules.contentType ? [cRules.contentType] : []);
  const suppressCheck = method.suppressCheck === true || cls.suppressCheck === true;
  if (writer?.type && method.returns && !suppressCheck) {
    const fits = writer.type === method.returns || method.returns.prototype instanceof writer.type;
    if (!fits)
      throw new RegistrationError(
        `${where}: @ResponseWriter writes ${writer.type.name} but the method returns ${method.returns.name} (add @SuppressCheck() to skip this check)`,
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

  // Parameters: decorated ones as declared, the rest bound by name (path variable, then query or body by verb).
  const declared =
    method.params.length < method.arity || method.params.some((p) => p?.source === undefined)
      ? parameterList((cls.cls as { prototype: Record<string, Function> }).prototype[method.name]!)
      : [];
  const reader = method.reader ?? cls.reader;
  const contextReader = method.contextReader ?? cls.contextReader;
  const plans: ParamPlan[] = [];
  let bodyAt = -1;
  for (let i = 0; i < method.arity; i++) {
    const raw: RawParam = method.params[i] ?? {};
    let source: ParamSource | undefined = raw.source;
    if (source?.kind === 'context' && source.token === DUPLICATE_SOURCE)
      throw new RegistrationError(`${where} parameter ${i}: more than one source decorator`);
    let options = raw.options;
    if (!source) {
      const name = declared[i]?.name;
      if (!name || !/^[A-Za-z_$][\w$]*$/.test(name))
        throw new RegistrationError(`${where} parameter ${i}: no source decorator and no usable parameter name`);
      source = template.variables.includes(name)
        ? { kind: 'path', name }
        : QUERY_BY_NAME.has(verb)
          ? { kind: 'query', name }
          : { kind: 'body' };
      // xp-forge: a parameter without a default is required ("Missing argument" is a 400); one with a
      // default gets `undefined` when absent, so that JavaScript applies the default.
      if (options?.required === undefined && !declared[i]!.hasDefault) options = { ...options, required: true };
    }
    const plan = compileParam(options === raw.options ? raw : { ...raw, options }, source, {
      where: `${where} parameter ${i}`,
      variables: template.variables,
      template,
      state,
      ...(reader ? { reader } : {}),
      ...(contextReader ? { contextReader } : {}),
      suppressCheck,
    });
    if (plan.needs === 'body') {
      if (bodyAt >= 0) throw new RegistrationError(`${where}: more than one body parameter (parameters ${bodyAt} and ${i})`);
      if (NO_BODY_VERBS.has(verb)) throw new RegistrationError(`${where}: a ${verb} request carries no body, but parameter ${i} reads it`);
      bodyAt = i;
    }
    plans.push(plan);
  }
  const bodyPlan = bodyAt >= 0 ? plans[bodyAt] : undefined;
  const needsForm = plans.some((p) => p.needs === 'form');
  if (needsForm && bodyPlan) throw new RegistrationError(`${where}: form parameters and a body parameter both read the body`);
  const extractors: Extractor[] = plans.map((p) => p.extract);
  const anyAsync = plans.some((p) => p.async) || instanceOf.async;

  const validateResult = compileResultValidator(method, state, where);
  const resultStatus = method.validateResultStatus ?? 500;
  const security = compileSecurity(method, cls, state, info);
  // rest.vertx joins the lists: the method's handlers, then the class's; an empty @CatchWith() on
  // the method opts out of the class's and the router's.
  const optOut = method.catchWith !== undefined && method.catchWith.length === 0;
  const catchWith = optOut ? [] : [...(method.catchWith ?? []), ...(cls.catchWith ?? [])];
  const events = method.events ?? [];
  const onError = state.options.onError ?? ((e: unknown) => console.error('[loom/rest] event failed:', e));
  // Without @Produces, JSON comes first so that `Accept: */*` keeps it; a registered mime writer
  // answers when Accept names its type.
  const anyType = createNegotiator(['application/json', ...state.writers.mimeList, 'text/plain']);
  const writePlan: WritePlan = {
    status,
    staticHeaders: headers,
    ...(writer ? { writer } : {}),
    produces,
    negotiate: produces.length ? createNegotiator(produces) : anyType,
    state,
  };
  // What an exception handler returns is not written with the method's writer or type (an image or
  // CSV route cannot carry `{status,message}`), but as a route without @Produces would write it.
  const errorPlan: WritePlan = { status, staticHeaders: [], produces: [], negotiate: anyType, state };
  const blocking = method.blocking;
  const blockingModule = blocking ? blockingModuleUrl(blocking.module, where) : '';
  const pool = blocking ? () => poolFor(state, blocking.pool ?? 'default') : undefined;
  const methodName = method.name;
  const readBody = bodyPlan ? compileBodyReader(bodyPlan, consumes, state) : undefined;
  const readForm = needsForm ? compileFormReader(consumes) : undefined;
  const admitBody = readBody || readForm ? compileBodyAdmission(state.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : undefined;
  const isHead = verb === 'HEAD';
  // With @Produces, an Accept that fits none of them is refused before the method runs (no side effects);
  // the type it chose stays on the exchange for the writer.
  const checkAccept = produces.length > 0 && !writer;
  const answerAnyway = state.options.unacceptable === 'first';
  const notAcceptable = `Not Acceptable: this resource produces ${produces.join(', ')}`;

  const handler = async (c: Context, next: Next): Promise<Response | void> => {
    // Hono routes HEAD to GET handlers; an explicit @HEAD route is registered as GET and only takes HEADs.
    if (isHead && c.req.method !== 'HEAD') return next();
    const x = new Exchange(c, info);
    let entity: unknown;
    let response: Response;
    try {
      // The seed's order: authentication and authorization first, so an anonymous caller learns
      // nothing about the route (406) before its 401.
      if (security) await security(x);
      if (checkAccept && (x.accepted = writePlan.negotiate(c.req.header('accept'))) === undefined) {
        if (!answerAnyway) throw new HttpError(406, notAcceptable);
        x.accepted = produces[0];
      }
      if (admitBody) {
        const buffering = admitBody(x);
        if (buffering) await buffering;
      }
      if (readBody) x.body = await readBody(x);
      if (readForm) x.form = await readForm(x);
      const violations: Violation[] = [];
      let args: unknown[] = new Array(extractors.length);
      for (let i = 0; i < extractors.length; i++) args[i] = extractors[i]!(x, violations);
      let target = instanceOf.get(x, violations);
      if (anyAsync) {
        args = await Promise.all(args);
        target = await target;
      }
      if (violations.length > 0) throw new BadRequestError(violations);
      let result: unknown = pool
        ? await pool().run(blockingModule, blocking!.export, args)
        : (target as Record<string, (...a: unknown[]) => unknown>)[methodName]!(...args);
      if (result instanceof Promise) result = await result;
      if (result instanceof RestResponse && result.content.kind === 'next') return next();
      if (validateResult && !(result instanceof RestResponse)) {
        const v = validationViolations(validateResult, result, 'result', 'result');
        if (v.length > 0) throw new HttpError(resultStatus, 'Response validation failed', { violations: v });
      }
      entity = result instanceof RestResponse ? (result.content.kind === 'entity' ? result.content.value : undefined) : result;
      response = await writeResult(writePlan, x, result);
    } catch (error) {
      response = await handleError(error, c, catchWith, !optOut, state, (r) => writeError(errorPlan, x, r));
      if (events.length > 0) await fireEvents(events, c, response.status, undefined, error, onError);
      return response;
    }
    if (events.length > 0) await fireEvents(events, c, response.status, entity, undefined, onError);
    return response;
  };

  return { info, honoPath: template.hono, template, sequence, handler };
}

/**
 * The module a `@Blocking` method runs in, as a URL the worker can import. A relative path would
 * resolve against an unknown directory (the worker's, not the decorating module's), so it is refused.
 */
function blockingModuleUrl(module: string | URL, where: string): string {
  if (module instanceof URL) return module.href;
  // Before the scheme test: a Windows drive (`C:\\…`) looks like one.
  if (isAbsolute(module)) return pathToFileURL(module).href;
  if (/^[a-z][a-z0-9+.-]+:/i.test(module)) return new URL(module).href;
  throw new RegistrationError(
    `${where}: @Blocking module "${module}" is relative; pass new URL('${module}', import.meta.url) or an absolute path`,
  );
}

/** Writes an exception handler's answer; when `Accept` fits nothing produced, falls back to JSON. */
async function writeError(plan: WritePlan, x: Exchange, r: RestResponse): Promise<Response> {
  try {
    return await writeResult(plan, x, r);
  } catch {
    return writeResult({ ...plan, produces: [] }, x, r);
  }
}

function poolFor(state: RouterState, name: string): WorkerPool {
  let pool = state.pools.get(name);
  if (!pool) {
    pool = new WorkerPool({ name: `loom-rest-${name}`, ...state.options.workerPools?.[name] });
    state.pools.set(name, pool);
  }
  return pool;
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
