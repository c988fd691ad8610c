/**
 * @module The `IssueStore` contract, run unchanged against SQLite and PostgreSQL. Each engine gets
 * its own empty store (PostgreSQL: its own schema); a PostgreSQL that cannot be reached fails the
 * suite in `beforeAll`.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IssueStore, IssueStoreError, type RepoRow, type UserRow } from '../../runtime/issues/store/index.js';
import { openTestStore, TEST_ENGINES, type TestStore } from '../support/test-stores.js';

const T0 = 1_700_000_000;

async function rejectsWith(promise: Promise<unknown>, code: IssueStoreError['code']): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IssueStoreError);
  expect((error as IssueStoreError).code).toBe(code);
}

describe.each(TEST_ENGINES)('IssueStore on %s', (engine) => {
  let handle: TestStore;
  let store: IssueStore;
  let clock = T0;
  let admin: UserRow, alice: UserRow, bob: UserRow, carol: UserRow, dave: UserRow, org: UserRow;
  let pub: RepoRow, priv: RepoRow, orgPriv: RepoRow;

  beforeAll(async () => {
    handle = await openTestStore(engine, { now: () => clock });
    store = handle.store;
    admin = await store.createUser({ name: 'root', email: 'root@example.com', password: 'rootpw', isAdmin: true });
    alice = await store.createUser({ name: 'alice', email: 'alice@example.com', password: 'alicepw', fullName: 'Alice A.' });
    bob = await store.createUser({ name: 'bob', email: 'bob@example.com' });
    carol = await store.createUser({ name: 'carol', email: 'carol@example.com' });
    dave = await store.createUser({ name: 'dave', email: 'dave@example.com' });
    org = await store.createOrg({ name: 'acme', ownerId: carol.id });
    pub = await store.createRepo({ ownerId: alice.id, name: 'proj' });
    priv = await store.createRepo({ ownerId: alice.id, name: 'secret', isPrivate: true });
    orgPriv = await store.createRepo({ ownerId: org.id, name: 'internal', isPrivate: true });
  });

  afterAll(async () => {
    await handle?.dispose();
  });

  describe('users and credentials', () => {
    it('finds users case-insensitively and keeps the name as created', async () => {
      expect((await store.findUserByName('ALICE'))?.name).toBe('alice');
      expect((await store.findUserByName('Alice'))?.fullName).toBe('Alice A.');
      expect(await store.findUserByName('nobody')).toBeUndefined();
      expect((await store.getUsersByIds([bob.id, carol.id, 99999])).map((u) => u.name).sort()).toEqual(['bob', 'carol']);
      expect((await store.findUsersByNames(['BOB', 'dave', 'zed'])).map((u) => u.name).sort()).toEqual(['bob', 'dave']);
    });

    it('rejects duplicate and malformed names', async () => {
      await rejectsWith(store.createUser({ name: 'Alice', email: 'x@example.com' }), 'conflict');
      await rejectsWith(store.createUser({ name: "o'brien", email: 'x@example.com' }), 'invalid');
      await rejectsWith(store.createUser({ name: '', email: 'x@example.com' }), 'invalid');
      await rejectsWith(store.createOrg({ name: 'acme', ownerId: alice.id }), 'conflict');
    });

    it('verifies passwords and records the login', async () => {
      expect(await store.verifyPassword('alice', 'wrong')).toBeUndefined();
      expect(await store.verifyPassword('bob', '')).toBeUndefined(); // no password set
      expect(await store.verifyPassword('acme', '')).toBeUndefined(); // organizations cannot log in
      const ok = await store.verifyPassword('ALICE', 'alicepw');
      expect(ok?.id).toBe(alice.id);
      expect(ok?.lastLoginUnix).toBe(clock);
      await store.setPassword(bob.id, 'bobpw');
      expect((await store.verifyPassword('bob', 'bobpw'))?.id).toBe(bob.id);
    });

    it('counts people, not organizations', async () => {
      expect(await store.countUsers()).toBe(5);
    });

    it('issues 40-hex tokens, stores only a digest, and finds them again', async () => {
      const created = await store.createAccessToken({ userId: alice.id, name: 'cli', scopes: ['read:issue', 'write:issue'] });
      expect(created.token).toMatch(/^[0-9a-f]{40}$/);
      expect(created.row.tokenLastEight).toBe(created.token.slice(-8));
      expect(JSON.stringify(await store.listAccessTokens(alice.id))).not.toContain(created.token);
      // Lower-case hex only, as Gitea issues and accepts them.
      expect(await store.findAccessToken(created.token.toUpperCase())).toBeUndefined();
      const found = await store.findAccessToken(created.token);
      expect(found?.user.name).toBe('alice');
      expect(found?.token.scopes).toEqual(['read:issue', 'write:issue']);
      expect(await store.findAccessToken('0'.repeat(40))).toBeUndefined();
      expect(await store.findAccessToken("' OR 1=1 --")).toBeUndefined();
      await rejectsWith(store.createAccessToken({ userId: alice.id, name: 'cli' }), 'conflict');
      await rejectsWith(store.createAccessToken({ userId: 424242, name: 'ghost' }), 'invalid');
      expect(await store.deleteAccessToken(alice.id, created.row.id)).toBe(true);
      expect(await store.findAccessToken(created.token)).toBeUndefined();
    });
  });

  describe('repositories and permissions', () => {
    it('finds repositories by owner and name, case-insensitively', async () => {
      const found = await store.findRepo('Alice', 'PROJ');
      expect(found).toMatchObject({ id: pub.id, ownerName: 'alice', ownerType: 'user', name: 'proj', isPrivate: false });
      expect((await store.findRepo('acme', 'internal'))?.ownerType).toBe('org');
      expect(await store.findRepo('alice', 'internal')).toBeUndefined();
      await rejectsWith(store.createRepo({ ownerId: alice.id, name: 'Proj' }), 'conflict');
      await rejectsWith(store.createRepo({ ownerId: alice.id, name: '../etc' }), 'invalid');
    });

    it('resolves permissions for owners, admins, org owners, collaborators and strangers', async () => {
      await store.setCollaborator(priv.id, bob.id, 'read');
      await store.setCollaborator(priv.id, bob.id, 'write'); // an upsert, not a duplicate
      await store.setCollaborator(pub.id, dave.id, 'admin');
      expect(await store.listCollaborators(priv.id)).toEqual([{ repoId: priv.id, userId: bob.id, permission: 'write' }]);
      expect(await store.getPermission(priv.id, alice.id)).toBe('admin');
      expect(await store.getPermission(priv.id, admin.id)).toBe('admin');
      expect(await store.getPermission(priv.id, bob.id)).toBe('write');
      expect(await store.getPermission(priv.id, carol.id)).toBe('none');
      expect(await store.getPermission(priv.id, null)).toBe('none');
      expect(await store.getPermission(pub.id, null)).toBe('read');
      expect(await store.getPermission(pub.id, carol.id)).toBe('read');
      expect(await store.getPermission(pub.id, dave.id)).toBe('admin');
      expect(await store.getPermission(orgPriv.id, carol.id)).toBe('admin');
      expect(await store.getPermission(orgPriv.id, alice.id)).toBe('none');
      expect(await store.getPermission(987654, alice.id)).toBe('none');
      expect(await store.isOrgOwner(org.id, carol.id)).toBe(true);
      expect((await store.listOrgsOwnedBy(carol.id)).map((o) => o.name)).toEqual(['acme']);
    });

    it('lists the repositories each viewer may see', async () => {
      expect(await store.listVisibleRepoIds(null)).toEqual([pub.id]);
      expect(await store.listVisibleRepoIds(bob.id)).toEqual([pub.id, priv.id]);
      expect(await store.listVisibleRepoIds(carol.id)).toEqual([pub.id, orgPriv.id]);
      expect(await store.listVisibleRepoIds(admin.id)).toEqual([pub.id, priv.id, orgPriv.id]);
      expect(await store.listVisibleRepoIds(alice.id, { publicOnly: true })).toEqual([pub.id]);
      expect(await store.listVisibleRepoIds(admin.id, { ownerId: org.id })).toEqual([orgPriv.id]);
      expect(await store.removeCollaborator(priv.id, bob.id)).toBe(true);
      expect(await store.listVisibleRepoIds(bob.id)).toEqual([pub.id]);
      await store.setCollaborator(priv.id, bob.id, 'write');
    });
  });

  describe('labels and milestones', () => {
    it('normalises colours, rejects duplicates and keeps org labels apart', async () => {
      const bug = await store.createLabel({ repoId: pub.id, name: 'bug', color: '#EE0701', description: 'broken' });
      expect(bug).toMatchObject({ repoId: pub.id, orgId: null, name: 'bug', color: 'ee0701', exclusive: false });
      expect((await store.createLabel({ repoId: priv.id, name: 'bug', color: 'f00' })).color).toBe('ff0000');
      await rejectsWith(store.createLabel({ repoId: pub.id, name: 'bug', color: '000000' }), 'conflict');
      await rejectsWith(store.createLabel({ repoId: pub.id, name: 'x', color: 'red' }), 'invalid');
      await rejectsWith(store.createLabel({ name: 'x', color: '000' }), 'invalid');
      const orgLabel = await store.createLabel({ orgId: org.id, name: 'org-wide', color: '00ff00' });
      expect((await store.listOrgLabels(org.id)).map((l) => l.id)).toEqual([orgLabel.id]);
      expect((await store.listLabels(pub.id)).map((l) => l.name)).toEqual(['bug']);
    });

    it('keeps only labels of the repository or its organization', async () => {
      const [bug] = await store.listLabels(pub.id);
      const [privBug] = await store.listLabels(priv.id);
      const [orgLabel] = await store.listOrgLabels(org.id);
      expect(await store.filterApplicableLabelIds(pub.id, [bug!.id, privBug!.id, orgLabel!.id, 5555])).toEqual([bug!.id]);
      expect(await store.filterApplicableLabelIds(orgPriv.id, [bug!.id, orgLabel!.id])).toEqual([orgLabel!.id]);
    });

    it('creates, finds, counts and closes milestones', async () => {
      const m = await store.createMilestone({ repoId: pub.id, title: 'v1.0', deadlineUnix: T0 + 86400 });
      expect(m).toMatchObject({ title: 'v1.0', state: 'open', openIssues: 0, closedIssues: 0, closedUnix: null, deadlineUnix: T0 + 86400 });
      expect((await store.findMilestoneByName(pub.id, 'v1.0'))?.id).toBe(m.id);
      expect(await store.findMilestoneByName(priv.id, 'v1.0')).toBeUndefined();
      await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'in milestone', milestoneId: m.id });
      await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'closed in milestone', milestoneId: m.id, closed: true });
      expect(await store.getMilestone(m.id)).toMatchObject({ openIssues: 1, closedIssues: 1 });
      clock += 10;
      const closed = await store.updateMilestone(m.id, { state: 'closed' });
      expect(closed).toMatchObject({ state: 'closed', closedUnix: clock });
      expect((await store.listMilestones(pub.id, 'open')).length).toBe(0);
      expect((await store.listMilestones(pub.id, 'closed')).map((x) => x.id)).toEqual([m.id]);
      await store.updateMilestone(m.id, { state: 'open' });
      expect((await store.getMilestone(m.id))?.closedUnix).toBeNull();
    });
  });

  describe('issues', () => {
    it('numbers issues per repository and fills every field', async () => {
      const repo = await store.createRepo({ ownerId: bob.id, name: 'numbers' });
      const other = await store.createRepo({ ownerId: bob.id, name: 'numbers2' });
      const first = await store.createIssue({
        repoId: repo.id,
        posterId: bob.id,
        title: '  Padded title  ',
        body: 'b',
        ref: 'refs/heads/main',
      });
      const second = await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'Second', deadlineUnix: T0 + 5 });
      const elsewhere = await store.createIssue({ repoId: other.id, posterId: bob.id, title: 'Elsewhere' });
      expect([first.index, second.index, elsewhere.index]).toEqual([1, 2, 1]);
      expect(first).toMatchObject({
        repoId: repo.id,
        posterId: bob.id,
        title: 'Padded title',
        body: 'b',
        ref: 'refs/heads/main',
        state: 'open',
        isPull: false,
        pull: null,
        milestoneId: null,
        deadlineUnix: null,
        numComments: 0,
        closedUnix: null,
        assigneeIds: [],
        labelIds: [],
        createdUnix: clock,
        updatedUnix: clock,
      });
      expect(second.deadlineUnix).toBe(T0 + 5);
      expect((await store.getIssue(repo.id, 2))?.title).toBe('Second');
      expect(await store.getIssue(repo.id, 3)).toBeUndefined();
      expect(await store.getIssue(repo.id, Number.MAX_VALUE)).toBeUndefined();
      expect((await store.getRepoById(repo.id))?.numIssues).toBe(2);
    });

    it('creates pull requests with their own counters and reviewers', async () => {
      const repo = await store.createRepo({ ownerId: bob.id, name: 'pulls' });
      const pr = await store.createIssue({
        repoId: repo.id,
        posterId: bob.id,
        title: 'Add feature',
        pull: { draft: true },
        reviewRequestIds: [carol.id],
      });
      const merged = await store.createIssue({ repoId: repo.id, posterId: bob.id, title: 'Merged', pull: { merged: true } });
      expect(pr).toMatchObject({ isPull: true, pull: { merged: false, mergedUnix: null, draft: true }, reviewRequestIds: [carol.id] });
      expect(merged).toMatchObject({ state: 'closed', pull: { merged: true, mergedUnix: clock, draft: false } });
      expect(await store.getRepoById(repo.id)).toMatchObject({ numIssues: 0, numPulls: 2, numClosedPulls: 1 });
      await rejectsWith(store.updateIssue(merged.id, { state: 'open' }, bob.id), 'merged');
    });

    it('rejects bad references and leaves nothing behind, not even an index', async () => {
      const repo = await store.createRepo({ ownerId: bob.id, name: 'atomic' });
      const foreignMilestone = await store.createMilestone({ repoId: pub.id, title: 'foreign' });
      await rejectsWith(store.createIssue({ repoId: repo.id, posterId: bob.id, title: '   ' }), 'invalid');
      await rejectsWith(store.createIssue({ repoId: repo.id, posterId: bob.id, title: 'x', milestoneId: foreignMilestone.id }), 'invalid');
      await rejectsWith(store.createIssue({ repoId: repo.id, posterId: bob.id, title: 'x', assigneeIds: [424242] }), 'invalid');
      await rejectsWith(store.createIssue({ repoId: repo.id, posterId: bob.id, title: 'x', assigneeIds: [org.id] }), 'invalid');
      await rejectsWith(store.createIssue({ repoId: repo.id, posterId: bob.id, title: 'x', labelIds: [424242] }), 'invalid');
      await rejectsWith(store.createIssue({ repoId: 424242, posterId: bob.id, title: 'x' }), 'not_found');
      const ok = await store.createIssue({ repoId: repo.id, posterId: bob.id, title: 'first real' });
      expect(ok.index).toBe(1);
      expect(await store.getRepoById(repo.id)).toMatchObject({ numIssues: 1 });
    });

    it('rolls back every write of a failed transaction', async () => {
      const repo = await store.createRepo({ ownerId: bob.id, name: 'rollback' });
      await expect(
        store.transaction(async (tx) => {
          await tx.createIssue({ repoId: repo.id, posterId: bob.id, title: 'doomed' });
          await tx.createLabel({ repoId: repo.id, name: 'doomed', color: '000000' });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.getIssue(repo.id, 1)).toBeUndefined();
      expect(await store.listLabels(repo.id)).toEqual([]);
      const committed = await store.transaction(async (tx) => {
        const a = await tx.createIssue({ repoId: repo.id, posterId: bob.id, title: 'kept 1' });
        const b = await tx.createIssue({ repoId: repo.id, posterId: bob.id, title: 'kept 2' });
        return [a.index, b.index];
      });
      expect(committed).toEqual([1, 2]);
      expect((await store.getRepoById(repo.id))?.numIssues).toBe(2);
    });

    it('hands out 200 concurrent creates the numbers 1..200, each once', async () => {
      const repo = await store.createRepo({ ownerId: bob.id, name: 'concurrent' });
      const created = await Promise.all(
        Array.from({ length: 200 }, (_, i) => store.createIssue({ repoId: repo.id, posterId: bob.id, title: `concurrent ${i}` })),
      );
      const indexes = created.map((issue) => issue.index).sort((a, b) => a - b);
      expect(indexes).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(new Set(created.map((issue) => issue.title)).size).toBe(200);
      const page = await store.searchIssues({ repoIds: [repo.id], state: 'all', limit: 50 });
      expect(page.total).toBe(200);
      expect((await store.getRepoById(repo.id))?.numIssues).toBe(200);
    });

    it('records title and state changes as timeline events', async () => {
      const issue = await store.createIssue({ repoId: pub.id, posterId: bob.id, title: 'Old title' });
      clock += 60;
      const result = await store.updateIssue(issue.id, { title: 'New title', state: 'closed' }, alice.id);
      expect(result?.issue).toMatchObject({ title: 'New title', state: 'closed', closedUnix: clock, updatedUnix: clock, numComments: 2 });
      expect(result?.events.map((e) => [e.type, e.oldValue, e.newValue, e.posterId])).toEqual([
        ['title', 'Old title', 'New title', alice.id],
        ['state', 'open', 'closed', alice.id],
      ]);
      // The same patch again changes nothing and records nothing.
      const again = await store.updateIssue(issue.id, { title: 'New title', state: 'closed' }, alice.id);
      expect(again?.events).toEqual([]);
      expect(again?.issue.numComments).toBe(2);
      clock += 60;
      const reopened = await store.updateIssue(issue.id, { state: 'open' }, bob.id);
      expect(reopened?.issue).toMatchObject({ state: 'open', closedUnix: null, numComments: 3 });
      expect((await store.listComments(issue.id)).map((c) => c.type)).toEqual(['title', 'state', 'state']);
      expect(await store.updateIssue(999999, { title: 'x' }, alice.id)).toBeUndefined();
    });

    it('replaces assignees, labels and milestone, sets and clears deadlines', async () => {
      const [bug] = await store.listLabels(pub.id);
      const milestone = await store.createMilestone({ repoId: pub.id, title: 'v2' });
      const issue = await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'Edit me', assigneeIds: [bob.id] });
      const edited = await store.updateIssue(
        issue.id,
        {
          assigneeIds: [carol.id, bob.id],
          labelIds: [bug!.id],
          milestoneId: milestone.id,
          deadlineUnix: T0 + 999,
          body: 'new body',
          ref: 'v1',
        },
        alice.id,
      );
      expect(edited?.issue).toMatchObject({
        assigneeIds: [carol.id, bob.id],
        labelIds: [bug!.id],
        milestoneId: milestone.id,
        deadlineUnix: T0 + 999,
        body: 'new body',
        ref: 'v1',
      });
      expect(edited?.events).toEqual([]);
      const cleared = await store.updateIssue(issue.id, { assigneeIds: [], milestoneId: null, deadlineUnix: null }, alice.id);
      expect(cleared?.issue).toMatchObject({ assigneeIds: [], milestoneId: null, deadlineUnix: null, labelIds: [bug!.id] });
      const foreign = await store.createMilestone({ repoId: priv.id, title: 'other repo' });
      await rejectsWith(store.updateIssue(issue.id, { milestoneId: foreign.id }, alice.id), 'invalid');
      await rejectsWith(store.updateIssue(issue.id, { assigneeIds: [424242] }, alice.id), 'invalid');
    });

    it('reads the lists of an issue in their order wherever the issue is read', async () => {
      const zeta = await store.createLabel({ repoId: pub.id, name: 'zeta', color: '000001' });
      const alpha = await store.createLabel({ repoId: pub.id, name: 'alpha', color: '000002' });
      const issue = await store.createIssue({
        repoId: pub.id,
        posterId: alice.id,
        title: 'Ordered lists',
        pull: {},
        assigneeIds: [carol.id, alice.id, bob.id],
        labelIds: [zeta.id, alpha.id],
        reviewRequestIds: [carol.id, bob.id],
      });
      // Assignees as given, labels by name, review requests by user.
      const lists = {
        assigneeIds: [carol.id, alice.id, bob.id],
        labelIds: [alpha.id, zeta.id],
        reviewRequestIds: [bob.id, carol.id].sort((a, b) => a - b),
      };
      expect(issue).toMatchObject(lists);
      expect(await store.getIssue(pub.id, issue.index)).toMatchObject(lists);
      expect(await store.getIssueById(issue.id)).toMatchObject(lists);
      const page = await store.searchIssues({ repoIds: [pub.id], state: 'all', limit: 50 });
      expect(page.items.find((i) => i.id === issue.id)).toMatchObject(lists);
      // An issue without any, beside it on the same page, keeps empty lists.
      const bare = await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'No lists' });
      const again = await store.searchIssues({ repoIds: [pub.id], state: 'all', limit: 50 });
      expect(again.items.find((i) => i.id === bare.id)).toMatchObject({ assigneeIds: [], labelIds: [], reviewRequestIds: [] });
      expect(again.items.find((i) => i.id === issue.id)).toMatchObject(lists);
    });

    it('stores mentions on write and refreshes them on edit', async () => {
      const issue = await store.createIssue({
        repoId: pub.id,
        posterId: alice.id,
        title: 'Ping @Bob',
        body: 'and @carol, not bob@example.com or @nobody',
      });
      expect(await store.listMentionedUserIds(issue.id)).toEqual([bob.id, carol.id].sort((a, b) => a - b));
      await store.updateIssue(issue.id, { title: 'No ping', body: 'only @dave.' }, alice.id);
      expect(await store.listMentionedUserIds(issue.id)).toEqual([dave.id]);
    });

    it('counts comments and lists the timeline oldest first', async () => {
      const issue = await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'Discuss' });
      clock += 5;
      const c1 = await store.createComment({ issueId: issue.id, posterId: bob.id, body: 'first' });
      await store.createComment({ issueId: issue.id, posterId: carol.id, body: 'second' });
      expect(c1).toMatchObject({ type: 'comment', body: 'first', oldValue: null, newValue: null, createdUnix: clock });
      expect((await store.listComments(issue.id)).map((c) => c.body)).toEqual(['first', 'second']);
      expect(await store.getIssueById(issue.id)).toMatchObject({ numComments: 2, updatedUnix: clock });
      await rejectsWith(store.createComment({ issueId: 999999, posterId: bob.id, body: 'x' }), 'not_found');
    });
  });

  describe('dependencies', () => {
    it('blocks closing while a blocker is open and writes nothing of the patch', async () => {
      const blocked = await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'Blocked' });
      const blocker = await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'Blocker' });
      await store.addDependency(blocked.id, blocker.id);
      expect((await store.listBlockedBy(blocked.id)).map((i) => i.id)).toEqual([blocker.id]);
      expect((await store.listBlocking(blocker.id)).map((i) => i.id)).toEqual([blocked.id]);
      expect(await store.countOpenBlockers(blocked.id)).toBe(1);
      await rejectsWith(store.updateIssue(blocked.id, { title: 'Renamed', state: 'closed' }, alice.id), 'open_dependencies');
      expect(await store.getIssueById(blocked.id)).toMatchObject({ title: 'Blocked', state: 'open', numComments: 0 });
      await store.updateIssue(blocker.id, { state: 'closed' }, alice.id);
      expect(await store.countOpenBlockers(blocked.id)).toBe(0);
      expect((await store.updateIssue(blocked.id, { state: 'closed' }, alice.id))?.issue.state).toBe('closed');
    });

    it('refuses self, duplicate and circular dependencies', async () => {
      const a = await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'A' });
      const b = await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'B' });
      const c = await store.createIssue({ repoId: pub.id, posterId: alice.id, title: 'C' });
      await rejectsWith(store.addDependency(a.id, a.id), 'invalid');
      await rejectsWith(store.addDependency(a.id, 999999), 'invalid');
      await store.addDependency(a.id, b.id);
      await store.addDependency(b.id, c.id);
      await rejectsWith(store.addDependency(a.id, b.id), 'conflict');
      await rejectsWith(store.addDependency(c.id, a.id), 'circular');
      expect(await store.removeDependency(a.id, b.id)).toBe(true);
      expect(await store.removeDependency(a.id, b.id)).toBe(false);
      await store.addDependency(c.id, a.id); // no loop any more
    });
  });

  describe('search', () => {
    let repo: RepoRow, repo2: RepoRow;
    let ids: Record<string, number>;
    const base = T0 + 1_000_000;

    beforeAll(async () => {
      repo = await store.createRepo({ ownerId: org.id, name: 'searchable' });
      repo2 = await store.createRepo({ ownerId: org.id, name: 'searchable2' });
      const ui = await store.createLabel({ repoId: repo.id, name: 'ui', color: '0000ff' });
      const crash = await store.createLabel({ repoId: repo.id, name: 'crash', color: 'ff0000' });
      const [orgLabel] = await store.listOrgLabels(org.id);
      const m1 = await store.createMilestone({ repoId: repo.id, title: 'm1' });
      const m2 = await store.createMilestone({ repoId: repo.id, title: 'm2' });
      const make = async (title: string, at: number, extra: Partial<Parameters<IssueStore['createIssue']>[0]> = {}) => {
        clock = at;
        return (await store.createIssue({ repoId: repo.id, posterId: alice.id, title, createdUnix: at, ...extra })).id;
      };
      ids = {
        crashStart: await make('Crash on start', base + 1, {
          labelIds: [crash.id, ui.id],
          milestoneId: m1.id,
          body: 'stack trace attached',
        }),
        button: await make('Button misaligned', base + 2, { labelIds: [ui.id], assigneeIds: [bob.id], milestoneId: m2.id }),
        docs: await make('Docs typo', base + 3, {
          posterId: bob.id,
          body: 'the word crashing appears in the body',
          labelIds: [orgLabel!.id],
        }),
        closed: await make('Old crash fixed', base + 4, { closed: true }),
        pull: await make('Fix the button', base + 5, { pull: {}, reviewRequestIds: [carol.id], body: 'cc @dave' }),
        sameTimeA: await make('Tie A', base + 6),
        sameTimeB: await make('Tie B', base + 6),
      };
      clock = base + 7;
      ids.other = (
        await store.createIssue({ repoId: repo2.id, posterId: alice.id, title: 'Crash in other repo', createdUnix: base + 7 })
      ).id;
      clock = base + 100;
    });

    const search = async (filter: Omit<Parameters<IssueStore['searchIssues']>[0], 'repoIds'> & { repoIds?: number[] }) => {
      const page = await store.searchIssues({ repoIds: [repo.id], ...filter });
      return { ids: page.items.map((i) => i.id), total: page.total };
    };

    it('lists open items newest first by default, ties by id', async () => {
      const r = await search({});
      expect(r.ids).toEqual([ids.sameTimeB, ids.sameTimeA, ids.pull, ids.docs, ids.button, ids.crashStart]);
      expect(r.total).toBe(6);
      expect((await search({ sort: 'oldest' })).ids[0]).toBe(ids.crashStart);
    });

    it('filters by state and type', async () => {
      expect((await search({ state: 'closed' })).ids).toEqual([ids.closed]);
      expect((await search({ state: 'all' })).total).toBe(7);
      expect((await search({ type: 'pulls' })).ids).toEqual([ids.pull]);
      expect((await search({ type: 'issues' })).total).toBe(5);
    });

    it('matches labels any-of by name, drops unknown names, never duplicates', async () => {
      expect((await search({ labels: ['crash'] })).ids).toEqual([ids.crashStart]);
      expect((await search({ labels: ['ui', 'crash'] })).ids).toEqual([ids.button, ids.crashStart]);
      expect((await search({ labels: ['org-wide'] })).ids).toEqual([ids.docs]);
      expect((await search({ labels: ['does-not-exist'] })).total).toBe(6); // discarded: no label filter
      expect((await search({ labels: ['does-not-exist', 'crash'] })).ids).toEqual([ids.crashStart]);
      expect((await search({ labelIds: [424242] })).total).toBe(0);
    });

    it('matches milestones by name, and by id where allowed', async () => {
      const m1 = (await store.findMilestoneByName(repo.id, 'm1'))!;
      expect((await search({ milestones: ['m1'] })).ids).toEqual([ids.crashStart]);
      expect((await search({ milestones: ['m1', 'm2', 'ignore'] })).ids).toEqual([ids.button, ids.crashStart]);
      expect((await search({ milestones: [String(m1.id)] })).total).toBe(6); // ids not allowed: discarded
      expect((await search({ milestones: [String(m1.id)], milestoneIdsAllowed: true })).ids).toEqual([ids.crashStart]);
    });

    it('searches title and body through the full-text index, by word prefix', async () => {
      expect((await search({ keyword: 'crash', state: 'all' })).ids).toEqual([ids.closed, ids.docs, ids.crashStart]);
      expect((await search({ keyword: '  STACK  ' })).ids).toEqual([ids.crashStart]);
      expect((await search({ keyword: 'crash start' })).ids).toEqual([ids.crashStart]);
      expect((await search({ keyword: 'nothing-like-this' })).total).toBe(0);
      expect((await search({ keyword: 'on' })).ids).toEqual([ids.crashStart]); // short words match whole words only
      expect((await search({ keyword: 'cr' })).total).toBe(0);
      expect((await search({ keyword: 'crash', repoIds: [repo.id, repo2.id] })).ids).toEqual([ids.other, ids.docs, ids.crashStart]);
    });

    it('ranks title matches above body matches with the relevance sort', async () => {
      const r = await search({ keyword: 'crash', sort: 'relevance' });
      expect(r.ids[r.ids.length - 1]).toBe(ids.docs); // body-only match last
    });

    it('pages the relevance order one issue at a time, with the priority repository first when given', async () => {
      const both = [repo.id, repo2.id];
      const pageOf = async (page: number, priorityRepoId?: number) =>
        search({
          keyword: 'crash',
          sort: 'relevance',
          repoIds: both,
          limit: 1,
          page,
          ...(priorityRepoId !== undefined && { priorityRepoId }),
        });
      // Title matches newest first, then the body-only match.
      for (const [page, expected] of [
        [1, [ids.other]],
        [2, [ids.crashStart]],
        [3, [ids.docs]],
        [4, []],
      ] as const) {
        expect(await pageOf(page)).toEqual({ ids: expected, total: 3 });
      }
      for (const [page, expected] of [
        [1, [ids.crashStart]],
        [2, [ids.docs]],
        [3, [ids.other]],
        [4, []],
      ] as const) {
        expect(await pageOf(page, repo.id)).toEqual({ ids: expected, total: 3 });
      }
    });

    it('treats NUL, blank and syntax characters in keywords safely', async () => {
      expect((await search({ keyword: 'crash\0' })).total).toBe(6); // NUL: ignored
      expect((await search({ keyword: '   ' })).total).toBe(6);
      expect((await search({ keyword: '"*()' })).total).toBe(0); // no words: nothing
      for (const nasty of [
        'crash"',
        "crash' OR 1=1 --",
        'crash AND NOT',
        'NEAR(crash start)',
        'crash:*|!',
        "'); DROP TABLE issues; --",
        'title:crash',
        '\\crash',
      ]) {
        await expect(search({ keyword: nasty })).resolves.toBeDefined();
      }
      expect((await search({ keyword: 'crash" OR "docs' })).ids).toEqual([]); // all words must match
      expect((await search({ state: 'all' })).total).toBe(7); // and the table is still there
    });

    it('filters by updated time, poster, assignee, mention and review request', async () => {
      expect((await search({ since: base + 3, before: base + 5 })).ids).toEqual([ids.pull, ids.docs]);
      expect((await search({ posterId: bob.id })).ids).toEqual([ids.docs]);
      expect((await search({ assigneeId: bob.id })).ids).toEqual([ids.button]);
      expect((await search({ mentionedId: dave.id })).ids).toEqual([ids.pull]);
      expect((await search({ reviewRequestedId: carol.id })).ids).toEqual([ids.pull]);
      expect((await search({ reviewRequestedId: bob.id })).total).toBe(0);
    });

    it('puts the priority repository first', async () => {
      const r = await search({ repoIds: [repo.id, repo2.id], priorityRepoId: repo.id, limit: 2 });
      expect(r.ids).toEqual([ids.sameTimeB, ids.sameTimeA]);
      const plain = await search({ repoIds: [repo.id, repo2.id], limit: 1 });
      expect(plain.ids).toEqual([ids.other]);
    });

    it('pages with a total independent of paging', async () => {
      const p1 = await search({ limit: 4, page: 1 });
      const p2 = await search({ limit: 4, page: 2 });
      expect(p1.total).toBe(6);
      expect(p2.total).toBe(6);
      expect([...p1.ids, ...p2.ids]).toEqual((await search({ limit: 50 })).ids);
      expect(await search({ limit: 4, page: 3 })).toEqual({ ids: [], total: 6 });
      expect(await search({ limit: 50, page: 1e15 })).toEqual({ ids: [], total: 6 });
      expect((await search({ limit: 2, page: 0 })).ids).toEqual(p1.ids.slice(0, 2));
      expect(await store.searchIssues({ repoIds: [] })).toEqual({ items: [], total: 0 });
    });
  });

  describe('bulk import', () => {
    it('continues numbering, stores relations and comments, in one transaction', async () => {
      const repo = await store.createRepo({ ownerId: alice.id, name: 'imported' });
      await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'before import' });
      const label = await store.createLabel({ repoId: repo.id, name: 'imp', color: '123456' });
      const count = await store.importIssues(
        Array.from({ length: 450 }, (_, i) => ({
          repoId: repo.id,
          posterId: alice.id,
          title: `imported ${i} @bob`,
          createdUnix: T0 + i,
          assigneeIds: i % 2 ? [carol.id] : [],
          labelIds: i % 3 ? [] : [label.id],
          closed: i % 5 === 0,
          comments: i < 3 ? [{ posterId: bob.id, body: `comment on ${i}` }] : [],
          ...(i % 50 === 0 ? { pull: {} } : {}),
        })),
      );
      expect(count).toBe(450);
      const repoRow = await store.getRepoById(repo.id);
      expect(repoRow).toMatchObject({ numIssues: 442, numPulls: 9, numClosedPulls: 9, numClosedIssues: 81 });
      const first = await store.getIssue(repo.id, 2);
      expect(first).toMatchObject({ title: 'imported 0 @bob', isPull: true, state: 'closed', numComments: 1, labelIds: [label.id] });
      expect(await store.listMentionedUserIds(first!.id)).toEqual([bob.id]);
      expect((await store.getIssue(repo.id, 451))?.title).toBe('imported 449 @bob');
      expect((await store.searchIssues({ repoIds: [repo.id], keyword: 'imported', state: 'all' })).total).toBe(450);
      expect((await store.searchIssues({ repoIds: [repo.id], assigneeId: carol.id, state: 'all' })).total).toBe(225);
      expect((await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'after import' })).index).toBe(452);
    });

    it('keeps nothing when any row is invalid', async () => {
      const repo = await store.createRepo({ ownerId: alice.id, name: 'imported-bad' });
      await rejectsWith(
        store.importIssues([
          { repoId: repo.id, posterId: alice.id, title: 'good' },
          { repoId: repo.id, posterId: alice.id, title: 'bad', assigneeIds: [424242] },
        ]),
        'invalid',
      );
      expect((await store.searchIssues({ repoIds: [repo.id], state: 'all' })).total).toBe(0);
      expect((await store.createIssue({ repoId: repo.id, posterId: alice.id, title: 'first' })).index).toBe(1);
    });
  });

  describe('injection safety', () => {
    it('stores hostile strings literally', async () => {
      const nasty = `x'); DROP TABLE issues; -- "\\ $1 ? :name`;
      const label = await store.createLabel({ repoId: pub.id, name: nasty, color: 'abcdef', description: nasty });
      const issue = await store.createIssue({
        repoId: pub.id,
        posterId: alice.id,
        title: nasty,
        body: nasty,
        ref: nasty,
        labelIds: [label.id],
      });
      expect(await store.getIssueById(issue.id)).toMatchObject({ title: nasty, body: nasty, ref: nasty });
      expect((await store.searchIssues({ repoIds: [pub.id], labels: [nasty] })).items.map((i) => i.id)).toEqual([issue.id]);
      expect(await store.findRepo(nasty, nasty)).toBeUndefined();
      expect(await store.findUserByName(nasty)).toBeUndefined();
      expect(await store.findMilestoneByName(pub.id, nasty)).toBeUndefined();
    });
  });
});

describe.each(TEST_ENGINES)('two %s store instances on the same database', (engine) => {
  let first: TestStore;
  let second: IssueStore;

  beforeAll(async () => {
    first = await openTestStore(engine, { file: true });
    // Opening again runs the migrations a second time: they must find nothing to do.
    const { createStore } = await import('../../runtime/issues/store/index.js');
    second = await createStore(first.url, first.options);
  });

  afterAll(async () => {
    await second?.close();
    await first?.dispose();
  });

  it('share one numbering under concurrent creates from both', async () => {
    expect(second.info.schemaVersion).toBe(first.store.info.schemaVersion);
    const owner = await first.store.createUser({ name: 'owner', email: 'o@example.com' });
    const repo = await first.store.createRepo({ ownerId: owner.id, name: 'shared' });
    const created = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (i % 2 ? first.store : second).createIssue({
          repoId: repo.id,
          posterId: owner.id,
          title: `from ${i % 2 ? 'first' : 'second'} ${i}`,
        }),
      ),
    );
    expect(created.map((i) => i.index).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect((await second.getRepoById(repo.id))?.numIssues).toBe(100);
  });
});

describe('createStore', () => {
  it('rejects unsafe PostgreSQL schema names before connecting', async () => {
    const { createStore } = await import('../../runtime/issues/store/index.js');
    await expect(createStore('postgres://postgres@127.0.0.1:5432/test', { schema: 'x"; DROP SCHEMA public; --' })).rejects.toThrow(
      'invalid PostgreSQL schema name',
    );
    await expect(createStore('postgres://postgres@127.0.0.1:5432/test?schema=Mixed')).rejects.toThrow('invalid PostgreSQL schema name');
  });

  it('reports an unreachable PostgreSQL as an error', async () => {
    const { createStore } = await import('../../runtime/issues/store/index.js');
    await expect(createStore('postgres://postgres@127.0.0.1:1/test')).rejects.toThrow();
  });

  it('opens SQLite from file: URLs and reports where it lives', async () => {
    const { mkdtempSync, rmSync, existsSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { createStore } = await import('../../runtime/issues/store/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'loom-url-'));
    try {
      const path = join(dir, 'nested', 'issues.db');
      const store = await createStore(`file:${path}`);
      expect(store.info).toEqual({ engine: 'sqlite', location: path, schemaVersion: 4 });
      await store.close();
      expect(existsSync(path)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
