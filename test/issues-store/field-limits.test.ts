/**
 * @module Gitea's field sizes (`limits.ts`) held by the store itself, on both engines: a value one
 * character past its field's size is the same `too_long` error on SQLite (which would store it)
 * and PostgreSQL (whose btree indexes refused a ~2,700-character label name with an internal
 * error), nothing is written, and a value at the size is kept whole. Sizes count characters, not
 * UTF-16 units or bytes.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_LIMITS } from '../../runtime/issues/store/limits.js';
import { type IssueStore, IssueStoreError, type RepoRow, type UserRow } from '../../runtime/issues/store/store.js';
import { openTestStore, TEST_ENGINES, type TestStore } from '../support/test-stores.js';

async function tooLong(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(IssueStoreError);
    expect((error as IssueStoreError).code).toBe('too_long');
    return (error as Error).message;
  }
  throw new Error('expected too_long');
}

describe.each(TEST_ENGINES)('field limits on %s', (engine) => {
  let opened: TestStore;
  let store: IssueStore;
  let alice: UserRow;
  let repo: RepoRow;
  beforeAll(async () => {
    opened = await openTestStore(engine);
    store = opened.store;
    alice = await store.createUser({ name: 'alice', email: 'alice@example.com' });
    repo = await store.createRepo({ ownerId: alice.id, name: 'proj' });
  });
  afterAll(async () => opened?.dispose());

  const over = (field: keyof typeof FIELD_LIMITS) => 'x'.repeat(FIELD_LIMITS[field] + 1);
  const at = (field: keyof typeof FIELD_LIMITS) => 'x'.repeat(FIELD_LIMITS[field]);

  it('refuses label names and descriptions past 255 characters, the report’s 2,700 included', async () => {
    expect(await tooLong(store.createLabel({ repoId: repo.id, name: 'l'.repeat(2_700), color: 'ee0701' }))).toBe(
      'label name is longer than 255 characters',
    );
    await tooLong(store.createLabel({ repoId: repo.id, name: over('labelName'), color: 'ee0701' }));
    await tooLong(store.createLabel({ repoId: repo.id, name: 'ok', color: 'ee0701', description: over('labelDescription') }));
    expect(await store.listLabels(repo.id)).toEqual([]);
    const kept = await store.createLabel({ repoId: repo.id, name: at('labelName'), color: 'ee0701', description: at('labelDescription') });
    expect(kept.name).toHaveLength(255);
  });

  it('refuses milestone titles past 255 characters, on create and on update', async () => {
    await tooLong(store.createMilestone({ repoId: repo.id, title: 'm'.repeat(2_700) }));
    expect(await store.listMilestones(repo.id)).toEqual([]);
    const milestone = await store.createMilestone({ repoId: repo.id, title: at('milestoneTitle') });
    await tooLong(store.updateMilestone(milestone.id, { title: over('milestoneTitle') }));
    expect((await store.getMilestone(milestone.id))!.title).toBe(at('milestoneTitle'));
  });

  it('refuses token names and scopes past 255 characters', async () => {
    await tooLong(store.createAccessToken({ userId: alice.id, name: 't'.repeat(2_700) }));
    await tooLong(store.createAccessToken({ userId: alice.id, name: 'cli', scopes: ['all', over('tokenScope')] }));
    expect(await store.listAccessTokens(alice.id)).toEqual([]);
    expect((await store.createAccessToken({ userId: alice.id, name: at('tokenName') })).row.name).toHaveLength(255);
  });

  it('refuses user and organization profiles past Gitea’s sizes', async () => {
    await tooLong(store.createUser({ name: 'u'.repeat(41), email: 'u@example.com' }));
    await tooLong(store.createUser({ name: 'bob', email: `${'b'.repeat(950_000)}@example.com` }));
    await tooLong(store.createUser({ name: 'bob', email: 'bob@example.com', fullName: over('fullName') }));
    await tooLong(store.createUser({ name: 'bob', email: 'bob@example.com', description: over('description') }));
    await tooLong(store.createUser({ name: 'bob', email: 'bob@example.com', website: over('website') }));
    await tooLong(store.createUser({ name: 'bob', email: 'bob@example.com', location: over('location') }));
    await tooLong(store.createOrg({ name: 'acme', ownerId: alice.id, description: 'd'.repeat(950_000) }));
    expect(await store.findUserByName('bob')).toBeUndefined();
    expect(await store.findUserByName('acme')).toBeUndefined();
    expect((await store.createUser({ name: 'b'.repeat(40), email: 'b40@example.com', location: at('location') })).name).toHaveLength(40);
  });

  it('refuses repository descriptions past 2,048 characters', async () => {
    await tooLong(store.createRepo({ ownerId: alice.id, name: 'big', description: over('repoDescription') }));
    expect(await store.findRepo('alice', 'big')).toBeUndefined();
  });

  it('refuses issue titles and refs past 255 characters on create, update and import, and keeps bodies whole', async () => {
    const before = (await store.searchIssues({ repoIds: [repo.id], state: 'all' })).total;
    await tooLong(store.createIssue({ repoId: repo.id, posterId: alice.id, title: over('issueTitle') }));
    await tooLong(store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'ok', ref: over('issueRef') }));
    await tooLong(store.importIssues([{ repoId: repo.id, posterId: alice.id, title: over('issueTitle') }]));
    expect((await store.searchIssues({ repoIds: [repo.id], state: 'all' })).total).toBe(before);
    const issue = await store.createIssue({ repoId: repo.id, posterId: alice.id, title: at('issueTitle'), body: 'b'.repeat(100_000) });
    await tooLong(store.updateIssue(issue.id, { title: over('issueTitle') }, alice.id));
    await tooLong(store.updateIssue(issue.id, { ref: over('issueRef') }, alice.id));
    expect(await store.getIssueById(issue.id)).toMatchObject({ title: at('issueTitle'), ref: '', body: 'b'.repeat(100_000) });
  });

  it('counts characters, not UTF-16 units: 255 emoji make a label name, 256 do not', async () => {
    const emoji = '😀';
    const kept = await store.createLabel({ repoId: repo.id, name: emoji.repeat(255), color: 'abc' });
    expect([...kept.name]).toHaveLength(255);
    await tooLong(store.createLabel({ repoId: repo.id, name: emoji.repeat(256), color: 'abc' }));
  });
});
