/**
 * @module
 * Where the decorated route's time goes over HTTP, measured with Linux `perf`: the decorated and the
 * hand-written route of `rest.ts`, each in a fresh server process run with `--perf-basic-prof` (so
 * that `perf` can name V8's compiled functions), are loaded by autocannon in turn while `perf record`
 * samples the server's CPU (9,999 samples a second). It prints, per request, the CPU time spent in
 * each route's own code: `loom/rest` (the package's `dist/`) and the route's class for the
 * decorated route, the route function for the hand-written one, both in `bench/rest.ts`. Code V8
 * inlined into those functions (Hono's `param()` and `query()`, the validator) counts with them.
 *
 * Why: the REST suite's ratio moves by ±2–3 % from run to run on a shared machine, more than the
 * decorator layer's whole cost; the layer's own samples are a far smaller figure, which machine noise
 * inflates but does not drown. Over HTTP, with the caches cold from the kernel's work between two
 * requests, they show what `rest-layer.ts` cannot: on 2026-12-05 the decorated route's code took
 * 1.3–2.1 µs a request in four pairs against the hand-written route's 0.4 on a loaded machine, and
 * after the lean handler (`runtime/rest/hono/lean-handler.ts`) 1.0–1.1 against 0.4 in three; on a
 * quiet machine, 0.33–0.37 against 0.15–0.16 in three.
 *
 * `LOOM_BENCH_REST_PERF_PAIRS` pairs (default 3), the hand-written server first. Needs `perf` and
 * the right to record another process (root, or `kernel.perf_event_paranoid` ≤ 1); the runner
 * does not run it.
 *
 * `npx tsx bench/rest-perf.ts`
 */

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, isDistFresh, PACKAGE_DIR } from '../generator/cli/build.js';
import { load, pinClient, pinProcess, REQUEST, serverPort, startServer } from './rest.js';

type Route = 'decorated' | 'hono';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAIRS = Number(process.env.LOOM_BENCH_REST_PERF_PAIRS ?? 3);
const WARMUP_S = 4;
const SECONDS = 6;
const FREQUENCY = 9999;

/** The source files whose compiled functions are each route's own code. */
const OWN_CODE: Record<Route, readonly string[]> = {
  decorated: [`/${PACKAGE_DIR}/dist/`, '/bench/rest.ts'],
  hono: ['/bench/rest.ts'],
};

/** One route's measurement: its own code's CPU µs per request, and its costliest functions. */
interface Sampled {
  readonly usPerRequest: number;
  readonly top: readonly string[];
}

async function main(): Promise<void> {
  if (!isDistFresh(ROOT)) build(ROOT);
  execFileSync('perf', ['--version']);
  const pinning = pinClient(console.log);
  const dir = mkdtempSync(join(tmpdir(), 'loom-rest-perf-'));
  try {
    for (let pair = 1; pair <= PAIRS; pair++) {
      const sampled: Partial<Record<Route, Sampled>> = {};
      for (const route of ['hono', 'decorated'] as const) sampled[route] = await sample(route, join(dir, `${route}.data`), pinning.servers);
      const [hono, decorated] = [sampled.hono!, sampled.decorated!];
      console.log(
        `pair ${pair}/${PAIRS}: route code µs/request: hand-written ${hono.usPerRequest.toFixed(2)}, decorated ` +
          `${decorated.usPerRequest.toFixed(2)}, difference ${(decorated.usPerRequest - hono.usPerRequest).toFixed(2)}`,
      );
      for (const line of decorated.top) console.log(`    ${line}`);
    }
  } finally {
    pinning.undo();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a server for `route`, warms it up, and samples it under load. */
async function sample(route: Route, file: string, pin: boolean): Promise<Sampled> {
  const child = startServer(route, ['--perf-basic-prof']);
  try {
    const port = await serverPort(child);
    if (pin) pinProcess(child.pid!, 0);
    const url = `http://127.0.0.1:${port}${REQUEST.path}`;
    await load(url, WARMUP_S);
    const perf = spawn('perf', ['record', '-q', '-F', String(FREQUENCY), '-o', file, '-p', String(child.pid)], { stdio: 'ignore' });
    const recorded = new Promise((resolve) => perf.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { total } = await load(url, SECONDS);
    perf.kill('SIGINT');
    await recorded;
    return ownCode(file, route, total);
  } finally {
    child.kill();
    // The symbol map `--perf-basic-prof` wrote, read by `perf report` above.
    rmSync(`/tmp/perf-${child.pid}.map`, { force: true });
  }
}

/** Counts the samples in a route's own code, by function, from `perf report`. */
function ownCode(file: string, route: Route, requests: number): Sampled {
  const report = execFileSync('perf', ['report', '-i', file, '--no-children', '--sort', 'sym', '-F', 'sample,sym', '-q', '--stdio'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const own: [number, string][] = [];
  for (const line of report.split('\n')) {
    const match = /^\s*(\d+)\s+\[\.\]\s+(.*)$/.exec(line);
    if (match && OWN_CODE[route].some((path) => match[2]!.includes(path)))
      own.push([Number(match[1]), match[2]!.replace(/file:\/\/\S*?\/(packages|bench)\//, '$1/')]);
  }
  const usPerSample = 1e6 / FREQUENCY;
  const samples = own.reduce((n, [count]) => n + count, 0);
  own.sort((a, b) => b[0] - a[0]);
  return {
    usPerRequest: (samples * usPerSample) / requests,
    top: own.slice(0, 5).map(([count, name]) => `${((count * usPerSample) / requests).toFixed(2)} µs  ${name}`),
  };
}

await main();
