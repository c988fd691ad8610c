/**
 * `npm start` as people and orchestrators stop it, on both engines: Ctrl-C in a terminal (SIGINT
 * to the whole process group: npm, its shell and the server) and SIGTERM to npm alone (whose shell
 * dies of it without passing it on). Each time with creates in flight from eight keep-alive
 * clients and two uploads still sending their bodies: every request the server accepted is
 * answered, every acknowledged create is in the database afterwards, the uploads finish, and the
 * server process is gone. The build runs once, in the first start (its `prestart`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, type ClientRequest, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../runtime/issues/store/index.js';
import { type LogRecord, ROOT_DIR } from '../support/server-harness.js';
import { dropSchema, TEST_POSTGRES_URL, uniqueSchemaName } from '../support/test-stores.js';

const ADMIN = { name: 'root', password: 'root-password-1' };

interface Started {
  readonly npm: ChildProcess;
  readonly port: number;
  /** The server's own pid (from its log records), below npm and its shell. */
  readonly serverPid: number;
  readonly logs: LogRecord[];
  readonly exited: Promise<void>;
}

async function startNpm(env: Record<string, string>, build: boolean): Promise<Started> {
  // A clean environment: no npm_config_* of the test runner's own npm, no developer PORT.
  const base: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[name] !== undefined) base[name] = process.env[name]!;
  const npm = spawn('npm', build ? ['start'] : ['start', '--ignore-scripts'], {
    cwd: ROOT_DIR,
    // Its own process group, as a terminal gives a command: Ctrl-C signals the whole group.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...base,
      PORT: '0',
      GRPC_PORT: '0',
      HOST: '127.0.0.1',
      HOST_ADAPTER: 'simulated',
      LOG_FORMAT: 'json',
      LOOM_DEMO: '0',
      LOOM_ADMIN_USER: ADMIN.name,
      LOOM_ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
  });
  const logs: LogRecord[] = [];
  let pending = '';
  let stderr = '';
  npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  npm.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    // npm's own lines ("> loom-workspace start") are not JSON.
    for (const line of lines) if (line.startsWith('{')) logs.push(JSON.parse(line) as LogRecord);
  });
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  while (!logs.some((record) => record.msg === 'ready')) {
    if (npm.exitCode !== null || npm.signalCode !== null || Date.now() > deadline) {
      throw new Error(`npm start did not become ready\nstderr: ${stderr}\nlogs: ${JSON.stringify(logs.slice(-5))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const ready = logs.find((record) => record.msg === 'ready')!;
  return { npm, port: Number(new URL(String(ready['http'])).port), serverPid: Number(ready['pid']), logs, exited };
}

/** Whether a process has ended (gone, or a zombie nobody has reaped yet). */
function ended(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return true;
  try {
    return readFileSync(stat, 'utf8').split(') ')[1]?.startsWith('Z') ?? true;
  } catch {
    return true;
  }
}

interface Outcome {
  readonly id: string;
  readonly status?: number;
  readonly number?: number;
  readonly connection?: string;
  readonly error?: string;
}

function call(
  port: number,
  agent: Agent | false,
  id: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  /** Leave the request open, for a body written later. */
  open = false,
): { req: ClientRequest; outcome: Promise<Outcome> } {
  let req!: ClientRequest;
  const outcome = new Promise<Outcome>((resolve) => {
    req = httpRequest({ host: '127.0.0.1', port, method, path, agent, headers: { 'X-Request-Id': id, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let number: number | undefined;
        try {
          number = (JSON.parse(text) as { number?: number }).number;
        } catch {
          number = undefined;
        }
        resolve({ id, status: res.statusCode, number, connection: res.headers['connection'] });
      });
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ id, error: error.code ?? error.message }));
  });
  if (!open) req.end(body);
  return { req, outcome };
}

async function setUp(port: number): Promise<string> {
  const basic = `Basic ${Buffer.from(`${ADMIN.name}:${ADMIN.password}`).toString('base64')}`;
  const json = { 'content-type': 'application/json', authorization: basic };
  const repo = await call(port, false, 'setup-repo', 'POST', '/api/v1/user/repos', json, JSON.stringify({ name: 'proj' })).outcome;
  expect(repo.status).toBe(201);
  const token = await new Promise<string>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'POST', path: `/api/v1/users/${ADMIN.name}/tokens`, headers: json, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve((JSON.parse(text) as { sha1: string }).sha1));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ name: 'load', scopes: ['all'] }));
  });
  return token;
}

type Stop = 'SIGINT to the group' | 'SIGTERM to npm';
type Engine = 'sqlite' | 'postgres';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** Kills what a start left behind, even when a test timed out before its own cleanup. */
function killGroup(pid: number | undefined): void {
  try {
    if (pid !== undefined) process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone, as it should be.
  }
}

let built = false;

describe.each<[Stop, Engine]>([
  ['SIGINT to the group', 'sqlite'],
  ['SIGTERM to npm', 'postgres'],
  ['SIGTERM to npm', 'sqlite'],
  ['SIGINT to the group', 'postgres'],
])('npm start stopped by %s on %s', (stop, engine) => {
  it('answers every request it accepted, keeps every acknowledged create, finishes uploads, and exits', async () => {
    let databaseUrl: string;
    if (engine === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'loom-npm-start-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      databaseUrl = join(dir, 'loom.db');
    } else {
      const schema = uniqueSchemaName('loom_npm');
      cleanups.push(() => dropSchema(schema));
      databaseUrl = `${TEST_POSTGRES_URL}?schema=${schema}`;
    }
    const started = await startNpm({ DATABASE_URL: databaseUrl }, !built);
    built = true;
    const { npm, port, serverPid, logs } = started;
    cleanups.push(async () => killGroup(npm.pid));
    try {
      const token = await setUp(port);
      const headers = { 'content-type': 'application/json', authorization: `token ${token}` };
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      const outcomes: Outcome[] = [];
      let signalled = false;
      let counter = 0;
      const loops = Array.from({ length: 8 }, async (_, worker) => {
        for (;;) {
          const id = `w${worker}-${counter++}`;
          const outcome = await call(port, agent, id, 'POST', '/api/v1/repos/root/proj/issues', headers, JSON.stringify({ title: id }))
            .outcome;
          outcomes.push(outcome);
          if (signalled && outcome.error !== undefined) return;
        }
      });
      while (outcomes.length < 100) await new Promise((resolve) => setTimeout(resolve, 10));
      // Two uploads whose bodies are half sent when the signal comes.
      const uploads = [0, 1].map((i) => {
        const body = JSON.stringify({ title: `upload ${i}`, body: 'x'.repeat(50_000) });
        const upload = call(
          port,
          false,
          `upload-${i}`,
          'POST',
          '/api/v1/repos/root/proj/issues',
          {
            ...headers,
            'content-length': String(Buffer.byteLength(body)),
          },
          undefined,
          true,
        );
        upload.req.write(body.slice(0, 10_000));
        return { ...upload, rest: body.slice(10_000) };
      });
      // A round trip after the uploads' first parts: the server has seen them by now.
      await call(port, false, 'probe', 'GET', '/healthz', {}).outcome;

      signalled = true;
      if (stop === 'SIGINT to the group') process.kill(-npm.pid!, 'SIGINT');
      else process.kill(npm.pid!, 'SIGTERM');
      // Past the moment the server notices npm's shell is gone (it checks every 200 ms).
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const upload of uploads) upload.req.end(upload.rest);

      const uploaded = await Promise.all(uploads.map((upload) => upload.outcome));
      await Promise.all(loops);
      agent.destroy();
      await started.exited;
      const deadline = Date.now() + 30_000;
      while (!ended(serverPid)) {
        if (Date.now() > deadline) throw new Error(`server ${serverPid} still running after npm exited`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      for (const upload of uploaded) expect(upload, upload.id).toMatchObject({ status: 201, connection: 'close' });
      expect(logs.find((record) => record.msg === 'stopped cleanly')).toMatchObject({ abandoned: 0, failures: [] });
      expect(logs.some((record) => record.msg === 'second signal: exiting without waiting for in-flight requests')).toBe(false);
      // The server's access log says which requests it accepted and answered.
      const answered = new Set(logs.filter((record) => record.msg === 'request').map((record) => String(record['reqId'])));
      const received = outcomes.filter((outcome) => outcome.status !== undefined);
      for (const outcome of received) expect(outcome.status, outcome.id).toBe(201);
      const receivedIds = new Set(received.map((outcome) => outcome.id));
      for (const id of answered)
        if (id.startsWith('w')) expect(receivedIds.has(id), `answered ${id} but the client never got it`).toBe(true);
      for (const outcome of outcomes.filter((o) => o.error !== undefined)) {
        expect(answered.has(outcome.id), `${outcome.id} failed with ${outcome.error} although the server answered it`).toBe(false);
        expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up']).toContain(outcome.error);
      }
      // Every acknowledged create is in the database.
      const store = await createStore(databaseUrl);
      try {
        const repo = (await store.findRepo('root', 'proj'))!;
        for (const outcome of [...received, ...uploaded]) {
          const issue = await store.getIssue(repo.id, outcome.number!);
          expect(issue?.title.startsWith(outcome.id.startsWith('upload') ? 'upload' : outcome.id), outcome.id).toBe(true);
        }
      } finally {
        await store.close();
      }
    } finally {
      killGroup(npm.pid);
    }
  });
});
