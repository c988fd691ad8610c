/**
 * @module What the shared SQL store needs from a database connection: run a fragment, get rows,
 * and open a transaction. One implementation per engine (`sqlite/sqlite-driver.ts`,
 * `postgres/postgres-driver.ts`); neither leaks driver types past this interface.
 */

import type { SqlFragment } from './fragment.js';

/** Executes statements on one connection (or inside one transaction). */
export interface SqlExecutor {
  /** Rows of a query (or of a statement with `RETURNING`); `[]` for statements without rows. */
  all<R = Record<string, unknown>>(query: SqlFragment): Promise<R[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(query: SqlFragment): Promise<number>;
  /** Runs trusted multi-statement SQL without parameters (migrations only). */
  exec(script: string): Promise<void>;
}

/** A database: an executor for single statements plus transactions and shutdown. */
export interface SqlDriver extends SqlExecutor {
  /**
   * Runs `fn` inside a transaction on one connection; commits when it resolves, rolls back and
   * rethrows when it rejects. Writers are serialised from the start (SQLite `BEGIN IMMEDIATE`),
   * so read-then-write sequences inside `fn` are safe.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
