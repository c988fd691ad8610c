/**
 * @module Opens throw-away issue stores for tests, one per engine: SQLite in memory (or in a temp
 * file) and PostgreSQL in a fresh `loom_test_<random>` schema that is dropped on close. PostgreSQL
 * is the run's (`test/support/postgres.ts`): the configured server, or one started for the run
 * when nothing answers there; never a skip. Other test files (the HTTP end-to-end tests) may reuse
 * these helpers.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type CreateStoreOptions, createStore, type IssueStore } from '../../runtime/issues/store/index.js';
import { TEST_POSTGRES_URL } from './postgres.js';

export { TEST_POSTGRES_URL };

export type TestEngine = 'sqlite' | 'postgres';
export const TEST_ENGINES: readonly TestEngine[] = ['sqlite', 'postgres'];

/** A store plus what it takes to throw it away. */
export interface TestStore {
  readonly store: IssueStore;
  /** The URL it was opened with (for opening a second instance on the same data). */
  readonly url: string;
  readonly options: CreateStoreOptions;
  /** Closes the store and removes its data (schema or temp directory). */
  dispose(): Promise<void>;
}

/** A fresh schema name, unique across parallel test files. */
export function uniqueSchemaName(prefix = 'loom_test'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/**
 * Opens an empty store on an engine.
 *
 * @example
 * const { store, dispose } = await openTestStore('postgres');
 * afterAll(dispose);
 */
export async function openTestStore(engine: TestEngine, options: CreateStoreOptions & { file?: boolean } = {}): Promise<TestStore> {
  const { file, ...storeOptions } = options;
  if (engine === 'sqlite') {
    const dir = file ? mkdtempSync(join(tmpdir(), 'loom-issues-')) : undefined;
    const url = dir ? join(dir, 'issues.db') : ':memory:';
    const store = await createStore(url, storeOptions);
    return {
      store,
      url,
      options: storeOptions,
      dispose: async () => {
        await store.close().catch(() => {});
        if (dir) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = uniqueSchemaName();
  const withSchema = { ...storeOptions, schema };
  const store = await createStore(TEST_POSTGRES_URL, withSchema);
  return {
    store,
    url: TEST_POSTGRES_URL,
    options: withSchema,
    dispose: async () => {
      await store.close().catch(() => {});
      await dropSchema(schema);
    },
  };
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '')}" CASCADE`);
  } finally {
    await client.end();
  }
}
