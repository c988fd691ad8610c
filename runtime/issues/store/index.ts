/**
 * @module The entry of the Issues storage: `createStore(databaseUrl)` picks the engine from the URL
 * (`postgres://` → PostgreSQL, anything else → a SQLite file) and returns a migrated `IssueStore`.
 */

import { DEFAULT_SQLITE_PATH } from './defaults.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import type { SqlStoreOptions } from './sql/sql-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { IssueStore } from './store.js';

export { atLeast, isPermissionLevel, resolvePermission, strongest } from '../domain/permission.js';
export { DEFAULT_SQLITE_PATH } from './defaults.js';
export * from './store.js';

/** Options of {@link createStore}. */
export interface CreateStoreOptions extends SqlStoreOptions {
  /** PostgreSQL only: the schema to use (overrides a `?schema=` in the URL). @default 'public' */
  readonly schema?: string;
  /** PostgreSQL only: pool size. @default 10 */
  readonly poolSize?: number;
}

/**
 * Opens the store named by a database URL and runs its migrations.
 *
 * - `postgres://…` or `postgresql://…`: PostgreSQL (`?schema=name` selects a schema).
 * - `file:path`, a plain path, or `:memory:`: SQLite.
 * - empty or `undefined`: SQLite at {@link DEFAULT_SQLITE_PATH}.
 *
 * @example
 * const store = await createStore(process.env.DATABASE_URL);
 * const tests = await createStore(':memory:');
 */
export async function createStore(databaseUrl: string | undefined, options: CreateStoreOptions = {}): Promise<IssueStore> {
  const url = databaseUrl?.trim() || DEFAULT_SQLITE_PATH;
  const { schema, poolSize, ...storeOptions } = options;
  if (/^postgres(ql)?:\/\//i.test(url)) {
    return openPostgresStore({ url, ...(schema !== undefined && { schema }), ...(poolSize !== undefined && { poolSize }) }, storeOptions);
  }
  const path = url.startsWith('file:') ? url.slice('file:'.length).replace(/^\/\/(?=\/)/, '') : url;
  return openSqliteStore({ path }, storeOptions);
}
