/**
 * @module Owner visibility in the permission model, on both engines: the repositories of a
 * `private` user or organization are readable only by the owner, the organization's members
 * (owners, in Loom), collaborators and site admins; those of a `limited` organization by every
 * signed-in user but not by anonymous callers (Gitea's `HasOrgOrUserVisible` and
 * `AccessibleRepositoryCondition`). `getPermission`, `findRepoWithPermission` and
 * `listVisibleRepoIds` must agree on every viewer.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssueStore, PermissionLevel, RepoRow, UserRow } from '../../runtime/issues/store/index.js';
import { openTestStore, TEST_ENGINES, type TestStore } from '../support/test-stores.js';

describe.each(TEST_ENGINES)('owner visibility on %s', (engine) => {
  let handle: TestStore;
  let store: IssueStore;
  let admin: UserRow, member: UserRow, collaborator: UserRow, stranger: UserRow, hermit: UserRow;
  let open: RepoRow, hidden: RepoRow, hiddenSecret: RepoRow, members: RepoRow, hermitRepo: RepoRow;

  beforeAll(async () => {
    handle = await openTestStore(engine);
    store = handle.store;
    admin = await store.createUser({ name: 'root', email: 'root@example.com', isAdmin: true });
    member = await store.createUser({ name: 'member', email: 'member@example.com' });
    collaborator = await store.createUser({ name: 'collab', email: 'collab@example.com' });
    stranger = await store.createUser({ name: 'stranger', email: 'stranger@example.com' });
    hermit = await store.createUser({ name: 'hermit', email: 'hermit@example.com', visibility: 'private' });
    const publicOrg = await store.createOrg({ name: 'openorg', ownerId: member.id });
    const privateOrg = await store.createOrg({ name: 'hiddenorg', ownerId: member.id, visibility: 'private' });
    const limitedOrg = await store.createOrg({ name: 'membersorg', ownerId: member.id, visibility: 'limited' });
    open = await store.createRepo({ ownerId: publicOrg.id, name: 'open' });
    hidden = await store.createRepo({ ownerId: privateOrg.id, name: 'hidden' });
    hiddenSecret = await store.createRepo({ ownerId: privateOrg.id, name: 'secret', isPrivate: true });
    members = await store.createRepo({ ownerId: limitedOrg.id, name: 'members' });
    hermitRepo = await store.createRepo({ ownerId: hermit.id, name: 'notes' });
    await store.setCollaborator(hidden.id, collaborator.id, 'read');
    await store.setCollaborator(hermitRepo.id, collaborator.id, 'write');
  });

  afterAll(async () => {
    await handle?.dispose();
  });

  /** Every repository's permission for a viewer, by name, through both lookups (which must agree). */
  async function permissions(viewer: UserRow | null): Promise<Record<string, PermissionLevel>> {
    const out: Record<string, PermissionLevel> = {};
    for (const repo of [open, hidden, hiddenSecret, members, hermitRepo]) {
      const viewerId = viewer?.id ?? null;
      const level = await store.getPermission(repo.id, viewerId);
      expect(
        (await store.findRepoWithPermission(repo.ownerName, repo.name, viewerId))?.permission,
        `${repo.name} for ${viewer?.name}`,
      ).toBe(level);
      out[repo.name] = level;
    }
    return out;
  }

  async function visible(viewer: UserRow | null, publicOnly = false): Promise<string[]> {
    const ids = await store.listVisibleRepoIds(viewer?.id ?? null, { publicOnly });
    const names = new Map([open, hidden, hiddenSecret, members, hermitRepo].map((repo) => [repo.id, repo.name]));
    return ids.map((id) => names.get(id)!).sort();
  }

  it('shows anonymous callers only the repositories of public owners', async () => {
    expect(await permissions(null)).toEqual({ open: 'read', hidden: 'none', secret: 'none', members: 'none', notes: 'none' });
    expect(await visible(null)).toEqual(['open']);
  });

  it('shows a signed-in stranger limited owners too, but no private owner', async () => {
    expect(await permissions(stranger)).toEqual({ open: 'read', hidden: 'none', secret: 'none', members: 'read', notes: 'none' });
    expect(await visible(stranger)).toEqual(['members', 'open']);
  });

  it('lets members of a private organization and the private user see their own', async () => {
    expect(await permissions(member)).toEqual({ open: 'admin', hidden: 'admin', secret: 'admin', members: 'admin', notes: 'none' });
    expect(await visible(member)).toEqual(['hidden', 'members', 'open', 'secret']);
    expect((await permissions(hermit)).notes).toBe('admin');
    expect(await visible(hermit)).toEqual(['members', 'notes', 'open']);
  });

  it('lets collaborators in behind a private owner, at their own level only', async () => {
    expect(await permissions(collaborator)).toEqual({ open: 'read', hidden: 'read', secret: 'none', members: 'read', notes: 'write' });
    expect(await visible(collaborator)).toEqual(['hidden', 'members', 'notes', 'open']);
  });

  it('shows site admins everything', async () => {
    expect(await permissions(admin)).toEqual({ open: 'admin', hidden: 'admin', secret: 'admin', members: 'admin', notes: 'admin' });
    expect(await visible(admin)).toEqual(['hidden', 'members', 'notes', 'open', 'secret']);
  });

  it('narrows a public-only token to the repositories its user sees that are not private', async () => {
    expect(await visible(member, true)).toEqual(['hidden', 'members', 'open']);
    expect(await visible(stranger, true)).toEqual(['members', 'open']);
    expect(await visible(null, true)).toEqual(['open']);
  });
});
