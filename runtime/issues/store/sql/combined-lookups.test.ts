/**
 * @module The per-request lookups that read in one query what used to take two, on both engines:
 * a token with its user (`findAccessToken`), a repository with the viewer's permission
 * (`findRepoWithPermission`), and an issue with its relations (`getIssue`). Each must answer
 * exactly what the separate lookups answer.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, TEST_ENGINES, type TestStore } from '../../../../test/support/test-stores.js';
import type { IssueStore, RepoRow, UserRow } from '../store.js';

describe.each(TEST_ENGINES)('combined lookups on %s', (engine) => {
  let opened: TestStore;
  let store: IssueStore;
  let alice: UserRow;
  let bob: UserRow;
  let carol: UserRow;
  let admin: UserRow;
  let priv: RepoRow;
  let pub: RepoRow;
  let orgRepo: RepoRow;

  beforeAll(async () => {
    opened = await openTestStore(engine);
    store = opened.store;
    alice = await store.createUser({ name: 'Alice', email: 'alice@example.com', fullName: 'Alice A.' });
    bob = await store.createUser({ name: 'bob', email: 'bob@example.com' });
    carol = await store.createUser({ name: 'carol', email: 'carol@example.com' });
    admin = await store.createUser({ name: 'root', email: 'root@example.com', isAdmin: true });
    const org = await store.createOrg({ name: 'acme', ownerId: carol.id });
    priv = await store.createRepo({ ownerId: alice.id, name: 'Secret', isPrivate: true });
    pub = await store.createRepo({ ownerId: alice.id, name: 'open' });
    orgRepo = await store.createRepo({ ownerId: org.id, name: 'tools', isPrivate: true });
    await store.setCollaborator(priv.id, bob.id, 'write');
  }, 60_000);

  afterAll(async () => {
    await opened.dispose();
  });

  it('finds a token with its own user, not fields of the token row', async () => {
    // More tokens than users, so token ids and user ids differ.
    await store.createAccessToken({ userId: bob.id, name: 'first' });
    await store.createAccessToken({ userId: bob.id, name: 'second' });
    const created = await store.createAccessToken({ userId: alice.id, name: 'ci', scopes: ['read:issue'] });
    const found = await store.findAccessToken(created.token);
    expect(found?.user).toEqual(await store.getUserById(alice.id));
    expect(found?.token).toEqual(created.row);
    expect(found?.token.id).not.toBe(alice.id);
  });

  it('answers a repository with the permission getPermission gives, for every kind of viewer', async () => {
    for (const repo of [priv, pub, orgRepo]) {
      for (const viewer of [alice, bob, carol, admin, null]) {
        const viewerId = viewer?.id ?? null;
        const found = await store.findRepoWithPermission(repo.ownerName.toUpperCase(), repo.name.toUpperCase(), viewerId);
        expect(found?.repo).toEqual(await store.getRepoById(repo.id));
        expect(found?.permission).toBe(await store.getPermission(repo.id, viewerId));
      }
    }
    expect((await store.findRepoWithPermission('alice', 'secret', bob.id))?.permission).toBe('write');
    expect((await store.findRepoWithPermission('acme', 'tools', carol.id))?.permission).toBe('admin');
    expect((await store.findRepoWithPermission('alice', 'secret', null))?.permission).toBe('none');
    expect(await store.findRepoWithPermission('alice', 'missing', alice.id)).toBeUndefined();
    expect(await store.findRepoWithPermission('nobody', 'open', null)).toBeUndefined();
  });

  it('gets an issue with its assignees, labels and review requests, and nothing for a missing index', async () => {
    const bug = await store.createLabel({ repoId: pub.id, name: 'bug', color: 'ff0000' });
    const docs = await store.createLabel({ repoId: pub.id, name: 'docs', color: '00ff00' });
    await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'first' });
    const created = await store.createIssue({
      repoId: pub.id,
      posterId: alice.id,
      title: 'second',
      labelIds: [docs.id, bug.id],
      assigneeIds: [bob.id, alice.id],
      pull: {},
      reviewRequestIds: [carol.id],
    });
    const got = await store.getIssue(pub.id, created.index);
    expect(got).toEqual(created);
    expect(got?.labelIds).toEqual([bug.id, docs.id]);
    expect(got?.assigneeIds).toEqual([bob.id, alice.id]);
    expect(got?.reviewRequestIds).toEqual([carol.id]);
    expect((await store.getIssue(pub.id, 1))?.labelIds).toEqual([]);
    expect(await store.getIssue(pub.id, 99)).toBeUndefined();
    expect(await store.getIssue(priv.id, created.index)).toBeUndefined();
  });
});
