/**
 * @module
 * Writing: the Response builder, writers by method/type/mime, `Accept` negotiation, `@Produces`,
 * `@Consumes`, readers, streams, async generators and static files.
 */

import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import { fileWriter } from '../../runtime/entries/rest/node.js';
import type { HandlerResult, ValueReader, ResponseWriter as Writer } from '../../runtime/rest/index.js';
import {
  BodyParam,
  CatchWith,
  Consumes,
  catching,
  createRestRouter,
  GET,
  Get,
  Header,
  Path,
  PathParam,
  POST,
  Produces,
  RequestReader,
  ResponseWriter,
  RestResponse,
  Status,
} from '../../runtime/rest/index.js';
import { call } from '../support/rest-answers.js';

@Path('/r')
class Builder {
  @GET @Path('/ok') ok() {
    return RestResponse.ok({ a: 1 });
  }
  @GET @Path('/ok-empty') okEmpty() {
    return RestResponse.ok();
  }
  @POST @Path('/created') created() {
    return RestResponse.created('/users/{user}/avatars/{id}', '~friebe', 1).entity({ id: 1 });
  }
  @POST @Path('/created-named') createdNamed() {
    return RestResponse.created('/u/{id}', { id: 'a b' });
  }
  @POST @Path('/accepted') accepted() {
    return RestResponse.accepted();
  }
  @GET @Path('/no-content') noContent() {
    return RestResponse.noContent();
  }
  @GET @Path('/see') see() {
    return RestResponse.see('/elsewhere?x=1');
  }
  @GET @Path('/not-modified') notModified() {
    return RestResponse.notModified();
  }
  @GET @Path('/not-found') notFound() {
    return RestResponse.notFound('No such user');
  }
  @GET @Path('/not-found-bare') notFoundBare() {
    return RestResponse.notFound();
  }
  @GET @Path('/not-acceptable') notAcceptable() {
    return RestResponse.notAcceptable(new Error('only JSON'));
  }
  @GET @Path('/error') error() {
    return RestResponse.error(503, 'try later');
  }
  @GET @Path('/status') status() {
    return RestResponse.status(418).type('text/plain').body('teapot');
  }
  @GET @Path('/headers') headers() {
    return RestResponse.ok('x').header('X-A', '1').header('x-a', '2').header('X-B', '3');
  }
  @GET @Path('/cookies') cookies() {
    return RestResponse.ok({ a: 1 })
      .cookie('session', 'a b;c', { httpOnly: true, secure: true, path: '/', sameSite: 'Lax', maxAge: 3600 })
      .cookie('theme', 'dark')
      .header('Set-Cookie', 'raw=1')
      .header('X-A', '1');
  }
  @GET @Path('/cookies-bytes') cookiesBytes() {
    return RestResponse.ok().cookie('a', '1').cookie('b', '2').body('x');
  }
  @GET @Path('/bad-cookie') badCookie() {
    return RestResponse.ok().cookie('__Host-id', '1', { path: '/' });
  }
  @GET @Path('/bytes') bytes() {
    return RestResponse.ok().body(new Uint8Array([1, 2, 3]));
  }
  @GET @Path('/typed') typed() {
    return RestResponse.ok({ a: 1 }).type('application/vnd.loom+json');
  }
  @GET @Path('/stream') stream() {
    return RestResponse.ok()
      .type('text/plain')
      .stream(Readable.from(['a', 'b', 'c']));
  }
  @GET @Path('/stream-sized') streamSized() {
    return RestResponse.ok().stream(Readable.from([Buffer.from('abcd')]), 4);
  }
  @GET
  @Path('/generator')
  @Produces('text/event-stream')
  async *generator(): AsyncGenerator<string> {
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
      yield `data: ${i}\n\n`;
    }
  }
  @GET @Path('/plain') @Status(202) plain(): HandlerResult<{ v: number }> {
    return { v: 1 };
  }
  @GET @Path('/null') @Status(204) nothing(): void {}
  @GET @Path('/async') async later() {
    await new Promise((r) => setTimeout(r, 5));
    return { late: true };
  }
}

