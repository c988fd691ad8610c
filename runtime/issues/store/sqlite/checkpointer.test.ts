/**
 * @module The WAL checkpointer thread: committed writes reach the database file without a commit
 * doing the copy, the store's connection stops checkpointing on commit only while the thread runs,
 * and a failed thread hands checkpoints back to SQLite.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteDatabase } from './sqlite-config.js';
import { openSqliteStore } from './sqlite-store.js';
import { startCheckpointer } from './checkpointer.js';

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
 * How many issues the database file holds on its own, without its write-ahead log (0 while even the
 * table is only in the log).
 */
function issuesInMainFile(path: string): number {
  const copy = join(tempDir(), 'copy.db');
  copyFileSync(path, copy);
  const db = new Database(copy);
  try {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'issues'").get()) return 0;
    return (db.prepare('SELECT COUNT(*) AS n FROM issues').get() as { n: number }).n;
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
      expect(await eventually(() => issuesInMainFile(path), (n) => n === 20)).toBe(20);
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
      expect(issuesInMainFile(path)).toBe(0);
    } finally {
      await store.close();
    }
    expect(issuesInMainFile(path)).toBe(20);
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

  it('hands checkpoints back to SQLite when its thread fails', async () => {
    const pragmas: string[] = [];
    const db = { pragma: (source: string) => void pragmas.push(source) } as unknown as SqliteDatabase;
    const warning = new Promise<Error>((resolve) => process.once('warning', resolve));
    // A thread that starts, then fails as a broken checkpoint would.
    const failing = new URL(`data:text/javascript,${encodeURIComponent(
      "import { parentPort } from 'node:worker_threads'; parentPort.postMessage('ready'); setTimeout(() => { throw new Error('disk I/O error'); }, 50);",
    )}`);
    startCheckpointer(db, '/unused', { intervalMs: 20, workerUrl: failing });
    expect((await warning).message).toMatch(/checkpointer thread failed \(disk I\/O error\)/);
    expect(pragmas).toEqual(['wal_autocheckpoint = 0', 'wal_autocheckpoint = 1000']);
  });
});
