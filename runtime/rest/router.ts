/**
 * @module
 * `createRestRouter`: registers decorated classes or instances and builds a Hono app. Each router owns
 * its registries (readers, writers, handlers, providers, singletons); two routers never share state.
 */
import type { Context, Hono } from 'hono';
import type { CorsOptions, RestRouterOptions, RouterState, SchemaCompiler } from './config.js';
import { createState } from './config.js';
import { errorMessage, RegistrationError } from './errors.js';
import { buildApp, sortRoutes } from './hono/bind.js';
import { caughtClasses } from './hono/catch.js';
import type { CompiledRoute, Registered } from './hono/compile.js';
import { compileClass } from './hono/compile.js';
import { bareMime } from './io/negotiate.js';
import type {
  AuthenticationProvider,
  AuthorizationProvider,
  Class,
  ContextProvider,
  ExceptionHandler,
  InjectionProvider,
  Interceptor,
  ResponseWriter,
  RouteInfo,
  TypeKey,
  ValueReader,
} from './types.js';

/**
 * A router of decorated classes.
 *
 * @example
 * ```ts
 * const router = createRestRouter({ prefix: '/api' });
 * router.register(new IssueRoutes(impl), HealthRoutes);
 * serve({ fetch: router.app().fetch, port: 3000 });
 * ```
 */
export class RestRouter {
  private readonly state: RouterState;
  private readonly registered: Registered[] = [];
  private cached: Hono | undefined;

  constructor(options: RestRouterOptions = {}) {
    const json = options.jsonContentType;
    if (json !== undefined && bareMime(json) !== 'application/json') {
      throw new RegistrationError(
        `jsonContentType: ${JSON.stringify(json)} is not application/json ` +
          '(only parameters may be added, as in application/json;charset=utf-8)',
      );
    }
    this.state = createState(options);
  }

  /**
   * Registers instances (used as they are) and classes (created through the injector, cached as
   * singletons unless `@NoCache`). Every decoration is checked now: errors name the class and method.
   */
  register(...targets: (object | Class)[]): this {
    if (targets.length === 0) throw new RegistrationError('register() needs at least one class or instance');
    const added: Registered[] = [];
    for (const target of targets) {
      if (target === null || (typeof target !== 'object' && typeof target !== 'function')) {
        throw new RegistrationError(`register(): ${String(target)} is neither a class nor an instance`);
      }
      const entry: Registered = typeof target === 'function' ? { cls: target } : { cls: target.constructor, instance: target };
      // Compile now so mistakes surface at registration, not on the first request.
      compileClass(entry, this.state, 0);
      added.push(entry);
    }
    this.registered.push(...added);
    return this.changed();
  }

  /**
   * Registers a reader for a class (bodies of that type), a mime (bodies sent with that Content-Type),
   * or, given alone, for each mime in its own `consumes`.
   */
  reader(typeOrMime: TypeKey | string | ValueReader, reader?: ValueReader): this {
    if (typeof typeOrMime === 'object') {
      if (!typeOrMime.consumes?.length) throw new RegistrationError('reader(): a reader registered alone needs `consumes`');
      for (const mime of typeOrMime.consumes) this.state.readers.setMime(mime, typeOrMime);
    } else if (!reader) throw new RegistrationError('reader(): missing reader');
    else if (typeof typeOrMime === 'string') this.state.readers.setMime(typeOrMime, reader);
    else this.state.readers.setType(typeOrMime, reader);
    return this.changed();
  }

  /**
   * Registers a writer for a class (results of that type) or a mime (negotiated on `Accept`); a writer alone is
   * bound by its `produces`.
   */
  writer(typeOrMime: TypeKey | string | ResponseWriter, writer?: ResponseWriter): this {
    if (typeof typeOrMime === 'object') {
      if (!typeOrMime.produces) throw new RegistrationError('writer(): a writer registered alone needs `produces`');
      this.state.writers.setMime(typeOrMime.produces, typeOrMime);
    } else if (!writer) throw new RegistrationError('writer(): missing writer');
    else if (typeof typeOrMime === 'string') this.state.writers.setMime(typeOrMime, writer);
    else this.state.writers.setType(typeOrMime, writer);
    return this.changed();
  }

  /**
   * Global exception handlers, tried in order after method and class handlers. Registering a second
   * handler for exactly the same error class is an error.
   */
  exceptionHandlers(...handlers: ExceptionHandler[]): this {
    for (const h of handlers) {
      for (const cls of caughtClasses(h)) {
        const clash = this.state.exceptionHandlers.find((e) => caughtClasses(e).includes(cls));
        if (clash) throw new RegistrationError(`Exception handler for ${cls.name} already registered`);
      }
      this.state.exceptionHandlers.push(h);
    }
    return this.changed();
  }

