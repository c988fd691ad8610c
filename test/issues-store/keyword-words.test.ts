/**
 * @module What a keyword finds, on both engines alike: text an issue literally contains (file
 * names, e-mail addresses, paths, versions, URLs) is found by the words the query side makes of it,
 * accents fold both ways (`cafe` ↔ `café`), and a body of many distinct words under the request
 * limit is stored whole and found (PostgreSQL once failed with "string is too long for tsvector").
 * Also: a PostgreSQL database indexed by migration 1 finds such words after migration 3.
 */

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type IssueRow, type IssueStore, type RepoRow, type UserRow } from '../../runtime/issues/store/index.js';
import { keywordWords } from '../../runtime/issues/store/keyword.js';
import type { PostgresPool } from '../../runtime/issues/store/postgres/postgres-config.js';
import { postgresDialect } from '../../runtime/issues/store/postgres/postgres-dialect.js';
import { PostgresDriver } from '../../runtime/issues/store/postgres/postgres-driver.js';
import { INDEXED_BODY_CHARS, POSTGRES_MIGRATIONS } from '../../runtime/issues/store/postgres/postgres-migrations.js';
import { migrate } from '../../runtime/issues/store/sql/migration.js';
import { SqlStore } from '../../runtime/issues/store/sql/sql-store.js';
import { dropSchema, openTestStore, TEST_ENGINES, TEST_POSTGRES_URL, type TestStore, uniqueSchemaName } from '../support/test-stores.js';

/** Issue bodies, each holding what a user would search for. */
const TEXTS = {
  file: 'the build breaks in main.ts at startup',
  email: 'reported by alice@example.com yesterday',
  path: 'the loader reads /usr/lib/foo.so twice',
  version: 'regression since v1.2.3 of the parser',
  url: 'see http://example.org/path for the trace',
  accented: 'the café menu renders badly',
  plain: 'the cafe menu renders badly too',
  upper: 'CRÈME BRÛLÉE is missing',
  snake: 'rename foo_bar to something else',
} as const;

describe.each(TEST_ENGINES)('keyword words on %s', (engine) => {
  let handle: TestStore;
  let store: IssueStore;
  let alice: UserRow;
  let repo: RepoRow;
  const number: Record<string, number> = {};

  beforeAll(async () => {
    handle = await openTestStore(engine);
    store = handle.store;
    alice = await store.createUser({ name: 'alice', email: 'alice@example.com' });
    repo = await store.createRepo({ ownerId: alice.id, name: 'proj' });
    for (const [key, body] of Object.entries(TEXTS)) {
      number[key] = (await store.createIssue({ repoId: repo.id, posterId: alice.id, title: `issue ${key}`, body })).index;
    }
  });

  afterAll(async () => {
    await handle?.dispose();
  });

  async function found(keyword: string): Promise<string[]> {
    const page = await store.searchIssues({ repoIds: [repo.id], keyword, state: 'all', sort: 'relevance', limit: 50 });
    const byIndex = new Map(Object.entries(number).map(([key, index]) => [index, key]));
    return page.items.map((issue) => byIndex.get(issue.index) ?? issue.title).sort();
  }

  it.each([
    ['main.ts', ['file']],
    ['alice@example.com', ['email']],
    ['example.com', ['email']],
    ['/usr/lib/foo.so', ['path']],
    ['foo.so', ['path']],
    ['v1.2.3', ['version']],
    ['http://example.org/path', ['url']],
    ['example.org', ['url']],
    ['foo_bar', ['snake']],
    ['bar', ['snake']],
  ])('finds %j in the text that contains it', async (keyword, keys) => {
    expect(await found(keyword)).toEqual(keys);
  });

  it('folds accents on both sides: cafe finds café and café finds cafe', async () => {
    expect(await found('cafe')).toEqual(['accented', 'plain']);
    expect(await found('café')).toEqual(['accented', 'plain']);
    expect(await found('CAFÉ menu')).toEqual(['accented', 'plain']);
    expect(await found('creme brulee')).toEqual(['upper']);
    expect(await found('crème')).toEqual(['upper']);
  });

  it('follows edits into the index', async () => {
    const issue = (await store.getIssue(repo.id, number.file!))!;
    await store.updateIssue(issue.id, { body: 'now it is in app.tsx' }, alice.id);
    expect(await found('main.ts')).toEqual([]);
    expect(await found('app.tsx')).toEqual(['file']);
  });

  it('stores a body of many distinct words whole and finds its words', async () => {
    // About 950 KB of distinct words, as a 1 MiB request may carry: its lexemes and positions
    // alone exceed the 1 MiB a PostgreSQL tsvector holds.
    const words = Array.from({ length: 120_000 }, (_, i) => `w${(i * 7919).toString(36)}x`);
    const body = words.join(' ');
    expect(body.length).toBeGreaterThan(900_000);
    const created = await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'huge vocabulary', body });
    expect((await store.getIssueById(created.id))!.body).toBe(body);
    const early = words[10]!;
    expect((await store.searchIssues({ repoIds: [repo.id], keyword: early, state: 'all' })).items.map((i) => i.id)).toEqual([created.id]);
    // Edits of such a body go through as well.
    const edited = await store.updateIssue(created.id, { body: `${body} tail` }, alice.id);
    expect(edited!.issue.body).toBe(`${body} tail`);
    const late = words.at(-1)!;
    const lateHits = (await store.searchIssues({ repoIds: [repo.id], keyword: late, state: 'all' })).items;
    // SQLite indexes all of it; PostgreSQL the first INDEXED_BODY_CHARS characters (documented).
    expect(lateHits.map((i: IssueRow) => i.id)).toEqual(
      engine === 'sqlite' || body.lastIndexOf(late) < INDEXED_BODY_CHARS ? [created.id] : [],
    );
  });
});

