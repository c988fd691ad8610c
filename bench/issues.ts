/**
 * @module `npm run bench -- issues`: the Issues service at 100,000 issues in 200 repositories, on
 * SQLite (a temp file) and PostgreSQL (its own schema). For get, list with filters, keyword search
 * and create it measures p50/p99 latency and throughput over HTTP against the real Hono app on a
 * real port, beside the same database work done directly (the baseline), so the difference is what
 * the HTTP side costs. The two sides are measured interleaved, call by call, so that load from
 * elsewhere and the caches' state fall on both alike, after both have run warm (3 s of pairs per
 * operation) so that the figures are the server's steady state rather than its first seconds.
 *
 * Figures, per engine (`sqlite`, `postgres`) and operation (`get`, `list`, `search`, `create`):
 *
 * - `issues.<engine>.<op>.p99_ms`: value = HTTP p99 (ms), baseline = direct p99 (ms), measured in
 *   the same run on the same data.
 * - `issues.<engine>.<op>.p50_ms`: value = HTTP p50, baseline = direct p50.
 * - `issues.<engine>.<op>.throughput`: requests per second one at a time, HTTP beside direct.
 * - `issues.<engine>.<op>.http_share`: value = (HTTP p50 − direct p50) / HTTP p50, taken **at the
 *   median**, i.e. the share of a median request spent outside the database (p99s come from
 *   different slow requests and do not subtract). Baseline = 0.5, the goal's ceiling — a constant,
 *   not a measurement — so ratio ≤ 1 means the goal is met.
 * - `issues.<engine>.<op>.node_share` (`get` and `create`): the same share with the server replaced
 *   by bare `node:http` calling the same functions (`issues-floor.ts`), measured in the same run
 *   against its own direct calls: the floor that Node and the machine set. Baseline 0.5 as above.
 *
 * What each side contains:
 * - "HTTP" is a request by the raw keep-alive client of `http-client.ts` (in this same process) to
 *   the server, encoded before the timer starts: the client's write and parse, the socket, Node's
 *   HTTP parser, Hono's routing and the admission middleware (body limit, authentication,
 *   content-type rules), the decorator runtime's binding and validation, the input guard, the
 *   handler with all the database work below, rendering Gitea's JSON and serialising it. A status
 *   other than the expected one fails the run.
 * - "direct" is the same database work without HTTP, through the very functions the handlers call
 *   for it: `authenticate` (the middleware's token lookup) and `loadGetIssue`, `loadListIssues`,
 *   `loadSearchIssues` or `createIssueAndLoad` — the repository and permission lookup, every store
 *   call of the operation in the handler's order, and the loading of the users, labels, milestones
 *   and repositories the JSON refers to. It returns rows; nothing is rendered.
 *
 * Run alone with `npx tsx bench/issues.ts` (prints the figures), or with every benchmark through
 * `npm run bench -- issues` (also writes `bench/results.json`).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { createIssuesApp } from '../runtime/issues/api/app.js';
import { authenticate } from '../runtime/issues/api/auth.js';
import { resolveIssuesConfig } from '../runtime/issues/api/config.js';
import { createIssueEventBus } from '../runtime/issues/api/events.js';
import { loadGetIssue, loadListIssues, loadSearchIssues } from '../runtime/issues/api/handlers/issue-read.js';
import { createIssueAndLoad } from '../runtime/issues/api/handlers/issue-write.js';
import type { IssuesServices } from '../runtime/issues/api/handlers/services.js';
import { createStore, type ImportIssueInput, type IssueStore, type RepoRow, type UserRow } from '../runtime/issues/store/index.js';
import { HttpClient, type HttpResponse, type PreparedRequest } from './http-client.js';
import { startFloorServer } from './issues-floor.js';
import { type BenchResult, printResults, result } from './results.js';

const POSTGRES_URL = process.env.LOOM_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Sizes; `LOOM_BENCH_ISSUES` shrinks the run for a quick look. */
const ISSUES = Number(process.env.LOOM_BENCH_ISSUES ?? 100_000);
const REPOS = 200;
const USERS = 20;
const IMPORT_BATCH = 5_000;
const SAMPLES = { get: 2_000, list: 500, search: 500, create: 500 } as const;
/**
 * Warm-up before each operation's samples: pairs of calls for at least `ms` and `calls`. V8 keeps
 * compiling the request path to faster tiers for the first few thousand requests: measured on
 * `get`, the HTTP share is 0.65 after 50 calls and settles near 0.45 after about 3,000 (both sides
 * speed up, HTTP more, having more code to tier up). A server runs warm, so the figures describe
 * that steady state, on both sides alike. `LOOM_BENCH_WARMUP_MS` changes the time.
 */
