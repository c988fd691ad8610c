/**
 * @module
 * Routing: class and method paths, verbs and shorthands, path variable syntaxes, route order and
 * fall-through, inheritance, prefixes, mounting, `RestBuilder` and `restApi`.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { HandlerResult } from '../../runtime/rest/index.js';
import {
  BodyParam,
  Context,
  createRestRouter,
  DELETE,
  Delete,
  GET,
  Get,
  Head,
  Header,
  OPTIONS,
  Options,
  PATCH,
  Patch,
  Path,
  PathParam,
  POST,
  Post,
  PUT,
  Put,
  RestBuilder,
  RestResponse,
  RouteOrder,
  restApi,
  Status,
  TRACE,
  Trace,
} from '../../runtime/rest/index.js';
import { call, listen, rawCall } from '../support/rest-answers.js';

@Path('/verbs')
class Verbs {
  @GET get() {
    return 'get';
  }
  @POST post() {
    return 'post';
  }
  @PUT put() {
    return 'put';
  }
  @PATCH patch() {
    return 'patch';
  }
  @DELETE del() {
    return 'delete';
  }
  @OPTIONS options() {
    return 'options';
  }
  @TRACE trace() {
    return 'trace';
  }
}

class Shorthands {
  @Get('/s') get() {
    return 'get';
  }
  @Post('/s') post() {
    return 'post';
  }
  @Put('/s') put() {
    return 'put';
  }
  @Patch('/s') patch() {
    return 'patch';
  }
  @Delete('/s') del() {
    return 'delete';
  }
  @Options('/s') options() {
    return 'options';
  }
  @Trace('/s') trace() {
    return 'trace';
  }
  @Head('/h') head(@Context('headers') h: Headers) {
    h.set('x-head', 'yes');
    return RestResponse.ok();
  }
  @Get('/h') getH() {
    return 'body';
  }
  @Get('/json', { produces: 'application/json' }) json() {
    return 'a string as JSON';
  }
}

describe('verbs', () => {
  const app = createRestRouter().register(new Verbs(), new Shorthands()).app();
  // fetch()/Request refuse TRACE, so it goes over a real listener (below).
  for (const verb of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
    it(`@${verb} answers ${verb} with the method's result`, async () => {
      const r = await call(app, verb, '/verbs');
      expect(r.status).toBe(200);
      expect(r.text).toBe(verb === 'DELETE' ? 'delete' : verb.toLowerCase());
      expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    });
    it(`shorthand @${verb[0]}${verb.slice(1).toLowerCase()}('/s') answers ${verb}`, async () => {
      const r = await call(app, verb, '/s');
      expect(r.status).toBe(200);
      expect(r.text).toBe(verb === 'DELETE' ? 'delete' : verb.toLowerCase());
    });
  }
  it('@TRACE and @Trace answer TRACE over a real listener', async () => {
    const server = await listen(app);
    try {
      const a = await rawCall(server.port, 'TRACE', '/verbs');
      expect([a.status, a.text]).toEqual([200, 'trace']);
      const b = await rawCall(server.port, 'TRACE', '/s');
      expect([b.status, b.text]).toEqual([200, 'trace']);
    } finally {
      await server.close();
    }
  });
  it('an explicit @HEAD route runs for HEAD, not the GET one', async () => {
    const r = await call(app, 'HEAD', '/h');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-head')).toBe('yes');
    expect(r.text).toBe('');
  });
  it('GET on a path that also has a HEAD route runs the GET method', async () => {
    const r = await call(app, 'GET', '/h');
    expect(r.text).toBe('body');
    expect(r.headers.get('x-head')).toBeNull();
  });
  it('HEAD without an explicit route answers from GET without a body', async () => {
    const r = await call(app, 'HEAD', '/s');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });
  it('produces JSON from the shorthand writes a string as JSON', async () => {
    const r = await call(app, 'GET', '/json');
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.text).toBe('"a string as JSON"');
  });
  it('a verb with no route on the path is 404 in the default JSON shape', async () => {
    const r = await call(app, 'PUT', '/h');
    expect(r.status).toBe(404);
    expect(r.text).toBe('{"status":404,"message":"Not Found"}');
  });
});

class Vars {
  @GET @Path('/jaxrs/{a}/{b}') jaxrs(@PathParam('a') a: string, @PathParam('b') b: string) {
    return { a, b };
  }
  @GET @Path('/vertx/:a/:b') vertx(@PathParam('a') a: string, @PathParam('b') b: string) {
    return { a, b };
  }
  @GET @Path('/re/{id:[0-9]+}') reNum(@PathParam('id', { type: 'integer' }) id: number) {
    return { id };
  }
  @GET @Path('/re/{name:[a-z]+}') reName(@PathParam('name') name: string) {
    return { name };
  }
  @GET @Path('/colon/:year:[0-9]{4}') colon(@PathParam('year', { type: 'integer' }) year: number) {
    return { year };
  }
  @GET @Path('/files/{path:.+}') files(@PathParam('path') path: string) {
    return { path };
  }
  @GET @Path('/enc/{v}') enc(@PathParam('v') v: string) {
    return { v };
  }
}

describe('path variables', () => {
  const app = createRestRouter().register(new Vars()).app();
  it('reads {name} variables', async () => {
    expect((await call(app, 'GET', '/jaxrs/x/y')).text).toBe('{"a":"x","b":"y"}');
  });
  it('reads :name variables', async () => {
    expect((await call(app, 'GET', '/vertx/x/y')).text).toBe('{"a":"x","b":"y"}');
  });
  it('{name:regex} picks the route whose expression matches (digits)', async () => {
    expect((await call(app, 'GET', '/re/42')).text).toBe('{"id":42}');
  });
  it('{name:regex} picks the route whose expression matches (letters)', async () => {
    expect((await call(app, 'GET', '/re/abc')).text).toBe('{"name":"abc"}');
  });
  it('a value matching no expression is 404', async () => {
    expect((await call(app, 'GET', '/re/ABC')).status).toBe(404);
  });
  it(':name:regex with a quantifier in braces', async () => {
    expect((await call(app, 'GET', '/colon/2024')).text).toBe('{"year":2024}');
    expect((await call(app, 'GET', '/colon/24')).status).toBe(404);
  });
  it('a regex may span segments ({path:.+})', async () => {
    expect((await call(app, 'GET', '/files/a/b/c.txt')).text).toBe('{"path":"a/b/c.txt"}');
  });
  it('path values are percent-decoded', async () => {
    expect((await call(app, 'GET', '/enc/a%20b%2Fc')).text).toBe('{"v":"a b/c"}');
  });
});

const calls: string[] = [];
class Ordered {
  @GET @Path('/order') @RouteOrder(5) late() {
    calls.push('late');
    return 'late';
  }
  @GET @Path('/order') @RouteOrder(-3) early(@Context() c: Context): HandlerResult<string> {
    calls.push('early');
    return c.req.query('stop') ? 'early' : RestResponse.next();
  }
  @GET @Path('/order') middle() {
    calls.push('middle');
    return RestResponse.next();
  }
}

describe('several methods on one path', () => {
  const app = createRestRouter().register(new Ordered()).app();
  it('runs in @RouteOrder (negative first) until one ends the response', async () => {
    calls.length = 0;
    const r = await call(app, 'GET', '/order');
    expect(r.text).toBe('late');
    expect(calls).toEqual(['early', 'middle', 'late']);
  });
  it('stops at the first method that answers', async () => {
    calls.length = 0;
    const r = await call(app, 'GET', '/order?stop=1');
    expect(r.text).toBe('early');
    expect(calls).toEqual(['early']);
  });
  it('lists routes in matching order', () => {
    const routes = createRestRouter().register(new Ordered()).routes();
    expect(routes.map((r) => `${r.order} ${r.methodName}`)).toEqual(['-3 early', '0 middle', '5 late']);
  });
});

interface Api {
  find(id: number): Promise<{ id: number; name: string }>;
}

@Path('/base')
abstract class BaseRoutes {
  constructor(protected readonly api: Api) {}
  @GET
  @Path('/{id:[0-9]+}')
  @Status(200)
  find(@PathParam('id', { type: 'integer' }) id: number): Promise<HandlerResult<unknown>> {
    return this.api.find(id);
  }
  @POST
  @Path('/echo')
  @Status(201)
  echo(@BodyParam() body: unknown): unknown {
    return body;
  }
  @GET @Path('/hello') hello(): string {
    return 'base hello';
  }
}

class DerivedRoutes extends BaseRoutes {
  // An override without decorators keeps the base's route and parameter metadata.
  override hello(): string {
    return 'derived hello';
  }
  // Redecorated: the subclass's decorations win.
  @Status(202) override echo(@BodyParam() body: unknown): unknown {
    return { wrapped: body };
  }
  @GET @Path('/extra') extra() {
    return 'extra';
  }
}

describe('inheritance from abstract base classes (how generated stubs are implemented)', () => {
  const app = createRestRouter()
    .register(new DerivedRoutes({ find: async (id) => ({ id, name: `n${id}` }) }))
    .app();
  it('inherits a route and its parameter metadata', async () => {
    const r = await call(app, 'GET', '/base/3');
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"id":3,"name":"n3"}');
  });
  it('an undecorated override keeps the base route and runs the override', async () => {
    expect((await call(app, 'GET', '/base/hello')).text).toBe('derived hello');
  });
  it('a redecorated override merges: own @Status, inherited verb and path', async () => {
    const r = await call(app, 'POST', '/base/echo', { json: { a: 1 } });
    expect(r.status).toBe(202);
    expect(r.text).toBe('{"wrapped":{"a":1}}');
  });
  it('the subclass adds its own routes under the inherited class path', async () => {
    expect((await call(app, 'GET', '/base/extra')).text).toBe('extra');
  });
});

@Path('/p')
class Prefixed {
  @GET @Path('/x') x() {
    return { ok: true };
  }
  @GET root() {
    return 'class path only';
  }
}

describe('prefixes, mounting and builders', () => {
  it('the router prefix goes before the class path', async () => {
    const app = createRestRouter({ prefix: '/api/v1' }).register(new Prefixed()).app();
    expect((await call(app, 'GET', '/api/v1/p/x')).text).toBe('{"ok":true}');
    expect((await call(app, 'GET', '/p/x')).status).toBe(404);
  });
  it('a method without @Path answers on the class path', async () => {
    const app = createRestRouter().register(new Prefixed()).app();
    expect((await call(app, 'GET', '/p')).text).toBe('class path only');
  });
  it('mounts on an existing Hono app under a prefix, beside its own routes', async () => {
    const host = new Hono();
    host.get('/health', (c) => c.text('up'));
    createRestRouter().register(new Prefixed()).mount(host, '/rest');
    expect((await call(host, 'GET', '/rest/p/x')).text).toBe('{"ok":true}');
    expect((await call(host, 'GET', '/health')).text).toBe('up');
  });
  it('RestBuilder builds an app from classes', async () => {
    const app = new RestBuilder().register(Prefixed).build();
    expect((await call(app, 'GET', '/p/x')).text).toBe('{"ok":true}');
  });
  it('RestBuilder without an API fails with a clear message', () => {
    expect(() => new RestBuilder().build()).toThrow('No REST API given, register at least one! Use: .register(api)');
  });
  it('restApi mounts several resources under path prefixes; a base is taken off before matching', async () => {
    const app = restApi({
      '/one': { api: new Prefixed(), base: '/one' },
      '/two': { api: createRestRouter().register(new Vars()), base: '/two' },
    });
    expect((await call(app, 'GET', '/one/p/x')).text).toBe('{"ok":true}');
    expect((await call(app, 'GET', '/two/jaxrs/a/b')).text).toBe('{"a":"a","b":"b"}');
  });
  it("restApi matches a resource's paths against the whole request path, as xp-forge's routes() does", async () => {
    @Path('/users')
    class Users {
      @GET @Path('/{id}') get(@PathParam('id') id: string) {
        return { user: id };
      }
    }
    @Path('/admin')
    class Admin {
      @GET @Path('/stats') stats() {
        return { stats: true };
      }
    }
    const app = restApi({
      '/users': new Users(),
      '/admin': createRestRouter()
        .register(Admin)
        .notFound(() => RestResponse.notFound('no such admin page')),
    });
    expect((await call(app, 'GET', '/users/1549')).text).toBe('{"user":"1549"}');
    expect((await call(app, 'GET', '/admin/stats')).text).toBe('{"stats":true}');
    // Unmatched under a prefix: that router's not-found handler; under none: the JSON 404.
    expect((await call(app, 'GET', '/admin/nope')).text).toBe('{"status":404,"message":"no such admin page"}');
    const outside = await call(app, 'GET', '/elsewhere');
    expect([outside.status, outside.text]).toEqual([404, '{"status":404,"message":"Not Found"}']);
  });
  it('restApi refuses a resource whose routes lie outside its prefix', () => {
    @Path('/other')
    class Misplaced {
      @GET get() {
        return 1;
      }
    }
    expect(() => restApi({ '/users': new Misplaced() })).toThrow(
      'restApi: Misplaced.get answers GET /other, outside its prefix /users (give the entry a base to have one taken off)',
    );
  });
  it('two routers never share registrations', async () => {
    const a = createRestRouter().register(new Prefixed()).app();
    const b = createRestRouter().register(new Vars()).app();
    expect((await call(a, 'GET', '/jaxrs/a/b')).status).toBe(404);
    expect((await call(b, 'GET', '/p/x')).status).toBe(404);
  });
  it('class @Header adds static headers to every method', async () => {
    @Path('/h')
    @Header('X-Api: 2')
    class WithHeader {
      @GET @Header('Cache-Control: max-age=60') get() {
        return { a: 1 };
      }
    }
    const r = await call(createRestRouter().register(WithHeader).app(), 'GET', '/h');
    expect(r.headers.get('x-api')).toBe('2');
    expect(r.headers.get('cache-control')).toBe('max-age=60');
    expect(r.text).toBe('{"a":1}');
  });
});

describe('specificity', () => {
  @Path('/issues')
  class Issues {
    @GET @Path('/{index}') one(@PathParam('index', { type: 'integer' }) index: number) {
      return { index };
    }
    @GET @Path('/pinned') pinned() {
      return 'pinned';
    }
    @GET @Path('/{a}/{b}') two(@PathParam('a') a: string, @PathParam('b') b: string) {
      return { a, b };
    }
    @GET @Path('/{a}/comments') comments(@PathParam('a') a: string) {
      return { comments: a };
    }
  }
  const app = createRestRouter().register(new Issues()).app();
  it('a literal segment wins over a variable declared before it', async () => {
    expect((await call(app, 'GET', '/issues/pinned')).text).toBe('pinned');
    expect((await call(app, 'GET', '/issues/7')).text).toBe('{"index":7}');
  });
  it('specificity is compared segment by segment', async () => {
    expect((await call(app, 'GET', '/issues/7/comments')).text).toBe('{"comments":"7"}');
    expect((await call(app, 'GET', '/issues/7/labels')).text).toBe('{"a":"7","b":"labels"}');
  });
  it('routes() lists them in matching order', () => {
    expect(
      createRestRouter()
        .register(new Issues())
        .routes()
        .map((r) => r.path),
    ).toEqual(['/issues/pinned', '/issues/{a}/comments', '/issues/{a}/{b}', '/issues/{index}']);
  });
});
