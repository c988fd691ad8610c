/**
 * @module
 * The security flow against rest.vertx (since 1.0.4): a role check without a user is 403, rejected
 * credentials are 401, an optional authentication lets anonymous callers reach what needs no user;
 * and, over real HTTP, the order route → authentication → roles → authorization → parameters →
 * body, so an anonymous write is refused before its body is read (a body that never ends).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthenticationProvider, RestUser } from '../../runtime/rest/index.js';
import {
  Authorize,
  BodyParam,
  Context,
  createRestRouter,
  DefaultValue,
  DenyAll,
  GET,
  HttpError,
  Path,
  PermitAll,
  POST,
  RolesAllowed,
} from '../../runtime/rest/index.js';
import { call, type Listening, listen } from '../support/rest-answers.js';

const USERS: Record<string, RestUser> = { ada: { name: 'ada', roles: ['admin'] }, bob: { name: 'bob', roles: ['reader'] } };
const bearer = (optional: boolean): AuthenticationProvider<string> => ({
  provideCredentials: (c) => c.req.header('authorization')?.replace(/^Bearer /, ''),
  authenticate: (token) => USERS[token] ?? null,
  optional,
});
const as = (user: string) => ({ headers: { authorization: `Bearer ${user}` } });

@Path('/flow')
class Flow {
  @GET @Path('/me') me(@Context('user') @DefaultValue(null) user: RestUser | null) {
    return { user: user?.name ?? null };
  }
  @GET @Path('/admin') @RolesAllowed('admin') admin() {
    return 'admin';
  }
  @GET @Path('/never') @DenyAll never() {
    return 'never';
  }
  @GET @Path('/open') @PermitAll open(@Context('user') @DefaultValue(null) user: RestUser | null) {
    return { user: user?.name ?? null };
  }
  @GET @Path('/editor') @Authorize({ authorize: (user) => user.name === 'ada' }) editor() {
    return 'edit';
  }
}

describe('no user, wrong user, optional authentication', () => {
  const strict = createRestRouter().authenticateWith(bearer(false)).register(Flow).app();
  const optional = createRestRouter().authenticateWith(bearer(true)).register(Flow).app();

  it('a role check without a user is 403, as rest.vertx answers since 1.0.4', async () => {
    for (const app of [strict, optional]) {
      expect((await call(app, 'GET', '/flow/admin')).status).toBe(403);
      expect((await call(app, 'GET', '/flow/never')).status).toBe(403);
      expect((await call(app, 'GET', '/flow/admin', as('bob'))).status).toBe(403);
      expect((await call(app, 'GET', '/flow/admin', as('ada'))).text).toBe('admin');
    }
  });
  it('credentials that identify nobody are 401, optional or not', async () => {
    for (const app of [strict, optional]) expect((await call(app, 'GET', '/flow/admin', as('eve'))).status).toBe(401);
  });
  it('a route that needs a user is 401 without one, unless authentication is optional', async () => {
    expect((await call(strict, 'GET', '/flow/me')).status).toBe(401);
    expect((await call(optional, 'GET', '/flow/me')).text).toBe('{"user":null}');
    expect((await call(optional, 'GET', '/flow/me', as('bob'))).text).toBe('{"user":"bob"}');
  });
  it('@PermitAll lets anonymous callers in either way', async () => {
    expect((await call(strict, 'GET', '/flow/open')).text).toBe('{"user":null}');
    expect((await call(optional, 'GET', '/flow/open')).text).toBe('{"user":null}');
  });
  it('an authorization provider needs a user: without one 401 (identify first), then it decides', async () => {
    expect((await call(optional, 'GET', '/flow/editor')).status).toBe(401);
    expect((await call(optional, 'GET', '/flow/editor', as('bob'))).status).toBe(403);
    expect((await call(optional, 'GET', '/flow/editor', as('ada'))).text).toBe('edit');
  });
});

@Path('/write')
class Writes {
  static bodiesRead = 0;
  @POST create(@BodyParam() body: unknown) {
    Writes.bodiesRead++;
    return body;
  }
  @POST @Path('/admin') @RolesAllowed('admin') admin(@BodyParam() body: unknown) {
    Writes.bodiesRead++;
    return body;
  }
  @POST
  @Path('/tenant')
  tenant(@Context('tenant') tenant: string, @BodyParam() body: unknown) {
    Writes.bodiesRead++;
    return { tenant, body };
  }
}

/** Sends headers and the start of a body that never ends; resolves with the status once the server answers. */
function stalledWrite(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
    req.write('{"partial":');
  });
}

describe('security and route checks come before the body is read', () => {
  let server: Listening;
  beforeAll(async () => {
    const app = createRestRouter()
      .authenticateWith(bearer(false))
      .addProvider('tenant', () => {
        throw new HttpError(403, 'no tenant');
      })
      .register(Writes)
      .app();
    server = await listen(app);
  });
  afterAll(() => server.close());

  it('an anonymous write gets its 401 while its body is still arriving (declared length)', async () => {
    const status = await stalledWrite(server.port, '/write', { 'content-type': 'application/json', 'content-length': '100000' });
    expect(status).toBe(401);
  });
  it('and so does a chunked one, and a role-protected one gets its 403', async () => {
    expect(await stalledWrite(server.port, '/write', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' })).toBe(401);
    const bob = { ...as('bob').headers, 'content-type': 'application/json', 'content-length': '100000' };
    expect(await stalledWrite(server.port, '/write/admin', bob)).toBe(403);
    expect(Writes.bodiesRead).toBe(0);
  });
  it('a context provider that refuses the request does so before the body is read', async () => {
    const ada = { ...as('ada').headers, 'content-type': 'application/json', 'content-length': '100000' };
    expect(await stalledWrite(server.port, '/write/tenant', ada)).toBe(403);
    expect(Writes.bodiesRead).toBe(0);
  });
});
