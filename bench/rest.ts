/**
 * @module
 * REST decorator overhead: one endpoint (path parameter, two query parameters, a JSON body
 * validated with ajv, a JSON answer) served three ways, each with `@hono/node-server` or Express on
 * 127.0.0.1, port 0:
 *
 * - `decorated`: a class with Loom's decorators (`loom/rest`), with the router's defaults;
 * - `hono`: the same route hand-written on Hono with the same ajv validator (the baseline). It
 *   gives the same answer, byte for byte: the decorated router sends xp-forge's two default headers
 *   (`X-Content-Type-Options`, `Cache-Control`), so the hand-written route sends them too, in the
 *   fastest way Hono allows (a `Response` with a plain headers object; `c.json(v, 200, headers)`
 *   with two headers or more builds a `Headers` and is slower). The figure is then the decorator
 *   layer's cost, not that of two more header lines;
 * - `routing-controllers` 0.11 on Express 4, with the same validator called in the action.
 *
 * routing-controllers needs `reflect-metadata` and reads parameter types from `emitDecoratorMetadata`,
 * which tsx/esbuild drop. Its `@QueryParam` takes `{ type: Number }` explicitly; `@Param` has no
 * options, so the action converts the path value with `Number()` itself. Class transformation and
 * class-validator are turned off (ajv validates, as in the other two).
 *
 * Each server runs in a process of its own, as a deployed app does, and autocannon here. Sharing
 * one process, the two Hono apps shared V8's type feedback in Hono's and the adapter's code, and a
 * heap. The decorated route runs `loom/rest` as the package ships it (`dist/`, compiled by tsc,
 * built first when stale), not the sources through tsx, which users do not run. On Linux
 * with two CPUs or more, the servers are pinned to the first and the client to the second (see
 * `pinClient`). `LOOM_BENCH_REST_ROUNDS` rounds (default 7); each starts a fresh decorated and
 * hand-written server (the one started first alternates), warms each up (2 s), then lets them take
 * turns in short slices (`LOOM_BENCH_REST_SLICES` pairs of `LOOM_BENCH_REST_SLICE_S` seconds,
 * default 4 × 1.25 s, in the order ABBA…); the round's ratio compares what each served over its
 * slices. routing-controllers runs in one process for the whole run and is measured once a round
 * (5 s), its ratio being far from 1. Each figure's ratio is the median of the per-round ratios, and
 * `spread` gives their lowest and highest.
 *
 * Why so: on a shared machine the speed of one server swings by ±20 % over tens of seconds, which
 * slices a second apart even out; and a process's speed depends on where its code and heap happen
 * to lie: with one process per server for the whole run, the same code measured 0.919 when the
 * hand-written server was started first and 1.013 when the decorated one was (2026-12-05), which
 * fresh processes each round turn into noise the median absorbs. `LOOM_BENCH_REST_CONTROL=1` checks
 * the instrument: the decorated route's server serves the hand-written route too (0.995, rounds
 * 0.844–1.035, on 2026-12-05).
 *
 * Besides requests per second (which load on the machine moves), `rest.decorated_vs_hono_cpu`
 * compares the server's CPU time per request in the same rounds (`process.cpuUsage()` of the
 * child around each measurement, while only that server is loaded), as requests per CPU second:
 * steadier where other processes compete for the cores.
 *
 * `npx tsx bench/rest.ts` runs it alone; `npm run bench -- rest` through the runner.
 */

