/**
 * @module
 * The authentication → roles → authorization flow of a route, compiled at registration. It runs
 * before anything of the request is read. Method decorations override the class's, which override
 * the router's. Rejected credentials are 401; a missing user is 401 where the route needs one,
 * and 403 where it decides by role (`@RolesAllowed`, `@DenyAll`: rest.vertx since 1.0.4).
 */

import { assertNever } from '../../util/assert-never.js';
import type { RouterState } from '../config.js';
import { ForbiddenError, RegistrationError, UnauthorizedError } from '../errors.js';
import type { ResolvedClass, ResolvedMethod } from '../metadata/builder.js';
import type { RestUser, RouteInfo } from '../types.js';
import type { Exchange } from './exchange.js';

function hasRole(user: RestUser, role: string): boolean {
  return user.hasRole ? user.hasRole(role) : (user.roles ?? []).includes(role);
}

/** Compiles the security check of a route, or `undefined` when the route has none. */
export function compileSecurity(
  method: ResolvedMethod,
  cls: ResolvedClass,
  state: RouterState,
  info: RouteInfo,
): ((x: Exchange) => Promise<void>) | undefined {
  const authn =
    method.authenticate !== undefined ? method.authenticate : cls.authenticate !== undefined ? cls.authenticate : state.authenticate;
  const authz = method.authorize !== undefined ? method.authorize : cls.authorize !== undefined ? cls.authorize : state.authorize;
  const roles = method.roles ?? cls.roles;
  // A provider of another shape would fail on every request (`authorize is not a function`): say so now.
  const where = `${info.className}.${info.methodName}`;
  if (authn && (typeof authn.provideCredentials !== 'function' || typeof authn.authenticate !== 'function')) {
    throw new RegistrationError(`${where}: an authentication provider needs provideCredentials(c) and authenticate(credentials, c)`);
  }
  if (authz && typeof authz.authorize !== 'function') {
    throw new RegistrationError(
      `${where}: the authorization provider${authz.id ? ` '${authz.id}'` : ''} needs authorize(user, c, route), ` +
        `returning true to allow (requirePermissions(id, ...permissions) builds one)`,
    );
  }
  // `@PermitAll` beside `@Authorize` on the same method or class says two opposite things.
  if (method.roles?.kind === 'permitAll' && method.authorize) {
    throw new RegistrationError(`${where}: @PermitAll and @Authorize on the same method contradict each other; keep one`);
  }
  if (cls.roles?.kind === 'permitAll' && cls.authorize) {
    throw new RegistrationError(`${info.className}: @PermitAll and @Authorize on the same class contradict each other; keep one`);
  }
  if (!authn && !authz && !roles) return undefined;
  // A method's own `@Authorize` is more specific than its class's `@PermitAll`, and then needs a
  // user; `@PermitAll` skips only an authorizer of its own level or above (class, router).
  const authorizerFromMethod = method.authorize !== undefined && method.authorize !== null;
  const permitAll = roles?.kind === 'permitAll' && !(authorizerFromMethod && method.roles === undefined);
  const roleRule = roles !== undefined && roles.kind !== 'permitAll' ? roles : undefined;
  // Without credentials there is no user: a route that needs one answers 401, unless the provider
  // is optional or the route decides by role (below).
  const userRequired = authn !== undefined && authn !== null && authn.optional !== true && roleRule === undefined;

  return async (x) => {
    if (authn) {
      const credentials = await authn.provideCredentials(x.c, info);
      if (credentials !== null && credentials !== undefined) {
        const user = (await authn.authenticate(credentials, x.c)) ?? undefined;
        // Credentials that identify nobody are refused, whatever the route needs (rest.vertx's 401).
        if (!user && !permitAll) throw new UnauthorizedError();
        x.user = user;
      }
    }
    if (permitAll) return;
    if (roleRule) {
      switch (roleRule.kind) {
        case 'denyAll':
          throw new ForbiddenError();
        case 'roles':
          // rest.vertx since 1.0.4: a role check without a user is 403, as one with the wrong role.
          if (!x.user || !roleRule.roles.some((r) => hasRole(x.user!, r))) throw new ForbiddenError();
          break;
        default:
          return assertNever(roleRule, 'role rule');
      }
    }
    if (authz) {
      // An authorizer is asked about a user: identify one first (401) where one can be.
      if (!x.user) throw authn ? new UnauthorizedError() : new ForbiddenError();
      if (!(await authz.authorize(x.user, x.c, info))) throw new ForbiddenError();
    } else if (userRequired && !x.user) throw new UnauthorizedError();
  };
}