describe('the Response builder', () => {
  const app = createRestRouter().register(new Builder()).app();
  it('ok(entity) is 200 JSON', async () => {
    const r = await call(app, 'GET', '/r/ok');
    expect([r.status, r.headers.get('content-type'), r.text]).toEqual([200, 'application/json', '{"a":1}']);
  });
  it('ok() without entity is 200 with an empty body', async () => {
    const r = await call(app, 'GET', '/r/ok-empty');
    expect([r.status, r.text, r.headers.get('content-type')]).toEqual([200, '', null]);
  });
  it('created() fills positional placeholders, URL-encoded, and sets Location', async () => {
    const r = await call(app, 'POST', '/r/created');
    expect([r.status, r.headers.get('location'), r.text]).toEqual([201, '/users/~friebe/avatars/1', '{"id":1}']);
  });
  it('created() fills named placeholders from an object', async () => {
    const r = await call(app, 'POST', '/r/created-named');
    expect([r.status, r.headers.get('location'), r.text]).toEqual([201, '/u/a%20b', '']);
  });
  it('accepted() is 202', async () => {
    expect((await call(app, 'POST', '/r/accepted')).status).toBe(202);
  });
  it('noContent() is 204 without a body', async () => {
    const r = await call(app, 'GET', '/r/no-content');
    expect([r.status, r.text]).toEqual([204, '']);
  });
  it('see() is 302 with Location', async () => {
    const r = await call(app, 'GET', '/r/see');
    expect([r.status, r.headers.get('location')]).toEqual([302, '/elsewhere?x=1']);
  });
  it('notModified() is 304', async () => {
    expect((await call(app, 'GET', '/r/not-modified')).status).toBe(304);
  });
  it('notFound(message) is 404 with {"status","message"}', async () => {
    const r = await call(app, 'GET', '/r/not-found');
    expect([r.status, r.text]).toEqual([404, '{"status":404,"message":"No such user"}']);
  });
  it('notFound() without a message has no body', async () => {
    const r = await call(app, 'GET', '/r/not-found-bare');
    expect([r.status, r.text]).toEqual([404, '']);
  });
  it('notAcceptable(error) uses the error message', async () => {
    expect((await call(app, 'GET', '/r/not-acceptable')).text).toBe('{"status":406,"message":"only JSON"}');
  });
  it('error(code, message)', async () => {
    const r = await call(app, 'GET', '/r/error');
    expect([r.status, r.text]).toEqual([503, '{"status":503,"message":"try later"}']);
  });
  it('status(code).type(mime).body(text)', async () => {
    const r = await call(app, 'GET', '/r/status');
    expect([r.status, r.headers.get('content-type'), r.text, r.headers.get('content-length')]).toEqual([418, 'text/plain', 'teapot', '6']);
  });
  it('header() replaces a header set earlier with the same name', async () => {
    const r = await call(app, 'GET', '/r/headers');
    expect([r.headers.get('x-a'), r.headers.get('x-b')]).toEqual(['2', '3']);
  });
  it('cookie() adds one Set-Cookie per call, encoded and with its attributes; header() adds Set-Cookie too', async () => {
    const res = await app.request('/r/cookies');
    expect(res.headers.getSetCookie()).toEqual([
      'session=a%20b%3Bc; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax',
      'theme=dark',
      'raw=1',
    ]);
    expect(await res.json()).toEqual({ a: 1 });
    expect((await app.request('/r/cookies-bytes')).headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });
  it('cookie() refuses what browsers would drop: a __Host- cookie without Secure fails the request (500) instead', async () => {
    const res = await app.request('/r/bad-cookie');
    expect(res.status).toBe(500);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
  it('every Set-Cookie reaches the wire as its own header line', async () => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/r/cookies`);
      expect(res.headers.getSetCookie()).toHaveLength(3);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
  it('body(bytes) is octet-stream with Content-Length', async () => {
    const res = await app.request('/r/bytes');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-length')).toBe('3');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([1, 2, 3]);
  });
  it('type() overrides the negotiated content type of an entity', async () => {
    const r = await call(app, 'GET', '/r/typed');
    expect([r.headers.get('content-type'), r.text]).toEqual(['application/vnd.loom+json', '{"a":1}']);
  });
  it('stream() sends a Node stream chunked', async () => {
    const r = await call(app, 'GET', '/r/stream');
    expect([r.status, r.headers.get('content-type'), r.text, r.headers.get('content-length')]).toEqual([200, 'text/plain', 'abc', null]);
  });
  it('stream(source, size) sets Content-Length', async () => {
    const r = await call(app, 'GET', '/r/stream-sized');
    expect([r.headers.get('content-length'), r.text]).toEqual(['4', 'abcd']);
  });
  it('an async generator is streamed with the produced type', async () => {
    const r = await call(app, 'GET', '/r/generator');
    expect([r.headers.get('content-type'), r.text]).toEqual(['text/event-stream', 'data: 0\n\ndata: 1\n\ndata: 2\n\n']);
  });
  it('a plain value is sent with @Status', async () => {
    const r = await call(app, 'GET', '/r/plain');
    expect([r.status, r.text]).toEqual([202, '{"v":1}']);
  });
  it('undefined is sent with @Status and no body', async () => {
    const r = await call(app, 'GET', '/r/null');
    expect([r.status, r.text]).toEqual([204, '']);
  });
  it('async handlers do not block other requests', async () => {
    const [slow, fast] = await Promise.all([call(app, 'GET', '/r/async'), call(app, 'GET', '/r/ok')]);
    expect([slow.text, fast.text]).toEqual(['{"late":true}', '{"a":1}']);
  });
});

class Csv {
  constructor(readonly rows: string[][]) {}
}
const csvWriter: Writer<Csv> = {
  produces: 'text/csv',
  headers: { 'X-Writer': 'csv' },
  write: (v) => v.rows.map((r) => r.join(',')).join('\n'),
};
const xmlWriter: Writer = { produces: 'application/xml', write: (v) => `<v>${JSON.stringify(v)}</v>` };
const csvReader: ValueReader<string[][]> = {
  consumes: ['text/csv'],
  read: (text) =>
    text
      .trim()
      .split('\n')
      .map((l) => l.split(',')),
};
const upperReader: ValueReader<string> = { read: (text) => text.toUpperCase() };

@Path('/w')
class Writers {
  @GET @Path('/csv') csv() {
    return new Csv([
      ['a', 'b'],
      ['1', '2'],
    ]);
  }
  @GET @Path('/negotiated') @Produces('application/json', 'application/xml') negotiated() {
    return { n: 1 };
  }
  @GET @Path('/json-only') @Produces('application/json') jsonOnly() {
    return { n: 1 };
  }
  @GET @Path('/method-writer') @ResponseWriter({ produces: 'text/x-shout', write: (v: unknown) => String(v).toUpperCase() }) shout() {
    return 'quiet';
  }
  @POST @Path('/import') @Consumes('text/csv', 'application/json') import(@BodyParam() rows: string[][]) {
    return { rows: rows.length };
  }
  @POST @Path('/upper') @RequestReader(upperReader) upper(@BodyParam() text: string) {
    return { text };
  }
  @POST @Path('/param-reader') paramReader(@BodyParam({ reader: upperReader }) text: string) {
    return { text };
  }
  @GET @Path('/open') open() {
    return { any: true };
  }
}

describe('readers, writers and content negotiation', () => {
  const app = createRestRouter().writer(Csv, csvWriter).writer(xmlWriter).reader('text/csv', csvReader).register(new Writers()).app();
  it('a writer registered for the result class writes it, with its static headers', async () => {
    const r = await call(app, 'GET', '/w/csv');
    expect([r.headers.get('content-type'), r.headers.get('x-writer'), r.text]).toEqual(['text/csv', 'csv', 'a,b\n1,2']);
  });
  it('Accept picks among @Produces (q-values honoured)', async () => {
    const r = await call(app, 'GET', '/w/negotiated', { headers: { accept: 'application/json;q=0.5, application/xml' } });
    expect([r.headers.get('content-type'), r.text]).toEqual(['application/xml', '<v>{"n":1}</v>']);
  });
  it('without Accept the first produced type wins', async () => {
    const r = await call(app, 'GET', '/w/negotiated');
    expect([r.headers.get('content-type'), r.text]).toEqual(['application/json', '{"n":1}']);
  });
  it('wildcards match: text/* is not acceptable for JSON-only routes, */* is', async () => {
    expect((await call(app, 'GET', '/w/json-only', { headers: { accept: '*/*' } })).status).toBe(200);
    const r = await call(app, 'GET', '/w/json-only', { headers: { accept: 'text/*' } });
    expect([r.status, r.text]).toEqual([406, '{"status":406,"message":"Not Acceptable: this resource produces application/json"}']);
  });
  it('a method @ResponseWriter wins over everything', async () => {
    const r = await call(app, 'GET', '/w/method-writer');
    expect([r.headers.get('content-type'), r.text]).toEqual(['text/x-shout', 'QUIET']);
  });
  it('a reader registered for the request mime reads the body', async () => {
    const r = await call(app, 'POST', '/w/import', { body: 'a,b\nc,d\ne,f', headers: { 'content-type': 'text/csv' } });
    expect(r.text).toBe('{"rows":3}');
  });
  it('a Content-Type outside @Consumes is 415', async () => {
    const r = await call(app, 'POST', '/w/import', { body: '<x/>', headers: { 'content-type': 'application/xml' } });
    expect([r.status, r.text]).toEqual([
      415,
      '{"status":415,"message":"Unsupported Media Type: this resource consumes text/csv, application/json"}',
    ]);
  });
  it('a method @RequestReader reads the body', async () => {
    expect((await call(app, 'POST', '/w/upper', { body: 'abc', headers: { 'content-type': 'text/plain' } })).text).toBe('{"text":"ABC"}');
  });
  it('a parameter reader reads the body', async () => {
    expect((await call(app, 'POST', '/w/param-reader', { body: 'xyz', headers: { 'content-type': 'text/plain' } })).text).toBe(
      '{"text":"XYZ"}',
    );
  });
  it('a route without @Produces uses a registered mime writer when Accept asks for it', async () => {
    const r = await call(app, 'GET', '/w/open', { headers: { accept: 'application/xml' } });
    expect([r.headers.get('content-type'), r.text]).toEqual(['application/xml', '<v>{"any":true}</v>']);
  });
  it('a route without @Produces falls back to JSON for other Accept values', async () => {
    const r = await call(app, 'GET', '/w/open', { headers: { accept: 'image/png' } });
    expect([r.headers.get('content-type'), r.text]).toEqual(['application/json', '{"any":true}']);
  });
});

describe('the declared type and the built-in writers', () => {
  @Path('/t')
  class Typed {
    @GET @Path('/html') @Produces('text/html') html() {
      return '<h1>hi</h1>';
    }
    @Get('/csv', { produces: 'text/csv' }) csv() {
      return 'a,b';
    }
    @GET @Path('/header-type') @Header('Content-Type: text/csv') headerType() {
      return 'a,b';
    }
    @GET @Path('/vendor') @Produces('application/vnd.api+json') vendor() {
      return { data: [] };
    }
    @GET @Path('/bytes') bytes() {
      return new Uint8Array([1, 2]);
    }
    @GET @Path('/either') @Produces('application/json', 'text/html') either() {
      return { a: 1 };
    }
    @GET @Path('/text-error') @Produces('text/plain') textError() {
      return RestResponse.notFound('nope');
    }
    @GET
    @Path('/text-throw')
    @Produces('text/csv')
    @CatchWith(catching(RangeError, (e) => RestResponse.error(409, e.message)))
    textThrow(): string {
      throw new RangeError('taken');
    }
    @GET @Path('/plain-object') plainObject() {
      return { a: 1 };
    }
    @GET @Path('/map') map() {
      return new Map<string, number>([
        ['a', 1],
        ['b', 2],
      ]);
    }
    @GET @Path('/set') set() {
      return new Set(['x', 'y']);
    }
    @GET @Path('/generator') *generator() {
      yield 1;
      yield 2;
    }
  }
  const app = createRestRouter().writer(xmlWriter).register(Typed).app();
  it('@Produces, the shorthand and @Header name the Content-Type of the string a method returns', async () => {
    const html = await call(app, 'GET', '/t/html');
    expect([html.headers.get('content-type'), html.text]).toEqual(['text/html; charset=utf-8', '<h1>hi</h1>']);
    expect((await call(app, 'GET', '/t/csv')).headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect((await call(app, 'GET', '/t/header-type')).headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });
  it('a JSON-based type is written as JSON under its own name', async () => {
    const r = await call(app, 'GET', '/t/vendor');
    expect([r.headers.get('content-type'), r.text]).toEqual(['application/vnd.api+json', '{"data":[]}']);
  });
  it('bytes without a declared type are application/octet-stream', async () => {
    expect((await call(app, 'GET', '/t/bytes')).headers.get('content-type')).toBe('application/octet-stream');
  });
  it('an object under a text type is written as its JSON text, never [object Object]', async () => {
    const r = await call(app, 'GET', '/t/either', { headers: { accept: 'text/html' } });
    expect([r.headers.get('content-type'), r.text]).toEqual(['text/html; charset=utf-8', '{"a":1}']);
  });
  it("an error's {status, message} is JSON whatever the route produces", async () => {
    const returned = await call(app, 'GET', '/t/text-error');
    expect([returned.status, returned.headers.get('content-type'), returned.text]).toEqual([
      404,
      'application/json',
      '{"status":404,"message":"nope"}',
    ]);
    const caught = await call(app, 'GET', '/t/text-throw');
    expect([caught.status, caught.headers.get('content-type'), caught.text]).toEqual([
      409,
      'application/json',
      '{"status":409,"message":"taken"}',
    ]);
  });
  it('a registered mime writer does not take Accept: */* from JSON', async () => {
    for (const accept of ['*/*', 'application/json, */*']) {
      const r = await call(app, 'GET', '/t/plain-object', { headers: { accept } });
      expect([r.headers.get('content-type'), r.text]).toEqual(['application/json', '{"a":1}']);
    }
    const xml = await call(app, 'GET', '/t/plain-object', { headers: { accept: 'application/xml' } });
    expect(xml.headers.get('content-type')).toBe('application/xml');
  });
  it('a Map is written as an object, a Set and a generator as arrays', async () => {
    expect((await call(app, 'GET', '/t/map')).text).toBe('{"a":1,"b":2}');
    expect((await call(app, 'GET', '/t/set')).text).toBe('["x","y"]');
    expect((await call(app, 'GET', '/t/generator')).text).toBe('[1,2]');
  });
});

describe('jsonContentType: the label of the built-in JSON', () => {
  @Path('/j')
  class Labelled {
    @GET @Path('/plain') plain() {
      return { a: 1 };
    }
    @GET @Path('/declared') @Produces('application/json') declared() {
      return { a: 1 };
    }
    @GET @Path('/built') built() {
      return RestResponse.created('/j/1').entity({ id: 1 });
    }
    @GET @Path('/vendor') @Produces('application/vnd.api+json') vendor() {
      return { data: [] };
    }
    @GET @Path('/returned-error') returnedError() {
      return RestResponse.notFound('nope');
    }
    @GET @Path('/thrown') thrown(): never {
      throw new RangeError('internal');
    }
  }
  const type = 'application/json;charset=utf-8';
  const app = createRestRouter({ jsonContentType: type, onError: () => {} })
    .register(Labelled)
    .app();
  it('labels results, built answers and every error body with it', async () => {
    const answers = await Promise.all(
      ['plain', 'declared', 'built', 'returned-error', 'thrown', 'nowhere'].map((p) => call(app, 'GET', `/j/${p}`)),
    );
    expect(answers.map((r) => [r.status, r.headers.get('content-type')])).toEqual(
      [200, 200, 201, 404, 500, 404].map((status) => [status, type]),
    );
    expect(answers[0]!.text).toBe('{"a":1}');
  });
  it("leaves a route's own JSON-based type alone", async () => {
    expect((await call(app, 'GET', '/j/vendor')).headers.get('content-type')).toBe('application/vnd.api+json');
  });
  it('must name application/json', () => {
    expect(() => createRestRouter({ jsonContentType: 'text/plain' })).toThrow(/jsonContentType: "text\/plain" is not application\/json/);
  });
});

const PUBLIC = fileURLToPath(new URL('./fixtures/public', import.meta.url));

@Path('/static')
class Files {
  @GET
  @Path('/{file:.+}')
  @ResponseWriter(fileWriter(PUBLIC))
  file(@PathParam('file') file: string) {
    return file;
  }
}

describe('static files through the file writer', () => {
  const app = createRestRouter().register(new Files()).app();
  it('serves a file with its content type', async () => {
    const r = await call(app, 'GET', '/static/index.html');
    expect([r.status, r.headers.get('content-type'), r.text]).toEqual([200, 'text/html; charset=utf-8', '<h1>hi</h1>\n']);
  });
  it('serves files in subfolders', async () => {
    const r = await call(app, 'GET', '/static/sub/site.css');
    expect([r.headers.get('content-type'), r.headers.get('content-length'), r.text]).toEqual([
      'text/css; charset=utf-8',
      '20',
      'body { color: red }\n',
    ]);
  });
  it('a missing file is 404', async () => {
    expect((await call(app, 'GET', '/static/none.txt')).text).toBe('{"status":404,"message":"Not Found"}');
  });
  it('never serves a file outside its folder (encoded ..)', async () => {
    const r = await call(app, 'GET', '/static/..%2Fsecret.txt');
    expect([r.status, r.text]).toEqual([404, '{"status":404,"message":"Not Found"}']);
  });
  it('never follows a symlink below the root to a file outside it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'loom-static-'));
    try {
      writeFileSync(join(root, 'inside.txt'), 'inside');
      symlinkSync(join(PUBLIC, '..', 'secret.txt'), join(root, 'leak.txt'));
      symlinkSync(join(root, 'inside.txt'), join(root, 'alias.txt'));
      const writer = fileWriter(root);
      const c = { req: { method: 'GET' } } as never;
      await expect(Promise.resolve().then(() => writer.write('leak.txt', c))).rejects.toMatchObject({ status: 404 });
      // A link that stays inside the folder is served as the file it points to.
      const ok = await writer.write('alias.txt', c);
      expect(await (ok as globalThis.Response).text()).toBe('inside');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
  it('refuses a handler-returned path that escapes the root', async () => {
    const writer = fileWriter(PUBLIC);
    const c = { req: { method: 'GET' } } as never;
    await expect(Promise.resolve().then(() => writer.write('../secret.txt', c))).rejects.toMatchObject({ status: 404 });
  });
});
