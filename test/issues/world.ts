/**
 * @module
 * A small world built through the API itself (so the setup endpoints are exercised by every
 * test file): people with different access, an organization, public and private repositories,
 * labels and milestones.
 */
import type { TestServer } from '../support/issues-harness.js';

export interface Person {
  name: string;
  id: number;
  token: string;
  password: string;
}

export interface World {
  /** Owner of `alice/pub` and `alice/priv`, owner of the organization `acme`. */
  alice: Person;
  /** Write collaborator on `alice/pub` and `alice/priv`. */
  bob: Person;
  /** Read collaborator on `alice/priv`. */
  carol: Person;
  /** No collaborations at all. */
  dave: Person;
  labels: { bug: number; ui: number; docs: number };
  milestones: { v1: number; v2: number };
}

/**
 * Creates the world on a fresh server.
 *
 * @example
 * const world = await buildWorld(server);
 */
export async function buildWorld(server: TestServer): Promise<World> {
  const [alice, bob, carol, dave] = await Promise.all(['alice', 'bob', 'carol', 'dave'].map((n) => server.createUser(n)));
  const a = server.api(alice!.token);
  await a.user.createCurrentUserRepo({ name: 'pub' });
  await a.user.createCurrentUserRepo({ name: 'priv', private: true });
  await a.orgs.orgCreate({ username: 'acme', full_name: 'Acme Inc.' });
  await a.orgs.createOrgRepo('acme', { name: 'tools' });
  await a.orgs.createOrgRepo('acme', { name: 'secret', private: true });
  await a.repos.repoAddCollaborator('alice', 'pub', 'bob', { permission: 'write' });
  await a.repos.repoAddCollaborator('alice', 'priv', 'bob', { permission: 'write' });
  await a.repos.repoAddCollaborator('alice', 'priv', 'carol', { permission: 'read' });
  const bug = await a.repos.issueCreateLabel('alice', 'pub', { name: 'bug', color: '#ee0701' });
  const ui = await a.repos.issueCreateLabel('alice', 'pub', { name: 'ui', color: '00aabb', description: 'User interface' });
  const docs = await a.repos.issueCreateLabel('alice', 'pub', { name: 'docs', color: 'abc' });
  const v1 = await a.repos.issueCreateMilestone('alice', 'pub', { title: 'v1' });
  const v2 = await a.repos.issueCreateMilestone('alice', 'pub', { title: 'v2', due_on: '2030-06-01T12:00:00Z' });
  return {
    alice: alice!,
    bob: bob!,
    carol: carol!,
    dave: dave!,
    labels: { bug: bug.data.id!, ui: ui.data.id!, docs: docs.data.id! },
    milestones: { v1: v1.data.id!, v2: v2.data.id! },
  };
}
