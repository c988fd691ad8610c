/**
 * @module The demo data: what a first `npm start` shows, on both engines, and that it is the same
 * every time.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORDS, seedDemo } from '../../runtime/issues/demo-seed.js';
import { openTestStore, TEST_ENGINES, type TestStore } from '../support/test-stores.js';

const NOW = 1_750_000_000;

describe.each(TEST_ENGINES)('seedDemo on %s', (engine) => {
  const opened: TestStore[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((handle) => handle.dispose()));
  });

  it('creates people, an organization, public and private repositories and 300 issues', async () => {
    const handle = await openTestStore(engine);
    opened.push(handle);
    const { store } = handle;
    const stages: string[] = [];
    const demo = await seedDemo(store, { issues: 300, nowUnix: NOW, onProgress: (p) => stages.push(p.stage) });
    expect(stages).toEqual(['users', 'repositories', 'issues', 'dependencies']);
    expect(demo.accounts.map((a) => a.user.name)).toEqual(['admin', 'alice', 'bob', 'carol']);
    expect(demo.accounts[0]!.user.isAdmin).toBe(true);
    expect((await store.verifyPassword('alice', DEMO_PASSWORDS.alice))?.name).toBe('alice');
    expect((await store.findAccessToken(demo.accounts[2]!.token))?.user.name).toBe('bob');
    expect(demo.org).toMatchObject({ name: 'acme', type: 'org' });
    expect(demo.repos.map((r) => `${r.ownerName}/${r.name}:${r.isPrivate}`)).toEqual([
      'alice/proj:false',
      'alice/secret:true',
      'acme/website:false',
      'acme/internal:true',
    ]);
    const all = await store.searchIssues({ repoIds: demo.repos.map((r) => r.id), state: 'all', limit: 1 });
    expect(all.total).toBe(300);
    const pulls = await store.searchIssues({ repoIds: demo.repos.map((r) => r.id), state: 'all', type: 'pulls' });
    expect(pulls.total).toBeGreaterThan(0);
    expect(pulls.total).toBeLessThan(300);
    const anonymous = await store.listVisibleRepoIds(null);
    expect(anonymous).toEqual([demo.repos[0]!.id, demo.repos[2]!.id]);
    const labelled = await store.searchIssues({ repoIds: [demo.repos[0]!.id], state: 'all', labels: ['bug'] });
    expect(labelled.total).toBeGreaterThan(0);
    let dependencies = 0;
    for (const repo of demo.repos) {
      for (const issue of (await store.searchIssues({ repoIds: [repo.id], state: 'open', type: 'issues', limit: 12, sort: 'oldest' }))
        .items) {
        dependencies += (await store.listBlockedBy(issue.id)).length;
      }
    }
    expect(dependencies).toBeGreaterThan(0);
  });

  it('is deterministic for a seed', async () => {
    const a = await openTestStore(engine);
    const b = await openTestStore(engine);
    opened.push(a, b);
    await seedDemo(a.store, { issues: 40, nowUnix: NOW, seed: 7 });
    await seedDemo(b.store, { issues: 40, nowUnix: NOW, seed: 7 });
    const dump = async (handle: TestStore) => {
      const repos = await handle.store.listVisibleRepoIds(null, {});
      const page = await handle.store.searchIssues({ repoIds: repos, state: 'all', limit: 50, sort: 'oldest' });
      return page.items.map((i) => [i.index, i.title, i.body, i.state, i.labelIds.length, i.numComments, i.createdUnix]);
    };
    expect(await dump(a)).toEqual(await dump(b));
  });
});
