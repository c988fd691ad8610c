/**
 * @module
 * `RestBuilder`: the fluent way to configure a router and get its Hono app, plus `restApi` for
 * mounting several resources under path prefixes (xp-forge's `routes()` map).
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { CorsOptions, RestRouterOptions, SchemaCompiler } from './config.js';
import { RegistrationError } from './errors.js';
import { restGetPath } from './hono/bind.js';
import { RestRouter } from './router.js';
import type {
  AuthenticationProvider, AuthorizationProvider, Class, ContextProvider, ExceptionHandler, InjectionProvider,
  ResponseWriter, ValueReader,
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
  reader(typeOrMime: Class | string | ValueReader, reader?: ValueReader): this {
    return this.step((r) => r.reader(typeOrMime, reader));
  }
  writer(typeOrMime: Class | string | ResponseWriter, writer?: ResponseWriter): this {
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
 * Mounts resources under path prefixes, like xp-forge's `routes()` map.
 *
 * @example
 * ```ts
 * const app = restApi({ '/users': new Users(), '/admin': createRestRouter().register(Admin) });
 * ```
 */
export function restApi(routes: Readonly<Record<string, object | RestRouter>>, options: RestRouterOptions = {}): Hono {
  const app = new Hono({ getPath: restGetPath });
  for (const [prefix, target] of Object.entries(routes)) {
    const router = target instanceof RestRouter ? target : new RestRouter(options).register(target);
    router.mount(app, prefix);
  }
  return app;
}
