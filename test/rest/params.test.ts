/**
 * @module
 * Parameters: path, query (decoded and raw), matrix, header, cookie, form (urlencoded, multipart,
 * files), body, beans, context, defaults, binding by name, and every conversion with its 400.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { RouteInfo, ValueReader } from '../../runtime/rest/index.js';
import {
  BeanParam,
  BodyParam,
  Context,
  ContextReader,
  Convert,
  CookieParam,
  conversion,
  createRestRouter,
  DefaultValue,
  FormParam,
  GET,
  HeaderParam,
  Matrix,
  MatrixParam,
  Path,
  PathParam,
  POST,
  QueryParam,
  Raw,
  restGetPath,
  SeparatedBy,
} from '../../runtime/rest/index.js';
import { call } from '../support/rest-answers.js';

const Color = { Red: 'red', Green: 'green' } as const;
const Level = { LOW: 0, HIGH: 1 } as const;

class Money {
  private constructor(readonly cents: number) {}
  static fromString(s: string): Money {
    const m = /^(\d+)\.(\d\d)$/.exec(s);
    if (!m) throw new Error(`"${s}" is not an amount like 3.50`);
    return new Money(Number(m[1]) * 100 + Number(m[2]));
  }
}
class Code {
  constructor(readonly code: string) {
    if (code.length !== 3) throw new Error('needs 3 letters');
  }
}

@Path('/q')
class Query {
  @GET
  @Path('/types')
  types(
    @QueryParam('s') s: string,
    @QueryParam('n', { type: 'number' }) n: number,
    @QueryParam('i', { type: 'integer' }) i: number,
    @QueryParam('b', { type: 'boolean' }) b: boolean,
    @QueryParam('d', { type: 'date' }) d: string,
  ) {
    return { s, n, i, b, d };
  }
  @GET
  @Path('/ctor')
  ctor(
    @QueryParam('n', { type: Number }) n: number,
    @QueryParam('b', { type: Boolean }) b: boolean,
    @QueryParam('d', { type: Date }) d: Date,
  ) {
    return { n, b, d: d?.toISOString() };
  }
  @GET
  @Path('/enum')
  enumValue(@QueryParam('c', { type: Color }) c: string, @QueryParam('l', { type: Level }) l: number) {
    return { c, l };
  }
  @GET
  @Path('/factory')
  factory(@QueryParam('m', { type: Money, required: true }) m: Money, @QueryParam('code', { type: Code }) code: Code) {
    return { cents: m.cents, code: code?.code };
  }
  @GET
  @Path('/converter')
  converter(@QueryParam('v', { type: { convert: (s: string) => s.split('').reverse().join('') } }) v: string) {
    return { v };
  }
  @GET
  @Path('/required')
  required(@QueryParam('a', { required: true }) a: string, @QueryParam('b', { required: true, type: 'integer' }) b: number) {
    return { a, b };
  }
  @GET
  @Path('/default')
  defaults(
    @QueryParam('page', { type: 'integer' }) @DefaultValue('1') page: number,
    @QueryParam('tag') @DefaultValue(['x']) tag: string[],
  ) {
    return { page, tag };
  }
  @GET
  @Path('/decode')
  decode(@QueryParam('v') v: string, @QueryParam('v') @Raw() raw: string, @QueryParam('v', { array: true }) @Raw() raws: string[]) {
    return { v, raw, raws };
  }
  @GET
  @Path('/array')
  array(
    @QueryParam('id', { type: 'integer', array: true }) ids: number[],
    @QueryParam('csv', { array: { separator: ',' } }) csv: string[],
  ) {
    return { ids, csv };
  }
  @GET
  @Path('/separated')
  separated(@QueryParam('v') @Convert(SeparatedBy('..')) v: string[]) {
    return { v };
  }
  @GET
  @Path('/custom')
  custom(
    @QueryParam('v')
    @Convert(
      conversion((s) => {
        if (s === 'no') throw new Error('no is not allowed');
        return String(s).toUpperCase();
      }),
    )
    v: string,
  ) {
    return { v };
  }
  @GET
  @Path('/constraints')
  constraints(
    @QueryParam('n', { type: 'integer', minimum: 1, maximum: 10 }) n: number,
    @QueryParam('e', { enum: ['a', 'b'] }) e: string,
    @QueryParam('m', { format: 'email' }) m: string,
  ) {
    return { n, e, m };
  }
  @GET
  @Path('/validate')
  validate(@QueryParam('v', { type: 'integer', schema: { type: 'integer', multipleOf: 5 } }) v: number) {
    return { v };
  }
}

describe('query parameters and conversions', () => {
  const app = createRestRouter().register(new Query()).app();
  it('converts string, number, integer, boolean and date', async () => {
    const r = await call(app, 'GET', '/q/types?s=hi&n=1.5&i=-3&b=true&d=2024-02-29');
    expect(r.text).toBe('{"s":"hi","n":1.5,"i":-3,"b":true,"d":"2024-02-29"}');
  });
  it('an absent optional value is left out', async () => {
    expect((await call(app, 'GET', '/q/types')).text).toBe('{}');
  });
  it('an integer is an optional sign and digits: nothing else that Number() would read', async () => {
    for (const [sent, got] of [
      ['%2B7', 7],
      ['-0', 0],
      ['007', 7],
    ] as const) {
      expect((await call(app, 'GET', `/q/types?i=${sent}`)).json()).toEqual({ i: got });
    }
    for (const sent of ['%2B', '-', '1e3', '0x10', '%201', '1%20', '1.0', '', '9007199254740993']) {
      const r = await call(app, 'GET', `/q/types?i=${sent}`);
      // An empty value is an absent one (see "empty values"); the rest are refused.
      expect([sent, r.status]).toEqual([sent, sent === '' ? 200 : 400]);
    }
  });
  it('accepts 0 and 1 as booleans', async () => {
    expect((await call(app, 'GET', '/q/types?b=0')).text).toBe('{"b":false}');
  });
  it('lists every conversion failure in one 400', async () => {
    const r = await call(app, 'GET', '/q/types?n=x&i=1.5&b=yes&d=2024-13');
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({
      status: 400,
      message: 'query n: must be a number, got "x" (and 3 more)',
      violations: [
        { location: 'query', name: 'n', message: 'must be a number, got "x"' },
        { location: 'query', name: 'i', message: 'must be an integer, got "1.5"' },
        { location: 'query', name: 'b', message: 'must be a boolean (true or false), got "yes"' },
        { location: 'query', name: 'd', message: 'must be a date (YYYY-MM-DD), got "2024-13"' },
      ],
    });
  });
  it('refuses dates and date-times that name no real day or time', async () => {
    for (const d of ['2024-13-01', '2024-02-30', '2023-02-29', '2024-00-10']) {
      expect((await call(app, 'GET', `/q/types?n=1&i=1&b=true&d=${d}`)).json()).toMatchObject({
        violations: [{ name: 'd', message: `must be a date (YYYY-MM-DD), got "${d}"` }],
      });
    }
    expect((await call(app, 'GET', '/q/types?n=1&i=1&b=true&d=2024-02-29')).status).toBe(200);
    @Path('/dt')
    class Dt {
      @GET get(@QueryParam('t', { type: 'date-time' }) t: string) {
        return { t };
      }
    }
    const dt = createRestRouter().register(Dt).app();
    for (const t of ['2024-01-01T25:00:00Z', '2024-01-01T10:60:00Z', '2024-01-01T10:00:00+24:00', '2024-04-31T10:00:00Z']) {
      expect((await call(dt, 'GET', `/dt?t=${encodeURIComponent(t)}`)).status).toBe(400);
    }
    for (const t of ['2024-01-01T23:59:60Z', '2024-02-29T10:00:00.5+05:30', '2024-01-01 10:00Z']) {
      expect((await call(dt, 'GET', `/dt?t=${encodeURIComponent(t)}`)).status).toBe(200);
    }
  });
  it('Number, Boolean and Date constructors convert too', async () => {
    const r = await call(app, 'GET', '/q/ctor?n=2&b=false&d=2024-01-02T03:04:05Z');
    expect(r.text).toBe('{"n":2,"b":false,"d":"2024-01-02T03:04:05.000Z"}');
  });
  it('an invalid Date is 400', async () => {
    const r = await call(app, 'GET', '/q/ctor?d=never');
    expect(r.status).toBe(400);
    expect(r.text).toContain('"message":"must be a date, got \\"never\\""');
  });
  it('enum objects accept values and keys', async () => {
    expect((await call(app, 'GET', '/q/enum?c=red&l=HIGH')).text).toBe('{"c":"red","l":1}');
    expect((await call(app, 'GET', '/q/enum?c=Green&l=0')).text).toBe('{"c":"green","l":0}');
  });
  it('an unknown enum value is 400 naming the allowed values', async () => {
    const r = await call(app, 'GET', '/q/enum?c=blue');
    expect(r.json()).toMatchObject({ violations: [{ location: 'query', name: 'c', message: 'must be one of: red, green; got "blue"' }] });
  });
  it('uses a static fromString factory, then a string constructor', async () => {
    expect((await call(app, 'GET', '/q/factory?m=3.50&code=EUR')).text).toBe('{"cents":350,"code":"EUR"}');
  });
  it('a factory that throws gives 400 with its message', async () => {
    const r = await call(app, 'GET', '/q/factory?m=3&code=EU');
    expect(r.json()).toMatchObject({
      violations: [
        { location: 'query', name: 'm', message: 'cannot be converted to Money: "3" is not an amount like 3.50' },
        { location: 'query', name: 'code', message: 'cannot be converted to Code: needs 3 letters' },
      ],
    });
  });
  it('uses a converter object', async () => {
    expect((await call(app, 'GET', '/q/converter?v=abc')).text).toBe('{"v":"cba"}');
  });
  it('missing required values are 400, each listed', async () => {
    const r = await call(app, 'GET', '/q/required');
    expect(r.json()).toEqual({
      status: 400,
      message: 'query a: is required (and 1 more)',
      violations: [
        { location: 'query', name: 'a', message: 'is required' },
        { location: 'query', name: 'b', message: 'is required' },
      ],
    });
  });
  it('@DefaultValue strings are converted; other defaults are used as they are', async () => {
    expect((await call(app, 'GET', '/q/default')).text).toBe('{"page":1,"tag":["x"]}');
    expect((await call(app, 'GET', '/q/default?page=3&tag=y')).text).toBe('{"page":3,"tag":"y"}');
  });
  it('decodes query values (+ is a space); @Raw keeps them as sent, one value unless array', async () => {
    const r = await call(app, 'GET', '/q/decode?v=a+b%26c&v=x%20y');
    expect(r.text).toBe('{"v":"a b&c","raw":"a+b%26c","raws":["a+b%26c","x%20y"]}');
  });
  it('array: true collects repeated values; a separator splits one', async () => {
    expect((await call(app, 'GET', '/q/array?id=1&id=2&csv=a,b,c')).text).toBe('{"ids":[1,2],"csv":["a","b","c"]}');
  });
  it('array values are converted one by one and failures are 400', async () => {
    expect((await call(app, 'GET', '/q/array?id=1&id=x')).status).toBe(400);
  });
  it('an absent array is empty', async () => {
    expect((await call(app, 'GET', '/q/array')).text).toBe('{"ids":[],"csv":[]}');
  });
  it('SeparatedBy splits on any separator', async () => {
    expect((await call(app, 'GET', '/q/separated?v=1..2..3')).text).toBe('{"v":["1","2","3"]}');
    expect((await call(app, 'GET', '/q/separated?v=')).text).toBe('{"v":[]}');
  });
  it('a user-defined conversion runs; when it throws the answer is 400 with its message', async () => {
    expect((await call(app, 'GET', '/q/custom?v=abc')).text).toBe('{"v":"ABC"}');
    const r = await call(app, 'GET', '/q/custom?v=no');
    expect(r.json()).toMatchObject({ status: 400, violations: [{ location: 'query', name: 'v', message: 'no is not allowed' }] });
  });
  it('checks minimum, maximum, enum and format', async () => {
    expect((await call(app, 'GET', '/q/constraints?n=5&e=a&m=a@b.io')).text).toBe('{"n":5,"e":"a","m":"a@b.io"}');
    const r = await call(app, 'GET', '/q/constraints?n=11&e=c&m=nope');
    expect(r.json()).toMatchObject({
      violations: [
        { location: 'query', name: 'n', message: 'must be <= 10' },
        { location: 'query', name: 'e', message: 'must be one of: a, b' },
        { location: 'query', name: 'm', message: 'must be a valid email' },
      ],
    });
  });
  it('validates a parameter with a JSON Schema compiled by ajv', async () => {
    expect((await call(app, 'GET', '/q/validate?v=10')).text).toBe('{"v":10}');
    expect((await call(app, 'GET', '/q/validate?v=7')).json()).toMatchObject({
      violations: [{ location: 'query', name: 'v', message: 'must be multiple of 5' }],
    });
  });
});

@Path('/m')
class MatrixRes {
  @GET
  @Path('/cars/{year}')
  cars(
    @PathParam('year', { type: 'integer' }) year: number,
    @MatrixParam('color') color: string,
    @MatrixParam('door', { array: true, type: 'integer' }) doors: number[],
  ) {
    return { year, color, doors };
  }
  @GET
  @Path('/filter')
  filter(@QueryParam('f') @Convert(Matrix()) f: Record<string, unknown>) {
    return f;
  }
}

describe('matrix parameters', () => {
  const app = createRestRouter().register(new MatrixRes()).app();
  it('reads ;name=value from any segment and strips it from path values', async () => {
    const r = await call(app, 'GET', '/m/cars;color=red;door=2;door=4/2024');
    expect(r.text).toBe('{"year":2024,"color":"red","doors":[2,4]}');
  });
  it('matrix values on the last segment', async () => {
    expect((await call(app, 'GET', '/m/cars/2020;color=blue%20sky')).text).toBe('{"year":2020,"color":"blue sky","doors":[]}');
  });
  it('the Matrix conversion parses a decoded value into a map with lists', async () => {
    const r = await call(app, 'GET', '/m/filter?f=status%3DCOMPLETED%3Borgunits%3DA%2CB%3Bflag');
    expect(r.text).toBe('{"status":"COMPLETED","orgunits":["A","B"],"flag":null}');
  });
});

describe('Matrix conversion', () => {
  it('splits on ;, lists on , and null for keys without =', () => {
    expect(Matrix().convert('status=COMPLETED;orgunits=A,B;flag')).toEqual({ status: 'COMPLETED', orgunits: ['A', 'B'], flag: null });
  });
  it('passes non-strings through', () => {
    expect(Matrix().convert(5)).toBe(5);
  });
});

class Tenant {
  constructor(readonly id: string) {}
}

@Path('/h')
class Sources {
  @GET
  @Path('/header')
  header(@HeaderParam('X-Count', { type: 'integer' }) count: number, @HeaderParam('user-agent') ua: string) {
    return { count, ua };
  }
  @GET
  @Path('/cookie')
  cookie(@CookieParam('session') session: string, @CookieParam('n', { type: 'integer' }) n: number) {
    return { session, n };
  }
  @POST
  @Path('/form')
  form(
    @FormParam('name', { required: true }) name: string,
    @FormParam('age', { type: 'integer' }) age: number,
    @FormParam('tag', { array: true }) tags: string[],
  ) {
    return { name, age, tags };
  }
  @POST
  @Path('/upload')
  async upload(@FormParam('title') title: string, @FormParam('file', { type: 'file', required: true }) file: File) {
    return { title, name: file.name, type: file.type, text: await file.text() };
  }
  @POST
  @Path('/body')
  body(@BodyParam() body: unknown) {
    return { got: body };
  }
  @POST
  @Path('/text')
  text(@BodyParam({ type: 'string' }) body: string) {
    return { length: body.length };
  }
  @GET
  @Path('/context')
  context(@Context() c: Context, @Context('request') req: Request, @Context('route') route: RouteInfo) {
    return { path: c.req.path, method: req.method, route: `${route.className}.${route.methodName} ${route.verb} ${route.path}` };
  }
  @GET
  @Path('/tenant')
  tenant(@Context(Tenant) tenant: Tenant) {
    return { tenant: tenant.id };
  }
  @GET
  @Path('/tenant-default')
  tenantDefault(@Context('missing') @DefaultValue('fallback') v: string) {
    return { v };
  }
  @GET
  @Path('/tenant-override')
  tenantOverride(@Context(Tenant) @ContextReader(() => new Tenant('overridden')) tenant: Tenant) {
    return { tenant: tenant.id };
  }
  @GET
  @Path('/var')
  variable(@Context('requestId') id: string) {
    return { id };
  }
  @GET
  @Path('/byname/{id}')
  byName(id: string, q: string, n = 1) {
    return { id, q, n };
  }
  @POST
  @Path('/byname/{id}')
  byNamePost(id: string, payload: unknown) {
    return { id, payload };
  }
}

describe('headers, cookies, forms, bodies and context', () => {
  const router = createRestRouter()
    .addProvider(Tenant, (c) => (c.req.header('x-tenant') ? new Tenant(c.req.header('x-tenant')!) : undefined))
    .register(new Sources());
  const app = router.app();
  it('reads and converts headers case-insensitively', async () => {
    const r = await call(app, 'GET', '/h/header', { headers: { 'x-count': '3', 'User-Agent': 'test' } });
    expect(r.text).toBe('{"count":3,"ua":"test"}');
  });
  it('a header that does not convert is 400 with location header', async () => {
    const r = await call(app, 'GET', '/h/header', { headers: { 'x-count': 'many' } });
    expect(r.json()).toMatchObject({ violations: [{ location: 'header', name: 'X-Count' }] });
  });
  it('reads cookies', async () => {
    const r = await call(app, 'GET', '/h/cookie', { headers: { cookie: 'session=abc; n=5' } });
    expect(r.text).toBe('{"session":"abc","n":5}');
  });
  it('reads url-encoded forms with repeated fields', async () => {
    const r = await call(app, 'POST', '/h/form', {
      body: 'name=Ada+L&age=36&tag=a&tag=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.text).toBe('{"name":"Ada L","age":36,"tags":["a","b"]}');
  });
  it('a missing required form field is 400', async () => {
    const r = await call(app, 'POST', '/h/form', { body: 'age=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(r.json()).toMatchObject({ violations: [{ location: 'form', name: 'name', message: 'is required' }] });
  });
  it('form parameters with a JSON body are 415', async () => {
    const r = await call(app, 'POST', '/h/form', { json: { name: 'x' } });
    expect(r.status).toBe(415);
  });
  it('reads multipart forms with file uploads', async () => {
    const form = new FormData();
    form.set('title', 'notes');
    form.set('file', new File(['hello file'], 'a.txt', { type: 'text/plain' }));
    const r = await call(app, 'POST', '/h/upload', { body: form });
    expect(r.text).toBe('{"title":"notes","name":"a.txt","type":"text/plain","text":"hello file"}');
  });
  it('a text value where a file is required is 400', async () => {
    const form = new FormData();
    form.set('file', 'not a file');
    const r = await call(app, 'POST', '/h/upload', { body: form });
    expect(r.json()).toMatchObject({ violations: [{ location: 'form', name: 'file', message: 'must be an uploaded file' }] });
  });
  it('reads a JSON body', async () => {
    expect((await call(app, 'POST', '/h/body', { json: { a: [1, 2] } })).text).toBe('{"got":{"a":[1,2]}}');
  });
  it('reads a body without Content-Type as JSON', async () => {
    expect((await call(app, 'POST', '/h/body', { body: new TextEncoder().encode('{"a":1}') })).text).toBe('{"got":{"a":1}}');
  });
  it('reads a text/plain body as text', async () => {
    expect((await call(app, 'POST', '/h/body', { body: 'plain', headers: { 'content-type': 'text/plain' } })).text).toBe('{"got":"plain"}');
  });
  it('malformed JSON is 400 with location body', async () => {
    const r = await call(app, 'POST', '/h/body', { body: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ violations: [{ location: 'body', name: 'body' }] });
  });
  it("type: 'string' passes the raw body text", async () => {
    expect((await call(app, 'POST', '/h/text', { body: '{"not":"parsed"}', headers: { 'content-type': 'application/json' } })).text).toBe(
      '{"length":16}',
    );
  });
  it('converts a body by its type, as a query value converts: 400 when it cannot', async () => {
    class Money {
      constructor(readonly cents: number) {}
      static fromString(text: string): Money {
        if (!/^\d+$/.test(text)) throw new Error('bad money');
        return new Money(Number(text));
      }
    }
    @Path('/typed')
    class Typed {
      @POST @Path('/int') int(@BodyParam({ type: 'integer' }) n: number) {
        return { n, kind: typeof n };
      }
      @POST @Path('/flag') flag(@BodyParam({ type: 'boolean' }) b: boolean) {
        return { b };
      }
      @POST @Path('/money') money(@BodyParam({ type: Money }) m: Money) {
        return { cents: m instanceof Money ? m.cents : 'not converted' };
      }
    }
    const typed = createRestRouter().register(Typed).app();
    const post = (path: string, body: string, type = 'text/plain') =>
      call(typed, 'POST', path, { body, headers: { 'content-type': type } });
    expect((await post('/typed/int', '5')).json()).toEqual({ n: 5, kind: 'number' });
    expect((await post('/typed/int', '7', 'application/json')).json()).toEqual({ n: 7, kind: 'number' });
    expect((await post('/typed/int', 'abc')).status).toBe(400);
    expect((await post('/typed/int', '{"a":1}', 'application/json')).json()).toMatchObject({
      status: 400,
      violations: [{ location: 'body', name: 'body' }],
    });
    expect((await post('/typed/flag', '"zz"', 'application/json')).status).toBe(400);
    expect((await post('/typed/flag', 'true', 'application/json')).json()).toEqual({ b: true });
    expect((await post('/typed/money', '250')).json()).toEqual({ cents: 250 });
    expect((await post('/typed/money', 'zz')).json()).toMatchObject({
      status: 400,
      violations: [{ location: 'body', message: expect.stringContaining('bad money') }],
    });
  });
  it('injects Hono context, the request and the route definition', async () => {
    const r = await call(app, 'GET', '/h/context');
    expect(r.text).toBe('{"path":"/h/context","method":"GET","route":"Sources.context GET /h/context"}');
  });
  it('injects from a registered provider', async () => {
    expect((await call(app, 'GET', '/h/tenant', { headers: { 'x-tenant': 't1' } })).text).toBe('{"tenant":"t1"}');
  });
  it('a context the provider cannot give is 400', async () => {
    const r = await call(app, 'GET', '/h/tenant');
    expect(r.json()).toEqual({
      status: 400,
      message: "context Tenant: Can't provide @Context of type: Tenant",
      violations: [{ location: 'context', name: 'Tenant', message: "Can't provide @Context of type: Tenant" }],
    });
  });
  it('@DefaultValue applies to a context value', async () => {
    expect((await call(app, 'GET', '/h/tenant-default')).text).toBe('{"v":"fallback"}');
  });
  it('@ContextReader overrides the registered provider', async () => {
    expect((await call(app, 'GET', '/h/tenant-override', { headers: { 'x-tenant': 't1' } })).text).toBe('{"tenant":"overridden"}');
  });
  it("values a host app's middleware sets (Hono variables) are injected by their name", async () => {
    const { Hono } = await import('hono');
    const host = new Hono();
    host.use('*', async (c, next) => {
      c.set('requestId' as never, 'r-1' as never);
      await next();
    });
    router.mount(host, '/');
    expect((await call(host, 'GET', '/h/var')).text).toBe('{"id":"r-1"}');
  });
  it('an eager provider (provide) runs on every request', async () => {
    let runs = 0;
    const app2 = createRestRouter()
      .provide(Tenant, () => {
        runs++;
        return new Tenant('eager');
      })
      .register(new Sources())
      .app();
    expect((await call(app2, 'GET', '/h/tenant')).text).toBe('{"tenant":"eager"}');
    await call(app2, 'GET', '/h/header');
    expect(runs).toBe(2);
  });
  it('binds undecorated parameters by name: path segment first, then query for GET', async () => {
    expect((await call(app, 'GET', '/h/byname/7?q=x&id=ignored')).text).toBe('{"id":"7","q":"x","n":1}');
  });
  it('binds an undecorated parameter of a POST to the body', async () => {
    expect((await call(app, 'POST', '/h/byname/7', { json: { z: 1 } })).text).toBe('{"id":"7","payload":{"z":1}}');
  });
});

class Paging {
  @QueryParam('page', { type: 'integer' }) @DefaultValue('1') page!: number;
  @QueryParam('size', { type: 'integer', maximum: 100 }) size?: number;
  @HeaderParam('x-sort') sort?: string;
}
class Point {
  constructor(
    @QueryParam('x', { type: 'number', required: true }) readonly x: number,
    @QueryParam('y', { type: 'number', required: true }) readonly y: number,
  ) {}
  get sum(): number {
    return this.x + this.y;
  }
}

@Path('/bean')
class Beans {
  @GET @Path('/fields') fields(@BeanParam(Paging) p: Paging) {
    return { isPaging: p instanceof Paging, ...p };
  }
  @GET @Path('/ctor') ctor(@BeanParam(Point) p: Point) {
    return { sum: p.sum };
  }
}

describe('bean parameters', () => {
  const app = createRestRouter().register(new Beans()).app();
  it('builds an object from decorated fields', async () => {
    expect((await call(app, 'GET', '/bean/fields?size=20', { headers: { 'x-sort': 'name' } })).text).toBe(
      '{"isPaging":true,"page":1,"size":20,"sort":"name"}',
    );
  });
  it('reports field violations', async () => {
    const r = await call(app, 'GET', '/bean/fields?page=x&size=500');
    expect(r.json()).toMatchObject({
      violations: [
        { location: 'query', name: 'page' },
        { location: 'query', name: 'size', message: 'must be <= 100' },
      ],
    });
  });
  it('builds an object through decorated constructor parameters', async () => {
    expect((await call(app, 'GET', '/bean/ctor?x=1.5&y=2')).text).toBe('{"sum":3.5}');
  });
  it('missing constructor values are 400', async () => {
    expect((await call(app, 'GET', '/bean/ctor?x=1')).json()).toMatchObject({
      violations: [{ location: 'query', name: 'y', message: 'is required' }],
    });
  });
});

describe('path segments, binding by name and readers', () => {
  @Path('/p')
  class Segments {
    @GET
    @Path('/inventory/{filter}')
    inventory(@PathParam('filter') @Convert(Matrix()) filter: Record<string, unknown>) {
      return filter;
    }
    @GET
    @Path('/raw/{id}')
    raw(@PathParam('id') id: string, @PathParam('id') @Raw() sent: string) {
      return { id, sent };
    }
    @POST
    @Path('/ops/{id}:cancel')
    cancel(@PathParam('id') id: string) {
      return { cancelled: id };
    }
    @GET
    @Path('/files/{name}.{ext}')
    file(@PathParam('name') name: string, @PathParam('ext') ext: string) {
      return { name, ext };
    }
    @GET
    @Path('/v{major:[0-9]+}/info')
    version(@PathParam('major', { type: 'integer' }) major: number) {
      return { major };
    }
    @GET
    @Path('/paged/{id}')
    paged(id: string, page = 1, size = 20) {
      return { id, page, size };
    }
    @GET
    @Path('/needs')
    needs(q: string) {
      return { q };
    }
    @GET
    @Path('/price')
    price(@QueryParam('max', { type: Money }) max: Money) {
      return { cents: max.cents };
    }
    @GET
    @Path('/context')
    @ContextReader(() => new Tenant('from-reader'), { type: Tenant })
    context(@Context(Tenant) tenant: Tenant, @Context('route') route: RouteInfo) {
      return { tenant: tenant.id, method: route.methodName };
    }
    @GET
    @Path('/optional')
    optional(
      @QueryParam('limit', { type: 'integer' }) limit: number | undefined,
      @QueryParam('flag', { type: 'boolean' }) @DefaultValue('true') flag: boolean,
      @QueryParam('s') s: string | undefined,
    ) {
      return { limit: limit ?? null, flag, s };
    }
    @POST
    @Path('/upload')
    upload(@FormParam('title') title: string) {
      return { title };
    }
  }
  const cents: ValueReader<Money> = { type: Money, read: (s) => Money.fromString(s.replace(',', '.')) };
  const app = createRestRouter().reader(Money, cents).register(Segments).app();

  it('Matrix() on a path parameter reads the whole segment, matrix parameters included', async () => {
    const r = await call(app, 'GET', '/p/inventory/status=COMPLETED;orgunits=A,B;flag');
    expect(r.text).toBe('{"status":"COMPLETED","orgunits":["A","B"],"flag":null}');
  });
  it('@Raw on a path parameter gives the segment as sent; without it the value is decoded', async () => {
    expect((await call(app, 'GET', '/p/raw/a%2Bb%20c;v=1')).text).toBe('{"id":"a+b c","sent":"a%2Bb%20c"}');
  });
  it('the segment is found under a prefix the router does not know', async () => {
    const outer = new Hono({ getPath: restGetPath }).route('/api/v2', app);
    expect((await call(outer, 'GET', '/api/v2/p/raw/x%2Fy')).text).toBe('{"id":"x/y","sent":"x%2Fy"}');
    expect((await call(outer, 'GET', '/api/v2/p/inventory/a=1;b=2,3')).text).toBe('{"a":"1","b":["2","3"]}');
  });
  it('a variable may share its segment with text or another variable', async () => {
    expect((await call(app, 'POST', '/p/ops/42:cancel')).text).toBe('{"cancelled":"42"}');
    expect((await call(app, 'POST', '/p/ops/42')).status).toBe(404);
    // The first variable takes as much as it can, as in JAX-RS.
    expect((await call(app, 'GET', '/p/files/archive.tar.gz')).text).toBe('{"name":"archive.tar","ext":"gz"}');
    expect((await call(app, 'GET', '/p/v3/info')).text).toBe('{"major":3}');
    expect((await call(app, 'GET', '/p/vx/info')).status).toBe(404);
  });
  it('binding by name reaches parameters after one with a default, and leaves absent ones to their defaults', async () => {
    expect((await call(app, 'GET', '/p/paged/5?page=3&size=7')).text).toBe('{"id":"5","page":"3","size":"7"}');
    expect((await call(app, 'GET', '/p/paged/5')).text).toBe('{"id":"5","page":1,"size":20}');
  });
  it('a parameter bound by name without a default is required (xp-forge: "Missing argument" is a 400)', async () => {
    const r = await call(app, 'GET', '/p/needs');
    expect([r.status, r.json()]).toEqual([
      400,
      { status: 400, message: 'query q: is required', violations: [{ location: 'query', name: 'q', message: 'is required' }] },
    ]);
    expect((await call(app, 'GET', '/p/needs?q=x')).text).toBe('{"q":"x"}');
  });
  it('a reader registered for a class reads query values of that class too', async () => {
    expect((await call(app, 'GET', '/p/price?max=3,50')).text).toBe('{"cents":350}');
  });
  it("a method's @ContextReader provides its type, not the built-in context values", async () => {
    expect((await call(app, 'GET', '/p/context')).text).toBe('{"tenant":"from-reader","method":"context"}');
  });
  it('an empty value of a number or a boolean is an absent one; a string keeps it', async () => {
    expect((await call(app, 'GET', '/p/optional?limit=&flag=&s=')).text).toBe('{"limit":null,"flag":true,"s":""}');
    expect((await call(app, 'GET', '/p/optional?limit=5&flag=false')).text).toBe('{"limit":5,"flag":false}');
  });
  it('a malformed multipart body is a 400, not a 500', async () => {
    const r = await call(app, 'POST', '/p/upload', { body: 'zz', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(r.status).toBe(400);
    expect((r.json() as { violations: { message: string }[] }).violations[0]!.message).toMatch(/^cannot be read as a form/);
  });
});

describe('object query parameters', () => {
  interface PetFilter {
    name?: string;
    age?: number;
    tags?: string[];
  }
  const validateFilter = Object.assign(
    (v: unknown) => {
      const ok = typeof (v as PetFilter).age !== 'number' || (v as PetFilter).age! >= 0;
      validateFilter.errors = ok ? null : [{ instancePath: '/age', keyword: 'minimum', message: 'must be >= 0' }];
      return ok;
    },
    { errors: null as { instancePath: string; keyword: string; message: string }[] | null },
  );
  const fields = { name: 'string', age: 'integer', tags: ['string'] } as const;
  @Path('/objects')
  class Objects {
    @GET @Path('/deep') deep(
      @QueryParam('filter', { object: { style: 'deepObject', fields }, validate: validateFilter }) filter: PetFilter | undefined,
    ) {
      return { filter: filter ?? null };
    }
    @GET @Path('/form') form(
      @QueryParam('filter', { object: { style: 'form', fields } }) filter: PetFilter | undefined,
      @QueryParam('page', { type: 'integer' }) page: number,
    ) {
      return { filter: filter ?? null, page };
    }
    @GET @Path('/flat') flat(
      @QueryParam('filter', { object: { style: 'form', explode: false, fields }, required: true }) filter: PetFilter,
    ) {
      return { filter };
    }
  }
  const app = createRestRouter().register(Objects).app();
  it('deepObject: filter[field]=value, fields converted by type', async () => {
    expect((await call(app, 'GET', '/objects/deep?filter[name]=rex&filter[age]=3&filter[tags]=a&filter[tags]=b')).text).toBe(
      '{"filter":{"name":"rex","age":3,"tags":["a","b"]}}',
    );
    expect((await call(app, 'GET', '/objects/deep')).text).toBe('{"filter":null}');
  });
  it('form, exploded: each field is its own query parameter', async () => {
    expect((await call(app, 'GET', '/objects/form?name=rex&age=3&page=2')).text).toBe('{"filter":{"name":"rex","age":3},"page":2}');
  });
  it('form, not exploded: name,value pairs in one parameter', async () => {
    expect((await call(app, 'GET', '/objects/flat?filter=name,rex,age,3')).text).toBe('{"filter":{"name":"rex","age":3}}');
    expect((await call(app, 'GET', '/objects/flat')).status).toBe(400);
  });
  it('a field that does not convert, or an object the validator refuses, is a 400 naming the field', async () => {
    const bad = await call(app, 'GET', '/objects/deep?filter[age]=old');
    expect([bad.status, (bad.json() as { violations: unknown[] }).violations]).toEqual([
      400,
      [{ location: 'query', name: 'filter/age', message: 'must be an integer, got "old"' }],
    ]);
    const negative = await call(app, 'GET', '/objects/deep?filter[age]=-1');
    expect((negative.json() as { violations: unknown[] }).violations).toEqual([
      { location: 'query', name: 'filter/age', message: 'must be >= 0' },
    ]);
  });
});
