/**
 * @module `npm run bench -- reliability`: the server under hostile clients, as built for production
 * (`npm run build`, then `node dist/runtime/server/main.js` in a child process, the Issues service
 * on SQLite with the demo data), so that the clients here and the server each get a core of a
 * 2-core machine and the server's memory is its own.
 *
 * - `reliability.p50_under_hostile_ms`: value = the p50 of a normal search
 *   (`GET /api/v1/repos/issues/search?limit=20&state=all`, anonymous, one at a time, 400 samples)
 *   while two signed-in clients send, back to back, the report's worst bodies (`labels` of 100,000
 *   strings; `assignees` of 250,000 numbers on create and on edit; a pull request's `reviewers` of
 *   250,000 numbers; a token's `scopes` of 250,000 numbers; 400–500 kB each); baseline = the same
 *   search's p50 on the quiet server, measured first in the same run. Goal: ratio ≤ 2. Under a
 *   stalled server the samples stop after 20 s. The two clients run on a worker thread, apart
 *   from the event loop that times the searches, as other callers are apart from each other.
 * - `reliability.hostile_vs_ordinary_load`: value = that p50 beside the worst bodies; baseline =
 *   the search's p50 beside two clients sending ordinary signed-in requests back to back (read an
 *   issue, list issues, a small refused write). Near 1: the worst bodies cost the server no more
 *   than ordinary traffic does; what is left of the first ratio is sharing one core.
 * - `reliability.rss_under_slow_clients_mb`: value = the server's peak resident memory (VmRSS
 *   sampled every 50 ms, MB) while 300 anonymous clients upload 1 MiB bodies at 10 kB/s each, on a
 *   fresh server; baseline =
 *   200 MB, the goal's ceiling (a constant, not a measurement), so ratio ≤ 1 meets it. The idle
 *   server's memory is printed beside it.
 *
 * Run alone with `npx tsx bench/reliability.ts`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HttpClient } from './http-client.js';
import { type BenchResult, median, printResults, result } from './results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SEARCH = '/api/v1/repos/issues/search?limit=20&state=all';
const SAMPLES = Number(process.env.LOOM_BENCH_RELIABILITY_SAMPLES ?? 400);
const WARMUP_SAMPLES = 200;
const HOSTILE_CLIENTS = 2;
/** The longest the samples under hostile bodies may take: 400 searches of 600 ms each would take four minutes. */
const HOSTILE_MAX_MS = 20_000;
const SLOW_CLIENTS = 300;
const SLOW_BODY_BYTES = 1024 * 1024;
const SLOW_CHUNK_BYTES = 1_000;
const SLOW_INTERVAL_MS = 100;
const SLOW_RUN_MS = Number(process.env.LOOM_BENCH_RELIABILITY_SLOW_MS ?? 10_000);
/** The goal for `rss_under_slow_clients_mb`. */
const RSS_GOAL_MB = 200;
const ALICE = { name: 'alice', password: 'alice-demo-password' };

