/**
 * @module
 * Interception decorators (xp-forge's interceptors): `@InterceptWith` runs interceptors around a
 * method (or every method of a class), `@Annotate` attaches data an interceptor reads from its target.
 */
import { rawCommon } from '../metadata/store.js';
import type { Interceptor } from '../types.js';
import type { ClassOrMethodDecorator } from './route.js';

/**
 * Interceptors around the method, or every method of the class: the router's run outermost, then
 * the class's, then the method's, each in the order given.
 *
 * @example
 * ```ts
 * const timed: Interceptor = async (invocation, args) => {
 *   const started = performance.now();
 *   try { return await invocation.proceed(args); }
 *   finally { metrics.observe(invocation.target.name, performance.now() - started); }
 * };
 * @Path('/reports') @InterceptWith(timed) class Reports { … }
 * ```
 */
export function InterceptWith(...interceptors: Interceptor[]): ClassOrMethodDecorator {
  return (target, key) => {
    const record = rawCommon(target, key);
    // Decorators apply bottom-up: prepend, so that the one written first runs first.
    record.interceptors = [...interceptors, ...(record.interceptors ?? [])];
  };
}

/**
 * Attaches `value` under `key` to a method or class, for interceptors (`invocation.target.annotations`);
 * a method's annotation wins over its class's of the same key.
 *
 * @example
 * ```ts
 * const cached: Interceptor = (invocation, args) => {
 *   const ttl = invocation.target.annotations.get('cached') as number | undefined;
 *   return ttl === undefined ? invocation.proceed(args) : cache.get(invocation, ttl, () => invocation.proceed(args));
 * };
 * @GET @Path('/rates') @Annotate('cached', 60) rates() { … }
 * ```
 */
export function Annotate(key: unknown, value: unknown = true): ClassOrMethodDecorator {
  return (target, member) => {
    const record = rawCommon(target, member);
    (record.annotations ??= new Map()).set(key, value);
  };
}
