/**
 * @module Opens the PostgreSQL engine: a `pg` pool whose connections use the configured schema,
 * BIGINT parsed to numbers, migrations applied under an advisory lock, wrapped in the shared SQL
 * store.
 */

import pg from 'pg';
import { migrate } from '../sql/migration.js';
import { SqlStore, type SqlStoreOptions } from '../sql/sql-store.js';
import type { IssueStore } from '../store.js';
import type { PostgresPool, PostgresStoreConfig } from './postgres-config.js';
import { postgresDialect } from './postgres-dialect.js';
import { PostgresDriver } from './postgres-driver.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';

// Lower case only: search_path folds unquoted names to lower case, CREATE SCHEMA "x" does not.
const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const INT8_OID = 20;

// Ids, counts and Unix times are BIGINT; all stay far below 2^53, so numbers are exact.
const types = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format),
};

/** Splits `?schema=` off a URL (pg does not know it) and hides the password for display. */
function parseUrl(url: string): { connectionString: string; schema: string | undefined; display: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  const connectionString = parsed.toString();
  if (parsed.password) parsed.password = '***';
  return { connectionString, schema, display: parsed.toString() };
}

/**
 * Opens a PostgreSQL issue store; the schema is created when missing.
 *
 * @example
 * const store = await openPostgresStore({ url: 'postgres://postgres@127.0.0.1:5432/test', schema: 'loom' });
 */
export async function openPostgresStore(config: PostgresStoreConfig, options: SqlStoreOptions = {}): Promise<IssueStore> {
  const { connectionString, schema: urlSchema, display } = parseUrl(config.url);
  const schema = config.schema ?? urlSchema ?? 'public';
  if (!SCHEMA_PATTERN.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString,
    max: config.poolSize ?? 10,
    // A request runs up to four queries at once (an issue and its relations, a page's references);
    // keeping that many connections through idle spells spares the next request a reconnect
    // (several ms each) in the middle of its latency.
    min: Math.min(4, config.poolSize ?? 10),
    // The schema name was validated above, so it is safe to put in the startup options.
    options: `-c search_path=${schema}`,
    types,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const driver = new PostgresDriver(pool as unknown as PostgresPool);
  try {
    try {
      await driver.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } catch (error) {
      // Two instances creating the schema at the same moment: the loser sees a duplicate; fine.
      if (!postgresDialect.isUniqueViolation(error) && (error as { code?: string }).code !== '42P06') throw error;
    }
    const schemaVersion = await migrate(driver, postgresDialect, POSTGRES_MIGRATIONS);
    return new SqlStore(
      driver,
      driver,
      postgresDialect,
      { engine: 'postgres', location: `${display} (schema ${schema})`, schemaVersion },
      options,
    );
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}
