/**
 * @module
 * Instances and execution: injection, singletons, `@NoCache`, per-request instances for `@Context`
 * fields, `clearCache()`, and `@Blocking` methods in a worker-thread pool (503 past the time limit).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Blocking, nodeRuntime } from '../../runtime/entries/rest/node.js';
import type { Class, InjectionProvider } from '../../runtime/rest/index.js';
import { Context, createRestRouter, DefaultValue, GET, NoCache, Path, PathParam, QueryParam } from '../../runtime/rest/index.js';
import { WorkerPool } from '../../runtime/rest/worker/pool.js';
import { call } from '../support/rest-answers.js';

let created = 0;
@Path('/single')
class Singleton {
  readonly id = ++created;
  @GET get() {
    return { id: this.id };
  }
}

@Path('/fresh')
@NoCache
class Fresh {
  readonly id = ++created;
  @GET get() {
    return { id: this.id };
  }
}

class Greeter {
  greet(name: string) {
    return `hello ${name}`;
  }
}
@Path('/injected')
class Injected {
  constructor(private readonly greeter: Greeter) {}
  @GET get(@QueryParam('name') name: string) {
    return { text: this.greeter.greet(name) };
  }
}

@Path('/per-request')
class PerRequest {
  @Context() c!: Context;
  @QueryParam('lang') @DefaultValue('en') lang!: string;
  readonly shared = { hits: 0 };
  @GET get() {
    this.shared.hits++;
    return { path: this.c.req.path, lang: this.lang, hits: this.shared.hits };
  }
}

describe('instances', () => {
  it('classes registered by type are singletons', async () => {
    const app = createRestRouter().register(Singleton).app();
    const a = (await call(app, 'GET', '/single')).text;
    const b = (await call(app, 'GET', '/single')).text;
    expect(a).toBe(b);
  });
  it('@NoCache classes are created per request', async () => {
    const app = createRestRouter().register(Fresh).app();
    const a = (await call(app, 'GET', '/fresh')).json() as { id: number };
    const b = (await call(app, 'GET', '/fresh')).json() as { id: number };
    expect(b.id).toBe(a.id + 1);
  });
  it('clearCache() makes the next request create the singleton again', async () => {
    const router = createRestRouter().register(Singleton);
    const app = router.app();
    const a = (await call(app, 'GET', '/single')).json() as { id: number };
    router.clearCache();
    const b = (await call(app, 'GET', '/single')).json() as { id: number };
    expect(b.id).toBeGreaterThan(a.id);
  });
  it('two routers keep separate singletons', async () => {
    const a = (await call(createRestRouter().register(Singleton).app(), 'GET', '/single')).json() as { id: number };
    const b = (await call(createRestRouter().register(Singleton).app(), 'GET', '/single')).json() as { id: number };
    expect(a.id).not.toBe(b.id);
  });
  it('an injection provider creates registered classes', async () => {
    const asked: string[] = [];
    const injector: InjectionProvider = {
      getInstance<T>(cls: Class<T>): T {
        asked.push(cls.name);
        return new (cls as unknown as new (g: Greeter) => T)(new Greeter());
      },
    };
    const app = createRestRouter().injectWith(injector).register(Injected).app();
    expect((await call(app, 'GET', '/injected?name=ada')).text).toBe('{"text":"hello ada"}');
    await call(app, 'GET', '/injected?name=bob');
    expect(asked).toEqual(['Injected']);
  });
  it('@Context and parameter fields make a per-request view over the shared instance', async () => {
    const app = createRestRouter().register(new PerRequest()).app();
    expect((await call(app, 'GET', '/per-request?lang=fr')).text).toBe('{"path":"/per-request","lang":"fr","hits":1}');
    expect((await call(app, 'GET', '/per-request')).text).toBe('{"path":"/per-request","lang":"en","hits":2}');
  });
});

const TASKS = new URL('./fixtures/tasks.mjs', import.meta.url);

@Path('/work')
class Heavy {
  @GET
  @Path('/fib/{n}')
  @Blocking({ module: TASKS, export: 'fib' })
  fib(@PathParam('n', { type: 'integer', maximum: 35 }) _n: number): number {
    throw new Error('runs in a worker');
  }
  @GET
  @Path('/spin/{ms}')
  @Blocking({ module: TASKS, export: 'spin', pool: 'slow' })
  spin(@PathParam('ms', { type: 'integer' }) _ms: number): string {
    throw new Error('runs in a worker');
  }
  @GET
  @Path('/fail')
  @Blocking({ module: TASKS, export: 'fail' })
  fail(): string {
    throw new Error('runs in a worker');
  }
  @GET @Path('/quick') quick() {
    return { quick: true };
  }
}

describe('@Blocking methods in a worker pool', () => {
  const router = createRestRouter({
    onError: () => {},
    node: nodeRuntime({ workerPools: { default: { size: 1 }, slow: { size: 1, maxExecutionTime: 300, name: 'slow-pool' } } }),
  }).register(new Heavy());
  const app = router.app();
  afterAll(() => router.close());
  it('runs the task in a worker and writes its result', async () => {
    const r = await call(app, 'GET', '/work/fib/20');
    expect([r.status, r.text]).toEqual([200, '6765']);
  });
  it('parameters are still converted and validated before the task runs', async () => {
    expect((await call(app, 'GET', '/work/fib/99')).json()).toMatchObject({
      status: 400,
      violations: [{ location: 'path', name: 'n', message: 'must be <= 35' }],
    });
  });
  it('a task error is a 500 in the default shape', async () => {
    expect((await call(app, 'GET', '/work/fail')).text).toBe('{"status":500,"message":"Internal Server Error"}');
  });
  it('a task past maxExecutionTime answers 503 and its worker is replaced', async () => {
    const r = await call(app, 'GET', '/work/spin/60000');
    expect([r.status, r.text]).toEqual([503, '{"status":503,"message":"Service Unavailable: spin exceeded 300 ms in pool slow-pool"}']);
    const again = await call(app, 'GET', '/work/spin/1');
    expect([again.status, again.text]).toEqual([200, 'spun']);
  });
  it('other requests are served while a worker is busy', async () => {
    const pool = new WorkerPool({ size: 1, maxExecutionTime: 60_000 });
    let done = false;
    const busy = pool.run(TASKS.href, 'spin', [1500]).then((v) => {
      done = true;
      return v;
    });
    const quick = await call(app, 'GET', '/work/quick');
    expect(quick.text).toBe('{"quick":true}');
    expect(done).toBe(false);
    expect(await busy).toBe('spun');
    await pool.close();
  });
  it('a queued task whose arguments cannot be cloned fails alone; the pool keeps serving', async () => {
    const pool = new WorkerPool({ size: 1, maxExecutionTime: 60_000 });
    const busy = pool.run(TASKS.href, 'spin', [100]);
    // Queued behind `busy`: it is posted to the worker from the worker's own 'message' event.
    const unclonable = pool.run(TASKS.href, 'fib', [() => 10]);
    await expect(unclonable).rejects.toMatchObject({ name: 'DataCloneError' });
    expect(await busy).toBe('spun');
    expect(await pool.run(TASKS.href, 'fib', [10])).toBe(55);
    await pool.close();
  });

  it('the pool replaces a timed-out worker and keeps its size', async () => {
    const pool = new WorkerPool({ size: 1, maxExecutionTime: 200, name: 'p' });
    await expect(pool.run(TASKS.href, 'spin', [60_000])).rejects.toMatchObject({ status: 503 });
    expect(pool.replaced).toBe(1);
    expect(await pool.run(TASKS.href, 'fib', [10])).toBe(55);
    await pool.close();
  });
});
