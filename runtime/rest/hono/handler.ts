/**
 * @module
 * The request handler of a route, built from its route plan, parameter plan and instance factory.
 * A request goes: route matched → authentication → roles → authorization → `Accept` → parameters
 * other than the body → the body, last → the method (through its interceptors) → the writer →
 * events. Nothing is decided here that could have been decided at registration: a route with no
 * step that may answer later but its body gets a plain promise chain (`plainHandler`), the others an
 * async function that awaits what needs it (`generalHandler`).
 */
import type { Context, Next } from 'hono';
import type { RouterState } from '../config.js';
import type { Violation } from '../errors.js';
import { HttpError, violationsError } from '../errors.js';
import { RestResponse } from '../response.js';
import { failedValidation } from '../validation.js';
import { handleError } from './catch.js';
import { fireEvents } from './events.js';
import { Exchange } from './exchange.js';
import type { InstanceFactory } from './instances.js';
import { leanHandler, leanParams } from './lean-handler.js';
import type { ParamsPlan } from './param-plan.js';
import type { RoutePlan } from './route-plan.js';
import type { WritePlan } from './write.js';
import { writeResult } from './write.js';

/** A handler's answer: at once when nothing had to be waited for; `void` when it passed to `next()`. */
// biome-ignore lint/suspicious/noConfusingVoidType: Hono's own handler type, which a route handler is.
export type Answer = Response | Promise<Response | void>;

/** A route's Hono handler. */
export type RouteHandler = (c: Context, next: Next) => Answer;

/**
 * Builds the handler of a route.
 *
 * @example
 * ```ts
 * app.on(route.info.verb, route.template.hono, createHandler(route, params, instanceOf, state));
 * ```
 */
export function createHandler(route: RoutePlan, params: ParamsPlan, instanceOf: InstanceFactory, state: RouterState): RouteHandler {
  const steps = compileSteps(route, state);
  if (!isPlain(route, params, instanceOf)) return generalHandler(route, params, instanceOf, steps, state);
  const lean = leanParams(route, params);
  return lean ? leanHandler(route, params, lean, instanceOf, steps, state) : plainHandler(route, params, instanceOf, steps);
}

/**
 * A route whose steps are all synchronous but reading the body: no security, no async provider,
 * reader or instance, no events, no upload folder. Most routes are; theirs is the handler a person
 * would write: the body's one promise and nothing else to wait for.
 */
function isPlain(route: RoutePlan, params: ParamsPlan, instanceOf: InstanceFactory): boolean {
  return !route.security && !params.earlyAsync && !instanceOf.async && !params.lateAsync && route.events.length === 0 && !params.uploads;
}

/** The steps every kind of handler shares, compiled once per route. */
export interface Steps {
  /**
   * Hono routes HEAD to GET handlers; an explicit `@HEAD` route is registered as GET and only takes
   * HEADs: others go on to `next()`.
   */
  readonly headOnly: boolean;
  /** `Accept` against `@Produces`: sets `x.accepted`, or throws 406 (unless the router answers anyway). */
  readonly accept: ((x: Exchange) => void) | undefined;
  /** Throws the 400 of the violations the extractors collected. */
  readonly checkViolations: (violations: Violation[]) => void;
  /** Calls the method; the result may be a promise. */
  readonly call: (x: Exchange, target: object, args: unknown[]) => unknown;
  /** Writes a result (after the result's validation); `undefined` for a `RestResponse.next()`. */
  readonly respond: (x: Exchange, result: unknown) => Response | Promise<Response> | undefined;
  /** The answer to an error, through the exception pipeline. */
  readonly fail: (x: Exchange, error: unknown) => Promise<Response>;
}

function compileSteps(route: RoutePlan, state: RouterState): Steps {
  const { info, write, invoke, validateResult, resultStatus } = route;
  const max = state.maxViolations;
  const answerAnyway = state.options.unacceptable === 'first';
  const produces = info.produces;
  const notAcceptable = `Not Acceptable: this resource produces ${produces.join(', ')}`;
  const writeError = (x: Exchange, r: RestResponse) => writeErrorAnswer(route.writeError, x, r);
  return {
    headOnly: info.verb === 'HEAD',
    accept: route.checkAccept
      ? (x) => {
          if ((x.accepted = write.negotiate(x.accept())) !== undefined) return;
          if (!answerAnyway) throw new HttpError(406, notAcceptable);
          x.accepted = produces[0];
        }
      : undefined,
    checkViolations: (violations) => {
      if (violations.length > 0) throw violationsError(violations, max);
    },
    call: invoke,
    respond: (x, result) => {
      if (result instanceof RestResponse && result.content.kind === 'next') return undefined;
      if (validateResult && !(result instanceof RestResponse) && !validateResult(result)) {
        const violations = failedValidation(validateResult, 'result', 'result', max);
        throw new HttpError(resultStatus, 'Response validation failed', { violations });
      }
      return writeResult(write, x, result);
    },
    fail: (x, error) => handleError(error, x.c, route.catchWith, route.useRouterHandlers, state, (r) => writeError(x, r)),
  };
}

