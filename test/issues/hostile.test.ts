/**
 * Hostile input over every operation of the OpenAPI document, on both engines, bounded in count
 * so that it fits CI: requests generated with fast-check from the contract (`hostile-requests.ts`,
 * a fixed seed; `LOOM_HOSTILE_SEED` and `LOOM_HOSTILE_RUNS` vary it), sent by every kind of caller.
 * For each answer:
 *
 * - never a 5xx;
 * - a JSON body, Gitea's `{message, url}` for an error (or no body at all where Gitea sends none);
 * - nothing stored when the answer is an error (the database's fingerprint is unchanged);
 * - no answer slower than a bound (`LOOM_HOSTILE_BOUND_MS`, 5 s: a loaded 2-core machine, not a
 *   performance figure — `npm run bench` measures those).
 *
 * Then the worst bodies of each operation (every array at 100,000 valid items and at 200,000–250,000
 * of the wrong type, the report's bodies; every string at ten times its size), and both engines
 * answering the same requests alike.
 */
import { resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssueStore } from '../../runtime/issues/store/store.js';
import { ENGINES, type Engine, startServer, type TestServer } from '../support/issues-harness.js';
import { type HostileRequest, loadOperations, type Operation, requestsFor, type World, worstBodies } from './hostile-requests.js';
import { buildWorld, type World as People } from './world.js';

const ROOT = resolve(import.meta.dirname, '../..');
const OPERATIONS = loadOperations(ROOT);
const SEED = Number(process.env['LOOM_HOSTILE_SEED'] ?? 21);
const RUNS = Number(process.env['LOOM_HOSTILE_RUNS'] ?? 24);
const BOUND_MS = Number(process.env['LOOM_HOSTILE_BOUND_MS'] ?? 5_000);

/** What the tables hold, as far as any request of the suite can change it. */
async function fingerprint(store: IssueStore, adminId: number, userIds: readonly number[]): Promise<string> {
  const parts: unknown[] = [await store.countUsers()];
  const repoIds = await store.listVisibleRepoIds(adminId);
  parts.push(repoIds);
  for (const repoId of repoIds) {
    const issues = await store.searchIssues({ repoIds: [repoId], state: 'all', limit: 50 });
    parts.push(
      issues.total,
      issues.items,
      await store.listLabels(repoId),
      await store.listMilestones(repoId),
      await store.listCollaborators(repoId),
    );
  }
  for (const userId of userIds) parts.push((await store.listAccessTokens(userId)).length, await store.listOrgsOwnedBy(userId));
  return JSON.stringify(parts);
}

/** Statuses by request, per engine, for the comparison at the end. */
const statuses: Partial<Record<Engine, Map<string, number>>> = {};