const WARMUP = { ms: Number(process.env.LOOM_BENCH_WARMUP_MS ?? 3_000), calls: 50 };
/** The goal for `http_share`: the HTTP layer costs at most half of a median request. */
const HTTP_SHARE_GOAL = 0.5;
/** The operations also measured on bare `node:http` (`issues-floor.ts`): those whose share is nearest the goal. */
const FLOOR_OPERATIONS: ReadonlySet<Operation> = new Set(['get', 'create']);

type Operation = keyof typeof SAMPLES;

/** mulberry32, so every run measures the same data and the same queries. */
function createRandom(seed: number): { next(): number; int(max: number): number } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (max) => Math.floor(next() * max) };
}

/** 2,000 pronounceable words; Zipf-like picks make some common and most rare, like real text. */
function vocabulary(): string[] {
  const random = createRandom(7);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'do', 'fi', 'gu', 'ha', 'je', 'bo', 'cy'];
  const words = new Set<string>();
  while (words.size < 2_000) {
    const n = 2 + random.int(3);
    words.add(Array.from({ length: n }, () => syllables[random.int(syllables.length)]).join(''));
  }
  return [...words];
}

export interface Seeded {
  readonly users: readonly UserRow[];
  readonly repos: readonly RepoRow[];
  readonly token: string;
  readonly words: readonly string[];
  readonly labelNames: readonly string[];
}

