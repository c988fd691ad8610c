/**
 * @module
 * The decorator layer's own cost, without the network: the decorated and the hand-written route of
 * `rest.ts`, each served by `@hono/node-server` in a process of its own, on in-memory sockets that
 * Node's HTTP server parses and answers as it does TCP ones. 50 connections each send their next
 * request once the answer has arrived. It prints each route's CPU time per request (the median and
 * the lowest of all measurements) and the difference.
 *
 * Over HTTP the kernel's loopback work between two requests (about 20 µs of it) evicts the CPU's
 * caches, and every function and object a request touches is fetched again: a step that costs
 * nothing here with warm caches can cost half a microsecond there. So between two answers this
 * writes `LOOM_BENCH_REST_LAYER_EVICT_KB` KB (default 192) of memory of its own; `0` measures with
 * warm caches. Without the network's noise, differences of a few tenths of a microsecond show,
 * which the REST suite's ±6 % per round hides; its figures are for finding where the time goes,
 * not goals, so the runner does not run it.
 *
 * `LOOM_BENCH_REST_LAYER_RUNS` runs (default 6) start one process per route each, the order
 * alternating; each measures `LOOM_BENCH_REST_LAYER_ROUNDS` times (default 3) for
 * `LOOM_BENCH_REST_LAYER_SECONDS` seconds (default 2) after a second of warm-up. On Linux with two
 * CPUs or more the route's process runs on the first. On 2026-12-05, on a shared 2-core machine:
 * with warm caches the decorated route cost 0.02 µs a request more than the hand-written one (10.46
 * against 10.44 µs); evicting 192 KB, 0.35 µs (15.80 against 15.44), and 0.27 and 0.82 µs in two
 * shorter runs: from run to run the difference swings by some tenths of a microsecond.
 *
 * `npx tsx bench/rest-layer.ts`
 */

import { fork } from 'node:child_process';
import { Duplex } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, isDistFresh } from '../generator/cli/build.js';
import { pinProcess, REQUEST, routeFetch } from './rest.js';
import { median, round } from './results.js';

type Route = 'decorated' | 'hono';
const ROUTES: readonly Route[] = ['hono', 'decorated'];
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.LOOM_BENCH_REST_LAYER_RUNS ?? 6);
const ROUNDS = Number(process.env.LOOM_BENCH_REST_LAYER_ROUNDS ?? 3);
const SECONDS = Number(process.env.LOOM_BENCH_REST_LAYER_SECONDS ?? 2);
const EVICT_BYTES = Number(process.env.LOOM_BENCH_REST_LAYER_EVICT_KB ?? 192) * 1024;
const CONNECTIONS = 50;

/** Runs both routes `RUNS` times and prints what a request cost each. */
async function main(): Promise<void> {
  if (!isDistFresh(ROOT)) build(ROOT);
  const costs: Record<Route, number[]> = { decorated: [], hono: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const route of run % 2 === 0 ? ROUTES : [...ROUTES].reverse()) {
      const measured = await measureInChild(route);
      costs[route].push(...measured);
      console.log(`  run ${run + 1}/${RUNS} ${route}: ${measured.map((us) => us.toFixed(2)).join(' ')} µs/request`);
    }
  }
  const [decorated, hono] = [median(costs.decorated), median(costs.hono)];
  console.log(`\nevicting ${EVICT_BYTES / 1024} KB between answers; CPU µs per request, median (lowest):`);
  for (const route of ROUTES)
    console.log(`  ${route.padEnd(9)} ${median(costs[route]).toFixed(2)} (${Math.min(...costs[route]).toFixed(2)})`);
  console.log(`  decorated − hono: ${(decorated - hono).toFixed(2)} µs; hono / decorated: ${round(hono / decorated, 3)}`);
}

/** Forks a process that serves `route` and answers its measurements. */
function measureInChild(route: Route): Promise<number[]> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LOOM_BENCH_REST_LAYER_ROUTE: route },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Where it cannot be pinned, the figures are noisier, not wrong.
  pinProcess(child.pid!, 0);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve((m as { usPerRequest: number[] }).usPerRequest));
    child.once('exit', (code) => reject(new Error(`${route}: the measuring process exited with ${code}`)));
  });
}

const REQUEST_BYTES = Buffer.from(
  `${REQUEST.method} ${REQUEST.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${REQUEST.contentType}\r\n` +
    `Content-Length: ${Buffer.byteLength(REQUEST.body)}\r\n\r\n${REQUEST.body}`,
);

/** Memory written between answers, as the kernel's work is done between requests over HTTP. */
const evicted = new Uint8Array(EVICT_BYTES);
function evictCaches(): void {
  for (let i = 0; i < evicted.length; i += 64) evicted[i]! += 1;
}

/**
 * A keep-alive connection in memory: Node's HTTP server reads the requests pushed into it and
 * writes its answers to it; each complete answer (its Content-Length counted) sends the next
 * request, with the others of the same turn of the event loop, as a socket's reads arrive.
 */
class Connection extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  readonly remotePort = 40000;
  private received = '';

  constructor(private readonly answered: (connection: Connection) => void) {
    super();
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.receive(chunk);
    done();
  }

  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void {
    for (const { chunk } of chunks) this.receive(chunk);
    done();
  }

  private receive(chunk: Buffer | string): void {
    this.received += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    for (;;) {
      const headEnd = this.received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = this.received.slice(0, headEnd);
      if (!head.startsWith('HTTP/1.1 200 ')) throw new Error(`unexpected answer: ${head.split('\r\n')[0]}`);
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN);
      if (!Number.isInteger(length)) throw new Error('an answer without Content-Length');
      const end = headEnd + 4 + length;
      if (this.received.length < end) return;
      this.received = this.received.slice(end);
      if (evicted.length > 0) evictCaches();
      this.answered(this);
    }
  }

  // What Node's HTTP server asks of a socket.
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** A child: serves `route` on in-memory connections and sends its CPU µs per request, once a round. */
async function measure(route: Route): Promise<void> {
  const { createAdaptorServer } = await import('@hono/node-server');
  const server = createAdaptorServer({ fetch: await routeFetch(route) });
  let answers = 0;
  let waiting: Connection[] = [];
  const sendNext = () => {
    const due = waiting;
    waiting = [];
    for (const connection of due) connection.push(REQUEST_BYTES);
  };
  const answered = (connection: Connection) => {
    answers++;
    if (waiting.push(connection) === 1) setImmediate(sendNext);
  };
  for (let i = 0; i < CONNECTIONS; i++) {
    const connection = new Connection(answered);
    server.emit('connection', connection);
    connection.push(REQUEST_BYTES);
  }
  const usPerRequest: number[] = [];
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (let r = 0; r < ROUNDS; r++) {
    const [before, cpuBefore] = [answers, process.cpuUsage()];
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const cpu = process.cpuUsage(cpuBefore);
    usPerRequest.push((cpu.user + cpu.system) / (answers - before));
  }
  process.send!({ usPerRequest }, () => process.exit(0));
}

const measured = process.env.LOOM_BENCH_REST_LAYER_ROUTE;
if (measured === 'decorated' || measured === 'hono') {
  await measure(measured);
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
