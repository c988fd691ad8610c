/**
 * @module
 * `/docs`: an interactive API reference (Swagger UI) for every generated OpenAPI
 * document of the running services. The UI's assets come from `swagger-ui-dist` in
 * node_modules (no CDN, so it works offline and behind strict egress rules), and each
 * document is served with its `servers` pointed at this server's own origin, so
 * "Try it out" calls the server that served the page.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { Hono } from 'hono';

/** One OpenAPI document shown on the page. */
export interface ApiDocument {
  /** URL-safe id: the document is served at `/docs/openapi/<id>.json`. */
  readonly id: string;
  /** Name in the page's API selector. */
  readonly title: string;
  /** Absolute path of the generated `*.openapi.json`. */
  readonly file: string;
  /**
   * The server demands `Authorization: Bearer …` on every operation (`SYSTEM_TOKEN`): the served
   * document declares it, so Swagger UI offers "Authorize" and sends the token with "Try it out".
   */
  readonly bearerAuth?: boolean;
}

/** Options of {@link docsRoutes}. */
export interface DocsOptions {
  readonly documents: readonly ApiDocument[];
  /**
   * Origin for the documents' `servers`; unset means the origin of each request, which
   * is what the browser used to reach the page.
   */
  readonly publicUrl?: string;
  /** Directory of swagger-ui-dist. @default resolved from node_modules */
  readonly assetsDir?: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The `/docs` routes: the page, the UI's assets and the documents.
 *
 * @example
 * ```ts
 * app.route('/', docsRoutes({ documents: [{ id: 'issues', title: 'Issues API', file: '/app/generated/issues/openapi.openapi.json' }] }));
 * // GET /docs                    → the Swagger UI page, one entry per document
 * // GET /docs/openapi/issues.json → the document, servers: [{ url: 'http://localhost:3000/api/v1' }]
 * ```
 */
export function docsRoutes(options: DocsOptions): Hono {
  const assetsDir = options.assetsDir ?? swaggerUiDir();
  // Only files that exist in the package directory are served: a fixed allow-list,
  // so no request path can walk out of it.
  let assetNames: Promise<ReadonlySet<string>> | undefined;
  const assets = () => (assetNames ??= readdir(assetsDir).then((names) => new Set(names.filter((name) => extname(name) in CONTENT_TYPES))));
  const documents = new Map(options.documents.map((doc) => [doc.id, doc]));
  const app = new Hono();

  const page = async () => {
    const available = await availableDocuments(options.documents);
    return pageHtml(available);
  };
  app.get('/docs', async (c) => c.html(await page()));
  app.get('/docs/', async (c) => c.html(await page()));

  app.get('/docs/init.js', async (c) => {
    const available = await availableDocuments(options.documents);
    c.header('Content-Type', CONTENT_TYPES['.js']!);
    c.header('Cache-Control', 'no-cache');
    return c.body(initScript(available));
  });

  app.get('/docs/assets/:name', async (c) => {
    const name = c.req.param('name');
    if (!(await assets()).has(name)) return c.json({ error: 'not_found', message: `no asset ${name}` }, 404);
    const bytes = await readFile(join(assetsDir, name));
    c.header('Content-Type', CONTENT_TYPES[extname(name)]!);
    // The assets only change with the installed swagger-ui-dist version.
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(bytes);
  });

  app.get('/docs/openapi/:file', async (c) => {
    const file = c.req.param('file');
    const doc = file.endsWith('.json') ? documents.get(file.slice(0, -'.json'.length)) : undefined;
    if (doc === undefined) return c.json({ error: 'not_found', message: `no API document ${file}` }, 404);
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(await readFile(doc.file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      return c.json(
        {
          error: 'unavailable',
          message: missing
            ? `${doc.title}: the OpenAPI document has not been generated yet; run npm run generate`
            : `${doc.title}: the OpenAPI document is not valid JSON`,
        },
        503,
      );
    }
    const origin = options.publicUrl ?? new URL(c.req.url).origin;
    c.header('Cache-Control', 'no-cache');
    const served = withServers(parsed, origin);
    return c.json(doc.bearerAuth === true ? withBearerAuth(served) : served);
  });
  return app;
}

/**
 * Points a document's `servers` at `origin`: relative server URLs (`/api/v1`) are
 * resolved against it and absolute ones keep their path on the new origin, so the
 * base path written in the schema survives.
 *
 * @example
 * ```ts
 * withServers({ openapi: '3.1.0', servers: [{ url: '/api/v1' }] }, 'http://localhost:3000').servers;
 * // [{ url: 'http://localhost:3000/api/v1' }]
 * ```
 */
export function withServers(document: Record<string, unknown>, origin: string): Record<string, unknown> {
  const declared = Array.isArray(document['servers']) ? (document['servers'] as { url?: unknown; description?: unknown }[]) : [];
  const paths = declared
    .map((server) => (typeof server.url === 'string' ? serverPath(server.url) : ''))
    .filter((path, i, all) => all.indexOf(path) === i);
  const servers = (paths.length === 0 ? [''] : paths).map((path) => ({ url: `${origin}${path}`, description: 'This server' }));
  return { ...document, servers };
}

/**
 * Declares a bearer token required on every operation (an `http`/`bearer` security scheme
 * named `bearerToken`, applied document-wide).
 *
 * @example
 * ```ts
 * withBearerAuth({ openapi: '3.1.0' }).security; // [{ bearerToken: [] }]
 * ```
 */
export function withBearerAuth(document: Record<string, unknown>): Record<string, unknown> {
  const components = (
    typeof document['components'] === 'object' && document['components'] !== null ? document['components'] : {}
  ) as Record<string, unknown>;
  const schemes = (
    typeof components['securitySchemes'] === 'object' && components['securitySchemes'] !== null ? components['securitySchemes'] : {}
  ) as Record<string, unknown>;
  return {
    ...document,
    components: {
      ...components,
      securitySchemes: {
        ...schemes,
        bearerToken: { type: 'http', scheme: 'bearer', description: 'The SYSTEM_TOKEN the server was started with.' },
      },
    },
    security: [{ bearerToken: [] }],
  };
}

function serverPath(url: string): string {
  let path: string;
  try {
    path = new URL(url, 'http://placeholder').pathname;
  } catch {
    return '';
  }
  return path.replace(/\/+$/, '');
}

async function availableDocuments(documents: readonly ApiDocument[]): Promise<readonly ApiDocument[]> {
  const found = await Promise.all(
    documents.map((doc) =>
      readFile(doc.file).then(
        () => true,
        () => false,
      ),
    ),
  );
  return documents.filter((_, i) => found[i]);
}

function swaggerUiDir(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('swagger-ui-dist/package.json'));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function pageHtml(documents: readonly ApiDocument[]): string {
  const notice =
    documents.length === 0
      ? '<p class="loom-notice">No OpenAPI documents have been generated yet. Run <code>npm run generate</code> and reload.</p>'
      : '';
  const titles = documents.map((doc) => escapeHtml(doc.title)).join(' · ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Loom API reference${titles === '' ? '' : ` — ${titles}`}</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
    <style>body { margin: 0 } .loom-notice { font: 16px sans-serif; margin: 2em }</style>
  </head>
  <body>
    ${notice}
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;
}

/**
 * The initializer as its own script (not inline) so the page works under a
 * Content-Security-Policy without `unsafe-inline`. `?api=<id>` opens that document first.
 */
function initScript(documents: readonly ApiDocument[]): string {
  const urls = documents.map((doc) => ({ url: `/docs/openapi/${doc.id}.json`, name: doc.title, id: doc.id }));
  return `// Generated by the Loom server for /docs.
(function () {
  var urls = ${JSON.stringify(urls)};
  if (urls.length === 0) return;
  var wanted = new URLSearchParams(window.location.search).get('api');
  var primary = urls.filter(function (u) { return u.id === wanted; })[0] || urls[0];
  window.ui = SwaggerUIBundle({
    urls: urls.map(function (u) { return { url: u.url, name: u.name }; }),
    'urls.primaryName': primary.name,
    dom_id: '#swagger-ui',
    deepLinking: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout'
  });
})();
`;
}
