/**
 * @module
 * Security decorators: `@Authenticate`, `@Authorize`, `@RolesAllowed`, `@PermitAll`, `@DenyAll`.
 * A method's decoration overrides its class's, which overrides the router's.
 */
import { rawCommon } from '../metadata/store.js';
import type { AuthenticationProvider, AuthorizationProvider, SecurityRequirements } from '../types.js';
import type { ClassOrMethodDecorator } from './route.js';

/**
 * Identifies the user with this provider (401 when it cannot). `null` turns off a class's or the
 * router's authentication for this method.
 *
 * @example
 * ```ts
 * const bearer: AuthenticationProvider<string> = {
 *   provideCredentials: (c) => c.req.header('authorization')?.replace(/^Bearer /, ''),
 *   authenticate: (token) => (token === 'secret' ? { name: 'ada', roles: ['admin'] } : null),
 * };
 * @Path('/admin') @Authenticate(bearer) class Admin { … }
 * ```
 */
export function Authenticate(provider: AuthenticationProvider | null): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).authenticate = provider;
  };
}

/**
 * Records what a route requires, as its OpenAPI description says: alternatives, each naming the
 * security schemes it needs. Inert by itself: authentication providers read it from
 * `route.security` (`provideCredentials(c, route)`) to know which credentials to look for, and
 * authorizers from `authorize(user, c, route)`. Generated routes classes carry it.
 *
 * @example
 * ```ts
 * @POST @Path('/issues') @Security([{ BasicAuth: [] }, { Token: [] }])
 * create(@BodyParam() body: NewIssue) { … }
 * ```
 */
export function Security(requirements: SecurityRequirements): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).security = requirements;
  };
}

/** Asks this provider whether the user may call the route (403 when not); `null` turns it off. */
export function Authorize(provider: AuthorizationProvider | null): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).authorize = provider;
  };
}

/** Only users with any of these roles (403 otherwise, also without a user). */
export function RolesAllowed(...roles: string[]): ClassOrMethodDecorator {
  return (target, key) => {
    rawCommon(target, key).roles = { kind: 'roles', roles };
  };
}

/** Everyone, with or without a user: skips authorization and role checks, and a missing user is not 401. */
export const PermitAll: ClassOrMethodDecorator = (target, key) => {
  rawCommon(target, key).roles = { kind: 'permitAll' };
};

/** Nobody: always 403. */
export const DenyAll: ClassOrMethodDecorator = (target, key) => {
  rawCommon(target, key).roles = { kind: 'denyAll' };
};
