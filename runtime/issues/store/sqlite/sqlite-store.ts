/**
 * @module Opens the SQLite engine: better-sqlite3 in WAL mode with foreign keys, a busy timeout and
 * a page cache sized for a server, migrations applied, the WAL checkpointed by a worker thread,
 * wrapped in the shared SQL store.
 */

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../sql/migration.js';
import { SqlStore, type SqlStoreOptions } from '../sql/sql-store.js';
import type { IssueStore } from '../store.js';
import { type Checkpointer, startCheckpointer } from './checkpointer.js';
import type { SqliteDatabase, SqliteStoreConfig } from './sqlite-config.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { SqliteDriver } from './sqlite-driver.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';

const DEFAULT_CHECKPOINT_INTERVAL_MS = 100;
/** What a log file may keep on disk once it starts over: twice what the checkpointer lets it reach. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Opens (creating when needed) a SQLite issue store.
 *
 * @example
 * const store = await openSqliteStore({ path: './data/loom.db' });
 */
export async function openSqliteStore(config: SqliteStoreConfig, options: SqlStoreOptions = {}): Promise<IssueStore> {
  const inMemory = config.path === ':memory:' || config.path === '';
  if (!inMemory) mkdirSync(dirname(config.path), { recursive: true });
  const db: SqliteDatabase = new Database(inMemory ? ':memory:' : config.path);
  let checkpointer: Checkpointer | undefined;
  try {
    // Waiting for other connections is the driver's job, asynchronously (see sqlite-driver.ts).
    db.pragma('busy_timeout = 0');
    // WAL lets readers of other processes proceed while this one writes; NORMAL sync is safe with WAL.
    if (!inMemory) db.pragma('journal_mode = WAL');
    // A log that once grew large (a bulk import in one transaction) keeps its size on disk when it
    // starts over, unless this limit has it cut back at the next commit.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // A negative cache_size is in KiB. better-sqlite3 builds SQLite with 16 MB, which a database of
    // 100,000 issues (90 MB) outgrows: 64 MiB makes listing 9 % faster there. SQLite allocates the
    // cache as pages are read, so a small database does not pay for it.
    db.pragma(`cache_size = -${Math.max(1, Math.floor((config.cacheSizeMiB ?? 64) * 1024))}`);
    const driver = new SqliteDriver(db, Math.max(0, Math.floor(config.busyTimeoutMs ?? 5000)), async () => checkpointer?.close());
    const schemaVersion = await migrate(driver, sqliteDialect, SQLITE_MIGRATIONS);
    try {
      // Refreshes planner statistics where they are stale (after a bulk load by a previous run).
      db.pragma('optimize');
    } catch {
      // Another connection is writing; statistics can wait for the next start.
    }
    const intervalMs = Math.max(0, Math.floor(config.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS));
    // After the migrations, so that the thread opens a file that exists and is in WAL mode.
    if (!inMemory && intervalMs > 0) checkpointer = startCheckpointer(db, config.path, { intervalMs });
    return new SqlStore(
      driver,
      driver,
      sqliteDialect,
      { engine: 'sqlite', location: inMemory ? ':memory:' : config.path, schemaVersion },
      options,
    );
  } catch (error) {
    await checkpointer?.close();
    db.close();
    throw error;
  }
}
