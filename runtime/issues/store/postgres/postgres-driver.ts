/**
 * @module `pg` behind the async `SqlDriver`: single statements go to the pool, a transaction holds
 * one client from `BEGIN` to `COMMIT`/`ROLLBACK`.
 */

import type { SqlFragment } from '../sql/fragment.js';
import type { SqlDriver, SqlExecutor } from '../sql/sql-driver.js';
import type { PostgresPool, PostgresPoolClient } from './postgres-config.js';

type Queryable = Pick<PostgresPoolClient, 'query'>;

function executor(target: Queryable): SqlExecutor {
  return {
    async all<R>(query: SqlFragment): Promise<R[]> {
      const { text, values } = query.compile((i) => `$${i}`);
      return (await target.query(text, values)).rows as R[];
    },
    async run(query: SqlFragment): Promise<number> {
      const { text, values } = query.compile((i) => `$${i}`);
      return (await target.query(text, values)).rowCount ?? 0;
    },
    async exec(script: string): Promise<void> {
      await target.query(script);
    },
  };
}

/** The PostgreSQL `SqlDriver`. */
export class PostgresDriver implements SqlDriver {
  private readonly pooled: SqlExecutor;

  constructor(private readonly pool: PostgresPool) {
    this.pooled = executor(pool);
  }

  all<R = Record<string, unknown>>(query: SqlFragment): Promise<R[]> {
    return this.pooled.all<R>(query);
  }

  run(query: SqlFragment): Promise<number> {
    return this.pooled.run(query);
  }

  exec(script: string): Promise<void> {
    return this.pooled.exec(script);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      try {
        const result = await fn(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true; // the connection is unusable; let the pool discard it
        }
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
