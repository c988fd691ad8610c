/**
 * @module Moves the SQLite store's WAL checkpoints off the event loop. SQLite checkpoints inside the
 * commit that grows the log past 1,000 pages: every 50 or so creates, one waits for the log to be
 * copied into the database and the file to be synced, the largest part of the benchmark's create
 * p99 (docs/storage.md, "SQLite specifics"). Here a worker thread with its own connection checkpoints a few times a second instead,
 * and the store's connection stops checkpointing on commit once that thread runs. Once the log holds
 * {@link RESTART_AFTER_FRAMES} frames the thread also makes it start over, which under steady writes
 * nothing else would. Should the thread fail, the connection checkpoints on commit again, so the log
 * never grows without bound.
 */

import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from './sqlite-config.js';

/** SQLite's own default for `wal_autocheckpoint`, restored when the thread is gone. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
const WORKER_URL = new URL('./checkpointer-worker.js', import.meta.url);
/**
 * The log's length, in frames (a page each, 4 KiB by default), past which the thread follows its
 * checkpoint with one that starts the log over: about 32 MiB, some seconds of the heaviest writing.
 */
export const RESTART_AFTER_FRAMES = 8_192;

/** A running checkpointer. */
export interface Checkpointer {
  /** Stops the thread and lets the connection checkpoint on commit again. */
  close(): Promise<void>;
}

/** Options of {@link startCheckpointer}. */
export interface CheckpointerOptions {
  /** How often the thread looks for new commits, in milliseconds. */
  readonly intervalMs: number;
  /** The log's length in frames past which the thread starts it over. @default RESTART_AFTER_FRAMES */
  readonly restartFrames?: number;
  /** The thread's module; tests substitute their own. @default checkpointer-worker.js */
  readonly workerUrl?: URL;
}

/**
 * Starts checkpointing the WAL of the database file `path` in a worker thread. `db` is the store's
 * connection to that file: it stops checkpointing on commit once the thread has opened the file,
 * and starts again when the thread stops or fails.
 *
 * @example
 * const checkpointer = startCheckpointer(db, './data/loom.db', { intervalMs: 100 });
 * // …
 * await checkpointer.close();
 */
export function startCheckpointer(db: SqliteDatabase, path: string, options: CheckpointerOptions): Checkpointer {
  const worker = new Worker(options.workerUrl ?? WORKER_URL, {
    workerData: { path, intervalMs: options.intervalMs, restartFrames: options.restartFrames ?? RESTART_AFTER_FRAMES },
    name: 'sqlite-checkpointer',
  });
  // The checkpointer must not keep a process alive that has nothing else to do.
  worker.unref();
  let running = false;
  let closing = false;
  const checkpointOnCommit = () => {
    if (!running) return;
    running = false;
    db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  };
  worker.on('message', (message: unknown) => {
    if (message !== 'ready' || closing) return;
    running = true;
    db.pragma('wal_autocheckpoint = 0');
  });
  worker.on('error', (error) => {
    checkpointOnCommit();
    process.emitWarning(`the SQLite checkpointer thread failed (${error.message}); checkpoints happen on commit again`);
  });
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      checkpointOnCommit();
      resolve();
    }),
  );
  return {
    async close() {
      if (closing) return exited;
      closing = true;
      checkpointOnCommit();
      // Whoever closes waits for the thread's exit, which an unreferenced thread would not keep the
      // process alive for.
      worker.ref();
      worker.postMessage('close');
      return exited;
    },
  };
}
