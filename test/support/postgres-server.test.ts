/**
 * The run's PostgreSQL, both ways: a server that answers is used and one that refuses is an error
 * (`answers`), and the server a run starts when nothing answers (`startLocalPostgres`) is a real
 * one that is gone, folder and all, after `stop()`. CI has a server, so the second way is proven
 * here on every run, besides `.ci/run`'s pass over the PostgreSQL suites with none.
 */
import { existsSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from './postgres.js';
import { startLocalPostgres } from './postgres-server.js';
import { answers } from './postgres-setup.js';

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the configured PostgreSQL', () => {
  it("is used when it answers: the run's URL answers", async () => {
    expect(await answers(TEST_POSTGRES_URL)).toBe(true);
  });

  it('counts as absent when nothing listens on its port', async () => {
    expect(await answers(`postgres://postgres@127.0.0.1:${await deadPort()}/test`)).toBe(false);
  });

  it('is an error, not replaced, when it answers but refuses the tests', async () => {
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = '/loom_no_such_database';
    await expect(answers(url.href)).rejects.toThrow(/refused the tests \(3D000: database "loom_no_such_database" does not exist\)/);
  });
});

describe('startLocalPostgres', () => {
  it('starts a real PostgreSQL with a test database on a free port, and removes it on stop', async () => {
    const server = await startLocalPostgres();
    try {
      expect(existsSync(server.folder)).toBe(true);
      expect(server.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/test$/);
      expect(server.version).toMatch(/^PostgreSQL \d+\.\d+/);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ db: string; upper: string; rank: number }>(
          "SELECT current_database() AS db, upper('привет') AS upper, " +
            "ts_rank(to_tsvector('simple', 'Привет мир'), to_tsquery('simple', 'привет')) AS rank",
        );
        expect(rows[0]).toEqual({ db: 'test', upper: 'ПРИВЕТ', rank: expect.any(Number) });
        expect(rows[0]!.rank).toBeGreaterThan(0);
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
    expect(existsSync(server.folder)).toBe(false);
    expect(await answers(server.url)).toBe(false);
  });
});
