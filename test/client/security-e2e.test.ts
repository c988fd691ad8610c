/**
 * Security carried through (#23): the schemes and requirements of a description reach the emitted
 * document, the server stubs (`@Security`, read by the authentication through `route.security`) and
 * the generated client, which sends each kind of credential (bearer, basic, API key in a header, the
 * query or a cookie), set once, only to the operations that ask for it.
 */

import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ServerType } from '@hono/node-server';
import { serve } from '@hono/node-server';
import type { Context } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openapiDocEmitter } from '../../generator/emitters/openapi-doc/document.js';
import { loadSchemas, memoryFileSystem } from '../../generator/loaders/index.js';
import type { AuthenticationProvider, RouteInfo } from '../../runtime/rest/index.js';
import { createRestRouter } from '../../runtime/rest/index.js';
import { emitInline, generateInline } from '../support/generate-inline.js';

/** The answer of every operation below: a JSON object. */
const OK = `{ '200': { description: ok, content: { application/json: { schema: { type: object } } } } }`;

const API = `openapi: 3.1.0
info: { title: Vault, version: '1' }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer, bearerFormat: JWT }
    basic: { type: http, scheme: basic }
    headerKey: { type: apiKey, in: header, name: X-API-Key }
    queryKey: { type: apiKey, in: query, name: api_key }
    cookieKey: { type: apiKey, in: cookie, name: session }
security:
  - bearer: []
paths:
  /public:
    get: { operationId: open, security: [], responses: ${OK} }
  /bearer:
    get: { operationId: withBearer, responses: ${OK} }
  /basic:
    get: { operationId: withBasic, security: [{ basic: [] }], responses: ${OK} }
  /header:
    get: { operationId: withHeaderKey, security: [{ headerKey: [] }], responses: ${OK} }
  /query:
    get: { operationId: withQueryKey, security: [{ queryKey: [] }], responses: ${OK} }
  /cookie:
    get: { operationId: withCookieKey, security: [{ cookieKey: [] }], responses: ${OK} }
  /either:
    get: { operationId: withEither, security: [{ headerKey: [], queryKey: [] }, { basic: [] }], responses: ${OK} }
`;

/** What a request carried: the credentials anywhere they could travel. */
function seen(c: Context): Record<string, string | undefined> {
  return {
    authorization: c.req.header('authorization'),
    apiKey: c.req.header('x-api-key'),
    query: c.req.query('api_key'),
    cookie: c.req.header('cookie'),
  };
}

let server: ServerType;
let client: Record<string, (input?: object) => Promise<Record<string, unknown>>>;
let anonymous: Record<string, (input?: object) => Promise<Record<string, unknown>>>;
let cleanup: () => void;
/** `route.security` as the authentication saw it, by path. */
const required = new Map<string, RouteInfo['security']>();

beforeAll(async () => {
  const generated = await generateInline('security-e2e', { 'vault.yaml': API });
  cleanup = generated.cleanup;
  const routes = await import(/* @vite-ignore */ join(generated.dir, 'vault.server.ts'));
  const clients = await import(/* @vite-ignore */ join(generated.dir, 'vault.client.ts'));
  let context: Context | undefined;
  // Records what each route requires and lets every request through: the handlers report what arrived.
  const authentication: AuthenticationProvider<string> = {
    provideCredentials: (c, route) => {
      context = c;
      required.set(route!.path, route!.security);
      return 'anyone';
    },
    authenticate: (name) => ({ name }),
  };
  const handler = async () => seen(context!);
  const router = createRestRouter()
    .authenticateWith(authentication)
    .register(
      new routes.VaultRoutes({
        open: handler,
        withBearer: handler,
        withBasic: handler,
        withHeaderKey: handler,
        withQueryKey: handler,
        withCookieKey: handler,
        withEither: handler,
      }),
    );
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: router.app().fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new clients.VaultClient({
    baseUrl,
    credentials: {
      bearer: 'jwt-1',
      basic: { username: 'ada', password: 'pässword' },
      headerKey: 'key-h',
      queryKey: () => 'key-q',
      cookieKey: 'key c',
    },
  });
  anonymous = new clients.VaultClient({ baseUrl });
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  cleanup?.();
});