import type { ChildProcess } from 'node:child_process';
import { execFileSync, fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { build, isDistFresh, PACKAGE_DIR } from '../generator/cli/build.js';
import { type BenchResult, median, printResults, result, round } from './results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** `loom/rest` as the package ships it. */
const BUILT_REST = pathToFileURL(`${ROOT}/${PACKAGE_DIR}/dist/runtime/rest/index.js`).href;
const ROUNDS = Number(process.env.LOOM_BENCH_REST_ROUNDS ?? 7);
const WARMUP_S = Number(process.env.LOOM_BENCH_REST_WARMUP_S ?? 2);
const DURATION_S = Number(process.env.LOOM_BENCH_REST_DURATION_S ?? 5);
const SLICES = Number(process.env.LOOM_BENCH_REST_SLICES ?? 4);
const SLICE_S = Number(process.env.LOOM_BENCH_REST_SLICE_S ?? 1.25);
const CONNECTIONS = 50;
const PATH = '/items/42?limit=10&offset=5';
/** The instrument's check: the decorated route's server serves the hand-written route too. */
const CONTROL = process.env.LOOM_BENCH_REST_CONTROL === '1';
const BODY = JSON.stringify({ name: 'widget', tags: ['a', 'b'], price: 9.5 });

const ITEM_SCHEMA = {
  type: 'object',
  required: ['name', 'price'],
  properties: {
    name: { type: 'string', minLength: 1 },
    tags: { type: 'array', items: { type: 'string' } },
    price: { type: 'number', minimum: 0 },
  },
  additionalProperties: false,
} as const;

type Server = 'decorated' | 'hono' | 'routingControllers';
type Ports = Record<Server, number>;
const SERVERS: readonly Server[] = ['hono', 'decorated', 'routingControllers'];

/** xp-forge's default headers, which the decorated router sends: the hand-written route sends them too. */
const SAME_HEADERS = { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' };

/** A figure whose ratio is the median of per-round ratios, with their spread. */
interface RoundedResult extends BenchResult {
  readonly spread: readonly [number, number];
  readonly rounds: number;
}

/** Runs the REST benchmark; see the module documentation. */
export async function benchRest(onProgress: (line: string) => void = console.log): Promise<BenchResult[]> {
  if (!isDistFresh(ROOT)) {
    onProgress('  dist/ is stale: npm run build:toolkit');
    build(ROOT);
  }
  if (CONTROL) onProgress('  rest: control run, both paired servers serve the hand-written route');
  const children = new Map<Server, ChildProcess>();
  const ports = {} as Ports;
  const pinning = pinClient(onProgress);
  /** Starts one server (see {@link serve}) and pins it with the others. */
  const start = async (name: Server) => {
    const child = startServer(name);
    children.set(name, child);
    ports[name] = await serverPort(child);
    if (pinning.servers) pinProcess(child.pid!, 0);
  };
  const stop = (name: Server) => {
    children.get(name)?.kill();
    children.delete(name);
  };
  try {
    const rps: Record<Server, number[]> = { decorated: [], hono: [], routingControllers: [] };
    const cpu: Record<Server, number[]> = { decorated: [], hono: [], routingControllers: [] };
    const urlOf = (name: Server) => `http://127.0.0.1:${ports[name]}${PATH}`;
    await start('routingControllers');
    await load(urlOf('routingControllers'), WARMUP_S);
    /** Serves `seconds` of load to one server; adds its requests, seconds and CPU seconds to `into`. */
    const measure = async (name: Server, seconds: number, into: Totals) => {
      const child = children.get(name)!;
      const before = await cpuTime(child);
      const measured = await load(urlOf(name), seconds);
      into.cpuSeconds += (await cpuTime(child)) - before;
      into.requests += measured.total;
      into.seconds += measured.seconds;
    };
    for (let r = 1; r <= ROUNDS; r++) {
      // Fresh processes each round, started in turn first: a process's speed depends on where its
      // code and heap happen to lie, by several per cent (see the module documentation).
      const fresh: Server[] = r % 2 === 0 ? ['hono', 'decorated'] : ['decorated', 'hono'];
      for (const name of fresh) await start(name);
      for (const name of fresh) await load(urlOf(name), WARMUP_S);
      const totals: Record<Server, Totals> = { decorated: newTotals(), hono: newTotals(), routingControllers: newTotals() };
      for (let i = 0; i < SLICES; i++) {
        const pair: Server[] = (r + i) % 2 === 0 ? ['hono', 'decorated'] : ['decorated', 'hono'];
        for (const name of pair) await measure(name, SLICE_S, totals[name]);
      }
      for (const name of fresh) stop(name);
      await measure('routingControllers', DURATION_S, totals.routingControllers);
      for (const name of SERVERS) {
        const t = totals[name];
        // CPU seconds the server spent per request, as requests per CPU second.
        rps[name].push(t.requests / t.seconds);
        cpu[name].push(t.requests / t.cpuSeconds);
        onProgress(
          `  rest round ${r}/${ROUNDS} ${name}: ${Math.round(rps[name].at(-1)!)} req/s, ${Math.round(cpu[name].at(-1)!)} req/cpu-s`,
        );
      }
    }
    const results = [
      paired('rest.decorated_vs_hono', rps.decorated, rps.hono, 'req/s'),
      paired('rest.decorated_vs_hono_cpu', cpu.decorated, cpu.hono, 'req/cpu-s'),
      paired('rest.decorated_vs_routing_controllers', rps.decorated, rps.routingControllers, 'req/s'),
    ];
    for (const r of results) onProgress(`  ${r.name}: median of ${r.rounds} rounds ${r.ratio}, spread ${r.spread[0]}–${r.spread[1]}`);
    return results;
  } finally {
    pinning.undo();
    for (const child of children.values()) child.kill();
  }
}

/** Linux's `taskset`, where there are two CPUs or more to pin to; `undefined` elsewhere. */
const taskset =
  process.platform === 'linux' && availableParallelism() >= 2
    ? (args: string[]) => execFileSync('taskset', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    : undefined;

/** Puts every thread of process `pid` on CPU `cpu`, where `taskset` can; `false` where it cannot. */
export function pinProcess(pid: number, cpu: number): boolean {
  if (!taskset) return false;
  try {
    taskset(['-a', '-c', '-p', String(cpu), String(pid)]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Puts this process, the load generator, on the second CPU, where Linux's `taskset` can; the
 * servers then go on the first (`servers`). Servers and client no longer trade cores, and the same
 * two routes measure within ±4 % of each other per round instead of ±7 %. `undo` gives this
 * process its CPUs back (the runner goes on to other benchmarks).
 */
export function pinClient(onProgress: (line: string) => void): { servers: boolean; undo: () => void } {
  const unpinned = { servers: false, undo: () => {} };
  if (!taskset) {
    onProgress('  rest: servers and client not pinned (not Linux, or one CPU)');
    return unpinned;
  }
  try {
    const own = taskset(['-c', '-p', String(process.pid)])
      .split(': ')[1]!
      .trim();
    taskset(['-a', '-c', '-p', '1', String(process.pid)]);
    onProgress('  rest: servers pinned to CPU 0, the client to CPU 1');
    return { servers: true, undo: () => taskset(['-a', '-c', '-p', own, String(process.pid)]) };
  } catch (e) {
    onProgress(`  rest: servers and client not pinned (taskset: ${(e as Error).message.split('\n')[0]})`);
    return unpinned;
  }
}

/** Forks the process that serves one of the routes (see {@link serve}), with Node's `options`. */
export function startServer(name: Server, options: readonly string[] = []): ChildProcess {
  return fork(fileURLToPath(import.meta.url), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx', ...options],
    env: { ...process.env, LOOM_BENCH_REST_SERVER: name },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** What one server served in a round. */
interface Totals {
  requests: number;
  seconds: number;
  cpuSeconds: number;
}

const newTotals = (): Totals => ({ requests: 0, seconds: 0, cpuSeconds: 0 });

/** Medians of both sides, and the median and range of the per-round ratios (`value / baseline` round by round). */
function paired(name: string, values: readonly number[], baselines: readonly number[], unit: string): RoundedResult {
  const ratios = values.map((v, i) => v / baselines[i]!);
  return {
    ...result(name, median(values), median(baselines), unit),
    ratio: round(median(ratios), 3),
    spread: [round(Math.min(...ratios), 3), round(Math.max(...ratios), 3)],
    rounds: ratios.length,
  };
}

/** The server process's CPU time so far, in seconds. */
function cpuTime(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve((m as { cpu: number }).cpu));
    child.send('cpu');
  });
}

/** Loads `url` with the benchmark's request for `seconds`; what autocannon measured. */
export async function load(url: string, seconds: number): Promise<{ seconds: number; total: number }> {
  const out = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: BODY,
    connections: CONNECTIONS,
    duration: seconds,
  });
  const bad = out.non2xx + out.errors;
  if (bad > 0) throw new Error(`${url}: ${out.non2xx} non-2xx answers and ${out.errors} errors`);
  // The time autocannon measured itself, not the time asked for: a slice of a second or so is
  // not a whole number of its one-second samples.
  return { seconds: out.duration, total: out.requests.total };
}

/** The port a server started by {@link startServer} listens on. */
export function serverPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}`)));
  });
}

/** The item validator all three routes use. */
async function itemValidator(): Promise<Validate> {
  const { Ajv } = await import('ajv');
  return new Ajv({ allErrors: true }).compile(ITEM_SCHEMA);
}

/** The decorated or the hand-written route as a Hono app's `fetch`, for `rest-layer.ts`. */
export async function routeFetch(name: 'decorated' | 'hono'): Promise<Fetch> {
  return honoFetch(name, await itemValidator());
}

/** The request the benchmark sends: method, path, headers and body. */
export const REQUEST = { method: 'POST', path: PATH, contentType: 'application/json', body: BODY } as const;

/** A child: serves one of the three routes and reports its port, then its CPU time when asked. */
async function serve(name: Server): Promise<void> {
  const validate = await itemValidator();
  const port =
    name === 'routingControllers'
      ? await serveRoutingControllers(validate)
      : await listen(await honoFetch(CONTROL ? 'hono' : name, validate));
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send!({ cpu: (user + system) / 1e6 });
  });
  process.send!({ port });
}

type Validate = import('ajv').ValidateFunction;
type Fetch = (r: Request) => Response | Promise<Response>;

/** The decorated or the hand-written route, as a Hono app's `fetch`. */
async function honoFetch(name: 'decorated' | 'hono', validate: Validate): Promise<Fetch> {
  if (name === 'decorated') {
    // Decorated, exactly as a user (or the generator) writes it, on the built package as `loom/rest`
    // users run it (compiled by tsc), not the sources through tsx.
    const rest = (await import(BUILT_REST)) as typeof import('../runtime/rest/index.js');
    const { BodyParam, PathParam, Path, POST, Produces, QueryParam } = rest;
    const validateItem = validate as unknown as import('../runtime/rest/index.js').ValidateFunction;
    class Items {
      @POST
      @Path('/items/{id}')
      @Produces('application/json')
      create(
        @PathParam('id', { type: 'integer' }) id: number,
        @QueryParam('limit', { type: 'integer', required: true }) limit: number,
        @QueryParam('offset', { type: 'integer' }) offset: number | undefined,
        @BodyParam({ validate: validateItem, required: true }) body: { name: string; price: number },
      ) {
        return { id, limit, offset, name: body.name, total: body.price * limit };
      }
    }
    return rest.createRestRouter().register(new Items()).app().fetch;
  }
  // Hand-written Hono with the same conversions and validation, and the same answer.
  const { Hono } = await import('hono');
  const honoApp = new Hono();
  honoApp.post('/items/:id', async (c) => {
    const id = Number(c.req.param('id'));
    const limitText = c.req.query('limit');
    const offsetText = c.req.query('offset');
    const limit = Number(limitText);
    const offset = offsetText === undefined ? undefined : Number(offsetText);
    if (
      !/^\d+$/.test(c.req.param('id')) ||
      limitText === undefined ||
      !Number.isInteger(limit) ||
      (offset !== undefined && !Number.isInteger(offset))
    ) {
      return c.json({ status: 400, message: 'Bad Request' }, 400);
    }
    const body = (await c.req.json()) as { name: string; price: number };
    if (!validate(body)) return c.json({ status: 400, message: 'Bad Request', violations: validate.errors }, 400);
    return new Response(JSON.stringify({ id, limit, offset, name: body.name, total: body.price * limit }), { headers: SAME_HEADERS });
  });
  return honoApp.fetch;
}

async function listen(fetch: Fetch): Promise<number> {
  const { serve: honoServe } = await import('@hono/node-server');
  return new Promise((resolve) => {
    const server = honoServe({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * routing-controllers on Express 4. Its decorator factories are typed `Function`, which TypeScript
 * does not accept in decorator position, so they are applied as the calls `@…` compiles to.
 */
async function serveRoutingControllers(validate: Validate): Promise<number> {
  await import('reflect-metadata');
  const rc = await import('routing-controllers');
  class RcItems {
    create(id: string, limit: number, offset: number, body: { name: string; price: number }) {
      if (!validate(body)) throw new rc.BadRequestError('Bad Request');
      const n = Number(id);
      return { id: n, limit, offset, name: body.name, total: body.price * limit };
    }
  }
  const rcProto = RcItems.prototype;
  rc.JsonController()(RcItems);
  rc.Post('/items/:id')(rcProto, 'create');
  rc.Param('id')(rcProto, 'create', 0);
  rc.QueryParam('limit', { type: Number, required: true })(rcProto, 'create', 1);
  rc.QueryParam('offset', { type: Number })(rcProto, 'create', 2);
  rc.Body({ validate: false })(rcProto, 'create', 3);
  const express = rc.createExpressServer({ controllers: [RcItems], classTransformer: false, validation: false, defaultErrorHandler: true });
  return new Promise((resolve) => {
    const server = express.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

const served = process.env.LOOM_BENCH_REST_SERVER;
if (served === 'decorated' || served === 'hono' || served === 'routingControllers') {
  await serve(served);
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await benchRest();
  console.log('');
  printResults(results);
}
