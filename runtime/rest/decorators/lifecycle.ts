/**
 * @module
 * Instance and execution decorators: `@NoCache` and `@Blocking`.
 */

import type { BlockingOptions } from '../metadata/raw.js';
import { rawClass, rawMethod } from '../metadata/store.js';

/**
 * A class registered by type gets a new instance per request instead of one cached singleton
 * (classes with `@Context` fields are per-request anyway).
 */
export const NoCache: ClassDecorator = (target) => {
  rawClass(target).noCache = true;
};

/**
 * Runs the method's work in a worker thread so CPU-heavy code never stalls other requests. The
 * worker imports `module` and calls its `export` with the method's arguments (which must be
 * structured-cloneable). Past the pool's `maxExecutionTime` the answer is 503 and the worker is replaced.
 * The decorated method's own body is not called.
 *
 * @example
 * ```ts
 * @GET @Path('/fib/{n}') @Blocking({ module: new URL('./fib.js', import.meta.url), export: 'fib' })
 * fib(@PathParam('n', { type: 'integer' }) n: number): number { return 0; }
 * ```
 */
export function Blocking(options: BlockingOptions): MethodDecorator {
  return (target, key) => {
    rawMethod(target, key).blocking = options;
  };
}
