/**
 * @module The WAL checkpointer thread: committed writes reach the database file without a commit
 * doing the copy, the store's connection stops checkpointing on commit only while the thread runs,
 * a log written to without pause still starts over, and a failed thread hands checkpoints back to
 * SQLite.
 */
import { closeSync, copyFileSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from './checkpointer.js';
import type { SqliteDatabase } from './sqlite-config.js';
import { openSqliteStore } from './sqlite-store.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loom-checkpointer-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * How many times the write-ahead log of `path` has started over: the checkpoint sequence number of
 * its header (bytes 12–15, big-endian), which SQLite increments each time a writer rewinds the log
 * to its first frame after a complete checkpoint.
 */
function walRestarts(path: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(`${path}-wal`, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

/** How many rows `table` holds in the database file on its own, without its log. */
function rowsInMainFile(path: string, table: string): number {
  const copy = join(tempDir(), 'copy.db');
  copyFileSync(path, copy);
  const db = new Database(copy);
  try {
    if (!db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table)) return 0;
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function eventually<T>(read: () => T, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let value: T | undefined;
    try {
      value = read();
      if (done(value)) return value;
    } catch {
      // A copy taken mid-checkpoint may not open; try again.
    }
    if (Date.now() > deadline) return value as T;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function writeIssues(path: string, checkpointIntervalMs: number, count: number) {
  const store = await openSqliteStore({ path, checkpointIntervalMs });
  const user = await store.createUser({ name: 'alice', email: 'alice@example.com' });
  const repo = await store.createRepo({ ownerId: user.id, name: 'proj' });
  for (let i = 0; i < count; i++) await store.createIssue({ repoId: repo.id, posterId: user.id, title: `issue ${i}` });
  return store;
}

describe('the SQLite checkpointer', () => {
  it('copies committed issues into the database file from its own thread', async () => {
    const path = join(tempDir(), 'issues.db');
    const store = await writeIssues(path, 20, 20);
    try {
      expect(
        await eventually(
          () => rowsInMainFile(path, 'issues'),
          (n) => n === 20,
        ),
      ).toBe(20);
    } finally {
      await store.close();
    }
  });

  it('leaves a small log to SQLite when turned off (checkpointIntervalMs: 0)', async () => {
    const path = join(tempDir(), 'issues.db');
    const store = await writeIssues(path, 0, 20);
    try {
      // About 400 log frames, far below SQLite's threshold of 1,000: nothing is copied until the store closes.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(rowsInMainFile(path, 'issues')).toBe(0);
    } finally {
      await store.close();
    }
    expect(rowsInMainFile(path, 'issues')).toBe(20);
  });

  it('turns checkpoints on commit off while its thread runs, and on again when it closes', async () => {
    const path = join(tempDir(), 'plain.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    const autocheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });
    try {
      const checkpointer = startCheckpointer(db, path, { intervalMs: 20 });
      expect(await eventually(autocheckpoint, (pages) => pages === 0)).toBe(0);
      await checkpointer.close();
      expect(autocheckpoint()).toBe(1000);
    } finally {
      db.close();
    }
  });

  it('starts the log over under writes without pause', async () => {
    const path = join(tempDir(), 'steady.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    // This connection waits for the thread's RESTART checkpoints inside SQLite, as the store's
    // driver does outside it.
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO notes (text) VALUES (?)');
    const checkpointer = startCheckpointer(db, path, { intervalMs: 5, restartFrames: 300 });
    try {
      await eventually(
        () => db.pragma('wal_autocheckpoint', { simple: true }),
        (pages) => pages === 0,
      );
      const restartsBefore = walRestarts(path);
      // 8,000 commits of 2 KB, one a turn of the event loop as the store's requests come: about
      // 16,000 frames, 53 times the restart threshold. A PASSIVE checkpoint alone rarely catches up
      // with them (the log started over 0 or 1 times in such runs, 7 to 12 times with the thread's
      // RESTART), and the log grew to hold them all. What is asserted is what the thread does (the
      // log starts over, the rows reach the database file), not the log's size, which depends on
      // how the thread's ticks fall between the commits on a busy machine.
      const text = 'x'.repeat(2_000);
      for (let i = 0; i < 8_000; i++) {
        insert.run(text);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(walRestarts(path) - restartsBefore).toBeGreaterThanOrEqual(2);
      expect(
        await eventually(
          () => rowsInMainFile(path, 'notes'),
          (n) => n > 0,
        ),
      ).toBeGreaterThan(0);
      expect(db.prepare('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 8_000 });
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('hands checkpoints back to SQLite when its thread fails', async () => {
    const pragmas: string[] = [];
    const db = { pragma: (source: string) => void pragmas.push(source) } as unknown as SqliteDatabase;
    const warning = new Promise<Error>((resolve) => process.once('warning', resolve));
    // A thread that starts, then fails as a broken checkpoint would.
    const failing = new URL(
      `data:text/javascript,${encodeURIComponent(
        "import { parentPort } from 'node:worker_threads'; parentPort.postMessage('ready'); " +
          "setTimeout(() => { throw new Error('disk I/O error'); }, 50);",
      )}`,
    );
    startCheckpointer(db, '/unused', { intervalMs: 20, workerUrl: failing });
    expect((await warning).message).toMatch(/checkpointer thread failed \(disk I\/O error\)/);
    expect(pragmas).toEqual(['wal_autocheckpoint = 0', 'wal_autocheckpoint = 1000']);
  });
});
