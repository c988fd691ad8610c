/**
 * `/readyz` follows the database: the server runs on PostgreSQL through a TCP relay this
 * test controls; cutting the relay makes `/readyz` answer 503 naming the database (while
 * `/healthz` stays 200), and restoring it makes the server ready again without a restart.
 * PostgreSQL is the run's (`test/support/postgres.ts`): the configured server, or one started
 * for the run when nothing answers there; never a skip.
 */

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../support/postgres.js';
import { startServerProcess } from '../support/server-harness.js';

const target = new URL(TEST_POSTGRES_URL);
const POSTGRES = { host: target.hostname, port: Number(target.port || 5432) };
const schema = `loom_server_test_${process.pid}_${Math.floor(Math.random() * 1e9)}`;

/** The run's PostgreSQL URL, reached through the relay on `port`, in the test's schema. */
function throughRelay(port: number): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  url.searchParams.set('schema', schema);
  return url.href;
}

/** A TCP relay to PostgreSQL that can be cut and restored on the same port. */
function relay() {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const open = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(POSTGRES);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port));
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      server!.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  return { open, cut };
}

async function readyz(
  origin: string,
): Promise<{ status: number; body: { status: string; checks: Record<string, { status: string; error?: string }> } }> {
  const res = await fetch(`${origin}/readyz`);
  return { status: res.status, body: (await res.json()) as never };
}

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterAll(async () => {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

describe('/readyz on PostgreSQL', () => {
  it('turns 503 naming the database when it is unreachable, and ready again when it is back', async () => {
    const db = relay();
    const port = await db.open(0);
    const databaseUrl = throughRelay(port);
    const server = await startServerProcess({ env: { LOOM_SERVICES: 'issues', DATABASE_URL: databaseUrl } });
    try {
      expect((server.ready['facts'] as Record<string, string>)['Database']).toBe(`PostgreSQL ${databaseUrl}`);
      expect(await readyz(server.origin)).toEqual({ status: 200, body: { status: 'ready', checks: { database: { status: 'ok' } } } });

      await db.cut();
      const down = await eventually(
        () => readyz(server.origin),
        (r) => r.status === 503,
      );
      expect(down.body.status).toBe('unavailable');
      expect(down.body.checks['database']!.status).toBe('failed');
      expect(down.body.checks['database']!.error).toEqual(expect.any(String));
      const health = await fetch(`${server.origin}/healthz`);
      expect(health.status).toBe(200);

      await db.open(port);
      const up = await eventually(
        () => readyz(server.origin),
        (r) => r.status === 200,
      );
      expect(up.body).toEqual({ status: 'ready', checks: { database: { status: 'ok' } } });
    } finally {
      const { code } = await server.stop();
      expect(code).toBe(0);
      await db.cut().catch(() => undefined);
    }
  });
});