describe.each(ENGINES)('hostile requests on %s', (engine) => {
  let server: TestServer;
  let people: People;
  let world: World;
  let credential: (caller: string | undefined) => string | undefined;
  let print: () => Promise<string>;
  const seen = new Map<string, number>();
  statuses[engine] = seen;

  beforeAll(async () => {
    server = await startServer(engine);
    people = await buildWorld(server);
    const alice = server.api(people.alice.token);
    for (const title of ['crash on start', 'ui glitch', 'docs typo']) await alice.repos.issueCreateIssue('alice', 'pub', { title });
    await alice.repos.issueCreateIssue('alice', 'priv', { title: 'secret crash' });
    await server.api(people.bob.token).repos.repoCreatePullRequest('alice', 'pub', { title: 'fix crash', head: 'fix' });
    const admin = (await server.store.findUserByName('root'))!;
    const userIds = [admin.id, people.alice.id, people.bob.id, people.carol.id, people.dave.id];
    print = () => fingerprint(server.store, admin.id, userIds);
    const tokens: Record<string, string> = {
      admin: server.adminToken,
      alice: people.alice.token,
      bob: people.bob.token,
      carol: people.carol.token,
      dave: people.dave.token,
    };
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    credential = (caller) => {
      if (caller === undefined) return undefined;
      if (caller in tokens) return `token ${tokens[caller]}`;
      switch (caller) {
        case 'alice-basic':
          return basic('alice', people.alice.password);
        case 'alice-upper':
          return `token ${people.alice.token.toUpperCase()}`;
        case 'wrong-basic':
          return basic('alice', 'wrong');
        case 'garbage':
          return 'token 0123456789abcdef0123456789abcdef01234567';
        default:
          return `Bearer ${caller}`;
      }
    };
    world = {
      repos: [
        ['alice', 'pub'],
        ['alice', 'pub'],
        ['alice', 'priv'],
        ['acme', 'tools'],
        ['acme', 'secret'],
        ['alice', 'nothing'],
      ],
      orgs: ['acme'],
      users: ['alice', 'bob', 'carol', 'dave', 'root', 'nobody'],
      indexes: [1, 2, 3, 4, 999],
      labelIds: [people.labels.bug, people.labels.ui, people.labels.docs],
      milestoneIds: [people.milestones.v1, people.milestones.v2],
      // The signed-in kinds of caller more often than the refused ones, so that requests get past authentication.
      callers: ['admin', 'alice', 'alice', 'bob', 'bob', 'carol', 'dave', 'alice-basic'],
      refusedCallers: [undefined, 'alice-upper', 'wrong-basic', 'garbage', 'x.y.z'],
    };
  });
  afterAll(async () => server?.close());

  /** Sends a request and checks the answer; returns its status. */
  async function check(request: HostileRequest): Promise<number> {
    const write = request.method !== 'GET';
    const before = write ? await print() : '';
    const auth = credential(request.caller);
    const started = performance.now();
    const res = await server.fetch(request.url, {
      method: request.method,
      headers: { ...request.headers, ...(auth !== undefined && { authorization: auth }) },
      ...(request.body !== undefined && { body: request.body }),
    });
    const text = await res.text();
    const elapsed = performance.now() - started;
    const where = `${request.note}\n→ ${res.status} ${text.slice(0, 300)}`;
    expect(res.status, where).toBeLessThan(500);
    expect(elapsed, `${where}\n(took ${Math.round(elapsed)} ms)`).toBeLessThan(BOUND_MS);
    if (text !== '') {
      expect(res.headers.get('content-type'), where).toMatch(/^application\/json/);
      const body = JSON.parse(text) as unknown;
      if (res.status >= 400) expect(body, where).toMatchObject({ message: expect.any(String) });
    } else {
      // Gitea's bodiless answers: 204, and 403 to an edit by someone who may not.
      expect([204, 403], where).toContain(res.status);
    }
    if (write && res.status >= 400) expect(await print(), `${where}\nchanged the database`).toBe(before);
    return res.status;
  }

  it.each(OPERATIONS.map((operation, i) => [operation.id, operation, i] as const))(
    '%s: no 5xx, JSON errors, nothing stored on refusal, answered in time',
    async (_id, operation: Operation, i) => {
      const requests = fc.sample(requestsFor(operation, world), { numRuns: RUNS, seed: SEED + i });
      for (const [n, request] of requests.entries()) seen.set(`${operation.id}#${n}`, await check(request));
    },
  );

  const worst = OPERATIONS.flatMap((operation) =>
    worstBodies(operation).map((body) => [operation.id, body.name, operation, body] as const),
  );
  const sendWorst = async (operation: Operation, name: string, body: string) => {
    const url = operation.path
      .replace('{owner}', 'alice')
      .replace('{repo}', 'pub')
      .replace('{index}', '1')
      .replace('{org}', 'acme')
      .replace('{username}', 'alice')
      .replace('{collaborator}', 'bob');
    const status = await check({
      operation: operation.id,
      method: operation.method,
      url,
      caller: 'alice-basic',
      headers: { 'content-type': 'application/json' },
      body,
      note: `${operation.method} ${url} with ${name}`,
    });
    expect(status).toBeGreaterThanOrEqual(400);
  };
  it.each(worst)('%s with %s: a 4xx in time, nothing stored', async (_id, name, operation, body) => sendWorst(operation, name, body.body));
});

describe('both engines', () => {
  it('answer the same hostile requests with the same statuses', () => {
    const sqlite = statuses.sqlite!;
    const postgres = statuses.postgres!;
    expect(sqlite.size).toBeGreaterThan(0);
    // The generator reaches past authentication and validation often enough to be worth its time.
    const accepted = [...sqlite.values()].filter((status) => status < 300).length;
    expect(accepted / sqlite.size).toBeGreaterThan(0.05);
    const differences = [...sqlite]
      .filter(([key, status]) => postgres.get(key) !== status)
      .map(([key, status]) => `${key}: ${status} / ${postgres.get(key)}`);
    expect(differences).toEqual([]);
  });
});
