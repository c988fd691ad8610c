/**
 * @module
 * `loom/rest`: the decorator runtime on Hono. Decorated classes, hand-written or generated
 * (`X.server.ts`), become Hono routes with converted and validated parameters, content
 * negotiation, security and Loom's JSON error shape.
 *
 * `Context` is both the `@Context()` parameter decorator and the type of what it injects (Hono's
 * `Context`), so `@Context() ctx: Context` needs one import.
 *
 * @example
 * ```ts
 * import { createRestRouter, GET, Path, PathParam } from 'loom/rest';
 *
 * @Path('/users')
 * class Users {
 *   @GET @Path('/{id}')
 *   get(@PathParam('id', { type: 'integer' }) id: number) { return { id }; }
 * }
 * const app = createRestRouter().register(new Users()).app();
 * ```
 */
import type { Context as HonoContext } from 'hono';
import { Context as ContextDecorator } from '../rest/index.js';

export * from '../rest/index.js';

/** Injects Hono's `Context` (`@Context() ctx: Context`); as a type, Hono's `Context`. */
export const Context = ContextDecorator;
export type Context = HonoContext;
