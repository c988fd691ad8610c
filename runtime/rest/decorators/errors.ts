/**
 * @module
 * `@CatchWith`: exception handlers for a method or a class, looked up before the router's global ones.
 */
import { rawCommon } from '../metadata/store.js';
import type { ExceptionHandler } from '../types.js';
import type { ClassOrMethodDecorator } from './route.js';

/**
 * Exception handlers tried in order (method's first, then the class's, then the router's; the first
 * whose `catches` matches wins). `@CatchWith()` with no handler opts a method out of the class's
 * handlers.
 *
 * @example
 * ```ts
 * const conflict = catching(ConflictError, (e) => Response.error(409, e.message));
 * @POST @Path('/users') @CatchWith(conflict)
 * create(@BodyParam() user: NewUser) { … }
 * ```
 */
export function CatchWith(...handlers: ExceptionHandler[]): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).catchWith = handlers;
  };
}
