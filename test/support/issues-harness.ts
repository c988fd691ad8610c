/**
 * @module
 * Test harness of the Issues API end-to-end tests: starts the service over a fresh store (a
 * SQLite temp file, or a PostgreSQL schema of its own) on an ephemeral port and drives it with
 * `gitea-js` over real HTTP. PostgreSQL is the run's (`test/support/postgres.ts`): the configured
 * server, or one started for the run when nothing answers there; never a skip.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { type Api, giteaApi } from 'gitea-js';
import pg from 'pg';
import type { IssuesConfig } from '../../runtime/issues/api/config.js';
import type { IssueEventBus } from '../../runtime/issues/api/events.js';
import { createIssuesService } from '../../runtime/issues/index.js';
import { createStore } from '../../runtime/issues/store/index.js';
import type { IssueStore } from '../../runtime/issues/store/store.js';
import { TEST_POSTGRES_URL } from './postgres.js';

export type Engine = 'sqlite' | 'postgres';
export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];

export const ADMIN = { name: 'root', password: 'root-password' } as const;

/** A running Issues service for one test file. */
export interface TestServer {
  readonly engine: Engine;
  /** `http://127.0.0.1:PORT` (gitea-js appends `/api/v1`). */
  readonly baseUrl: string;
  readonly store: IssueStore;
  readonly events: IssueEventBus;
  /** A gitea-js client; without a token it is anonymous. */
  api(token?: string): Api<unknown>;
  /** Raw fetch against `/api/v1` + `path`. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Sends `body` as JSON text to `/api/v1` + `path` with `token`, as clients other than gitea-js
   * do (Go's `null` options, values past the contract); the status and the parsed answer
   * (`undefined` when it has no body, as a 204).
   */
  sendJson(method: string, path: string, body: unknown, token: string): Promise<JsonAnswer>;
  /** Creates a user (through the admin API) and a token for them (through Basic auth). */
  createUser(name: string, scopes?: string[]): Promise<{ name: string; id: number; token: string; password: string }>;
  readonly adminToken: string;
  close(): Promise<void>;
}

/** What {@link TestServer.sendJson} resolves to. */
export interface JsonAnswer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes (issues, users, errors): typed loosely on purpose.
  readonly body: Record<string, any>;
}

/**
 * Starts a server on `engine`.
 *
 * @example
 * const server = await startServer('sqlite');
 * const alice = await server.createUser('alice');
 * await server.api(alice.token).user.createCurrentUserRepo({ name: 'proj' });
 */
export async function startServer(engine: Engine, config: Partial<IssuesConfig> = {}): Promise<TestServer> {
  let cleanup: () => Promise<void>;
  let store: IssueStore;
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'loom-issues-api-'));
    store = await createStore(join(dir, 'issues.db'));
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const schema = `loom_api_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    store = await createStore(TEST_POSTGRES_URL, { schema, poolSize: 20 });
    cleanup = async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    };
  }
  const service = await createIssuesService({
    store,
    env: { LOOM_ADMIN_USER: ADMIN.name, LOOM_ADMIN_PASSWORD: ADMIN.password },
    // UTC unless a test asks otherwise: the default is the machine's zone, and the expected times are UTC.
    config: { publicUrl: 'http://issues.test/', timeZone: 'UTC', ...config },
    onUnexpectedError: (error) => console.error('unexpected error in test server', error),
  });
  const server: ServerType = serve({ fetch: service.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const tokenFor = async (user: string, password: string, name: string, scopes: string[]) => {
    const res = await fetch(`${baseUrl}/api/v1/users/${user}/tokens`, {
      method: 'POST',
      headers: { Authorization: basic(user, password), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, scopes }),
    });
    if (res.status !== 201) throw new Error(`token for ${user}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { sha1: string }).sha1;
  };
  const adminToken = await tokenFor(ADMIN.name, ADMIN.password, 'harness', ['all']);
  const api = (token?: string) => giteaApi(baseUrl, token === undefined ? {} : { token });
  return {
    engine,
    baseUrl,
    store,
    events: service.events,
    adminToken,
    api,
    fetch: (path, init) => fetch(`${baseUrl}/api/v1${path}`, init),
    async sendJson(method, path, body, token) {
      const res = await fetch(`${baseUrl}/api/v1${path}`, {
        method,
        headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
    },
    async createUser(name, scopes = ['all']) {
      const password = `${name}-password`;
      const created = await api(adminToken).admin.adminCreateUser({
        username: name,
        email: `${name}@example.com`,
        password,
        must_change_password: false,
      });
      const token = await tokenFor(name, password, `${name}-token-${scopes.join('-')}`, scopes);
      return { name, id: created.data.id!, token, password };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      await cleanup();
    },
  };
}

/** Awaits a gitea-js call that must fail; returns the thrown Response's status and parsed body. */
export async function failure(call: Promise<unknown>): Promise<{ status: number; error: unknown }> {
  try {
    await call;
  } catch (thrown) {
    const response = thrown as { status?: number; error?: unknown };
    if (typeof response.status === 'number') return { status: response.status, error: response.error };
    throw thrown;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Gitea's error body as the test server renders it. */
export function apiError(message: string): { message: string; url: string } {
  return { message, url: 'http://issues.test/api/swagger' };
}
