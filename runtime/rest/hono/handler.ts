/**
 * @module
 * The request handler of a route, built from its route plan, parameter plan and instance factory.
 * A request goes: route matched → authentication → roles → authorization → `Accept` → parameters
 * other than the body → the body, last → the method (through its interceptors) → the writer →
 * events. Nothing is decided here that could have been decided at registration.
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
import type { ParamsPlan } from './param-plan.js';
import type { RoutePlan } from './route-plan.js';
import type { WritePlan } from './write.js';
import { writeResult } from './write.js';

/** A route's Hono handler. */
// biome-ignore lint/suspicious/noConfusingVoidType: Hono's own handler type, which a route handler is.
export type RouteHandler = (c: Context, next: Next) => Promise<Response | void>;

/**
 * Builds the handler of a route.
 *
 * @example
 * ```ts
 * app.on(route.info.verb, route.template.hono, createHandler(route, params, instanceOf, state));
 * ```
 */
export function createHandler(route: RoutePlan, params: ParamsPlan, instanceOf: InstanceFactory, state: RouterState): RouteHandler {
  const { info, write, security, invoke, events, validateResult, resultStatus } = route;
  const { extractors, early, late, readBody, readsForm } = params;
  const count = extractors.length;
  const earlyAsync = params.earlyAsync || instanceOf.async;
  const lateAsync = params.lateAsync;
  const max = state.maxViolations;
  // Hono routes HEAD to GET handlers; an explicit @HEAD route is registered as GET and only takes HEADs.
  const isHead = info.verb === 'HEAD';
  const checkAccept = route.checkAccept;
  const answerAnyway = state.options.unacceptable === 'first';
  const produces = info.produces;
  const notAcceptable = `Not Acceptable: this resource produces ${produces.join(', ')}`;
  const uploads = params.uploads ? state.options.node!.uploads : undefined;
  const writeError = (x: Exchange, r: RestResponse) => writeErrorAnswer(route.writeError, x, r);

  return async (c, next) => {
    if (isHead && c.req.method !== 'HEAD') return next();
    const x = new Exchange(c, info);
    let entity: unknown;
    let response: Response;
    try {
      // Security first: an anonymous caller learns nothing about the route (406, 400) before its
      // 401, and makes the server read nothing of the request.
      if (security) await security(x);
      if (checkAccept && (x.accepted = write.negotiate(x.header('accept'))) === undefined) {
        if (!answerAnyway) throw new HttpError(406, notAcceptable);
        x.accepted = produces[0];
      }
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
      if (violations.length > 0) throw violationsError(violations, max);
      let result = invoke(x, target as object, args);
      if (result instanceof Promise) result = await result;
      if (result instanceof RestResponse && result.content.kind === 'next') return next();
      if (validateResult && !(result instanceof RestResponse) && !validateResult(result)) {
        const violations = failedValidation(validateResult, 'result', 'result', max);
        throw new HttpError(resultStatus, 'Response validation failed', { violations });
      }
      entity = result instanceof RestResponse ? (result.content.kind === 'entity' ? result.content.value : undefined) : result;
      const written = writeResult(write, x, result);
      response = written instanceof Promise ? await written : written;
    } catch (error) {
      response = await handleError(error, c, route.catchWith, route.useRouterHandlers, state, (r) => writeError(x, r));
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