/** Loads the benchmark data set into an empty store (exported for profiling scripts). */
export async function seedBenchData(store: IssueStore, onProgress: (line: string) => void = () => {}): Promise<Seeded> {
  const random = createRandom(1);
  const words = vocabulary();
  const word = () => words[Math.floor(words.length * random.next() ** 3)]!;
  const users: UserRow[] = [];
  for (let i = 0; i < USERS; i++) users.push(await store.createUser({ name: `user${i}`, email: `user${i}@example.com`, isAdmin: i === 0 }));
  const { token } = await store.createAccessToken({ userId: users[0]!.id, name: 'bench' });
  const labelNames = ['bug', 'enhancement', 'question', 'docs', 'ui', 'backend'];
  const repos: RepoRow[] = [];
  const labelIds = new Map<number, number[]>();
  const milestoneIds = new Map<number, number[]>();
  await store.transaction(async (tx) => {
    for (let r = 0; r < REPOS; r++) {
      const repo = await tx.createRepo({ ownerId: users[r % USERS]!.id, name: `repo${r}`, isPrivate: r % 10 === 9 });
      repos.push(repo);
      const ids = [];
      for (const [i, name] of labelNames.entries()) ids.push((await tx.createLabel({ repoId: repo.id, name, color: `00000${i}` })).id);
      labelIds.set(repo.id, ids);
      milestoneIds.set(repo.id, [
        (await tx.createMilestone({ repoId: repo.id, title: 'v1' })).id,
        (await tx.createMilestone({ repoId: repo.id, title: 'v2' })).id,
      ]);
    }
  });
  const start = 1_600_000_000;
  const started = performance.now();
  for (let done = 0; done < ISSUES; done += IMPORT_BATCH) {
    const batch: ImportIssueInput[] = [];
    for (let i = done; i < Math.min(ISSUES, done + IMPORT_BATCH); i++) {
      const repo = repos[random.int(REPOS)]!;
      const labels = labelIds.get(repo.id)!;
      const created = start + i * 60;
      batch.push({
        repoId: repo.id,
        posterId: users[random.int(USERS)]!.id,
        title: Array.from({ length: 4 + random.int(5) }, word).join(' '),
        body: Array.from({ length: 10 + random.int(30) }, word).join(' ') + (random.next() < 0.05 ? ` @user${random.int(USERS)}` : ''),
        createdUnix: created,
        updatedUnix: created + random.int(86_400),
        closed: random.next() < 0.4,
        labelIds: random.next() < 0.6 ? [labels[random.int(labels.length)]!] : [],
        milestoneId: random.next() < 0.3 ? milestoneIds.get(repo.id)![random.int(2)]! : null,
        assigneeIds: random.next() < 0.4 ? [users[random.int(USERS)]!.id] : [],
        ...(random.next() < 0.1 ? { pull: {} } : {}),
      });
    }
    await store.importIssues(batch);
    onProgress(
      `  ${store.info.engine}: ${Math.min(ISSUES, done + IMPORT_BATCH)} / ${ISSUES} issues ` +
        `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  // Counters changed during the import; the measurements pick issue numbers from them.
  const loaded = await store.getReposByIds(repos.map((repo) => repo.id));
  loaded.sort((a, b) => a.id - b.id);
  return { users, repos: loaded, token, words, labelNames };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Measured {
  readonly p50: number;
  readonly p99: number;
  readonly perSecond: number;
}

function summarise(times: number[]): Measured {
  const total = times.reduce((sum, t) => sum + t, 0);
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: (times.length / total) * 1000 };
}

/**
 * One side of a measurement: `prepare(i)` does the untimed work of call `i` (choosing the issue,
 * building the input or encoding the request, as a load generator encodes requests ahead) and
 * returns the call to time.
 */
type Side = (i: number) => () => Promise<unknown>;

/**
 * Runs call i of `direct` and of `http` for i = 0..count−1 one at a time, alternating which goes
 * first, after a warm-up of both ({@link WARMUP}). Interleaved, the two sides see the same machine:
 * a burst of load from elsewhere, the state of the caches, the database's growth during creates.
 * Throughput is calls per second of time spent in the calls.
 */
async function measurePair(count: number, direct: Side, http: Side): Promise<{ direct: Measured; http: Measured }> {
  const warmUntil = performance.now() + WARMUP.ms;
  for (let i = 0; i < WARMUP.calls || performance.now() < warmUntil; i++) {
    await direct(i + 1_000_000)();
    await http(i + 1_000_000)();
  }
  const times = { direct: [] as number[], http: [] as number[] };
  const timed = async (side: 'direct' | 'http', i: number) => {
    const call = (side === 'direct' ? direct : http)(i);
    const t0 = performance.now();
    await call();
    times[side].push(performance.now() - t0);
  };
  for (let i = 0; i < count; i++) {
    const first = i % 2 === 0 ? 'direct' : 'http';
    await timed(first, i);
    await timed(first === 'direct' ? 'http' : 'direct', i);
  }
  return { direct: summarise(times.direct), http: summarise(times.http) };
}

/** The share of the median request spent outside the database: (HTTP p50 − direct p50) / HTTP p50. */
function share(direct: Measured, http: Measured): number {
  return http.p50 === 0 ? 0 : (http.p50 - direct.p50) / http.p50;
}

/** The response, or an error naming what came back instead of `status`. */
function expectStatus(response: HttpResponse, status: number): HttpResponse {
  if (response.status !== status) throw new Error(`bench request failed: ${response.status} ${response.text()}`);
  return response;
}

async function benchEngine(engine: 'sqlite' | 'postgres', store: IssueStore, onProgress: (line: string) => void): Promise<BenchResult[]> {
  const data = await seedBenchData(store, onProgress);
  const config = resolveIssuesConfig({ publicUrl: 'http://127.0.0.1/' });
  // The handlers' own services, for the direct side: the same store and configuration as the app.
  const services: IssuesServices = { store, config, events: createIssueEventBus() };
  const app = createIssuesApp({ store, config, events: services.events });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  // The client's one connection must stay open for the whole run, however long a call between takes.
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 600_000;
  const client = await HttpClient.connect((server.address() as AddressInfo).port);
  const authorization = `token ${data.token}`;
  const random = createRandom(99);
  const repoAt = (i: number) => data.repos[(i * 7919) % data.repos.length]!;
  const indexIn = (repo: RepoRow) => 1 + random.int(repo.numIssues + repo.numPulls || 1);
  // Common words, not the most common: at 100,000 issues each matches (by prefix) 3,000–23,000.
  const keywords = data.words.slice(20, 120);
  const keywordAt = (i: number) => keywords[i % keywords.length]!;
  // What the authentication middleware does for these requests (search is anonymous).
  const signIn = (header: string | undefined) => authenticate(store, undefined, undefined, header);

  // Direct: the handler's data loading called without HTTP — the token lookup, the repository and
  // permission lookup, every store call of the operation and the loading of what the JSON refers to.
  const direct: Record<Operation, Side> = {
    get: (i) => {
      const repo = repoAt(i);
      const input = { owner: repo.ownerName, repo: repo.name, index: indexIn(repo) };
      return async () => loadGetIssue(services, await signIn(authorization), input);
    },
    list: (i) => {
      const repo = repoAt(i);
      const input = { owner: repo.ownerName, repo: repo.name, state: 'open', type: 'issues', labels: 'bug,ui', limit: 30 } as const;
      return async () => loadListIssues(services, await signIn(authorization), input);
    },
    search: (i) => {
      const input = { q: keywordAt(i), limit: 20 };
      return async () => loadSearchIssues(services, await signIn(undefined), input);
    },
    create: (i) => {
      const repo = repoAt(i);
      const input = {
        owner: repo.ownerName,
        repo: repo.name,
        body: { title: `direct ${i} ${keywordAt(i)}`, body: 'created by the benchmark' },
      };
      return async () => createIssueAndLoad(services, await signIn(authorization), input);
    },
  };
  const headers = { Authorization: authorization };
  // Each request is encoded before its timer starts, as a load generator encodes its requests.
  const send = (client: HttpClient, request: PreparedRequest, status: number) => async () =>
    expectStatus(await client.send(request), status);
  const requestsTo = (client: HttpClient): Record<Operation, Side> => ({
    get: (i) => {
      const repo = repoAt(i);
      return send(client, client.prepare('GET', `/api/v1/repos/${repo.ownerName}/${repo.name}/issues/${indexIn(repo)}`, { headers }), 200);
    },
    list: (i) => {
      const repo = repoAt(i);
      return send(
        client,
        client.prepare('GET', `/api/v1/repos/${repo.ownerName}/${repo.name}/issues?state=open&type=issues&labels=bug,ui&limit=30`, {
          headers,
        }),
        200,
      );
    },
    search: (i) => send(client, client.prepare('GET', `/api/v1/repos/issues/search?q=${encodeURIComponent(keywordAt(i))}&limit=20`), 200),
    create: (i) => {
      const repo = repoAt(i);
      const body = JSON.stringify({ title: `http ${i} ${keywordAt(i)}`, body: 'created by the benchmark' });
      return send(
        client,
        client.prepare('POST', `/api/v1/repos/${repo.ownerName}/${repo.name}/issues`, {
          headers: { ...headers, 'Content-Type': 'application/json' },
          body,
        }),
        201,
      );
    },
  });
  const http = requestsTo(client);
  // The same get and create served by bare node:http over the same functions: the floor.
  const floor = await startFloorServer(services);
  const floorClient = await HttpClient.connect(floor.port);
  const floorRequests = requestsTo(floorClient);

  const results: BenchResult[] = [];
  try {
    for (const op of Object.keys(SAMPLES) as Operation[]) {
      const { direct: d, http: h } = await measurePair(SAMPLES[op], direct[op], http[op]);
      const prefix = `issues.${engine}.${op}`;
      onProgress(
        `  ${prefix}: http p50 ${h.p50.toFixed(2)} ms p99 ${h.p99.toFixed(2)} ms | direct p50 ${d.p50.toFixed(2)} ms p99 ` +
          `${d.p99.toFixed(2)} ms`,
      );
      results.push(
        result(`${prefix}.p99_ms`, h.p99, d.p99, 'ms'),
        result(`${prefix}.p50_ms`, h.p50, d.p50, 'ms'),
        result(`${prefix}.throughput`, h.perSecond, d.perSecond, 'req/s'),
        result(`${prefix}.http_share`, share(d, h), HTTP_SHARE_GOAL, 'ratio'),
      );
      if (FLOOR_OPERATIONS.has(op)) {
        const { direct: fd, http: f } = await measurePair(SAMPLES[op], direct[op], floorRequests[op]);
        onProgress(
          `  ${prefix} on bare node:http: http p50 ${f.p50.toFixed(2)} ms | direct p50 ${fd.p50.toFixed(2)} ms | share ` +
            `${share(fd, f).toFixed(2)}`,
        );
        results.push(result(`${prefix}.node_share`, share(fd, f), HTTP_SHARE_GOAL, 'ratio'));
      }
    }
  } finally {
    client.close();
    floorClient.close();
    await floor.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return results;
}

/**
 * Runs the Issues benchmark on both engines.
 *
 * @example
 * const figures = await benchIssues(console.log);
 */
export async function benchIssues(onProgress: (line: string) => void = () => {}): Promise<BenchResult[]> {
  const results: BenchResult[] = [];

  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-issues-'));
  try {
    onProgress(`  sqlite: seeding ${ISSUES} issues in ${REPOS} repositories`);
    const store = await createStore(join(dir, 'issues.db'));
    try {
      results.push(...(await benchEngine('sqlite', store, onProgress)));
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const schema = `loom_bench_${process.pid}_${Date.now().toString(36)}`;
  onProgress(`  postgres: seeding ${ISSUES} issues in ${REPOS} repositories (schema ${schema})`);
  const store = await createStore(POSTGRES_URL, { schema });
  try {
    results.push(...(await benchEngine('postgres', store, onProgress)));
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  return results;
}

// `npx tsx bench/issues.ts`: this benchmark alone, printed (run.ts is what writes results.json).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printResults(await benchIssues((line) => console.log(line)));
}