const nothing = { authorization: undefined, apiKey: undefined, query: undefined, cookie: undefined };

describe('the generated client', () => {
  it('sends a bearer token where the document requires one, and nothing where an operation lifts it', async () => {
    expect(await client.withBearer!()).toEqual({ ...nothing, authorization: 'Bearer jwt-1' });
    expect(await client.open!()).toEqual(nothing);
  });

  it('sends basic credentials as user:password in base64 (UTF-8)', async () => {
    const sent = await client.withBasic!();
    expect(sent).toEqual({ ...nothing, authorization: `Basic ${Buffer.from('ada:pässword').toString('base64')}` });
  });

  it('sends API keys in a header, the query and a cookie, each only where asked', async () => {
    expect(await client.withHeaderKey!()).toEqual({ ...nothing, apiKey: 'key-h' });
    expect(await client.withQueryKey!()).toEqual({ ...nothing, query: 'key-q' });
    expect(await client.withCookieKey!()).toEqual({ ...nothing, cookie: 'session=key%20c' });
  });

  it('satisfies the first requirement it can, with every scheme that requirement names', async () => {
    expect(await client.withEither!()).toEqual({ ...nothing, apiKey: 'key-h', query: 'key-q' });
  });

  it('sends nothing without credentials', async () => {
    expect(await anonymous.withBearer!()).toEqual(nothing);
  });
});

describe('the server stubs', () => {
  it("give the runtime's authentication each route's requirement", () => {
    expect(required.get('/bearer')).toEqual([{ bearer: [] }]);
    expect(required.get('/either')).toEqual([{ headerKey: [], queryKey: [] }, { basic: [] }]);
    // Anonymous by its own `security: []`: nothing required.
    expect(required.get('/public')).toBeUndefined();
  });
});

describe('the emitted document', () => {
  it('keeps the schemes, the document-wide requirement and the operations that differ from it', async () => {
    const out = await emitInline({ 'vault.yaml': API }, [openapiDocEmitter]);
    // The document as plain JSON, read by path: the test states its shape below.
    const doc = JSON.parse(out.get('vault.openapi.json')!) as {
      components: { securitySchemes: unknown };
      security: unknown;
      paths: Record<string, { get: { security?: unknown } }>;
    };
    expect(doc.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      basic: { type: 'http', scheme: 'basic' },
      headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
    });
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/bearer']!.get.security).toBeUndefined();
    expect(doc.paths['/public']!.get.security).toEqual([]);
    expect(doc.paths['/basic']!.get.security).toEqual([{ basic: [] }]);
  });

  it("reads Swagger 2.0's securityDefinitions as OpenAPI 3 schemes", async () => {
    const swagger = JSON.stringify({
      swagger: '2.0',
      info: { title: 'Old', version: '1' },
      securityDefinitions: {
        basic: { type: 'basic' },
        token: { type: 'apiKey', in: 'header', name: 'Authorization' },
        oauth: {
          type: 'oauth2',
          flow: 'accessCode',
          authorizationUrl: 'https://a/auth',
          tokenUrl: 'https://a/token',
          scopes: { repo: 'repositories' },
        },
      },
      security: [{ basic: [] }, { token: [] }],
      paths: { '/x': { get: { operationId: 'x', security: [{ oauth: ['repo'] }], responses: { 200: { description: 'ok' } } } } },
    });
    const [file] = await loadSchemas(['/s/old.json'], { root: '/s', fileSystem: memoryFileSystem({ 'old.json': swagger }, '/s') });
    expect(file!.securitySchemes).toEqual([
      { kind: 'http', name: 'basic', scheme: 'basic' },
      { kind: 'apiKey', name: 'token', in: 'header', parameter: 'Authorization' },
      {
        kind: 'oauth2',
        name: 'oauth',
        flows: { authorizationCode: { scopes: { repo: 'repositories' }, authorizationUrl: 'https://a/auth', tokenUrl: 'https://a/token' } },
      },
    ]);
    expect(file!.security).toEqual([{ schemes: { basic: [] } }, { schemes: { token: [] } }]);
    expect(file!.services[0]!.operations[0]).toMatchObject({ security: [{ schemes: { oauth: ['repo'] } }] });
  });
});
