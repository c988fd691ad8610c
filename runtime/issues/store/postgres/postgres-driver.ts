/**
 * @module `pg` behind the async `SqlDriver`: single statements go to the pool, a transaction holds
 * one client from `BEGIN` to `COMMIT`/`ROLLBACK`.
 *
 * Statements run as named prepared statements: each connection parses and plans a statement once
 * and PostgreSQL may then reuse a generic plan. For the short queries of a request, planning
 * otherwise costs several times the execution (docs/storage.md, "PostgreSQL specifics"). Statements
 * marked `planEachTime` (keyword searches, whose plan depends on how common the word is) stay
 * unnamed: a generic plan made searches slower (same section).
 */

import type { SqlFragment } from '../sql/fragment.js';
import type { SqlDriver, SqlExecutor } from '../sql/sql-driver.js';
import type { PostgresPool, PostgresPoolClient } from './postgres-config.js';

type Queryable = Pick<PostgresPoolClient, 'query'>;

/**
 * Distinct statement texts that get a name. Texts differ mostly by the length of `IN` lists, so a
 * running service settles on a few hundred; past the cap, new texts run unnamed rather than
 * growing every connection's prepared statements without bound.
 */
const MAX_NAMED_STATEMENTS = 1000;

/** Gives each distinct statement text a stable name (`pg` prepares it once per connection). */
class StatementNames {
  private readonly names = new Map<string, string>();

  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_NAMED_STATEMENTS) {
      name = `loom_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return name;
  }
}

function executor(target: Queryable, names: StatementNames): SqlExecutor {
  const query = (fragment: SqlFragment) => {
    const { text, values } = fragment.compile((i) => `$${i}`);
    // Unnamed statements are planned for their values on every run.
    const name = fragment.valueDependentPlan ? undefined : names.nameOf(text);
    return name === undefined ? target.query(text, values) : target.query({ name, text, values });
  };
  return {
    async all<R>(fragment: SqlFragment): Promise<R[]> {
      return (await query(fragment)).rows as R[];
    },
    async run(fragment: SqlFragment): Promise<number> {
      return (await query(fragment)).rowCount ?? 0;
    },
    async exec(script: string): Promise<void> {
      await target.query(script);
    },
  };
}

/** The PostgreSQL `SqlDriver`. */
export class PostgresDriver implements SqlDriver {
  private readonly names = new StatementNames();
  private readonly pooled: SqlExecutor;

  constructor(private readonly pool: PostgresPool) {
    this.pooled = executor(pool, this.names);
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
        const result = await fn(executor(client, this.names));
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
