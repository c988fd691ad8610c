/**
 * @module
 * How a route calls its method: directly, in a worker (`@Blocking`, through `loom/rest/node`), and
 * through xp-forge's interceptor chain when the router, the class or the method has interceptors.
 * A route without interceptors calls its method with nothing in between.
 */
import type { Interceptor, Invocation, InvocationTarget, RouteInfo } from '../types.js';
import type { Exchange } from './exchange.js';

/** Calls a route's method on `target` with the request's arguments; the result may be a promise. */
export type Invoke = (x: Exchange, target: object, args: unknown[]) => unknown;

/** What the invoker of a route is built from. */
export interface InvokeOptions {
  readonly methodName: string;
  readonly info: RouteInfo;
  /** Runs the method's work elsewhere (a worker thread) instead of calling it. */
  readonly runner?: (args: readonly unknown[]) => Promise<unknown>;
  /** Outermost first: the router's, the class's, the method's. */
  readonly interceptors: readonly Interceptor[];
  readonly annotations: ReadonlyMap<unknown, unknown>;
}

/**
 * Compiles the call of a route's method.
 *
 * @example
 * ```ts
 * const invoke = compileInvoker({ methodName: 'get', info, interceptors: [], annotations: new Map() });
 * const result = invoke(x, instance, [42]);
 * ```
 */
export function compileInvoker(options: InvokeOptions): Invoke {
  const { methodName, runner, interceptors } = options;
  const call: Invoke = runner
    ? (_x, _target, args) => runner(args)
    : (_x, target, args) => (target as Record<string, (...a: unknown[]) => unknown>)[methodName]!(...args);
  if (interceptors.length === 0) return call;
  const { info, annotations } = options;
  return (x, target, args) => {
    const invocationTarget: InvocationTarget = { name: methodName, className: info.className, route: info, annotations, instance: target };
    // Each step is its own invocation, so `proceed` may be called again (a retry) from any of them.
    const step = async (at: number, stepArgs: readonly unknown[]): Promise<unknown> => {
      if (at === interceptors.length) return call(x, target, [...stepArgs]);
      const invocation: Invocation = { target: invocationTarget, context: x.c, proceed: (next) => step(at + 1, next) };
      const interceptor = interceptors[at]!;
      return typeof interceptor === 'function' ? interceptor(invocation, [...stepArgs]) : interceptor.intercept(invocation, [...stepArgs]);
    };
    return step(0, args);
  };
}
