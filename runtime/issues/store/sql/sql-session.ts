/**
 * @module The plumbing every part of the SQL store shares: a session (the driver, the connection
 * or transaction it runs on, the dialect, the clock) and {@link SqlAggregate}, the base of the
 * per-aggregate classes (`sql-users.ts`, `sql-repos.ts`, …), with the helpers they all use.
 */

import { IssueStoreError } from '../store.js';
import type { SqlFragment } from './fragment.js';
import type { DbRow } from './row-mappers.js';
import { inList, type SqlDialect } from './sql-dialect.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** Rows per multi-row INSERT: well under SQLite's 32766 and PostgreSQL's 65535 parameters. */
export const BATCH_ROWS = 400;

/**
 * `items` in slices of at most `size`.
 *
 * @example
 * chunks([1, 2, 3], 2); // [[1, 2], [3]]
 */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The distinct ids, in their first order.
 *
 * @example
 * unique([3, 1, 3]); // [3, 1]
 */
export function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

/**
 * Where statements run: the store's connection, or one transaction. Immutable; a transaction gets
 * a session of its own.
 *
 * @example
 * const session = new SqlSession(driver, driver, sqliteDialect, () => Math.floor(Date.now() / 1000));
 * await session.atomic(async (tx) => tx.first(sql`SELECT 1 AS one`));
 */
export class SqlSession {
  constructor(
    readonly driver: SqlDriver,
    readonly db: SqlExecutor,
    readonly dialect: SqlDialect,
    /** The clock, in Unix seconds. */
    readonly now: () => number,
    readonly inTransaction = false,
  ) {}

  /** Runs `fn` on a transaction-bound session; joins the current transaction when there is one. */
  atomic<T>(fn: (tx: SqlSession) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.driver.transaction((tx) => fn(new SqlSession(this.driver, tx, this.dialect, this.now, true)));
  }

  /** Maps constraint violations to `IssueStoreError`s with a readable message. */
  async guard<T>(what: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof IssueStoreError) throw error;
      if (this.dialect.isUniqueViolation(error)) throw new IssueStoreError('conflict', `${what} already exists`);
      if (this.dialect.isForeignKeyViolation(error)) throw new IssueStoreError('invalid', `${what} refers to a row that does not exist`);
      throw error;
    }
  }

  async first(query: SqlFragment): Promise<DbRow | undefined> {
    return (await this.db.all<DbRow>(query))[0];
  }

  /** An `IN` operand for `values` of any length (client-sent ids and names, a search's repositories). */
  in(values: readonly number[] | readonly string[]): SqlFragment {
    return inList(this.dialect, values);
  }
}

/**
 * The base of one aggregate's part of the store: the session's helpers under short names, and
 * {@link SqlAggregate.atomic}, which hands the work a copy of the part bound to the transaction so
 * that the part's own methods join it.
 */
export abstract class SqlAggregate {
  constructor(protected readonly s: SqlSession) {}

  protected get db(): SqlExecutor {
    return this.s.db;
  }

  protected get dialect(): SqlDialect {
    return this.s.dialect;
  }

  protected get inTransaction(): boolean {
    return this.s.inTransaction;
  }

  protected now(): number {
    return this.s.now();
  }

  protected first(query: SqlFragment): Promise<DbRow | undefined> {
    return this.s.first(query);
  }

  protected in(values: readonly number[] | readonly string[]): SqlFragment {
    return this.s.in(values);
  }

  protected guard<T>(what: string, work: () => Promise<T>): Promise<T> {
    return this.s.guard(what, work);
  }

  /** Runs `fn` on this part bound to a transaction; joins the current transaction when there is one. */
  protected atomic<T>(fn: (tx: this) => Promise<T>): Promise<T> {
    return this.s.atomic((session) => fn(session === this.s ? this : this.on(session)));
  }

  /** The same part on another session. Every part's constructor takes the session alone. */
  protected on(session: SqlSession): this {
    return new (this.constructor as new (s: SqlSession) => this)(session);
  }
}