  /** A lazy context provider: runs when a `@Context(token)` parameter needs it, at most once per request. */
  addProvider<T>(token: unknown, provider: ContextProvider<T>): this {
    this.state.providers.set(token, provider as ContextProvider);
    return this.changed();
  }

  /** An eager context provider: runs on every request before routing. */
  provide<T>(token: unknown, provider: ContextProvider<T>): this {
    this.state.pushed.set(token, provider as ContextProvider);
    return this.changed();
  }

  /** A not-found handler, for paths matching `pattern` or (without one) for every unmatched request. */
  notFound(pattern: RegExp | string | ((c: Context) => unknown), handler?: (c: Context) => unknown): this {
    if (typeof pattern === 'function') {
      this.state.notFound.push({ handler: pattern });
      return this.changed();
    }
    if (typeof handler !== 'function') throw new RegistrationError(`notFound(${String(pattern)}): a pattern needs a handler`);
    let regex: RegExp;
    try {
      // Without the `g`/`y` flags: those make `test` remember where it stopped, so every other
      // request would miss.
      regex = typeof pattern === 'string' ? new RegExp(pattern) : new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
    } catch (e) {
      throw new RegistrationError(`notFound(${JSON.stringify(pattern)}): ${errorMessage(e)}`);
    }
    this.state.notFound.push({ pattern: regex, handler });
    return this.changed();
  }

  /** Answers CORS preflights and adds CORS headers to every route of this router. */
  enableCors(options: CorsOptions = {}): this {
    // Browsers refuse `Access-Control-Allow-Origin: *` together with credentials: name the origins.
    if (options.allowCredentials && (options.origin === undefined || options.origin === '*')) {
      throw new RegistrationError(
        "enableCors: allowCredentials needs the allowed origins (a list or a pattern), not '*': browsers refuse credentials for any origin",
      );
    }
    this.state.cors = options;
    return this.changed();
  }

  /** The authentication of every route without its own `@Authenticate` (class or method). */
  authenticateWith(provider: AuthenticationProvider): this {
    this.state.authenticate = provider;
    return this.changed();
  }

  /** The authorization of every route without its own `@Authorize` (class or method). */
  authorizeWith(provider: AuthorizationProvider): this {
    this.state.authorize = provider;
    return this.changed();
  }

  /** Creates the classes registered by type (instead of `new Cls()`), e.g. from a DI container. */
  injectWith(injector: InjectionProvider): this {
    this.state.injector = injector;
    return this.changed();
  }

  /** The ajv (or compatible) compiler for `schema` options. */
  validateWith(ajv: SchemaCompiler): this {
    this.state.ajv = ajv;
    return this.changed();
  }

  /** Drops cached singletons: the next request creates registered classes again. */
  clearCache(): this {
    this.state.instances.clear();
    return this;
  }

  /** The routes, in the order they are matched. */
  routes(): RouteInfo[] {
    return sortRoutes(this.compile()).map((r) => r.info);
  }

  /** The Hono app (built once, rebuilt after any change). */
  app(): Hono {
    return (this.cached ??= buildApp(this.compile(), this.state));
  }

  /** Adds the routes to an existing Hono app under `prefix`. */
  mount(app: Hono, prefix = '/'): Hono {
    app.route(prefix, this.app());
    return app;
  }

  /**
   * Interceptors around every route's method (xp-forge's `intercepting`), outermost first; a
   * class's and a method's (`@InterceptWith`) run inside them.
   */
  intercepting(...interceptors: Interceptor[]): this {
    for (const i of interceptors) {
      if (typeof i !== 'function' && typeof (i as { intercept?: unknown })?.intercept !== 'function')
        throw new RegistrationError('intercepting(): an interceptor is a function (invocation, args) or has intercept(invocation, args)');
      this.state.interceptors.push(i);
    }
    return this.changed();
  }

  /** Stops what the Node piece runs for this router (the `@Blocking` worker pools). */
  async close(): Promise<void> {
    await this.state.options.node?.close();
  }

  private compile(): CompiledRoute[] {
    let sequence = 0;
    const routes: CompiledRoute[] = [];
    for (const entry of this.registered) {
      const compiled = compileClass(entry, this.state, sequence);
      sequence += compiled.length;
      routes.push(...compiled);
    }
    return routes;
  }

  private changed(): this {
    this.cached = undefined;
    return this;
  }
}

/**
 * Creates a router.
 *
 * @example
 * ```ts
 * const app = createRestRouter().register(new IssueRoutes(impl)).app();
 * ```
 */
export function createRestRouter(options?: RestRouterOptions): RestRouter {
  return new RestRouter(options);
}
