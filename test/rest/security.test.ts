/**
 * @module
 * Security (authentication, authorization, roles; method over class over router), events and CORS.
 */
import { describe, expect, it } from 'vitest';
import type { AuthenticationProvider, AuthorizationProvider, RestUser } from '../../runtime/rest/index.js';
import {
  ANY_STATUS,
  Authenticate,
  Authorize,
  BodyParam,
  Context,
  createRestRouter,
  DELETE,
  DefaultValue,
  DenyAll,
  Event,
  Events,
  GET,
  HttpError,
  OPTIONS,
  Path,
  PermitAll,
  POST,
  Produces,
  RestBuilder,
  RolesAllowed,
  Status,
} from '../../runtime/rest/index.js';
import { call } from '../support/rest-answers.js';

const USERS: Record<string, RestUser> = {
  ada: { name: 'ada', roles: ['admin'], authorizations: { docs: ['read', 'write'] } },
  bob: { name: 'bob', roles: ['reader'], authorizations: { docs: ['read'] } },
};
const bearer: AuthenticationProvider<string> = {
  provideCredentials: (c) => c.req.header('authorization')?.replace(/^Bearer /, ''),
  authenticate: (token) => USERS[token] ?? null,
};
const apiKey: AuthenticationProvider<string> = {
  provideCredentials: (c) => c.req.header('x-api-key'),
  authenticate: (key) => (key === 'k1' ? { name: 'service', roles: ['service'] } : null),
};
const canWrite: AuthorizationProvider = { id: 'docs', authorize: (user) => (user.authorizations?.['docs'] ?? []).includes('write') };
const failing: AuthenticationProvider = {
  provideCredentials: () => 'x',
  authenticate: () => {
    throw new HttpError(400, 'malformed credentials');
  },
};

@Path('/sec')
@RolesAllowed('admin', 'reader')
class Secured {
  @GET @Path('/me') me(@Context('user') user: RestUser) {
    return { name: user.name };
  }
  @GET @Path('/admin') @RolesAllowed('admin') admin() {
    return 'admin only';
  }
  @GET @Path('/open') @PermitAll open(@Context('user') @DefaultValue(null) user: RestUser | null) {
    return { user: user?.name ?? null };
  }
  @DELETE @Path('/all') @DenyAll all() {
    return 'never';
  }
  @POST @Path('/write') @Authorize(canWrite) write() {
    return 'written';
  }
  @GET @Path('/service') @Authenticate(apiKey) @RolesAllowed('service') service() {
    return 'service';
  }
  @GET @Path('/broken') @Authenticate(failing) broken() {
    return 'never';
  }
  @GET @Path('/public') @Authenticate(null) @PermitAll publicRoute() {
    return 'public';
  }
  @GET @Path('/json') @Produces('application/json') json() {
    return { ok: true };
  }
}

