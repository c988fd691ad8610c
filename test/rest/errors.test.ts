/**
 * @module
 * Errors and validation: the default JSON shape, exception handler lookup (method, class, global,
 * default), ajv validation of bodies, parameters and results, and not-found handlers.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from '../../runtime/rest/index.js';
import {
  BadRequestError,
  BodyParam,
  CatchWith,
  catching,
  createRestRouter,
  GET,
  HttpError,
  Path,
  PathParam,
  POST,
  QueryParam,
  RestBuilder,
  RestResponse,
  ValidateResult,
} from '../../runtime/rest/index.js';
import { call } from '../support/rest-answers.js';

class ConflictError extends Error {}
class SpecialConflict extends ConflictError {}
class TeapotError extends Error {}

const quiet = { onError: () => {} };

@Path('/e')
@CatchWith(catching(ConflictError, (e) => RestResponse.error(409, `class: ${e.message}`)))
class Failing {
  @GET @Path('/http') http() {
    throw new HttpError(410, 'Gone for good');
  }
  @GET @Path('/details') details() {
    throw new HttpError(422, 'Unprocessable', { field: 'x' });
  }
  @GET @Path('/plain') plain() {
    throw new Error('secret internals at /srv/app.js:12');
  }
  @GET @Path('/async') async asyncFail() {
    await Promise.resolve();
    throw new HttpError(429, 'Slow down');
  }
  @GET @Path('/class') cls() {
    throw new ConflictError('taken');
  }
  @GET
  @Path('/method')
  @CatchWith(
    catching(SpecialConflict, () => RestResponse.error(423, 'method')),
    catching(ConflictError, () => RestResponse.error(409, 'method general')),
  )
  method() {
    throw new SpecialConflict('x');
  }
  @GET
  @Path('/method-general')
  @CatchWith(
    catching(SpecialConflict, () => RestResponse.error(423, 'method')),
    catching(ConflictError, () => RestResponse.error(409, 'method general')),
  )
  methodGeneral() {
    throw new ConflictError('y');
  }
  @GET @Path('/opt-out') @CatchWith() optOut() {
    throw new ConflictError('z');
  }
  @GET @Path('/joined') @CatchWith(catching(SpecialConflict, () => RestResponse.error(423, 'method'))) joined() {
    throw new ConflictError('from the class list');
  }
  @GET @Path('/global') global() {
    throw new TeapotError('short and stout');
  }
  @GET @Path('/value') value() {
    throw new HttpError(400, 'bad');
  }
  @GET @Path('/bad-request') badRequest() {
    throw new BadRequestError([{ location: 'query', name: 'q', message: 'too vague' }]);
  }
}

describe('errors', () => {
  const app = createRestRouter(quiet)
    .exceptionHandlers(catching(TeapotError, (e, c) => c.text(`global: ${e.message}`, 418)))
    .register(new Failing())
    .app();
  it('HttpError becomes its status with {"status","message"}', async () => {
    const r = await call(app, 'GET', '/e/http');
    expect([r.status, r.headers.get('content-type'), r.text]).toEqual([
      410,
      'application/json',
      '{"status":410,"message":"Gone for good"}',
    ]);
  });
  it('HttpError details are included', async () => {
    expect((await call(app, 'GET', '/e/details')).text).toBe('{"status":422,"message":"Unprocessable","details":{"field":"x"}}');
  });
  it('an unexpected error is 500 without its message or stack', async () => {
    const r = await call(app, 'GET', '/e/plain');
    expect([r.status, r.text]).toEqual([500, '{"status":500,"message":"Internal Server Error"}']);
  });
  it('an unexpected error is reported to onError', async () => {
    const seen: unknown[] = [];
    const app2 = createRestRouter({ onError: (e) => seen.push(e) })
      .register(new Failing())
      .app();
    await call(app2, 'GET', '/e/plain');
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).message).toBe('secret internals at /srv/app.js:12');
  });
  it('errors from async handlers are handled the same way', async () => {
    expect((await call(app, 'GET', '/e/async')).text).toBe('{"status":429,"message":"Slow down"}');
  });
  it('a class handler catches errors of every method', async () => {
    expect((await call(app, 'GET', '/e/class')).text).toBe('{"status":409,"message":"class: taken"}');
  });
  it('method handlers come first, the first matching in order wins', async () => {
    expect((await call(app, 'GET', '/e/method')).text).toBe('{"status":423,"message":"method"}');
    expect((await call(app, 'GET', '/e/method-general')).text).toBe('{"status":409,"message":"method general"}');
  });
  it("a method's handlers and its class's are one list: the class's still catch what the method's do not", async () => {
    expect((await call(app, 'GET', '/e/joined')).text).toBe('{"status":409,"message":"class: from the class list"}');
  });
  it('@CatchWith() opts a method out of class handlers (default answer)', async () => {
    expect((await call(app, 'GET', '/e/opt-out')).text).toBe('{"status":500,"message":"Internal Server Error"}');
  });
  it('global handlers apply when no method or class handler matches', async () => {
    const r = await call(app, 'GET', '/e/global');
    expect([r.status, r.text]).toEqual([418, 'global: short and stout']);
  });
  it('a handler returning a plain value sends it as JSON with the error status', async () => {
    const app2 = createRestRouter()
      .exceptionHandlers(catching(HttpError, (e) => ({ error: e.message })))
      .register(new Failing())
      .app();
    const r = await call(app2, 'GET', '/e/value');
    expect([r.status, r.text]).toEqual([400, '{"error":"bad"}']);
  });
  it('a global handler can replace the default shape of 400s produced by the runtime', async () => {
    @Path('/v')
    class V {
      @GET get(@QueryParam('n', { type: 'integer' }) n: number) {
        return { n };
      }
    }
    const app2 = new RestBuilder()
      .errorHandler(catching(BadRequestError, (e) => RestResponse.status(422).entity({ problems: e.violations.map((v) => v.name) })))
      .register(new V())
      .build();
    const r = await call(app2, 'GET', '/v?n=x');
    expect([r.status, r.text]).toEqual([422, '{"problems":["n"]}']);
  });
  it('a handler that throws falls back to the default answer', async () => {
    const app2 = createRestRouter(quiet)
      .exceptionHandlers(
        catching(TeapotError, () => {
          throw new HttpError(502, 'handler broke');
        }),
      )
      .register(new Failing())
      .app();
    expect((await call(app2, 'GET', '/e/global')).text).toBe('{"status":502,"message":"handler broke"}');
  });
  it('BadRequestError lists its violations', async () => {
    expect((await call(app, 'GET', '/e/bad-request')).text).toBe(
      '{"status":400,"message":"query q: too vague","violations":[{"location":"query","name":"q","message":"too vague"}]}',
    );
  });
  it('registering two global handlers for the same class fails', () => {
    expect(() =>
      createRestRouter().exceptionHandlers(
        catching(TeapotError, () => 1),
        catching(TeapotError, () => 2),
      ),
    ).toThrow('Exception handler for TeapotError already registered');
  });
});

const ajv = new Ajv({ allErrors: true });
const validateIssue = ajv.compile({
  type: 'object',
  required: ['title'],
  properties: { title: { type: 'string', minLength: 1 }, labels: { type: 'array', items: { type: 'integer' } } },
  additionalProperties: false,
}) as unknown as ValidateFunction;

@Path('/val')
class Validated {
  @POST
  @Path('/issues')
  create(@BodyParam({ validate: validateIssue, required: true }) body: { title: string }) {
    return RestResponse.created(`/issues/1`).entity(body);
  }
  @POST
  @Path('/schema')
  schema(@BodyParam({ schema: { type: 'object', properties: { n: { type: 'integer', maximum: 3 } } } }) body: unknown) {
    return body ?? { none: true };
  }
  @POST
  @Path('/both/{id}')
  both(
    @PathParam('id', { type: 'integer' }) id: number,
    @QueryParam('q', { required: true }) q: string,
    @BodyParam({ validate: validateIssue }) body: unknown,
  ) {
    return { id, q, body };
  }
  @GET
  @Path('/result/{n}')
  @ValidateResult({ type: 'object', properties: { n: { type: 'integer', maximum: 10 } } })
  result(@PathParam('n', { type: 'integer' }) n: number) {
    return { n };
  }
  @GET
  @Path('/result400/{n}')
  @ValidateResult({ type: 'object', properties: { n: { type: 'integer', maximum: 10 } } }, { status: 400 })
  result400(@PathParam('n', { type: 'integer' }) n: number) {
    return { n };
  }
}

describe('validation with ajv', () => {
  const app = createRestRouter(quiet).register(new Validated()).app();
  it('a valid body passes', async () => {
    const r = await call(app, 'POST', '/val/issues', { json: { title: 'x', labels: [1] } });
    expect([r.status, r.text]).toEqual([201, '{"title":"x","labels":[1]}']);
  });
  it('lists every violation with JSON pointers', async () => {
    const r = await call(app, 'POST', '/val/issues', { json: { labels: ['a', 2], extra: true } });
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({
      status: 400,
      message: "body /title: must have required property 'title' (and 2 more)",
      violations: [
        { location: 'body', name: '/title', message: "must have required property 'title'" },
        { location: 'body', name: '/extra', message: 'must NOT have additional properties' },
        { location: 'body', name: '/labels/0', message: 'must be integer' },
      ],
    });
  });
  it('a required body that is missing is 400', async () => {
    expect((await call(app, 'POST', '/val/issues')).text).toBe(
      '{"status":400,"message":"body: is required","violations":[{"location":"body","name":"body","message":"is required"}]}',
    );
  });
  it('compiles a hand-written JSON Schema with the router ajv', async () => {
    expect((await call(app, 'POST', '/val/schema', { json: { n: 2 } })).text).toBe('{"n":2}');
    expect((await call(app, 'POST', '/val/schema', { json: { n: 4 } })).json()).toMatchObject({
      violations: [{ location: 'body', name: '/n', message: 'must be <= 3' }],
    });
  });
  it('an optional body may be absent', async () => {
    expect((await call(app, 'POST', '/val/schema')).text).toBe('{"none":true}');
  });
  it('path, query and body violations come in one answer', async () => {
    const r = await call(app, 'POST', '/val/both/x', { json: { title: 5 } });
    expect(r.json()).toEqual({
      status: 400,
      message: 'path id: must be an integer, got "x" (and 2 more)',
      violations: [
        { location: 'path', name: 'id', message: 'must be an integer, got "x"' },
        { location: 'query', name: 'q', message: 'is required' },
        { location: 'body', name: '/title', message: 'must be string' },
      ],
    });
  });
  it('validates results: a violation is a 500 listing it', async () => {
    expect((await call(app, 'GET', '/val/result/3')).text).toBe('{"n":3}');
    const r = await call(app, 'GET', '/val/result/11');
    expect([r.status, r.text]).toEqual([
      500,
      '{"status":500,"message":"Response validation failed",' +
        '"details":{"violations":[{"location":"result","name":"/n","message":"must be <= 10"}]}}',
    ]);
  });
  it('result validation may answer 400 instead', async () => {
    const r = await call(app, 'GET', '/val/result400/11');
    expect([r.status, r.text]).toEqual([
      400,
      '{"status":400,"message":"Response validation failed",' +
        '"details":{"violations":[{"location":"result","name":"/n","message":"must be <= 10"}]}}',
    ]);
  });
  it('a custom compiler given with validateWith is used for schemas', async () => {
    const compiled: object[] = [];
    const custom = new Ajv({ allErrors: true });
    const app2 = createRestRouter()
      .validateWith({
        compile: (s) => {
          compiled.push(s);
          return custom.compile(s) as unknown as ValidateFunction;
        },
      })
      .register(new Validated())
      .app();
    expect((await call(app2, 'POST', '/val/schema', { json: { n: 9 } })).status).toBe(400);
    expect(compiled.length).toBeGreaterThan(0);
  });
});

describe('not-found handlers', () => {
  @Path('/known')
  class Known {
    @GET get() {
      return 'known';
    }
  }
  it('the default is 404 JSON', async () => {
    const app = createRestRouter().register(Known).app();
    expect((await call(app, 'GET', '/nope')).text).toBe('{"status":404,"message":"Not Found"}');
  });
  it('pattern handlers run for matching paths, the catch-all for the rest, whatever the order of calls', async () => {
    const app = new RestBuilder()
      .notFound(() => RestResponse.notFound('catch-all'))
      .notFound(/^\/api\//, (c) => ({ missing: c.req.path }))
      .register(Known)
      .build();
    const a = await call(app, 'GET', '/api/x');
    expect([a.status, a.text]).toEqual([404, '{"missing":"/api/x"}']);
    const b = await call(app, 'GET', '/other');
    expect([b.status, b.text]).toEqual([404, '{"status":404,"message":"catch-all"}']);
    expect((await call(app, 'GET', '/known')).text).toBe('known');
  });
  it('a pattern with the g flag matches every time (RegExp.test would otherwise resume where it stopped)', async () => {
    const app = createRestRouter()
      .notFound(/^\/api\//g, () => RestResponse.notFound('api'))
      .register(Known)
      .app();
    for (let i = 0; i < 3; i++) expect((await call(app, 'GET', '/api/x')).text).toBe('{"status":404,"message":"api"}');
  });
  it('a not-found handler may return a Hono response', async () => {
    const app = createRestRouter()
      .notFound((c) => c.html('<p>gone</p>', 404))
      .register(Known)
      .app();
    const r = await call(app, 'GET', '/x');
    expect([r.status, r.headers.get('content-type'), r.text]).toEqual([404, 'text/html; charset=UTF-8', '<p>gone</p>']);
  });
});