interface Server {
  readonly child: ChildProcess;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts the built server on a fresh SQLite file with the demo data. */
async function startServer(): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-reliability-'));
  const child = spawn(process.execPath, ['dist/runtime/server/main.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      LOOM_SERVICES: 'issues',
      DATABASE_URL: join(dir, 'loom.db'),
      LOG_FORMAT: 'json',
      LOOM_DEMO: '1',
    },
  });
  let output: string | undefined = '';
  const port = await new Promise<number>((resolve, reject) => {
    // Read to the end, so that the server's log (a line per request) never blocks on a full pipe.
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (output === undefined) return;
      output += chunk;
      const ready = /"http":"http:\/\/localhost:(\d+)"/.exec(output);
      if (ready) {
        output = undefined;
        resolve(Number(ready[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it was ready`)));
  });
  return {
    child,
    port,
    async close() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The server's resident memory now, in MB (Linux `/proc`). */
function rss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) / 1024;
}

/** A token of alice's, made through Basic auth as a client would. */
async function aliceToken(port: number): Promise<string> {
  const client = await HttpClient.connect(port);
  try {
    const res = await client.request('POST', `/api/v1/users/${ALICE.name}/tokens`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${ALICE.name}:${ALICE.password}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name: `bench-${Date.now()}`, scopes: ['all'] }),
    });
    if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text()}`);
    return (res.json() as { sha1: string }).sha1;
  } finally {
    client.close();
  }
}

/** A request the other clients send. */
interface ClientRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/**
 * Ordinary signed-in traffic, for comparison: reading an issue, listing a repository's issues and
 * a small refused write. Beside it the search waits for the server as it would on any busy day;
 * the worst bodies should cost it no more than that.
 */
function ordinaryRequests(token: string): ClientRequest[] {
  const headers = { 'content-type': 'application/json', authorization: `token ${token}` };
  return [
    { method: 'GET', path: '/api/v1/repos/alice/proj/issues/1', headers },
    { method: 'GET', path: '/api/v1/repos/alice/proj/issues?limit=10', headers },
    { method: 'POST', path: '/api/v1/repos/alice/proj/issues', headers, body: JSON.stringify({ title: '' }) },
  ];
}

/** The report's worst bodies, each under the 1 MiB body limit. */
function worstRequests(token: string): ClientRequest[] {
  const json = { 'content-type': 'application/json', authorization: `token ${token}` };
  const numbers = Array(250_000).fill(0);
  return [
    {
      method: 'POST',
      path: '/api/v1/repos/alice/proj/issues',
      headers: json,
      body: JSON.stringify({ title: 'x', labels: Array(100_000).fill('l') }),
    },
    { method: 'POST', path: '/api/v1/repos/alice/proj/issues', headers: json, body: JSON.stringify({ title: 'x', assignees: numbers }) },
    { method: 'PATCH', path: '/api/v1/repos/alice/proj/issues/1', headers: json, body: JSON.stringify({ assignees: numbers }) },
    {
      method: 'POST',
      path: '/api/v1/repos/alice/proj/pulls',
      headers: json,
      body: JSON.stringify({ title: 'x', head: 'h', reviewers: numbers }),
    },
    { method: 'POST', path: '/api/v1/users/alice/tokens', headers: json, body: JSON.stringify({ name: 'x', scopes: numbers }) },
  ];
}

/**
 * The other clients' thread (plain JavaScript, run with `eval`): `clients` keep-alive connections
 * each sending `requests` in turn, back to back, their bodies encoded once. It posts once when started, and the
 * count of each status it got when told to stop.
 */
const OTHER_CLIENTS_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Agent, request } = require('node:http');
const { port, clients, requests } = workerData;
const prepared = requests.map((r) => ({ ...r, body: r.body === undefined ? undefined : Buffer.from(r.body) }));
const statuses = new Map();
let stop = false;
function send(agent, { method, path, headers, body }) {
  return new Promise((resolve) => {
    const sized = body === undefined ? headers : { ...headers, 'content-length': body.length };
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: sized }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}
const running = Array.from({ length: clients }, async (_, c) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = c; !stop; i++) {
    const status = await send(agent, prepared[i % prepared.length]);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  agent.destroy();
});
parentPort.on('message', async () => {
  stop = true;
  await Promise.all(running);
  parentPort.postMessage([...statuses]);
});
parentPort.postMessage('started');
`;

/**
 * `samples` searches one at a time on one keep-alive connection, or as many as `maxMs` allows (a
 * server stalled by hostile bodies answers each in hundreds of milliseconds); their latencies in ms.
 */
async function searches(port: number, samples: number, maxMs = Number.POSITIVE_INFINITY): Promise<number[]> {
  const client = await HttpClient.connect(port);
  const deadline = performance.now() + maxMs;
  try {
    const prepared = client.prepare('GET', SEARCH);
    const times: number[] = [];
    for (let i = 0; i < samples && performance.now() < deadline; i++) {
      const started = performance.now();
      const res = await client.send(prepared);
      times.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`search: ${res.status} ${res.text().slice(0, 200)}`);
    }
    return times;
  } finally {
    client.close();
  }
}

async function benchHostile(onProgress: (line: string) => void): Promise<BenchResult[]> {
  const server = await startServer();
  try {
    await searches(server.port, WARMUP_SAMPLES);
    const quiet = median(await searches(server.port, SAMPLES));
    const token = await aliceToken(server.port);
    const hostile = await searchesBeside(server.port, worstRequests(token));
    const busy = await searchesBeside(server.port, ordinaryRequests(token));
    onProgress(
      `  search p50 quiet ${quiet.toFixed(2)} ms; beside two clients sending the worst bodies ${hostile.p50.toFixed(2)} ms ` +
        `(they got ${hostile.answers}); beside two sending ordinary requests ${busy.p50.toFixed(2)} ms (they got ${busy.answers})`,
    );
    return [
      result('reliability.p50_under_hostile_ms', hostile.p50, quiet, 'ms'),
      result('reliability.hostile_vs_ordinary_load', hostile.p50, busy.p50, 'ms'),
    ];
  } finally {
    await server.close();
  }
}

/**
 * The p50 of the search while {@link HOSTILE_CLIENTS} other clients send `requests` back to back,
 * and what they were answered.
 */
async function searchesBeside(port: number, requests: readonly ClientRequest[]): Promise<{ p50: number; answers: string }> {
  // The other clients run on a thread of their own: writing half a megabyte and reading the
  // answer, back to back, would otherwise hold up the event loop that times the searches, and
  // the figure would measure this process rather than the server.
  const others = new Worker(OTHER_CLIENTS_SOURCE, { eval: true, workerData: { port, clients: HOSTILE_CLIENTS, requests } });
  try {
    await new Promise<void>((resolve, reject) => {
      others.once('message', () => resolve());
      others.once('error', reject);
    });
    // Under way before the first sample.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const p50 = median(await searches(port, SAMPLES, HOSTILE_MAX_MS));
    const statuses = await new Promise<[number, number][]>((resolve, reject) => {
      others.once('message', resolve);
      others.once('error', reject);
      others.postMessage('stop');
    });
    return { p50, answers: statuses.map(([status, n]) => `${n}× ${status}`).join(', ') };
  } finally {
    await others.terminate();
  }
}

/** A client sending a 1 MiB body 1 kB at a time, anonymously, until the server closes or time runs out. */
async function slowUpload(port: number, until: number): Promise<void> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.resume();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    'POST /api/v1/repos/alice/proj/issues HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
      `content-length: ${SLOW_BODY_BYTES}\r\n\r\n`,
  );
  const chunk = 'x'.repeat(SLOW_CHUNK_BYTES);
  let sent = 0;
  while (!socket.destroyed && Date.now() < until && sent < SLOW_BODY_BYTES) {
    socket.write(chunk);
    sent += chunk.length;
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, SLOW_INTERVAL_MS))]);
  }
  socket.destroy();
}

async function benchSlowClients(onProgress: (line: string) => void): Promise<BenchResult> {
  const server = await startServer();
  try {
    // Settled after start-up and the demo data, as a server waiting for traffic would be.
    await searches(server.port, WARMUP_SAMPLES);
    const pid = server.child.pid!;
    const idle = rss(pid);
    // The peak of this phase, sampled (the kernel's VmHWM would include start-up and the demo data).
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
    const until = Date.now() + SLOW_RUN_MS;
    try {
      await Promise.all(Array.from({ length: SLOW_CLIENTS }, () => slowUpload(server.port, until)));
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rss(pid));
    onProgress(`  server memory idle ${idle.toFixed(0)} MB, peak under ${SLOW_CLIENTS} slow anonymous uploads ${peak.toFixed(0)} MB`);
    return result('reliability.rss_under_slow_clients_mb', peak, RSS_GOAL_MB, 'MB');
  } finally {
    await server.close();
  }
}

/**
 * Builds the server and runs both measurements.
 *
 * @example
 * const figures = await benchReliability(console.log);
 */
export async function benchReliability(onProgress: (line: string) => void = () => {}): Promise<BenchResult[]> {
  onProgress('  building the server (npm run build)');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'ignore' });
  return [...(await benchHostile(onProgress)), await benchSlowClients(onProgress)];
}

// `npx tsx bench/reliability.ts`: this benchmark alone, printed (run.ts is what writes results.json).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printResults(await benchReliability((line) => console.log(line)));
}
