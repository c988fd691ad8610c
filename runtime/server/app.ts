/**
 * @module
 * The shared Hono app: request ids and access logs on every route, the health checks,
 * `/docs`, and each service's routes. JSON answers for unknown routes and unexpected
 * errors, so no client ever gets an HTML stack trace.
 */
import { Hono } from 'hono';
import { giteaRequestPath } from '../issues/api/request-path.js';
import { docsRoutes } from './docs-page.js';
import { healthRoutes } from './health.js';
import type { Logger } from './logger.js';
import { requestLog } from './request-log.js';
import type { ServiceModule } from './service-module.js';

/** Options of {@link createServerApp}. */
export interface ServerAppOptions {
  readonly logger: Logger;
  readonly modules: readonly ServiceModule[];
  /** True once shutdown began (`/readyz` turns 503). */
  readonly isDraining: () => boolean;
  /** Origin for `/docs` documents; unset means each request's own origin. */
  readonly publicUrl?: string;
}

/**
 * Builds the app every service is mounted on.
 *
 * @example
 * ```ts
 * const app = createServerApp({ logger, modules, isDraining: () => false });
 * const res = await app.request('/healthz'); // 200 {"status":"ok"}
 * ```
 */
export function createServerApp({ logger, modules, isDraining, publicUrl }: ServerAppOptions): Hono {
  // Routed as Gitea routes: trailing slashes dropped, runs of slashes collapsed. Gitea clients
  // given a base URL that ends in `/` ask for `//api/v1/…` (gitea-js appends `/api/v1`), which
  // must reach the Issues API as it reaches Gitea; the server's own routes take it as kindly.
  const app = new Hono({ getPath: giteaRequestPath });
  app.use(requestLog({ logger }));
  app.route('/', healthRoutes({ checks: () => modules.flatMap((module) => module.checks), isDraining }));
  app.route('/', docsRoutes({ documents: modules.flatMap((module) => module.documents), publicUrl }));
  for (const module of modules) module.mount(app);
  app.get('/', (c) => c.redirect('/docs'));
  app.notFound((c) => c.json({ error: 'not_found', message: `no route for ${c.req.method} ${c.req.path}` }, 404));
  // The error itself is logged by requestLog (Hono keeps it in `c.error`) with the request id;
  // the client gets the id to quote, not our internals.
  app.onError((_error, c) => c.json({ error: 'internal', message: 'internal server error', requestId: c.get('requestId') }, 500));
  return app;
}
