/**
 * @module Relevance pages on SQLite, which the store reads tier by tier (title matches, then
 * body-only matches): every page, across the tier boundary and past the end, must be the slice of
 * the one ranked order a user expects, with the same total. Run twice: with matches dense in the
 * repository (the body tier walks the index newest first) and with the same matches among 400
 * other open issues (the matches are collected and sorted).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, type IssueStore } from '../index.js';

/**
 * The ids of the repository's open issues mentioning "crash", in the order a relevance search must
 * give them, worked out from every issue: title matches newest first, then body-only matches.
 */
async function rankedCrashMatches(store: IssueStore, repoId: number): Promise<number[]> {
  const issues = (await store.searchIssues({ repoIds: [repoId], state: 'all', limit: 1000 })).items;
  const open = issues.filter((issue) => issue.state === 'open' && /crash/.test(`${issue.title} ${issue.body}`));
  const newestFirst = (a: (typeof open)[number], b: (typeof open)[number]) => b.createdUnix - a.createdUnix || b.id - a.id;
  return [
    ...open.filter((issue) => issue.title.includes('crash')).sort(newestFirst),
    ...open.filter((issue) => !issue.title.includes('crash')).sort(newestFirst),
  ].map((issue) => issue.id);
}

describe.each([
  ['dense matches', 0],
  ['sparse matches', 400],
])('relevance paging on SQLite, %s', (_name, fillers) => {
  let store: IssueStore;
  let repoId: number;
  let expected: number[];

  beforeAll(async () => {
    store = await createStore(':memory:');
    const user = await store.createUser({ name: 'alice', email: 'alice@example.com' });
    repoId = (await store.createRepo({ ownerId: user.id, name: 'proj' })).id;
    // 7 title matches and 9 body-only matches, created out of id order, with one creation-time tie
    // in each tier (broken by id), one closed match and issues that do not match at all.
    const specs = [
      { title: 'crash on start', body: 'nothing', created: 500 },
      { title: 'other', body: 'a crash in the body', created: 900 },
      { title: 'crashes again', body: 'x', created: 100 },
      { title: 'unrelated', body: 'unrelated', created: 950 },
      { title: 'crash', body: 'crash', created: 700 },
      { title: 'other', body: 'crashing', created: 300 },
      { title: 'other', body: 'crash', created: 300 },
      { title: 'crash report', body: 'y', created: 700 },
      { title: 'closed crash', body: 'z', created: 999, closed: true },
      { title: 'other', body: 'crash here', created: 50 },
      { title: 'crash log', body: 'y', created: 20 },
      { title: 'other', body: 'crash there', created: 820 },
      { title: 'crash dump', body: 'y', created: 640 },
      { title: 'other', body: 'crash everywhere', created: 10 },
      { title: 'other', body: 'crash now', created: 400 },
      { title: 'crash loop', body: 'y', created: 410 },
      { title: 'other', body: 'crash later', created: 999 },
      { title: 'other', body: 'crash maybe', created: 5 },
    ];
    const filler = Array.from({ length: fillers }, (_, i) => ({ title: `filler ${i}`, body: 'nothing to see', created: 2 * i }));
    await store.importIssues(
      [...specs, ...filler].map((spec) => ({
        repoId,
        posterId: user.id,
        title: spec.title,
        body: spec.body,
        createdUnix: spec.created,
        closed: 'closed' in spec && spec.closed === true,
      })),
    );
    expected = await rankedCrashMatches(store, repoId);
  });

  afterAll(async () => {
    await store.close();
  });

  it('ranks title matches first, each tier newest first', async () => {
    const page = await store.searchIssues({ repoIds: [repoId], keyword: 'crash', sort: 'relevance', limit: 50 });
    expect(expected).toHaveLength(16);
    expect(page.total).toBe(16);
    expect(page.items.map((issue) => issue.id)).toEqual(expected);
  });

  it.each([
    [1, 5],
    [2, 5],
    [3, 5],
    [4, 5],
    [5, 5],
    [1, 7],
    [2, 7],
    [1, 6],
    [2, 6],
    [3, 6],
    [1, 16],
    [2, 16],
    [9, 2],
  ])('gives page %i of %i as the slice of the ranked order, with the full total', async (page, limit) => {
    const result = await store.searchIssues({ repoIds: [repoId], keyword: 'crash', sort: 'relevance', page, limit });
    expect(result.total).toBe(16);
    expect(result.items.map((issue) => issue.id)).toEqual(expected.slice((page - 1) * limit, page * limit));
  });

  it('answers a keyword without matches with an empty page and total 0', async () => {
    expect(await store.searchIssues({ repoIds: [repoId], keyword: 'nomatchword', sort: 'relevance', limit: 5 })).toEqual({
      items: [],
      total: 0,
    });
  });
});

