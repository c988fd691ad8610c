/**
 * @module
 * Permission-based authorization: the user exposes permissions keyed by provider id
 * (`user.authorizations[id]`), and a provider built here requires some of them.
 */
import type { AuthorizationProvider } from './types.js';

/**
 * An authorization provider that allows users holding every one of `required` under `id`.
 *
 * @example
 * ```ts
 * @POST @Path('/docs') @Authorize(requirePermissions('docs', 'write'))
 * save(@BodyParam() doc: Doc) { … }
 * // allowed for { name: 'ada', authorizations: { docs: ['read', 'write'] } }
 * ```
 */
export function requirePermissions(id: string, ...required: string[]): AuthorizationProvider {
  return {
    id,
    authorize: (user) => {
      const held = user.authorizations?.[id] ?? [];
      return required.every((p) => held.includes(p));
    },
  };
}
