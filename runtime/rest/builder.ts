/**
 * @module
 * `RestBuilder`: the fluent way to configure a router and get its Hono app, plus `restApi` for
 * mounting several resources under path prefixes (xp-forge's `routes()` map).
 */

import type { Context } from 'hono';
import { Hono } from 'hono';
import type { CorsOptions, RestRouterOptions, SchemaCompiler } from './config.js';
import { errorResponse, RegistrationError } from './errors.js';
import { restGetPath } from './hono/bind.js';
import { joinPaths } from './hono/path.js';
import { RestRouter } from './router.js';
import type {
  AuthenticationProvider,
  AuthorizationProvider,
  Class,
  ContextProvider,
  ExceptionHandler,
  InjectionProvider,
  Interceptor,
  ResponseWriter,
  TypeKey,
  ValueReader,
} from './types.js';

/**
 * Collects registrations and builds the app; `build()` fails when nothing was registered.
 * Each configuration method records the {@link RestRouter} method of the same name (`errorHandler`
 * is `exceptionHandlers`) and replays it on the router `router()` creates.
 *
 * @example
 * ```ts
 * const app = new RestBuilder()
 *   .register(UsersResource)
 *   .errorHandler(catching(NotFound, () => Response.notFound()))
 *   .enableCors({ origin: 'https://example\\.com' })
 *   .build();
 * ```
 */
export class RestBuilder {
  private readonly steps: ((router: RestRouter) => void)[] = [];
  private readonly apis: (object | Class)[] = [];

  constructor(private readonly options: RestRouterOptions = {}) {}

  register(...apis: (object | Class)[]): this {
    this.apis.push(...apis);
    return this;
  }
  reader(typeOrMime: TypeKey | string | ValueReader, reader?: ValueReader): this {
    return this.step((r) => r.reader(typeOrMime, reader));
  }
  writer(typeOrMime: TypeKey | string | ResponseWriter, writer?: ResponseWriter): this {
    return this.step((r) => r.writer(typeOrMime, writer));
  }
  errorHandler(...handlers: ExceptionHandler[]): this {
    return this.step((r) => r.exceptionHandlers(...handlers));
  }
  notFound(pattern: RegExp | string | ((c: Context) => unknown), handler?: (c: Context) => unknown): this {
    return this.step((r) => r.notFound(pattern, handler));
  }
  enableCors(options?: CorsOptions): this {
    return this.step((r) => r.enableCors(options));
  }
  authenticateWith(provider: AuthenticationProvider): this {
    return this.step((r) => r.authenticateWith(provider));
  }
  authorizeWith(provider: AuthorizationProvider): this {
    return this.step((r) => r.authorizeWith(provider));
  }
  injectWith(injector: InjectionProvider): this {
    return this.step((r) => r.injectWith(injector));
  }
  validateWith(ajv: SchemaCompiler): this {
    return this.step((r) => r.validateWith(ajv));
  }
  addProvider<T>(token: unknown, provider: ContextProvider<T>): this {
    return this.step((r) => r.addProvider(token, provider));
  }
  provide<T>(token: unknown, provider: ContextProvider<T>): this {
    return this.step((r) => r.provide(token, provider));
  }
  intercepting(...interceptors: Interceptor[]): this {
    return this.step((r) => r.intercepting(...interceptors));
  }

  /** The configured router (registrations happen last, so readers and providers are known to them). */
  router(): RestRouter {
    if (this.apis.length === 0) throw new RegistrationError('No REST API given, register at least one! Use: .register(api)');
    const router = new RestRouter(this.options);
    for (const step of this.steps) step(router);
    return router.register(...this.apis);
  }

  /** The Hono app. */
  build(): Hono {
    return this.router().app();
  }

  private step(fn: (router: RestRouter) => void): this {
    this.steps.push(fn);
    return this;
  }
}

/**
 * A resource under a `restApi` prefix, with xp-forge's `new RestApi($api, $base)`: `base` is a path
 * prefix taken off the request before the resource's own paths are matched.
 */
export interface RestApiEntry {
  readonly api: object | RestRouter;
  /** E.g. `/api/1.0`: the resource declares `@Path('/orders')` and answers `/api/1.0/orders`. */
  readonly base?: string;
}

/**
 * An application's route map, like xp-forge's `routes()`: each path prefix names the resource (or
 * router) that answers requests under it. The resources' paths are whole request paths, as in
 * xp-forge (`'/users' => new RestApi(new Users())` with `#[Get('/users/{id}')]`); give a `base` to
 * have it taken off first. A request under a prefix that no route matches gets that router's
 * not-found handlers (or the JSON 404); one under no prefix the JSON 404.
 *
 * @example
 * ```ts
 * const app = restApi({
 *   '/users': new Users(),                                    // @Path('/users') … answers /users/7
 *   '/api/1.0': { api: new Orders(), base: '/api/1.0' },      // @Path('/orders') … answers /api/1.0/orders
 *   '/admin': createRestRouter().register(Admin).notFound(() => Response.notFound('No such admin page')),
 * });
 * ```
 */
export function restApi(routes: Readonly<Record<string, object | RestRouter | RestApiEntry>>, options: RestRouterOptions = {}): Hono {
  const app = new Hono({ getPath: restGetPath });
  const mounted = Object.entries(routes).map(([key, target]) => {
    const prefix = joinPaths(key);
    const entry: RestApiEntry = isEntry(target) ? target : { api: target };
    const router = entry.api instanceof RestRouter ? entry.api : new RestRouter(options).register(entry.api);
    const base = joinPaths(entry.base);
    for (const route of router.routes()) {
      const path = joinPaths(base, route.path);
      if (!isUnder(path, prefix)) {
        throw new RegistrationError(
          `restApi: ${route.className}.${route.methodName} answers ${route.verb} ${path}, outside its prefix ${prefix} ` +
            '(give the entry a base to have one taken off)',
        );
      }
    }
    const routerApp = router.app();
    app.route(base, routerApp);
    return { prefix, routerApp };
  });
  // The longest prefix is the most specific owner of a path.
  mounted.sort((a, b) => b.prefix.length - a.prefix.length);
  app.notFound((c) => {
    const owner = mounted.find((m) => isUnder(c.req.path, m.prefix));
    // The owner's own app routes nothing here (its routes are mounted above), so it answers with its
    // not-found handlers.
    return owner ? owner.routerApp.fetch(c.req.raw, c.env) : errorResponse({ status: 404, message: 'Not Found' });
  });
  return app;
}

/** An entry is a plain `{ api, base }` literal; a resource is an instance of its class. */
function isEntry(target: object | RestRouter | RestApiEntry): target is RestApiEntry {
  return Object.getPrototypeOf(target) === Object.prototype && 'api' in target;
}

/** Whether `path` is `prefix` or below it, segment-wise (`/users2` is not below `/users`). */
function isUnder(path: string, prefix: string): boolean {
  return prefix === '/' || path === prefix || path.startsWith(`${prefix}/`);
}
