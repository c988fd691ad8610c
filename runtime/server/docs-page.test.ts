import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docsRoutes, withBearerAuth, withServers } from './docs-page.js';

const dir = mkdtempSync(join(tmpdir(), 'loom-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const issuesFile = join(dir, 'issues.openapi.json');
writeFileSync(
  issuesFile,
  JSON.stringify({ openapi: '3.1.0', info: { title: 'Issues', version: '1' }, servers: [{ url: '/api/v1' }], paths: {} }),
);
const documents = [
  { id: 'issues', title: 'Issues API', file: issuesFile },
  { id: 'system', title: 'System service', file: join(dir, 'missing.openapi.json') },
];

describe('withServers', () => {
  it('resolves relative servers against the origin and moves absolute ones onto it', () => {
    expect(withServers({ servers: [{ url: '/api/v1' }] }, 'http://localhost:3000').servers).toEqual([
      { url: 'http://localhost:3000/api/v1', description: 'This server' },
    ]);
    expect(withServers({ servers: [{ url: 'https://gitea.example.com/api/v1/' }] }, 'http://127.0.0.1:4000').servers).toEqual([
      { url: 'http://127.0.0.1:4000/api/v1', description: 'This server' },
    ]);
    expect(withServers({ openapi: '3.1.0' }, 'http://h:1')).toEqual({
      openapi: '3.1.0',
      servers: [{ url: 'http://h:1', description: 'This server' }],
    });
  });
});

describe('withBearerAuth', () => {
  it('adds a bearer scheme required on every operation, keeping existing schemes', () => {
    const doc = withBearerAuth({
      openapi: '3.1.0',
      components: { schemas: { A: {} }, securitySchemes: { basic: { type: 'http', scheme: 'basic' } } },
    });
    expect(doc).toEqual({
      openapi: '3.1.0',
      components: {
        schemas: { A: {} },
        securitySchemes: {
          basic: { type: 'http', scheme: 'basic' },
          bearerToken: { type: 'http', scheme: 'bearer', description: 'The SYSTEM_TOKEN the server was started with.' },
        },
      },
      security: [{ bearerToken: [] }],
    });
  });
});

describe('docsRoutes', () => {
  const app = docsRoutes({ documents });

  it('serves a page that loads Swagger UI from /docs/assets', async () => {
    const res = await app.request('http://localhost:3000/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    const html = await res.text();
    expect(html).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/docs/assets/swagger-ui.css">');
    expect(html).toContain('<title>Loom API reference — Issues API</title>');
  });

  it('lists only the documents that exist in the initializer', async () => {
    const res = await app.request('http://localhost:3000/docs/init.js');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await res.text();
    expect(script).toContain('var urls = [{"url":"/docs/openapi/issues.json","name":"Issues API","id":"issues"}];');
  });

  it('serves the swagger-ui-dist assets and nothing outside them', async () => {
    const bundle = await app.request('http://localhost:3000/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    for (const path of ['/docs/assets/package.json', '/docs/assets/..%2Fpackage.json', '/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json']) {
      const res = await app.request(`http://localhost:3000${path}`);
      expect(res.status, path).toBe(404);
    }
  });

  it('serves a document with servers pointing at the requesting origin', async () => {
    const res = await app.request('http://127.0.0.1:4567/docs/openapi/issues.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      openapi: '3.1.0',
      info: { title: 'Issues', version: '1' },
      servers: [{ url: 'http://127.0.0.1:4567/api/v1', description: 'This server' }],
      paths: {},
    });
  });

  it('prefers the configured public URL over the request origin', async () => {
    const proxied = docsRoutes({ documents, publicUrl: 'https://loom.example.com' });
    const body = (await (await proxied.request('http://10.0.0.5:3000/docs/openapi/issues.json')).json()) as { servers: unknown };
    expect(body.servers).toEqual([{ url: 'https://loom.example.com/api/v1', description: 'This server' }]);
  });

  it('says what to do when a document has not been generated', async () => {
    const res = await app.request('http://localhost:3000/docs/openapi/system.json');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: 'unavailable',
      message: 'System service: the OpenAPI document has not been generated yet; run npm run generate',
    });
    expect((await app.request('http://localhost:3000/docs/openapi/nope.json')).status).toBe(404);
  });
});
