/**
 * @module The part of better-sqlite3 the SQLite engine calls, declared here (as Kysely does) so the
 * rest of the store never depends on the driver's types.
 */

/** A prepared statement. */
export interface SqliteStatement {
  /** True when the statement returns rows (`SELECT`, or anything with `RETURNING`). */
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { readonly changes: number };
}

/** An open database connection. */
export interface SqliteDatabase {
  readonly inTransaction: boolean;
  prepare(source: string): SqliteStatement;
  exec(source: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): unknown;
}

/** Options of the SQLite engine. */
export interface SqliteStoreConfig {
  /** A file path, or `:memory:`. Parent directories are created. */
  readonly path: string;
  /** How long a writer waits for another process's lock before failing. @default 5000 */
  readonly busyTimeoutMs?: number;
  /**
   * SQLite's page cache for the connection, in MiB, filled as pages are read. better-sqlite3's
   * default is 16 MB, which a database of 100,000 issues (90 MB) outgrows.
   * @default 64
   */
  readonly cacheSizeMiB?: number;
  /**
   * How often a worker thread checkpoints the WAL, in milliseconds, so that no commit waits for a
   * checkpoint (see `checkpointer.ts`); 0 leaves checkpoints to SQLite, inside commits. Files only.
   * @default 100
   */
  readonly checkpointIntervalMs?: number;
}
