/**
 * @module
 * `loom/rest`: the decorator runtime on Hono. Decorated classes, hand-written or generated
 * (`X.server.ts`), become Hono routes with converted and validated parameters, content
 * negotiation, security and Loom's JSON error shape. Nothing it imports is Node-only, so it runs on
 * every runtime Hono runs on (Node, Deno, Bun, workers); `loom/rest/node` adds the Node-only parts.
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
export * from '../rest/index.js';
