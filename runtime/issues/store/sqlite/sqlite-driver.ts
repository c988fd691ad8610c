/**
 * @module better-sqlite3 behind the async `SqlDriver`. The connection is synchronous and single,
 * so a transaction that awaits between statements must keep everyone else out until it ends:
 * an async mutex does that, and calls made while no transaction is open run at once.
 *
 * Another connection (another process, or a second store on the same file) may hold the write
 * lock. SQLite's own busy timeout would wait by blocking the event loop, which deadlocks when that
 * holder lives in this process and needs the loop to commit; so the connection's busy timeout is 0
 * and this driver retries `SQLITE_BUSY` itself, asynchronously, for up to `busyTimeoutMs`.
 */

import type { SqlFragment } from '../sql/fragment.js';
import type { SqlDriver, SqlExecutor } from '../sql/sql-driver.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-config.js';

const STATEMENT_CACHE_SIZE = 500;
const MAX_RETRY_DELAY_MS = 20;

function isBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A FIFO async lock. */
class Mutex {
  private waiters: (() => void)[] = [];
  locked = false;

  async acquire(): Promise<() => void> {
    if (this.locked) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.locked = true;
    return () => {
      const next = this.waiters.shift();
      if (next) next();
      else this.locked = false;
    };
  }
}

// better-sqlite3 binds numbers, strings, bigints, buffers and null; booleans become 0/1 as SQLite
// stores them.
function bindable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value;
}

/** The SQLite `SqlDriver`. */
export class SqliteDriver implements SqlDriver {
  private readonly mutex = new Mutex();
  private readonly statements = new Map<string, SqliteStatement>();
  private readonly direct: SqlExecutor;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly busyTimeoutMs = 5000,
    /** Runs before the connection closes (stopping what else uses the file, such as the checkpointer). */
    private readonly beforeClose: () => Promise<void> = async () => {},
  ) {
    this.direct = {
      all: async <R>(query: SqlFragment) => this.allSync(query) as R[],
      run: async (query) => this.runSync(query),
      exec: async (script) => void this.db.exec(script),
    };
  }

  private prepare(query: SqlFragment): { statement: SqliteStatement; values: unknown[] } {
    const { text, values } = query.compile(() => '?');
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(text, statement);
    }
    return { statement, values: values.map(bindable) };
  }

  private allSync(query: SqlFragment): unknown[] {
    const { statement, values } = this.prepare(query);
    if (statement.reader) return statement.all(...values);
    statement.run(...values);
    return [];
  }

  private runSync(query: SqlFragment): number {
    const { statement, values } = this.prepare(query);
    if (statement.reader) return statement.all(...values).length;
    return statement.run(...values).changes;
  }

  /** Runs `work`, retrying while another connection holds the lock (a busy statement did nothing). */
  private async retryBusy<T>(work: () => T): Promise<T> {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let delay = 1; ; delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS)) {
      try {
        return work();
      } catch (error) {
        if (!isBusy(error) || Date.now() >= deadline) throw error;
      }
      await sleep(delay);
    }
  }

  private async outside<T>(work: () => T): Promise<T> {
    const release = this.mutex.locked ? await this.mutex.acquire() : undefined;
    if (release === undefined) {
      // Fast path: nobody in this process holds a transaction; run now, and only take the lock
      // while waiting out another connection's writer.
      try {
        return work();
      } catch (error) {
        if (!isBusy(error)) throw error;
      }
      const retryRelease = await this.mutex.acquire();
      try {
        return await this.retryBusy(work);
      } finally {
        retryRelease();
      }
    }
    try {
      return await this.retryBusy(work);
    } finally {
      release();
    }
  }

  all<R = Record<string, unknown>>(query: SqlFragment): Promise<R[]> {
    return this.outside(() => this.allSync(query) as R[]);
  }

  run(query: SqlFragment): Promise<number> {
    return this.outside(() => this.runSync(query));
  }

  exec(script: string): Promise<void> {
    return this.outside(() => void this.db.exec(script));
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const release = await this.mutex.acquire();
    try {
      await this.retryBusy(() => this.db.exec('BEGIN IMMEDIATE'));
      try {
        const result = await fn(this.direct);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    const release = await this.mutex.acquire();
    try {
      await this.beforeClose();
      this.statements.clear();
      this.db.close();
    } finally {
      release();
    }
  }
}
