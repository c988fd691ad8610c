/**
 * @module
 * vitest's global setup for PostgreSQL: every test that talks to it uses the one URL this provides
 * (`inject('postgresUrl')`, read through `test/support/postgres.ts`). It is
 * `LOOM_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/test`) when a server
 * answers there, as in CI; when nothing answers, a PostgreSQL of the run's own
 * (`postgres-server.ts`), stopped and removed when the run ends. A server that answers but refuses
 * the tests is an error: starting another would hide a misconfiguration.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startLocalPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL the tests use: trust auth, a database of their own to make schemas in. */
    postgresUrl: string;
  }
}

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Whether a server answers at `url`: `true`, `false` when nothing does, or the server's refusal thrown. */
export async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    // Nothing answered: a socket error (ECONNREFUSED, ENOTFOUND…, which carry the failed system
    // call) or a connection timeout. Anything else came from a server: an SQLSTATE (`28000`,
    // `3D000`…), or the driver's complaint about it (a password asked for and none given).
    const { code, syscall, message } = error as Error & { code?: string; syscall?: string };
    if (typeof syscall === 'string' || /timeout/i.test(message)) return false;
    throw new Error(
      `PostgreSQL at ${url} refused the tests (${code === undefined ? '' : `${code}: `}${message}); ` +
        'fix it, or point LOOM_TEST_POSTGRES_URL at a free port to have the tests start their own',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const configured = process.env['LOOM_TEST_POSTGRES_URL'] || DEFAULT_POSTGRES_URL;
  if (await answers(configured)) {
    project.provide('postgresUrl', configured);
    return async () => {};
  }
  const started = Date.now();
  const server = await startLocalPostgres();
  console.log(
    `PostgreSQL: nothing answers at ${configured}; started ${server.version} at ${server.url} ` +
      `in ${Date.now() - started} ms for this run`,
  );
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
