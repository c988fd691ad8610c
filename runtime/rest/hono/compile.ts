/**
 * @module
 * Compiles a registered class into routes: for each route method its route plan (`route-plan.ts`),
 * its parameter plan (`param-plan.ts`) and the request handler built from them (`handler.ts`).
 * All decisions are made here, once; a request runs the precompiled steps.
 */
import type { RouterState } from '../config.js';
import { RegistrationError } from '../errors.js';
import { resolveClass } from '../metadata/builder.js';
import type { RouteInfo } from '../types.js';
import type { RouteHandler } from './handler.js';
import { createHandler } from './handler.js';
import { compileInstance } from './instances.js';
import { compileParamsPlan } from './param-plan.js';
import type { PathTemplate } from './path.js';
import { compileRoutePlan } from './route-plan.js';

/** A compiled route, ready to be added to a Hono app. */
export interface CompiledRoute {
  readonly info: RouteInfo;
  readonly honoPath: string;
  readonly template: PathTemplate;
  /** Registration sequence, to keep declaration order among equal `@RouteOrder`s. */
  readonly sequence: number;
  readonly handler: RouteHandler;
}

/** What was registered: an instance (used as is) or a class (created through the injector). */
export interface Registered {
  readonly cls: Function;
  readonly instance?: object;
}

/**
 * Compiles every route of a registered class. Throws `RegistrationError` naming the class and method
 * for any decoration that cannot work.
 *
 * @example
 * ```ts
 * const routes = compileClass({ cls: Users }, state, 0);
 * ```
 */
export function compileClass(registered: Registered, state: RouterState, sequenceStart: number): CompiledRoute[] {
  const resolved = resolveClass(registered.cls);
  const methods = resolved.methods.filter((m) => m.verb !== undefined);
  if (methods.length === 0) {
    throw new RegistrationError(
      `${resolved.name}: no route methods (decorate a method with @GET, @POST, … or a shorthand such as @Get('/path'))`,
    );
  }
  const instanceOf = compileInstance(registered, resolved, state);
  return methods.map((method, i) => {
    const route = compileRoutePlan(resolved, method, state);
    const params = compileParamsPlan(resolved, method, route, state);
    const handler = createHandler(route, params, instanceOf, state);
    return { info: route.info, honoPath: route.template.hono, template: route.template, sequence: sequenceStart + i, handler };
  });
}
