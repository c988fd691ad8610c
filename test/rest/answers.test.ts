/**
 * @module
 * What an answer carries, over real HTTP, against the two libraries' behaviour: the status and
 * headers a method sets on the injected context (rest.vertx keeps what it set on the response), a
 * null result handed to the route's writer (rest.vertx: the writer decides), `X-Status-Reason` on
 * validation failures (rest.vertx), and xp-forge's default headers on every answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseWriter as Writer } from '../../runtime/rest/index.js';
import {
  BodyParam,
  Context,
  createRestRouter,
  GET,
  Header,
  HttpError,
  Path,
  POST,
  QueryParam,
  ResponseWriter,
  RestResponse,
  Status,
} from '../../runtime/rest/index.js';
import { call, type Listening, listen, rawCall, rawSend } from '../support/rest-answers.js';

/** A writer that decides what an absent result means, as a rest.vertx writer may. */
const nothingIs204: Writer = {
  produces: 'application/json',
  write: (value) =>
    value === null || value === undefined ? new Response(null, { status: 204, headers: { 'x-writer': 'empty' } }) : JSON.stringify(value),
};

@Path('/answers')
class Answers {
  @POST
  @Path('/created')
  create(@Context() c: Context, @BodyParam() item: { name: string }) {
    c.status(201);
    c.header('Location', `/answers/items/${item.name}`);
    c.header('X-Trace', 'a');
    c.header('X-Trace', 'b', { append: true });
    return { name: item.name };
  }
  @GET
  @Path('/async-status')
  async later(@Context() c: Context) {
    await new Promise((r) => setTimeout(r, 1));
    c.status(202);
    return 'queued';
  }
  @GET
  @Path('/built')
  @Status(200)
  built(@Context() c: Context) {
    c.status(202);
    c.header('X-From-Context', '1');
    // A built answer says its own status; the context's headers still come along.
    return RestResponse.created('/answers/built/1').entity({ ok: true });
  }
  @GET
  @Path('/nothing')
  @ResponseWriter(nothingIs204)
  nothing(@QueryParam('async', { type: 'boolean' }) later: boolean | undefined) {
    return later ? Promise.resolve(null) : undefined;
  }
  @GET
  @Path('/something')
  @ResponseWriter(nothingIs204)
  something() {
    return { here: true };
  }
  @GET
  @Path('/plain-nothing')
  plainNothing() {
    return null;
  }
  @POST
  @Path('/validated')
  validated(
    @BodyParam({ schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer', maximum: 3 } } } }) body: { n: number },
  ) {
    return body;
  }
  @GET
  @Path('/limited')
  limited(@QueryParam('n', { type: 'integer', maximum: 3 }) n: number) {
    return { n };
  }
  @GET
  @Path('/cached')
  @Header('Cache-Control: max-age=60')
  cached() {
    return { cached: true };
  }
  @GET
  @Path('/own')
  own() {
    return RestResponse.ok({ own: true }).header('X-Content-Type-Options', 'whatever').header('Cache-Control', 'private');
  }
  @GET
  @Path('/fails')
  fails(): never {
    throw new HttpError(409, 'Conflict');
  }
}

describe('answers', () => {
  let server: Listening;
  let bare: Listening;
  beforeAll(async () => {
    server = await listen(
      createRestRouter({ onError: () => {} })
        .register(new Answers())
        .app(),
    );
    bare = await listen(createRestRouter({ defaultHeaders: {} }).register(new Answers()).app());
  });
  afterAll(async () => {
    await server.close();
    await bare.close();
  });
  const get = (path: string, port = server.port) => rawCall(port, 'GET', path);

  it('keeps the status and headers a method set on the context when it returns a value (rest.vertx)', async () => {
    const r = await rawSend(server.port, 'POST', '/answers/created', '{"name":"mug"}', { 'content-type': 'application/json' });
    expect([r.status, r.text]).toEqual([201, '{"name":"mug"}']);
    expect([r.headers['location'], r.headers['x-trace'], r.headers['content-type']]).toEqual([
      '/answers/items/mug',
      'a, b',
      'application/json',
    ]);
  });
  it('keeps a status set after an await', async () => {
    const r = await get('/answers/async-status');
    expect([r.status, r.text]).toEqual([202, 'queued']);
  });
  it("a built answer's own status wins over the context's; the context's headers come along", async () => {
    const r = await get('/answers/built');
    expect([r.status, r.headers['location'], r.headers['x-from-context'], r.text]).toEqual([201, '/answers/built/1', '1', '{"ok":true}']);
  });
  it("hands a null or undefined result, sync or async, to the route's writer, which decides (rest.vertx)", async () => {
    for (const path of ['/answers/nothing', '/answers/nothing?async=true']) {
      const r = await get(path);
      expect([r.status, r.headers['x-writer'], r.text]).toEqual([204, 'empty', '']);
    }
    expect((await get('/answers/something')).text).toBe('{"here":true}');
  });
  it('without a writer of its own, a null result is an empty 200 (rest.vertx)', async () => {
    const r = await get('/answers/plain-nothing');
    expect([r.status, r.text]).toEqual([200, '']);
  });
  it('a validation failure says so in X-Status-Reason (rest.vertx)', async () => {
    const body = await rawSend(server.port, 'POST', '/answers/validated', '{"n":7}', { 'content-type': 'application/json' });
    expect([body.status, body.headers['x-status-reason']]).toEqual([400, 'Validation failed']);
    const param = await get('/answers/limited?n=9');
    expect([param.status, param.headers['x-status-reason']]).toEqual([400, 'Validation failed']);
    // Not on other errors.
    expect((await get('/answers/fails')).headers['x-status-reason']).toBeUndefined();
  });
  it("answers every response with xp-forge's default headers: routes, errors, not found", async () => {
    for (const path of ['/answers/something', '/answers/fails', '/answers/limited?n=9', '/nowhere', '/answers/plain-nothing']) {
      const r = await get(path);
      expect([path, r.headers['x-content-type-options'], r.headers['cache-control']]).toEqual([path, 'nosniff', 'no-cache']);
    }
  });
  it('a method that says otherwise wins over a default header', async () => {
    expect((await get('/answers/cached')).headers['cache-control']).toBe('max-age=60');
    const own = await get('/answers/own');
    expect([own.headers['cache-control'], own.headers['x-content-type-options']]).toEqual(['private', 'whatever']);
  });
  it('the default headers are a router option: {} sends none', async () => {
    const r = await get('/answers/something', bare.port);
    expect([r.headers['x-content-type-options'], r.headers['cache-control'], r.text]).toEqual([undefined, undefined, '{"here":true}']);
    const custom = createRestRouter({ defaultHeaders: { 'Cache-Control': 'no-store' } })
      .register(new Answers())
      .app();
    const c = await call(custom, 'GET', '/answers/something');
    expect([c.headers.get('cache-control'), c.headers.get('x-content-type-options')]).toEqual(['no-store', null]);
  });
});
