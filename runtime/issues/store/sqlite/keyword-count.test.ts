/**
 * @module Keyword search totals on SQLite, which counts from the full-text index when only the
 * keyword, the state and the repositories filter (migration 4 keeps state and repository in the
 * index): the totals must equal the issues a reader would count by hand — across states, for a
 * few repositories, for all but a few and for all, after closing, reopening and editing, with
 * other filters on (the SQL count), and in a database migrated from before the index held them.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type IssueRow, type IssueStateFilter, type IssueStore } from '../index.js';
import { migrate } from '../sql/migration.js';
import { SqlStore } from '../sql/sql-store.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { SqliteDriver } from './sqlite-driver.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';

/** Issue texts: `crash` in some titles, some bodies, both or neither; `open` and `r1` as words too. */
const TEXTS = [
  ['crash on start', 'nothing'],
  ['other', 'a crash in the body'],
  ['crashes again', 'crash'],
  ['unrelated', 'open door r1'],
  ['open question', 'closed case'],
  ['still crashing', 'x'],
] as const;

describe('keyword totals on SQLite', () => {
  let store: IssueStore;
  let repoIds: number[];
  let posterId: number;

  /** What a reader counts: open/closed issues of `repos` whose title or body has a word starting with `word`. */
  async function expected(word: string, state: IssueStateFilter, repos: readonly number[]): Promise<number> {
    const all = (await store.searchIssues({ repoIds: repos, state: 'all', limit: 1000 })).items;
    const matches = (issue: IssueRow) => `${issue.title} ${issue.body}`.split(/\W+/).some((w) => w.startsWith(word));
    return all.filter((issue) => matches(issue) && (state === 'all' || issue.state === state)).length;
  }

  async function total(word: string, state: IssueStateFilter, repos: readonly number[]): Promise<number> {
    return (await store.searchIssues({ repoIds: repos, keyword: word, state, sort: 'relevance', limit: 5 })).total;
  }

  beforeAll(async () => {
    store = await createStore(':memory:');
    posterId = (await store.createUser({ name: 'alice', email: 'alice@example.com' })).id;
    repoIds = [];
    // 40 repositories, so that "all but a few" and "a few" are both shorter than the other way.
    for (let r = 0; r < 40; r++) repoIds.push((await store.createRepo({ ownerId: posterId, name: `repo${r}` })).id);
    let n = 0;
    for (const repoId of repoIds) {
      for (const [title, body] of TEXTS) {
        await store.createIssue({ repoId, posterId, title, body, closed: n++ % 3 === 0 });
      }
    }
  });

  afterAll(async () => {
    await store.close();
  });

  it.each([
    ['a few repositories', (ids: number[]) => ids.slice(0, 3)],
    ['all but a few', (ids: number[]) => ids.slice(3)],
    ['all of them', (ids: number[]) => ids],
    ['half of them', (ids: number[]) => ids.filter((_, i) => i % 2 === 0)],
  ])('counts matches in %s, per state', async (_name, pick) => {
    const repos = pick(repoIds);
    for (const state of ['open', 'closed', 'all'] as const) {
      for (const word of ['crash', 'open', 'closed', 'r1', 'nothing', 'missingword']) {
        expect(await total(word, state, repos), `${word} ${state}`).toBe(await expected(word, state, repos));
      }
    }
  });

  it('follows closing, reopening and editing', async () => {
    const repos = repoIds.slice(2);
    const before = await total('crash', 'open', repos);
    const issue = (await store.searchIssues({ repoIds: [repoIds[5]!], keyword: 'crash', state: 'open', limit: 1 })).items[0]!;
    await store.updateIssue(issue.id, { state: 'closed' }, posterId);
    expect(await total('crash', 'open', repos)).toBe(before - 1);
    expect(await total('crash', 'closed', repos)).toBe(await expected('crash', 'closed', repos));
    await store.updateIssue(issue.id, { state: 'open', title: 'renamed', body: 'no longer' }, posterId);
    expect(await total('crash', 'open', repos)).toBe(before - 1);
    expect(await total('renamed', 'open', repos)).toBe(1);
    await store.updateIssue(issue.id, { title: 'crash renamed' }, posterId);
    expect(await total('crash', 'open', repos)).toBe(before);
  });

  it('counts with other filters too (the SQL count)', async () => {
    const repos = repoIds.slice(1);
    const open = await total('crash', 'open', repos);
    const byPoster = await store.searchIssues({ repoIds: repos, keyword: 'crash', state: 'open', posterId, sort: 'relevance', limit: 5 });
    expect(byPoster.total).toBe(open);
    const pulls = await store.searchIssues({ repoIds: repos, keyword: 'crash', state: 'open', type: 'pulls', sort: 'relevance', limit: 5 });
    expect(pulls.total).toBe(0);
  });
});

describe('keyword totals in a SQLite database migrated from schema 3', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loom-keyword-count-'));
  const path = join(dir, 'issues.db');

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('indexes the issues written before migration 4', async () => {
    // A database as a release with three migrations left it, with issues in it.
    const db = new Database(path);
    db.pragma('foreign_keys = ON');
    const driver = new SqliteDriver(db);
    expect(
      await migrate(
        driver,
        sqliteDialect,
        SQLITE_MIGRATIONS.filter((m) => m.version <= 3),
      ),
    ).toBe(3);
    const old = new SqlStore(driver, driver, sqliteDialect, { engine: 'sqlite', location: path, schemaVersion: 3 }, {});
    const alice = await old.createUser({ name: 'alice', email: 'alice@example.com' });
    const repo = await old.createRepo({ ownerId: alice.id, name: 'proj' });
    await old.createIssue({ repoId: repo.id, posterId: alice.id, title: 'crash on start', body: 'x' });
    await old.createIssue({ repoId: repo.id, posterId: alice.id, title: 'other', body: 'crash later', closed: true });
    await old.close();

    const store = await createStore(path);
    try {
      expect(store.info.schemaVersion).toBe(4);
      expect((await store.searchIssues({ repoIds: [repo.id], keyword: 'crash', state: 'open', sort: 'relevance' })).total).toBe(1);
      expect((await store.searchIssues({ repoIds: [repo.id], keyword: 'crash', state: 'all', sort: 'relevance' })).total).toBe(2);
      await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'new crash', body: '' });
      expect((await store.searchIssues({ repoIds: [repo.id], keyword: 'crash', state: 'open', sort: 'relevance' })).total).toBe(2);
    } finally {
      await store.close();
    }
  });
});