/**
 * A common keyword's title matches are read from a window of the newest issues in the state, across
 * every repository. Pages must not change with that: when the window holds the page (title matches
 * newest, with newer matches of another repository inside it) and when it falls short (title
 * matches oldest, behind newer body-only matches and newer issues without the word).
 */
describe.each([
  ['the window holds the title matches', 'titles newest'],
  ['the window falls short', 'titles oldest'],
] as const)('relevance paging on SQLite when %s', (_name, layout) => {
  let store: IssueStore;
  let repoId: number;
  let expected: number[];
  let posterId: number;

  beforeAll(async () => {
    store = await createStore(':memory:');
    const user = await store.createUser({ name: 'alice', email: 'alice@example.com' });
    posterId = user.id;
    repoId = (await store.createRepo({ ownerId: user.id, name: 'proj' })).id;
    const otherRepoId = (await store.createRepo({ ownerId: user.id, name: 'other' })).id;
    type Spec = { repo: number; title: string; body: string; created: number; closed?: boolean };
    const specs: Spec[] = [];
    const add = (count: number, make: (i: number) => Spec) => specs.push(...Array.from({ length: count }, (_, i) => make(i)));
    if (layout === 'titles newest') {
      add(60, (i) => ({ repo: repoId, title: `crash ${i}`, body: 'y', created: 1000 + (i % 50) }));
      add(5, (i) => ({ repo: repoId, title: `closed crash ${i}`, body: 'y', created: 1100 + i, closed: true }));
      add(300, (i) => ({ repo: repoId, title: `filler ${i}`, body: i < 40 ? 'a crash here' : 'nothing', created: i }));
      add(100, (i) => ({ repo: otherRepoId, title: `crash elsewhere ${i}`, body: 'z', created: 2000 + i }));
    } else {
      add(10, (i) => ({ repo: repoId, title: `crash ${i}`, body: 'y', created: i }));
      add(200, (i) => ({ repo: repoId, title: `other ${i}`, body: 'crash in the body', created: 100 + (i % 150) }));
      add(200, (i) => ({ repo: repoId, title: `filler ${i}`, body: 'nothing', created: 300 + i }));
    }
    await store.importIssues(
      specs.map((spec) => ({
        repoId: spec.repo,
        posterId: user.id,
        title: spec.title,
        body: spec.body,
        createdUnix: spec.created,
        closed: spec.closed === true,
      })),
    );
    expected = await rankedCrashMatches(store, repoId);
  });

  afterAll(async () => {
    await store.close();
  });

  it.each([
    [1, 5],
    [2, 5],
    [12, 5],
    [13, 5],
    [14, 5],
    [1, 30],
    [2, 30],
    [3, 30],
    [1, 100],
    [21, 5],
  ])('gives page %i of %i as the slice of the ranked order, with the full total', async (page, limit) => {
    const result = await store.searchIssues({ repoIds: [repoId], keyword: 'crash', sort: 'relevance', page, limit });
    expect(result.total).toBe(expected.length);
    expect(result.items.map((issue) => issue.id)).toEqual(expected.slice((page - 1) * limit, page * limit));
  });

  it('gives the same pages under filters that keep every match (type, dates, poster)', async () => {
    const filters = { type: 'issues', since: 0, before: 2 ** 31, posterId } as const;
    for (const page of [1, 2, 13]) {
      const result = await store.searchIssues({ repoIds: [repoId], keyword: 'crash', sort: 'relevance', page, limit: 5, ...filters });
      expect(result.total).toBe(expected.length);
      expect(result.items.map((issue) => issue.id)).toEqual(expected.slice((page - 1) * 5, page * 5));
    }
  });
});
