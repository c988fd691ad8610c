/**
 * @module Where the Issues database lives when nothing says otherwise. Its own module, free of
 * drivers, so that the server's option table (`runtime/server/options.ts`, read by `--help`) can
 * name the same default as `createStore` without loading better-sqlite3 or pg.
 */

/**
 * The SQLite file used when `DATABASE_URL` is unset or empty, relative to the working directory.
 *
 * @example
 * await createStore(undefined); // opens ./data/loom.db, creating ./data
 */
export const DEFAULT_SQLITE_PATH = './data/loom.db';
