/**
 * @module Versioned schema migrations: each engine lists its own SQL per version; one runner applies
 * the missing ones in a single transaction, under the engine's lock, so two servers starting at
 * once against the same database neither fail nor apply a step twice.
 */

import { sql } from './fragment.js';
import type { SqlDialect } from './sql-dialect.js';
import type { SqlDriver } from './sql-driver.js';

/** One schema step. Versions increase by one; never edit a released step, add another. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Trusted multi-statement SQL. */
  readonly script: string;
}

/**
 * Applies the migrations that are not recorded in `schema_migrations` yet and returns the version
 * reached. Idempotent: a second run finds nothing to do.
 *
 * @example
 * const version = await migrate(driver, dialect, SQLITE_MIGRATIONS); // 1
 */
export async function migrate(driver: SqlDriver, dialect: SqlDialect, migrations: readonly Migration[]): Promise<number> {
  return driver.transaction(async (tx) => {
    const lock = dialect.migrationLock();
    if (lock) await tx.all(lock);
    await tx.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_unix BIGINT NOT NULL)',
    );
    const rows = await tx.all<{ version: number }>(sql`SELECT version FROM schema_migrations`);
    const applied = new Set(rows.map((row) => Number(row.version)));
    let reached = applied.size === 0 ? 0 : Math.max(...applied);
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.script);
      await tx.run(
        sql`INSERT INTO schema_migrations (version, name, applied_unix)
          VALUES (${migration.version}, ${migration.name}, ${Math.floor(Date.now() / 1000)})`,
      );
      reached = Math.max(reached, migration.version);
    }
    return reached;
  });
}
