/**
 * @module
 * Interceptors against xp-forge's (`RestApi::intercepting`, `Invocation::proceed`): a chain around
 * the method in registration order — router, class, method — that sees the target's name, its
 * annotations and the arguments, and may go on with other arguments, change the result or answer
 * instead of the method. Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Interceptor, Invocation } from '../../runtime/rest/index.js';
import {
  Annotate,
  catching,
  createRestRouter,
  GET,
  HttpError,
  InterceptWith,
  Path,
  PathParam,
  QueryParam,
  RegistrationError,
  RestResponse,
} from '../../runtime/rest/index.js';
import { type Listening, listen, rawCall } from '../support/rest-answers.js';

const trail: string[] = [];
const named =
  (name: string): Interceptor =>
  async (invocation, args) => {
    trail.push(`${name}>`);
    const result = await invocation.proceed(args);
    trail.push(`<${name}`);
    return result;
  };

/** xp-forge's example use: answers from a cache when the method is annotated so. */
const cache = new Map<string, unknown>();
const caching: Interceptor = {
  async intercept(invocation: Invocation, args: unknown[]) {
    if (!invocation.target.annotations.has('cached')) return invocation.proceed(args);
    const key = `${invocation.target.name}:${JSON.stringify(args)}`;
    if (!cache.has(key)) cache.set(key, await invocation.proceed(args));
    return cache.get(key);
  },
};

let computed = 0;

@Path('/i')
@InterceptWith(named('class'))
@Annotate('mark', 'class-level')
class Intercepted {
  @GET
  @Path('/order')
  @InterceptWith(named('method'), named('method2'))
  order() {
    trail.push('call');
    return { ok: true };
  }
  @GET
  @Path('/square/{n}')
  @Annotate('cached')
  square(@PathParam('n', { type: 'integer' }) n: number) {
    computed++;
    return { square: n * n };
  }
  @GET
  @Path('/double/{n}')
  @InterceptWith((invocation, [n]) => invocation.proceed([(n as number) * 2]))
  double(@PathParam('n', { type: 'integer' }) n: number) {
    return { n };
  }
  @GET
  @Path('/target')
  @Annotate('role', 'auditor')
  @InterceptWith((invocation) => ({
    name: invocation.target.name,
    className: invocation.target.className,
    path: invocation.target.route.path,
    role: invocation.target.annotations.get('role'),
    classMark: invocation.target.annotations.get('mark'),
  }))
  target() {
    return 'never called: the interceptor answers instead';
  }
  @GET
  @Path('/wrapped')
  @InterceptWith(async (invocation, args) => RestResponse.status(203).entity({ wrapped: await invocation.proceed(args) }))
  wrapped(@QueryParam('v') v: string) {
    return v;
  }
  @GET
  @Path('/guarded')
  @InterceptWith(() => {
    throw new HttpError(429, 'Slow down');
  })
  guarded() {
    return 'never';
  }
  @GET
  @Path('/failing')
  failing(): never {
    throw new RangeError('out of range');
  }
}

describe('interceptors', () => {
  let server: Listening;
  beforeAll(async () => {
    const router = createRestRouter()
      .intercepting(named('router'), caching)
      .exceptionHandlers(catching(RangeError, (e) => RestResponse.error(422, e.message)))
      .register(new Intercepted());
    server = await listen(router.app());
  });
  afterAll(() => server.close());
  const get = (path: string) => rawCall(server.port, 'GET', path);

  it('run around the method in order: router, class, method (xp-forge: in registration order)', async () => {
    trail.length = 0;
    expect((await get('/i/order')).text).toBe('{"ok":true}');
    expect(trail).toEqual(['router>', 'class>', 'method>', 'method2>', 'call', '<method2', '<method', '<class', '<router']);
  });
  it('may answer without calling the method, by what the target is annotated with', async () => {
    computed = 0;
    expect((await get('/i/square/7')).text).toBe('{"square":49}');
    expect((await get('/i/square/7')).text).toBe('{"square":49}');
    expect((await get('/i/square/8')).text).toBe('{"square":64}');
    expect(computed).toBe(2);
  });
  it('may go on with other arguments', async () => {
    expect((await get('/i/double/21')).text).toBe('{"n":42}');
  });
  it("sees the target's name, class, route and annotations (the method's and the class's)", async () => {
    expect(JSON.parse((await get('/i/target')).text)).toEqual({
      name: 'target',
      className: 'Intercepted',
      path: '/i/target',
      role: 'auditor',
      classMark: 'class-level',
    });
  });
  it('may change the result, a built answer included', async () => {
    const r = await get('/i/wrapped?v=x');
    expect([r.status, r.text]).toEqual([203, '{"wrapped":"x"}']);
  });
  it("an interceptor's error, and the method's through it, go through exception handling", async () => {
    const guarded = await get('/i/guarded');
    expect([guarded.status, guarded.text]).toEqual([429, '{"status":429,"message":"Slow down"}']);
    const failing = await get('/i/failing');
    expect([failing.status, failing.text]).toEqual([422, '{"status":422,"message":"out of range"}']);
  });
  it('run after the parameters were read and validated: a bad request never reaches them', async () => {
    trail.length = 0;
    expect((await get('/i/square/x')).status).toBe(400);
    expect(trail).toEqual([]);
  });
  it('something that is no interceptor is refused', () => {
    expect(() => createRestRouter().intercepting({} as Interceptor)).toThrow(RegistrationError);
  });
});