describe('PostgreSQL search words after migration 3', () => {
  const schema = uniqueSchemaName('loom_mig3');
  afterAll(async () => {
    await dropSchema(schema);
  });

  it("re-indexes issues written under migration 1's vector", async () => {
    // A schema as the release with two migrations left it, with issues in it.
    const pool = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 1, options: `-c search_path=${schema}` });
    const driver = new PostgresDriver(pool as unknown as PostgresPool);
    await driver.exec(`CREATE SCHEMA "${schema}"`);
    expect(
      await migrate(
        driver,
        postgresDialect,
        POSTGRES_MIGRATIONS.filter((m) => m.version <= 2),
      ),
    ).toBe(2);
    const old = new SqlStore(driver, driver, postgresDialect, { engine: 'postgres', location: schema, schemaVersion: 2 }, {});
    const alice = await old.createUser({ name: 'alice', email: 'alice@example.com' });
    const repo = await old.createRepo({ ownerId: alice.id, name: 'proj' });
    await old.createIssue({ repoId: repo.id, posterId: alice.id, title: 'crash in main.ts', body: 'the café breaks' });
    const search = (s: IssueStore, keyword: string) =>
      s.searchIssues({ repoIds: [Number(repo.id)], keyword, state: 'all' }).then((p) => p.total);
    // The old vector indexed `main.ts` whole and `café` with its accent.
    expect(await search(old, 'main.ts')).toBe(0);
    await old.close();

    const store = await createStore(TEST_POSTGRES_URL, { schema });
    try {
      expect(store.info.schemaVersion).toBe(3);
      expect(await search(store, 'main.ts')).toBe(1);
      expect(await search(store, 'cafe')).toBe(1);
      expect(await search(store, 'crash')).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL index words and keyword words', () => {
  let handle: TestStore;
  let client: pg.Client;
  beforeAll(async () => {
    handle = await openTestStore('postgres');
    client = new pg.Client({ connectionString: TEST_POSTGRES_URL, options: `-c search_path=${handle.options.schema}` });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await handle?.dispose();
  });

  it.each([
    'main.ts alice@example.com /usr/lib/foo.so',
    'v1.2.3 http://example.org/a-b_c?x=1&y=2#frag',
    'Crème Brûlée, naïve café; Ångström!',
    'cafe\u0301s and ǖ and İstanbul',
    'ø ß æ ł Привет 東京',
    '«quoted» “curly” a—b a–b x·y 1,5 100%',
    "it's O'Brien's [tag] <b>html</b> {json: 1} `code` ~tilde~ |pipe| \\back\\",
  ])('makes the same words of %j as the query side', async (text) => {
    const { rows } = await client.query<{ lexeme: string }>(`SELECT lexeme FROM unnest(to_tsvector('simple', loom_search_text($1)))`, [
      text,
    ]);
    expect(rows.map((row) => row.lexeme).sort()).toEqual([...new Set(keywordWords(text))].sort());
  });
});
