/**
 * @module
 * Smaller features: `@Header` as consumes/produces, method-level `@ContextReader`, readers bound by
 * their own `consumes`, permission-based authorization, matrix parameters through `restGetPath`,
 * and the generated-stub shape from the contracts.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AuthenticationProvider, HandlerResult, ValidateFunction } from '../../runtime/rest/index.js';
import {
  Authorize,
  BodyParam,
  CatchWith,
  Context,
  ContextReader,
  catching,
  createRestRouter,
  DELETE,
  GET,
  Header,
  HttpError,
  MatrixParam,
  Path,
  PathParam,
  POST,
  Produces,
  PUT,
  QueryParam,
  ResponseWriter,
  RestResponse,
  requirePermissions,
  restGetPath,
  Status,
} from '../../runtime/rest/index.js';
import { call } from '../support/rest-answers.js';

@Path('/hx')
class HeaderRules {
  @POST @Path('/in') @Header('Accept: text/plain') onlyText(@BodyParam() text: string) {
    return { text };
  }
  @GET @Path('/out') @Header('Content-Type: application/json', 'X-Version: 3') out() {
    return 'json string';
  }
}

class Locale {
  constructor(readonly tag: string) {}
}
class Clock {
  constructor(readonly zone: string) {}
}

@Path('/ctx')
class ContextRoutes {
  @GET
  @ContextReader(() => new Locale('method-level'), { type: Locale })
  get(@Context(Locale) a: Locale, @Context(Locale) b: Locale, @Context(Clock) clock: Clock) {
    return { a: a.tag, b: b.tag, clock: clock.zone };
  }
}

describe('smaller features', () => {
  it("@Header('Accept: …') restricts what the method consumes", async () => {
    const app = createRestRouter().register(new HeaderRules()).app();
    expect((await call(app, 'POST', '/hx/in', { body: 'hi', headers: { 'content-type': 'text/plain' } })).text).toBe('{"text":"hi"}');
    expect((await call(app, 'POST', '/hx/in', { json: { a: 1 } })).status).toBe(415);
  });
  it("@Header('Content-Type: …') sets what the method produces; other entries are response headers", async () => {
    const r = await call(createRestRouter().register(new HeaderRules()).app(), 'GET', '/hx/out');
    expect([r.headers.get('content-type'), r.headers.get('x-version'), r.text]).toEqual(['application/json', '3', '"json string"']);
  });
  it('a method @ContextReader provides the @Context parameters of its type, and only those (rest.vertx)', async () => {
    const app = createRestRouter()
      .addProvider(Locale, () => new Locale('global'))
      .addProvider(Clock, () => new Clock('UTC'))
      .register(new ContextRoutes())
      .app();
    expect((await call(app, 'GET', '/ctx')).text).toBe('{"a":"method-level","b":"method-level","clock":"UTC"}');
  });
  it('a method or class @ContextReader without the type it provides is refused at registration', () => {
    @Path('/untyped')
    class Untyped {
      @GET @ContextReader(() => new Locale('x')) get(@Context(Locale) a: Locale) {
        return a.tag;
      }
    }
    expect(() => createRestRouter().register(Untyped)).toThrow(
      'Untyped.get: a @ContextReader on a method or class needs the type it provides ({ type: Tenant })',
    );
  });
  it('a reader registered alone is bound to its own consumes', async () => {
    @Path('/kv')
    class Kv {
      @POST post(@BodyParam() body: Record<string, string>) {
        return body;
      }
    }
    const kv = {
      consumes: ['text/x-kv'],
      read: (t: string) => Object.fromEntries(t.split('\n').map((l) => l.split('='))) as Record<string, string>,
    };
    const app = createRestRouter().reader(kv).register(Kv).app();
    expect((await call(app, 'POST', '/kv', { body: 'a=1\nb=2', headers: { 'content-type': 'text/x-kv' } })).text).toBe('{"a":"1","b":"2"}');
  });
  it('requirePermissions checks the permissions a user holds under the provider id', async () => {
    const auth: AuthenticationProvider<string> = {
      provideCredentials: (c) => c.req.header('x-user'),
      authenticate: (name) => ({ name, authorizations: { docs: name === 'ada' ? ['read', 'write'] : ['read'] } }),
    };
    @Path('/docs')
    class Docs {
      @POST @Authorize(requirePermissions('docs', 'write')) save() {
        return 'saved';
      }
    }
    const app = createRestRouter().authenticateWith(auth).register(Docs).app();
    expect((await call(app, 'POST', '/docs', { headers: { 'x-user': 'bob' } })).status).toBe(403);
    expect((await call(app, 'POST', '/docs', { headers: { 'x-user': 'ada' } })).text).toBe('saved');
  });
  it('matrix parameters in static segments work on a host app created with restGetPath', async () => {
    @Path('/cars')
    class Cars {
      @GET get(@MatrixParam('color') color: string) {
        return { color };
      }
    }
    const host = new Hono({ getPath: restGetPath });
    createRestRouter().register(Cars).mount(host, '/api');
    expect((await call(host, 'GET', '/api/cars;color=red')).text).toBe('{"color":"red"}');
  });
});

// The shape docs/design/contracts.md §3 prescribes for generated stubs.
interface Issue {
  id: number;
  title: string;
}
interface IssueGetIssueInput {
  owner: string;
  repo: string;
  index: number;
}
interface IssueCreateInput {
  owner: string;
  repo: string;
  body: { title: string };
}
interface IssueApi {
  issueGetIssue(input: IssueGetIssueInput, ctx: Context): Promise<HandlerResult<Issue>>;
  issueCreateIssue(input: IssueCreateInput, ctx: Context): Promise<HandlerResult<Issue>>;
}
const validateCreateIssueOption = Object.assign(
  (data: unknown) => {
    const ok = typeof data === 'object' && data !== null && typeof (data as { title?: unknown }).title === 'string';
    validateCreateIssueOption.errors = ok ? null : [{ instancePath: '/title', keyword: 'type', message: 'must be string' }];
    return ok;
  },
  { errors: null as ValidateFunction['errors'] },
);

@Path('/api/v1')
class IssueRoutes {
  constructor(private readonly api: IssueApi) {}
  @GET
  @Path('/repos/{owner}/{repo}/issues/{index}')
  @Produces('application/json')
  @Status(200)
  issueGetIssue(
    @PathParam('owner', { type: 'string' }) owner: string,
    @PathParam('repo', { type: 'string' }) repo: string,
    @PathParam('index', { type: 'int64' }) index: number,
    @Context() ctx: Context,
  ): Promise<HandlerResult<Issue>> {
    return this.api.issueGetIssue({ owner, repo, index }, ctx);
  }
  @POST
  @Path('/repos/{owner}/{repo}/issues')
  @Produces('application/json')
  @Status(201)
  issueCreateIssue(
    @PathParam('owner', { type: 'string' }) owner: string,
    @PathParam('repo', { type: 'string' }) repo: string,
    @BodyParam({ validate: validateCreateIssueOption, required: true }) body: { title: string },
    @Context() ctx: Context,
  ): Promise<HandlerResult<Issue>> {
    return this.api.issueCreateIssue({ owner, repo, body }, ctx);
  }
}

describe('a generated stub bound to a hand-written implementation', () => {
  const impl: IssueApi = {
    async issueGetIssue({ index }, ctx) {
      if (index === 404) throw new HttpError(404, `issue ${index} not found`);
      if (ctx.req.query('moved')) return RestResponse.see(`/api/v1/repos/o/r/issues/${index + 1}`);
      return { id: index, title: 'first' };
    },
    async issueCreateIssue({ owner, repo, body }) {
      return RestResponse.created(`/api/v1/repos/${owner}/${repo}/issues/1`).entity({ id: 1, title: body.title });
    },
  };
  const app = createRestRouter().register(new IssueRoutes(impl)).app();
  it('a plain value is sent with the @Status of the schema', async () => {
    const r = await call(app, 'GET', '/api/v1/repos/o/r/issues/7');
    expect([r.status, r.text]).toEqual([200, '{"id":7,"title":"first"}']);
  });
  it('a HttpError thrown by the implementation is the error answer', async () => {
    expect((await call(app, 'GET', '/api/v1/repos/o/r/issues/404')).text).toBe('{"status":404,"message":"issue 404 not found"}');
  });
  it('the implementation may answer with the Response builder through the Hono context', async () => {
    const r = await call(app, 'GET', '/api/v1/repos/o/r/issues/7?moved=1');
    expect([r.status, r.headers.get('location')]).toEqual([302, '/api/v1/repos/o/r/issues/8']);
  });
  it('int64 path values must be integers', async () => {
    expect((await call(app, 'GET', '/api/v1/repos/o/r/issues/1.5')).status).toBe(400);
  });
  it('the generated validator checks the body', async () => {
    const r = await call(app, 'POST', '/api/v1/repos/o/r/issues', { json: { title: 3 } });
    expect(r.text).toBe(
      '{"status":400,"message":"body /title: must be string",' +
        '"violations":[{"location":"body","name":"/title","message":"must be string"}]}',
    );
  });
  it('a created issue is 201 with Location', async () => {
    const r = await call(app, 'POST', '/api/v1/repos/o/r/issues', { json: { title: 'new' } });
    expect([r.status, r.headers.get('location'), r.text]).toEqual([201, '/api/v1/repos/o/r/issues/1', '{"id":1,"title":"new"}']);
  });
});

describe('binding by name for DELETE and PUT', () => {
  @Path('/d')
  class D {
    @DELETE @Path('/{id}') remove(id: string, reason: string) {
      return { id, reason };
    }
    @PUT @Path('/{id}') replace(id: string, doc: unknown) {
      return { id, doc };
    }
  }
  const app = createRestRouter().register(D).app();
  it('an undecorated DELETE parameter comes from the query', async () => {
    expect((await call(app, 'DELETE', '/d/5?reason=spam')).text).toBe('{"id":"5","reason":"spam"}');
  });
  it('an undecorated PUT parameter is the body', async () => {
    expect((await call(app, 'PUT', '/d/5', { json: { v: 2 } })).text).toBe('{"id":"5","doc":{"v":2}}');
  });
});

describe('edge cases', () => {
  it('when every route on a path passes with RestResponse.next(), the answer is 404', async () => {
    @Path('/pass')
    class Pass {
      @GET a() {
        return RestResponse.next();
      }
      @GET b() {
        return RestResponse.next();
      }
    }
    const r = await call(createRestRouter().register(Pass).app(), 'GET', '/pass');
    expect([r.status, r.text]).toEqual([404, '{"status":404,"message":"Not Found"}']);
  });
  it("headers added through @Context('headers') reach the response", async () => {
    @Path('/hdr')
    class Hdr {
      @GET get(@Context('headers') h: Headers) {
        h.set('X-Total', '42');
        return { items: [] };
      }
    }
    const r = await call(createRestRouter().register(Hdr).app(), 'GET', '/hdr');
    expect([r.headers.get('x-total'), r.headers.get('content-type'), r.text]).toEqual(['42', 'application/json', '{"items":[]}']);
  });
  it("an exception handler's answer is written as JSON even when the method has its own writer", async () => {
    class Missing extends Error {}
    @Path('/w')
    class W {
      @GET
      @ResponseWriter({ produces: 'text/x-upper', write: (v: unknown) => String(v).toUpperCase() })
      @CatchWith(catching(Missing, () => RestResponse.error(410, 'gone')))
      get(@QueryParam('fail') fail?: string) {
        if (fail) throw new Missing();
        return 'ok';
      }
    }
    const app = createRestRouter().register(W).app();
    expect((await call(app, 'GET', '/w')).text).toBe('OK');
    const r = await call(app, 'GET', '/w?fail=1');
    expect([r.status, r.headers.get('content-type'), r.text]).toEqual([410, 'application/json', '{"status":410,"message":"gone"}']);
  });
  it('a parameter reader gets the request context and may be async', async () => {
    const scaled = { read: async (v: string, c: Context) => Number(v) * Number(c.req.header('x-scale') ?? 1) };
    @Path('/scale')
    class S {
      @GET get(@QueryParam('n', { reader: scaled }) n: number) {
        return { n };
      }
    }
    const r = await call(createRestRouter().register(S).app(), 'GET', '/scale?n=3', { headers: { 'x-scale': '10' } });
    expect(r.text).toBe('{"n":30}');
  });
  it('a parameter reader that throws is a 400 naming the parameter', async () => {
    const strict = {
      read: (v: string) => {
        if (v !== 'yes') throw new Error('only "yes" is accepted');
        return true;
      },
    };
    @Path('/strict')
    class S {
      @GET get(@QueryParam('ok', { reader: strict }) ok: boolean) {
        return { ok };
      }
    }
    const r = await call(createRestRouter().register(S).app(), 'GET', '/strict?ok=no');
    expect(r.json()).toMatchObject({ status: 400, violations: [{ location: 'query', name: 'ok', message: 'only "yes" is accepted' }] });
  });
});

describe('406 before the method runs', () => {
  it('an unacceptable Accept never invokes the method', async () => {
    let calls = 0;
    @Path('/once')
    class Once {
      @POST @Produces('application/json') create() {
        calls++;
        return { ok: true };
      }
    }
    const r = await call(createRestRouter().register(Once).app(), 'POST', '/once', { headers: { accept: 'text/html' } });
    expect([r.status, r.text, calls]).toEqual([
      406,
      '{"status":406,"message":"Not Acceptable: this resource produces application/json"}',
      0,
    ]);
  });
  it("with unacceptable: 'first', answers in the first produced type whatever Accept asks", async () => {
    @Path('/any')
    class Any {
      @GET @Produces('application/json', 'text/plain') get() {
        return { ok: true };
      }
    }
    const app = createRestRouter({ unacceptable: 'first' }).register(Any).app();
    const r = await call(app, 'GET', '/any', { headers: { accept: 'image/png' } });
    expect([r.status, r.headers.get('content-type'), r.text]).toEqual([200, 'application/json', '{"ok":true}']);
    // Negotiation still picks among the produced types when Accept fits one.
    expect((await call(app, 'GET', '/any', { headers: { accept: 'text/plain' } })).headers.get('content-type')).toBe(
      'text/plain; charset=utf-8',
    );
  });
});
