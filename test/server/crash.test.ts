/**
 * `kill -9` under load, on both engines: the server process is killed while eight keep-alive
 * clients create issues, started again on the same database, loaded and killed again, three
 * rounds. Every create it acknowledged is in the database afterwards, issue numbers run from 1
 * without a gap or a duplicate, and (SQLite) the file passes `PRAGMA integrity_check`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../runtime/issues/store/index.js';
import { startServerProcess } from '../support/server-harness.js';
import { dropSchema, TEST_POSTGRES_URL, uniqueSchemaName } from '../support/test-stores.js';

const ADMIN = { name: 'root', password: 'root-password-1' };
const ROUNDS = 3;

interface Ack {
  readonly title: string;
  readonly number: number;
}

function post(
  port: number,
  agent: Agent | false,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status?: number; text: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path, agent, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, text }));
        res.on('error', () => resolve({ text: '' }));
      },
    );
    req.on('error', () => resolve({ text: '' }));
    req.end(body);
  });
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe.each(['sqlite', 'postgres'] as const)('kill -9 under load on %s', (engine) => {
  it(`keeps every acknowledged create through ${ROUNDS} rounds, numbered without gaps`, async () => {
    let databaseUrl: string;
    if (engine === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'loom-crash-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      databaseUrl = join(dir, 'loom.db');
    } else {
      const schema = uniqueSchemaName('loom_crash');
      cleanups.push(() => dropSchema(schema));
      databaseUrl = `${TEST_POSTGRES_URL}?schema=${schema}`;
    }
    const env = {
      DATABASE_URL: databaseUrl,
      LOOM_SERVICES: 'issues',
      LOOM_ADMIN_USER: ADMIN.name,
      LOOM_ADMIN_PASSWORD: ADMIN.password,
    };
    const acknowledged: Ack[] = [];
    let token: string | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startServerProcess({ env });
      // Killed at the end whatever happens, even when a round timed out before its own cleanup.
      cleanups.push(async () => void server.child.kill('SIGKILL'));
      try {
        const basic = { authorization: `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString('base64')}` };
        if (token === undefined) {
          expect((await post(server.httpPort, false, '/api/v1/user/repos', basic, JSON.stringify({ name: 'proj' }))).status).toBe(201);
          const created = await post(
            server.httpPort,
            false,
            `/api/v1/users/${ADMIN.name}/tokens`,
            basic,
            JSON.stringify({ name: 'load', scopes: ['all'] }),
          );
          token = (JSON.parse(created.text) as { sha1: string }).sha1;
        }
        const agent = new Agent({ keepAlive: true, maxSockets: 8 });
        let killed = false;
        let sent = 0;
        const loops = Array.from({ length: 8 }, async (_, worker) => {
          while (!killed) {
            const title = `r${round}-w${worker}-${sent++}`;
            const res = await post(
              server.httpPort,
              agent,
              '/api/v1/repos/root/proj/issues',
              { authorization: `token ${token}` },
              JSON.stringify({ title }),
            );
            if (res.status === 201) acknowledged.push({ title, number: (JSON.parse(res.text) as { number: number }).number });
          }
        });
        const target = acknowledged.length + 150;
        const deadline = Date.now() + 30_000;
        while (acknowledged.length < target) {
          if (Date.now() > deadline) throw new Error(`round ${round}: only ${acknowledged.length} creates acknowledged`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        server.child.kill('SIGKILL');
        await server.exited;
        killed = true;
        await Promise.all(loops);
        agent.destroy();
      } finally {
        await server.stop('SIGKILL');
      }
    }

    const store = await createStore(databaseUrl);
    try {
      const repo = (await store.findRepo('root', 'proj'))!;
      const stored = new Map<number, string>();
      for (let page = 1; ; page++) {
        const { items } = await store.searchIssues({ repoIds: [repo.id], state: 'all', sort: 'oldest', limit: 500, page });
        for (const issue of items) stored.set(issue.index, issue.title);
        if (items.length < 500) break;
      }
      for (const ack of acknowledged) expect(stored.get(ack.number), ack.title).toBe(ack.title);
      // Numbers 1..n with no gap: a create either committed whole (its number with it) or not at all.
      expect([...stored.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: stored.size }, (_, i) => i + 1));
      expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length);
    } finally {
      await store.close();
    }
    if (engine === 'sqlite') {
      const db = new Database(databaseUrl, { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        db.close();
      }
    }
  });
});
