/**
 * @module
 * Binding, over real HTTP, against the two libraries' behaviour: an undecorated parameter binds by
 * name wherever it stands (xp-forge), decorations merge per parameter across inheritance levels
 * (rest.vertx), `SeparatedBy` takes both forms of a list (xp-forge), and a body on a GET is
 * refused at registration, since no Fetch-API adapter delivers one.
 */

import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BodyParam,
  Consumes,
  Convert,
  createRestRouter,
  DELETE,
  DefaultValue,
  FormParam,
  GET,
  Path,
  PathParam,
  POST,
  QueryParam,
  RegistrationError,
  SeparatedBy,
} from '../../runtime/rest/index.js';
import { type Listening, listen, rawCall, sendBody } from '../support/rest-answers.js';

@Path('/binding')
class Binding {
  // xp-forge: `fields($id, #[Param] $select)`: `id` is the path segment of its name, though the
  // parameter after it is decorated.
  @GET
  @Path('/users/{id}/fields')
  fields(id: string, @QueryParam('select') select: string) {
    return { id, select };
  }
  // The undecorated parameter after a decorated one: bound to the query by its name (GET).
  @GET
  @Path('/search')
  search(@QueryParam('q') q: string, page = '1') {
    return { q, page };
  }
  // xp-forge: `#[Get('/')] list(#[Param, SeparatedBy(',')] $select= [])`.
  @GET
  @Path('/select')
  select(@QueryParam('select') @Convert(SeparatedBy(',')) @DefaultValue([]) select: string[]) {
    return { select };
  }
  @POST
  @Path('/posts/{id}')
  update(id: string, @QueryParam('notify', { type: 'boolean' }) notify: boolean | undefined, post: { title: string }) {
    return { id, notify: notify ?? null, title: post.title };
  }
  // rest.vertx delivers a DELETE's body.
  @DELETE
  @Path('/posts')
  remove(@BodyParam({ required: true }) ids: number[]) {
    return { removed: ids.length };
  }
}

abstract class BaseItems {
  @GET
  @Path('/items/{id}')
  find(@PathParam('id', { type: 'integer' }) id: number, q: unknown): unknown {
    return { id, q };
  }
}
@Path('/inherit')
class Items extends BaseItems {
  // Decorates only its second parameter: the first keeps the base's source and type (rest.vertx
  // merges parameter annotations per parameter along the hierarchy).
  override find(id: number, @QueryParam('q', { type: 'integer' }) q: number | undefined) {
    return { id, q, type: typeof id };
  }
}

describe('binding by name, decorations per parameter, lists and GET bodies', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await listen(createRestRouter().register(new Binding(), new Items()).app());
  });
  afterAll(() => server.close());
  const get = (path: string) => rawCall(server.port, 'GET', path);

  it('binds an undecorated parameter by name where a decorated one follows it (xp-forge)', async () => {
    expect((await get('/binding/users/7/fields?select=name')).text).toBe('{"id":"7","select":"name"}');
    expect((await get('/binding/search?q=rex&page=2')).text).toBe('{"q":"rex","page":"2"}');
    expect((await get('/binding/search?q=rex')).text).toBe('{"q":"rex","page":"1"}');
  });
  it('binds a POST body by name between decorated parameters (xp-forge: POST passes the entity)', async () => {
    const r = await sendBody(server.port, 'POST', '/binding/posts/9?notify=true', ['{"title":"Hi"}'], {
      declareLength: true,
      headers: { 'content-type': 'application/json' },
    });
    expect(r).toEqual({ status: 200, body: '{"id":"9","notify":true,"title":"Hi"}' });
  });
  it("merges decorations per parameter: an override's decoration of one keeps the base's of another (rest.vertx)", async () => {
    expect((await get('/inherit/items/5?q=3')).text).toBe('{"id":5,"q":3,"type":"number"}');
    const bad = await get('/inherit/items/x');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ violations: [{ location: 'path', name: 'id', message: 'must be an integer, got "x"' }] });
  });
  it('SeparatedBy splits one value and takes a repeated key as the list (xp-forge: both forms)', async () => {
    expect((await get('/binding/select?select=one,two')).text).toBe('{"select":["one","two"]}');
    expect((await get('/binding/select?select=one&select=two')).text).toBe('{"select":["one","two"]}');
    expect((await get('/binding/select?select[]=one&select[]=two')).text).toBe('{"select":["one","two"]}');
    expect((await get('/binding/select?select=one')).text).toBe('{"select":["one"]}');
    expect((await get('/binding/select')).text).toBe('{"select":[]}');
  });
  it("delivers a DELETE's body (rest.vertx attaches a body handler to DELETE routes)", async () => {
    const r = await sendBody(server.port, 'DELETE', '/binding/posts', ['[1,2,3]'], {
      declareLength: true,
      headers: { 'content-type': 'application/json' },
    });
    expect(r).toEqual({ status: 200, body: '{"removed":3}' });
  });
  it("reads the request a host app's middleware put in place, its headers included (over @hono/node-server)", async () => {
    @Path('/typed')
    class Typed {
      @POST @Consumes('application/json') post(@BodyParam() body: { n: number }) {
        return body;
      }
    }
    const host = new Hono();
    host.use('*', async (c, next) => {
      // As the Issues service does for gitea-js, which labels some JSON text/plain.
      if (c.req.header('x-relabel') !== undefined) {
        const headers = new Headers(c.req.raw.headers);
        headers.set('content-type', 'application/json');
        c.req.raw = new Request(c.req.raw, { headers });
      }
      await next();
    });
    createRestRouter().register(new Typed()).mount(host, '/');
    const hosted = await listen(host);
    const send = (headers: Record<string, string>) =>
      sendBody(hosted.port, 'POST', '/typed', ['{"n":1}'], { declareLength: true, headers });
    try {
      // The adapter's own request first, then one the middleware replaced, then the adapter's again:
      // each is read with its own headers.
      expect(await send({ 'content-type': 'application/json' })).toEqual({ status: 200, body: '{"n":1}' });
      expect(await send({ 'content-type': 'text/plain', 'x-relabel': '1' })).toEqual({ status: 200, body: '{"n":1}' });
      expect((await send({ 'content-type': 'text/plain' })).status).toBe(415);
    } finally {
      await hosted.close();
    }
  });
  it('refuses a body parameter on a GET at registration, with the reason and what to do', () => {
    class GetBody {
      @GET @Path('/g') get(@BodyParam() body: unknown) {
        return body;
      }
    }
    class GetForm {
      @GET @Path('/g') get(@FormParam('a') a: string) {
        return a;
      }
    }
    for (const cls of [GetBody, GetForm]) {
      expect(() => createRestRouter().register(cls)).toThrow(RegistrationError);
      expect(() => createRestRouter().register(cls)).toThrow(
        `${cls.name}.get: parameter 0 reads the request body, which a GET request does not bring ` +
          "(the Fetch API's Request refuses one, so Hono's adapters drop it): read the data from the query, or answer POST",
      );
    }
  });
});