describe('authentication, authorization and roles', () => {
  const app = createRestRouter().authenticateWith(bearer).register(new Secured()).app();
  const as = (user: string) => ({ headers: { authorization: `Bearer ${user}` } });
  it('security comes before content negotiation: an anonymous caller gets 403 (roles) or 401, not 406', async () => {
    expect((await call(app, 'GET', '/sec/json', { headers: { accept: 'text/html' } })).status).toBe(403);
    expect((await call(app, 'GET', '/sec/json', { headers: { accept: 'text/html', ...as('eve').headers } })).status).toBe(401);
    expect((await call(app, 'GET', '/sec/json', { headers: { accept: 'text/html', ...as('bob').headers } })).status).toBe(406);
  });
  it('no credentials on a role-protected route is 403, as rest.vertx answers since 1.0.4 (not 401)', async () => {
    const r = await call(app, 'GET', '/sec/me');
    expect([r.status, r.text]).toEqual([403, '{"status":403,"message":"Forbidden"}']);
  });
  it('unknown credentials are 401 in the default shape, role-protected or not', async () => {
    const r = await call(app, 'GET', '/sec/me', as('eve'));
    expect([r.status, r.text]).toEqual([401, '{"status":401,"message":"Unauthorized"}']);
  });
  it('an authenticated user with a class role passes and is injected', async () => {
    expect((await call(app, 'GET', '/sec/me', as('bob'))).text).toBe('{"name":"bob"}');
  });
  it('a method @RolesAllowed overrides the class one: wrong role is 403', async () => {
    const r = await call(app, 'GET', '/sec/admin', as('bob'));
    expect([r.status, r.text]).toEqual([403, '{"status":403,"message":"Forbidden"}']);
    expect((await call(app, 'GET', '/sec/admin', as('ada'))).text).toBe('admin only');
  });
  it('a missing user where one is injected without a default is 400', async () => {
    @Path('/u')
    class U {
      @GET get(@Context('user') user: RestUser) {
        return user;
      }
    }
    const r = await call(createRestRouter().register(U).app(), 'GET', '/u');
    expect(r.json()).toMatchObject({ status: 400, violations: [{ location: 'context', name: 'user' }] });
  });
  it('@PermitAll lets anyone in and still identifies a user when possible', async () => {
    expect((await call(app, 'GET', '/sec/open')).text).toBe('{"user":null}');
    expect((await call(app, 'GET', '/sec/open', as('ada'))).text).toBe('{"user":"ada"}');
  });
  it('@DenyAll is always 403', async () => {
    expect((await call(app, 'DELETE', '/sec/all', as('ada'))).status).toBe(403);
  });
  it('an authorization provider decides: false is 403', async () => {
    expect((await call(app, 'POST', '/sec/write', as('bob'))).status).toBe(403);
    expect((await call(app, 'POST', '/sec/write', as('ada'))).text).toBe('written');
  });
  it('a method @Authenticate overrides the router provider', async () => {
    expect((await call(app, 'GET', '/sec/service', { headers: { 'x-api-key': 'k1' } })).text).toBe('service');
    expect((await call(app, 'GET', '/sec/service', { headers: { 'x-api-key': 'k2' } })).status).toBe(401);
    // The router's bearer token is no credential for this method's provider: no user, and the role check says 403.
    expect((await call(app, 'GET', '/sec/service', as('ada'))).status).toBe(403);
  });
  it("a provider's own error goes through exception handling", async () => {
    expect((await call(app, 'GET', '/sec/broken')).text).toBe('{"status":400,"message":"malformed credentials"}');
  });
  it('@Authenticate(null) turns authentication off for one method', async () => {
    expect((await call(app, 'GET', '/sec/public')).text).toBe('public');
  });
  it('a role check without any authentication provider is 403 (no user)', async () => {
    const app2 = createRestRouter().register(new Secured()).app();
    expect((await call(app2, 'GET', '/sec/me')).status).toBe(403);
  });
  it('a router-level authorization provider applies to every route', async () => {
    @Path('/docs')
    class Docs {
      @GET get() {
        return 'doc';
      }
    }
    const app2 = new RestBuilder().authenticateWith(bearer).authorizeWith(canWrite).register(Docs).build();
    expect((await call(app2, 'GET', '/docs', as('bob'))).status).toBe(403);
    expect((await call(app2, 'GET', '/docs', as('ada'))).text).toBe('doc');
  });
  it("a method's @Authorize applies under a class @PermitAll, and a method @PermitAll skips a class @Authorize", async () => {
    @Path('/wiki')
    @PermitAll
    class Wiki {
      @GET read() {
        return 'page';
      }
      @POST @Authorize(canWrite) edit() {
        return 'edited';
      }
    }
    @Path('/vault')
    @Authorize(canWrite)
    class Vault {
      @GET @Path('/door') @PermitAll door() {
        return 'door';
      }
      @GET @Path('/gold') gold() {
        return 'gold';
      }
    }
    const app2 = createRestRouter().authenticateWith(bearer).register(Wiki, Vault).app();
    expect((await call(app2, 'GET', '/wiki')).text).toBe('page');
    expect((await call(app2, 'POST', '/wiki')).status).toBe(401);
    expect((await call(app2, 'POST', '/wiki', as('bob'))).status).toBe(403);
    expect((await call(app2, 'POST', '/wiki', as('ada'))).text).toBe('edited');
    expect((await call(app2, 'GET', '/vault/door')).text).toBe('door');
    expect((await call(app2, 'GET', '/vault/gold', as('bob'))).status).toBe(403);
  });
  it('refuses @PermitAll beside @Authorize on the same method or class at registration', () => {
    @Path('/m')
    class M {
      @GET @PermitAll @Authorize(canWrite) get() {
        return 'x';
      }
    }
    expect(() => createRestRouter().authenticateWith(bearer).register(M).app()).toThrow(
      'M.get: @PermitAll and @Authorize on the same method contradict each other; keep one',
    );
    @Path('/c')
    @PermitAll
    @Authorize(canWrite)
    class C {
      @GET get() {
        return 'x';
      }
    }
    expect(() => createRestRouter().authenticateWith(bearer).register(C).app()).toThrow(
      'C: @PermitAll and @Authorize on the same class contradict each other; keep one',
    );
  });
  it('refuses a provider of another shape at registration, not with a 500 on every request', () => {
    // The Java library's shape: getId() and getAuthorizations(user, handler).
    const javaStyle = { getId: () => 'docs', getAuthorizations: () => true } as unknown as AuthorizationProvider;
    @Path('/j')
    class J {
      @GET @Authorize(javaStyle) get() {
        return 'x';
      }
    }
    expect(() => createRestRouter().authenticateWith(bearer).register(J).app()).toThrow(
      /J\.get: the authorization provider needs authorize\(user, c, route\)/,
    );
    const noAuthenticate = { provideCredentials: () => 'x' } as unknown as AuthenticationProvider;
    @Path('/k')
    class K {
      @GET get() {
        return 'x';
      }
    }
    expect(() => createRestRouter().authenticateWith(noAuthenticate).register(K).app()).toThrow(
      /K\.get: an authentication provider needs provideCredentials\(c\) and authenticate/,
    );
  });
});

