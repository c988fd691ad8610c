/**
 * @module
 * The handler of the most common route, in one function: path and query values of built-in types,
 * at most one JSON body kept as read, and a plain object or array written as JSON. It does what
 * `plainHandler` does for such a route, with the same answers (`test/rest/lean-route.test.ts`
 * holds the two to that), but reads the values, checks the body and writes the answer itself
 * instead of through each parameter's extractor, reader and writer closures.
 *
 * Why: over HTTP the kernel's work between two requests evicts the CPU's caches, and each closure a
 * request goes through (its code and the objects it holds) is fetched again. With warm caches the
 * decorated and the hand-written route differ by hundredths of a microsecond; over HTTP, sampled
 * with `perf` (`bench/rest-perf.ts`) on a loaded machine, the decorated route's own code took 0.9 to
 * 1.7 µs a request more than the hand-written route's before this handler, and 0.6 to 0.8 µs since;
 * on a quiet machine 0.18 to 0.22 µs since, of some 17 µs a request (docs/rest.md, "Performance").
 * Its body-reading step has the shape of `plainHandler`'s on purpose: a helper shared by both would
 * be one more closure made and called per request, which is what it saves.
 */
import type { Next } from 'hono';
import type { RouterState } from '../config.js';
import type { Violation } from '../errors.js';
import { violationsError } from '../errors.js';
import { Exchange } from './exchange.js';
import type { PlainBody } from './extract-body.js';
import { checkBody } from './extract-body.js';
import type { SimpleValue } from './extract-value.js';
import { convertValue } from './extract-value.js';
import type { Answer, RouteHandler, Steps } from './handler.js';
import type { InstanceFactory } from './instances.js';
import type { ParamsPlan } from './param-plan.js';
import type { RoutePlan } from './route-plan.js';

/** A route's parameters as the lean handler reads them. */
interface LeanParams {
  /** The path and query values. */
  readonly values: readonly SimpleValue[];
  /** The argument index of each of `values`. */
  readonly valueAt: readonly number[];
  /** The JSON body's argument index and checks, when the method takes one. */
  readonly body: readonly [number, PlainBody] | undefined;
}

/**
 * The lean parameters of a plain route (see `isPlain` in `handler.ts`) whose every argument is a
 * path or query value of a built-in type or a JSON body kept as read, and whose plain results are
 * written as JSON without a writer or result validation; `undefined` for any other route.
 */
export function leanParams(route: RoutePlan, params: ParamsPlan): LeanParams | undefined {
  const plans = params.plans;
  if (route.write.fastJson === undefined || route.validateResult !== undefined || params.readsForm) return undefined;
  const values: SimpleValue[] = [];
  const valueAt: number[] = [];
  let body: [number, PlainBody] | undefined;
  for (let i = 0; i < plans.length; i++) {
    const plan = plans[i]!;
    // `simple` is set only on a value Hono gives as it is (`param` or `query`; see `stringPlan`).
    if (plan.simple) {
      values.push(plan.simple);
      valueAt.push(i);
    } else if (plan.plainBody && params.readsPlainJson) body = [i, plan.plainBody];
    else return undefined;
  }
  return { values, valueAt, body };
}

/** The handler of a route {@link leanParams} accepted. */
export function leanHandler(
  route: RoutePlan,
  params: ParamsPlan,
  lean: LeanParams,
  instanceOf: InstanceFactory,
  steps: Steps,
  state: RouterState,
): RouteHandler {
  const { info } = route;
  const { values, valueAt, body } = lean;
  const readBody = params.readBody!;
  const { headOnly, accept, call, respond, fail } = steps;
  const fast = route.write.fastJson!;
  const max = state.maxViolations;
  const count = params.plans.length;

  /** Calls the method and writes its result: a plain object or array at once, anything else as `plainHandler` does. */
  const finish = (x: Exchange, next: Next, self: object, args: unknown[], violations: Violation[]): Answer => {
    if (violations.length > 0) throw violationsError(violations, max);
    const result = call(x, self, args);
    if (result instanceof Promise) return (result as Promise<unknown>).then((r): Answer => write(x, next, r));
    return write(x, next, result);
  };
  const write = (x: Exchange, next: Next, result: unknown): Answer => {
    if (typeof result === 'object' && result !== null && x.responseHeaders === undefined && !x.contextUsed) {
      const proto = Object.getPrototypeOf(result) as unknown;
      if (proto === Object.prototype || proto === Array.prototype) return new Response(JSON.stringify(result), fast);
    }
    return respond(x, result) ?? next();
  };

  return (c, next) => {
    if (headOnly && c.req.method !== 'HEAD') return next();
    const x = new Exchange(c, info);
    try {
      if (accept) accept(x);
      const violations: Violation[] = [];
      const args: unknown[] = new Array(count);
      for (let i = 0; i < values.length; i++) {
        const v = values[i]!;
        args[valueAt[i]!] = convertValue(v, v.param !== undefined ? c.req.param(v.param) : c.req.query(v.query!), violations);
      }
      const self = instanceOf.get(x, violations) as object;
      if (body === undefined) {
        const answer = finish(x, next, self, args, violations);
        return answer instanceof Promise ? answer.catch((e: unknown) => fail(x, e)) : answer;
      }
      const failed = (e: unknown) => fail(x, e);
      // `readBody` reads the usual JSON request in one step itself (see `compileBodyRead`).
      return readBody(x).then((read): Answer => {
        try {
          x.body = read;
          args[body[0]] = checkBody(body[1], read, violations);
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
