/**
 * @module
 * The Hono binding: builds one Hono app from a router's compiled routes, CORS, pushed context
 * providers, not-found handlers and the default error answer. Nothing here is shared between apps.
 */

import type { Context, Handler, MiddlewareHandler } from 'hono';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { getPath } from 'hono/utils/url';
import type { CorsOptions, RouterState } from '../config.js';
import { errorResponse } from '../errors.js';
import { createNegotiator } from '../io/negotiate.js';
import { RestResponse } from '../response.js';
import { defaultErrorResponse, handleError } from './catch.js';
import type { CompiledRoute } from './compile.js';
import { Exchange, PUSHED_KEY, stripMatrix } from './exchange.js';
import { compareSpecificity } from './path.js';
import { compileWritePlan, writeResult } from './write.js';

/**
 * Hono's path extraction without matrix parameters (`/cars;color=red/2024` routes as `/cars/2024`).
 * Pass it to your own app (`new Hono({ getPath: restGetPath })`) when you mount a router with matrix
 * parameters in static segments.
 */
export function restGetPath(request: Request): string {
  const path = getPath(request);
  return path.includes(';') ? stripMatrix(path) : path;
}

/** Hono's `origin` option from ours: `'*'`, a list of exact origins, or a pattern (a string is one too). */
function allowedOrigins(origin: CorsOptions['origin'] = '*'): string | string[] | ((origin: string) => string | null) {
  if (origin === '*') return '*';
  if (typeof origin !== 'string' && !(origin instanceof RegExp)) return [...origin];
  const re = origin instanceof RegExp ? origin : new RegExp(`^(?:${origin})$`);
  return (o) => (re.test(o) ? o : null);
}

/**
 * CORS: Hono's middleware answers preflights (an `OPTIONS` with `Access-Control-Request-Method`)
 * and decorates every other response. Hono takes every `OPTIONS` for a preflight, so a plain one is
 * passed to its route here, with the headers of a simple request.
 */
function corsMiddleware(options: CorsOptions): MiddlewareHandler {
  const origins = allowedOrigins(options.origin);
  const handle = honoCors(options, origins);
  const expose = [...(options.exposeHeaders ?? [])];
  return async function restCors(c, next) {
    if (c.req.method !== 'OPTIONS' || c.req.header('access-control-request-method') !== undefined) return handle(c, next);
    await next();
    const origin = c.req.header('origin');
    const allowed =
      origin === undefined
        ? undefined
        : typeof origins === 'string'
          ? origins
          : Array.isArray(origins)
            ? origins.includes(origin)
              ? origin
              : undefined
            : (origins(origin) ?? undefined);
    if (allowed === undefined) return;
    c.res.headers.set('Access-Control-Allow-Origin', allowed);
    if (allowed !== '*') c.res.headers.append('Vary', 'Origin');
    if (options.allowCredentials) c.res.headers.set('Access-Control-Allow-Credentials', 'true');
    if (expose.length > 0) c.res.headers.set('Access-Control-Expose-Headers', expose.join(','));
  };
}

function honoCors(options: CorsOptions, origins: ReturnType<typeof allowedOrigins>): MiddlewareHandler {
  return cors({
    origin: origins,
    credentials: options.allowCredentials ?? false,
    ...(options.maxAge !== undefined ? { maxAge: options.maxAge } : {}),
    allowHeaders: [...(options.allowHeaders ?? ['Content-Type', 'Authorization'])],
    allowMethods:
      options.methods && options.methods.length > 0
        ? [...options.methods]
        : ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'],
    exposeHeaders: [...(options.exposeHeaders ?? [])],
  });
}

const NOT_FOUND_INFO = {
  className: '',
  methodName: 'notFound',
  verb: 'GET',
  path: '',
  consumes: [],
  produces: [],
  status: 404,
  order: 0,
} as const;

/**
 * The order routes are tried in: lower `@RouteOrder` first; then literal segments before variables
 * (`/issues/pinned` before `/issues/{index}`); then explicit HEAD routes before GET ones; then
 * registration order.
 */
export function sortRoutes(routes: readonly CompiledRoute[]): CompiledRoute[] {
  return [...routes].sort(
    (a, b) =>
      a.info.order - b.info.order ||
      compareSpecificity(a.template, b.template) ||
      (a.info.verb === 'HEAD' ? 0 : 1) - (b.info.verb === 'HEAD' ? 0 : 1) ||
      a.sequence - b.sequence,
  );
}

/** Builds the Hono app of a router. */
export function buildApp(routes: readonly CompiledRoute[], state: RouterState): Hono {
  const app = new Hono({ getPath: restGetPath });
  if (state.cors) app.use('*', corsMiddleware(state.cors));
  if (state.pushed.size > 0) {
    const pushed = [...state.pushed];
    app.use('*', async (c, next) => {
      const map = c.get(PUSHED_KEY) ?? new Map<unknown, unknown>();
      for (const [token, provider] of pushed) map.set(token, await (typeof provider === 'function' ? provider(c) : provider.provide(c)));
      c.set(PUSHED_KEY, map);
      await next();
    });
  }
  // Hono's handler type splits `Promise<Response>` from `Promise<void>`; a route's may be either.
  for (const route of sortRoutes(routes))
    app.on(route.info.verb === 'HEAD' ? 'GET' : route.info.verb, route.honoPath, route.handler as Handler);

  const plainPlan = compileWritePlan(state, {
    status: 404,
    staticHeaders: [],
    produces: [],
    negotiate: createNegotiator(['application/json']),
  });
  const entries = [...state.notFound.filter((e) => e.pattern), ...state.notFound.filter((e) => !e.pattern)];
  app.notFound(async (c: Context) => {
    const entry = entries.find((e) => !e.pattern || e.pattern.test(c.req.path));
    if (!entry) return errorResponse({ status: 404, message: 'Not Found' }, state.jsonType, state.defaultHeaders);
    const x = new Exchange(c, NOT_FOUND_INFO);
    try {
      const out = await entry.handler(c);
      if (out instanceof globalThis.Response) return out;
      return await writeResult(plainPlan, x, out instanceof RestResponse ? out : RestResponse.status(404).entity(out));
    } catch (error) {
      return handleError(error, c, [], true, state, async (r) => writeResult(plainPlan, x, r));
    }
  });
  app.onError((error, c) => defaultErrorResponse(error, state, c));
  return app;
}