class Conflict extends Error {}
const log: string[] = [];

@Path('/ev')
class Evented {
  @POST
  @Path('/users')
  @Status(201)
  @Events(
    Event((user: { name: string }) => {
      log.push(`created ${user.name}`);
    }),
    Event(
      (v) => {
        log.push(`on 201 ${JSON.stringify(v)}`);
      },
      { response: 201 },
    ),
    Event(
      (e: Error) => {
        log.push(`conflict ${e.message}`);
      },
      { exception: Conflict },
    ),
    Event(
      () => {
        log.push('any');
      },
      { response: ANY_STATUS },
    ),
    Event(
      () => {
        log.push('on 404');
      },
      { response: 404 },
    ),
  )
  create(@BodyParam() user: { name: string }) {
    if (user.name === 'taken') throw new Conflict('taken');
    return user;
  }
  @GET
  @Path('/failing-event')
  @Events(
    Event(() => {
      throw new Error('event broke');
    }),
  )
  failingEvent() {
    return { ok: true };
  }
}

describe('events', () => {
  const errors: unknown[] = [];
  const app = createRestRouter({ onError: (e) => errors.push(e) })
    .register(new Evented())
    .app();
  it('fire after a 2xx with the entity, by status and for any status', async () => {
    log.length = 0;
    const r = await call(app, 'POST', '/ev/users', { json: { name: 'ada' } });
    expect(r.status).toBe(201);
    expect(log).toEqual(['created ada', 'on 201 {"name":"ada"}', 'any']);
  });
  it('fire by exception class with the error; 2xx events do not', async () => {
    log.length = 0;
    const r = await call(app, 'POST', '/ev/users', { json: { name: 'taken' } });
    expect(r.status).toBe(500);
    expect(log).toEqual(['conflict taken', 'any']);
  });
  it('a failing event is reported and never changes the answer', async () => {
    const r = await call(app, 'GET', '/ev/failing-event');
    expect([r.status, r.text]).toEqual([200, '{"ok":true}']);
    expect((errors.at(-1) as Error).message).toBe('event broke');
  });
});

describe('CORS', () => {
  @Path('/c')
  class C {
    @GET get() {
      return { c: 1 };
    }
  }
  it('enableCors() allows any origin', async () => {
    const app = createRestRouter().enableCors().register(C).app();
    const r = await call(app, 'GET', '/c', { headers: { origin: 'https://a.example' } });
    expect([r.headers.get('access-control-allow-origin'), r.text]).toEqual(['*', '{"c":1}']);
  });
  it('a preflight gets methods, headers and max age', async () => {
    const app = createRestRouter()
      .enableCors({
        origin: 'https://.*\\.example',
        allowCredentials: true,
        maxAge: 600,
        allowHeaders: ['X-Token'],
        methods: ['GET', 'POST'],
      })
      .register(C)
      .app();
    const r = await call(app, 'OPTIONS', '/c', { headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' } });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://a.example');
    expect(r.headers.get('access-control-allow-credentials')).toBe('true');
    expect(r.headers.get('access-control-max-age')).toBe('600');
    expect(r.headers.get('access-control-allow-methods')).toBe('GET,POST');
    expect(r.headers.get('access-control-allow-headers')).toBe('X-Token');
  });
  it('an origin outside the pattern gets no allow-origin header', async () => {
    const app = createRestRouter().enableCors({ origin: 'https://.*\\.example' }).register(C).app();
    const r = await call(app, 'GET', '/c', { headers: { origin: 'https://evil.test' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
  it('a plain OPTIONS (no Access-Control-Request-Method) reaches its route, with CORS headers', async () => {
    @Path('/o')
    class WithOptions {
      @OPTIONS options() {
        return { allow: 'GET, OPTIONS' };
      }
      @GET get() {
        return 1;
      }
    }
    const app = createRestRouter()
      .enableCors({ origin: ['https://one.test'], exposeHeaders: ['X-Total'] })
      .register(WithOptions)
      .app();
    const plain = await call(app, 'OPTIONS', '/o', { headers: { origin: 'https://one.test' } });
    expect([
      plain.status,
      plain.text,
      plain.headers.get('access-control-allow-origin'),
      plain.headers.get('access-control-expose-headers'),
    ]).toEqual([200, '{"allow":"GET, OPTIONS"}', 'https://one.test', 'X-Total']);
    const preflight = await call(app, 'OPTIONS', '/o', { headers: { origin: 'https://one.test', 'access-control-request-method': 'GET' } });
    expect([preflight.status, preflight.text]).toEqual([204, '']);
  });
  it('a list of exact origins', async () => {
    const app = createRestRouter()
      .enableCors({ origin: ['https://one.test'] })
      .register(C)
      .app();
    expect((await call(app, 'GET', '/c', { headers: { origin: 'https://one.test' } })).headers.get('access-control-allow-origin')).toBe(
      'https://one.test',
    );
  });
});
