/**
 * @module Lists longer than an engine binds parameters for, on both engines: ids and names sent by
 * a client (labels, assignees, mentions) and the repositories a search covers. SQLite takes at
 * most 32,766 parameters a statement and PostgreSQL 65,535; such lists once failed with "too many
 * SQL variables" or overflowed the call stack building the statement.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IssueStore, IssueStoreError, type LabelRow, type RepoRow, type UserRow } from '../../runtime/issues/store/index.js';
import { openTestStore, TEST_ENGINES, type TestStore } from '../support/test-stores.js';

/** Far past both engines' parameter caps. */
const HUGE = 70_000;

describe.each(TEST_ENGINES)('long lists on %s', (engine) => {
  let handle: TestStore;
  let store: IssueStore;
  let alice: UserRow;
  let bob: UserRow;
  let repo: RepoRow;
  let other: RepoRow;
  let labels: LabelRow[];
  let milestoneId: number;

  beforeAll(async () => {
    handle = await openTestStore(engine);
    store = handle.store;
    alice = await store.createUser({ name: 'alice', email: 'alice@example.com' });
    bob = await store.createUser({ name: 'bob', email: 'bob@example.com' });
    repo = await store.createRepo({ ownerId: alice.id, name: 'proj' });
    other = await store.createRepo({ ownerId: alice.id, name: 'other' });
    // More labels than one INSERT of an issue's labels used to carry (a batch is 400 rows).
    labels = await store.transaction(async (tx) => {
      const made: LabelRow[] = [];
      for (let i = 0; i < 1000; i++)
        made.push(await tx.createLabel({ repoId: repo.id, name: `l${String(i).padStart(4, '0')}`, color: 'ff0000' }));
      return made;
    });
    milestoneId = (await store.createMilestone({ repoId: repo.id, title: 'v1' })).id;
  }, 120_000);

  afterAll(async () => {
    await handle?.dispose();
  });

  /** `count` ids that name nothing, around `real`. */
  const withUnknown = (real: readonly number[], count = HUGE) => [...Array.from({ length: count }, (_, i) => 10_000_000 + i), ...real];

  it('filters a huge list of label ids down to the applicable ones', async () => {
    const ids = withUnknown([labels[3]!.id, labels[1]!.id]);
    expect(await store.filterApplicableLabelIds(repo.id, ids)).toEqual([labels[1]!.id, labels[3]!.id]);
    expect((await store.getLabelsByIds(ids)).map((l) => l.id)).toEqual([labels[1]!.id, labels[3]!.id]);
  });

  it('refuses a create with a huge list of unknown labels or users as invalid, storing nothing', async () => {
    const before = (await store.getRepoById(repo.id))!.numIssues;
    const error = await store
      .createIssue({ repoId: repo.id, posterId: alice.id, title: 'x', labelIds: withUnknown([labels[0]!.id]) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IssueStoreError);
    expect((error as IssueStoreError).code).toBe('invalid');
    const users = await store
      .createIssue({ repoId: repo.id, posterId: alice.id, title: 'x', assigneeIds: withUnknown([bob.id]) })
      .catch((e: unknown) => e);
    expect((users as IssueStoreError).code).toBe('invalid');
    expect((await store.getRepoById(repo.id))!.numIssues).toBe(before);
  });

  it('puts a thousand labels on one issue and replaces them', async () => {
    const all = labels.map((l) => l.id);
    const issue = await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'labelled', labelIds: all });
    expect((await store.getIssueById(issue.id))!.labelIds).toEqual(all);
    const half = all.filter((_, i) => i % 2 === 1);
    const updated = await store.updateIssue(issue.id, { labelIds: half }, alice.id);
    expect(updated!.issue.labelIds).toEqual(half);
  });

  it('looks up huge lists of user ids and names', async () => {
    const ids = withUnknown([bob.id, alice.id]);
    expect((await store.getUsersByIds(ids)).map((u) => u.name).sort()).toEqual(['alice', 'bob']);
    const names = [...Array.from({ length: HUGE }, (_, i) => `ghost${i}`), 'BOB'];
    expect((await store.findUsersByNames(names)).map((u) => u.name)).toEqual(['bob']);
  });

  it('resolves mentions in a body naming tens of thousands of users', async () => {
    const body = [...Array.from({ length: 40_000 }, (_, i) => `@nobody${i}`), '@bob'].join(' ');
    const issue = await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'mentions', body });
    expect(await store.listMentionedUserIds(issue.id)).toEqual([bob.id]);
  });

  it('searches across a huge list of repositories, with every filter that names them', async () => {
    // Label l0006 is on no other issue: the one above kept only the odd labels.
    const crash = await store.createIssue({
      repoId: repo.id,
      posterId: alice.id,
      title: 'crash on start',
      labelIds: [labels[6]!.id],
      milestoneId,
    });
    await store.createIssue({ repoId: other.id, posterId: alice.id, title: 'crash elsewhere' });
    const repoIds = withUnknown([other.id, repo.id]);
    const search = (filter: object) => store.searchIssues({ repoIds, state: 'all', limit: 50, ...filter });
    expect((await search({ keyword: 'crash', sort: 'relevance' })).total).toBe(2);
    expect((await search({ keyword: 'crash', state: 'open', sort: 'relevance' })).total).toBe(2);
    expect((await search({ labels: [labels[6]!.name] })).items.map((i) => i.id)).toEqual([crash.id]);
    expect((await search({ milestones: ['v1', '999999'], milestoneIdsAllowed: true })).items.map((i) => i.id)).toEqual([crash.id]);
    expect((await search({ milestones: [String(milestoneId)], milestoneIdsAllowed: true })).items.map((i) => i.id)).toEqual([crash.id]);
    expect((await search({ priorityRepoId: other.id, keyword: 'crash', sort: 'relevance' })).items[0]!.repoId).toBe(other.id);
  });
});