/** See {@link isPlain}: a chain of at most the body's and the method's promises. */
function plainHandler(route: RoutePlan, params: ParamsPlan, instanceOf: InstanceFactory, steps: Steps): RouteHandler {
  const { info } = route;
  const { extractors, early, late, readBody, readsForm } = params;
  const { headOnly, accept, checkViolations, call, respond, fail } = steps;
  const count = extractors.length;
  /** Calls the method once the arguments are read, and writes its result. */
  const finish = (x: Exchange, next: Next, self: object, args: unknown[], violations: Violation[]): Answer => {
    checkViolations(violations);
    const result = call(x, self, args);
    if (!(result instanceof Promise)) return respond(x, result) ?? next();
    return (result as Promise<unknown>).then((r): Answer => respond(x, r) ?? next());
  };
  return (c, next) => {
    if (headOnly && c.req.method !== 'HEAD') return next();
    const x = new Exchange(c, info);
    try {
      if (accept) accept(x);
      const violations: Violation[] = [];
      const args: unknown[] = new Array(count);
      for (let i = 0; i < early.length; i++) args[early[i]!] = extractors[early[i]!]!(x, violations);
      const self = instanceOf.get(x, violations) as object;
      if (!readBody) {
        const answer = finish(x, next, self, args, violations);
        return answer instanceof Promise ? answer.catch((e: unknown) => fail(x, e)) : answer;
      }
      // One promise for the rest: a failure of the read or of what follows it is caught in the
      // same step, not by a `.catch()` of its own.
      const failed = (e: unknown) => fail(x, e);
      return readBody(x).then((read): Answer => {
        try {
          if (readsForm) x.form = read as Exchange['form'];
          else x.body = read;
          for (let i = 0; i < late.length; i++) args[late[i]!] = extractors[late[i]!]!(x, violations);
          const answer = finish(x, next, self, args, violations);
          return answer instanceof Promise ? answer.catch(failed) : answer;
        } catch (error) {
          return failed(error);
        }
      }, failed);
    } catch (error) {
      return fail(x, error);
    }
  };
}

/** Any route: security, providers, readers and instances that may answer later, events, uploads. */
function generalHandler(route: RoutePlan, params: ParamsPlan, instanceOf: InstanceFactory, steps: Steps, state: RouterState): RouteHandler {
  const { info, events } = route;
  const { extractors, early, late, readBody, readsForm } = params;
  const { headOnly, accept, checkViolations, call, respond, fail } = steps;
  const count = extractors.length;
  const earlyAsync = params.earlyAsync || instanceOf.async;
  const lateAsync = params.lateAsync;
  const uploads = params.uploads ? state.options.node!.uploads : undefined;

  return async (c, next) => {
    if (headOnly && c.req.method !== 'HEAD') return next();
    const x = new Exchange(c, info);
    let entity: unknown;
    let response: Response;
    try {
      // Security first: an anonymous caller learns nothing about the route (406, 400) before its
      // 401, and makes the server read nothing of the request.
      if (route.security) await route.security(x);
      if (accept) accept(x);
      const violations: Violation[] = [];
      const args: unknown[] = new Array(count);
      for (let i = 0; i < early.length; i++) args[early[i]!] = extractors[early[i]!]!(x, violations);
      let target = instanceOf.get(x, violations);
      // Providers settle before the body is read: one that refuses the request spares the read.
      if (earlyAsync) {
        for (const i of early) if (args[i] instanceof Promise) args[i] = await args[i];
        target = await target;
      }
      // The body last.
      if (readBody) {
        const read = await readBody(x);
        if (readsForm) x.form = read as Exchange['form'];
        else x.body = read;
        for (let i = 0; i < late.length; i++) args[late[i]!] = extractors[late[i]!]!(x, violations);
        if (lateAsync) for (const i of late) if (args[i] instanceof Promise) args[i] = await args[i];
      }
      checkViolations(violations);
      let result = call(x, target as object, args);
      if (result instanceof Promise) result = await result;
      const written = respond(x, result);
      if (written === undefined) return next();
      entity = result instanceof RestResponse ? (result.content.kind === 'entity' ? result.content.value : undefined) : result;
      response = written instanceof Promise ? await written : written;
    } catch (error) {
      response = await fail(x, error);
      if (events.length > 0) await fireEvents(events, c, response.status, undefined, error, route.onEventError);
      return response;
    } finally {
      if (uploads && x.uploads) void uploads.release(x.uploads).catch((e: unknown) => route.onEventError(e, c));
    }
    if (events.length > 0) await fireEvents(events, c, response.status, entity, undefined, route.onEventError);
    return response;
  };
}

/** Writes an exception handler's answer; when `Accept` fits nothing produced, falls back to JSON. */
async function writeErrorAnswer(plan: WritePlan, x: Exchange, r: RestResponse): Promise<Response> {
  try {
    return await writeResult(plan, x, r);
  } catch {
    return writeResult({ ...plan, produces: [] }, x, r);
  }
}
