/**
 * The setup endpoints through gitea-js: users, organizations, repositories, collaborators,
 * labels, milestones, dependencies, pull requests and review requests, with Gitea's shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, ENGINES, failure, startServer, type TestServer } from '../support/issues-harness.js';
import { buildWorld, type World } from './world.js';

describe.each(ENGINES)('setup endpoints on %s', (engine) => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    server = await startServer(engine);
    w = await buildWorld(server);
  });
  afterAll(async () => server?.close());

  it("creates users with Gitea's User shape (admin view) and refuses duplicates with 422", async () => {
    const res = await server
      .api(server.adminToken)
      .admin.adminCreateUser({ username: 'frank', email: 'frank@example.com', password: 'pw', full_name: 'Frank F.' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.data).sort()).toEqual([
      'active',
      'avatar_url',
      'created',
      'description',
      'email',
      'followers_count',
      'following_count',
      'full_name',
      'html_url',
      'id',
      'is_admin',
      'language',
      'last_login',
      'location',
      'login',
      'login_name',
      'prohibit_login',
      'restricted',
      'source_id',
      'starred_repos_count',
      'username',
      'visibility',
      'website',
    ]);
    expect(res.data).toMatchObject({
      login: 'frank',
      username: 'frank',
      full_name: 'Frank F.',
      email: 'frank@example.com',
      is_admin: false,
      visibility: 'public',
      html_url: 'http://issues.test/frank',
    });
    const dup = await failure(
      server.api(server.adminToken).admin.adminCreateUser({ username: 'FRANK', email: 'other@example.com', password: 'pw' }),
    );
    expect(dup).toEqual({ status: 422, error: apiError('user already exists [name: FRANK]') });
  });

  it('creates repositories for the caller (409 on duplicates) and for organizations (owners only)', async () => {
    const res = await server.api(w.bob.token).user.createCurrentUserRepo({ name: 'tool', description: 'a tool', private: true });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      name: 'tool',
      full_name: 'bob/tool',
      description: 'a tool',
      private: true,
      permissions: { admin: true, push: true, pull: true },
      html_url: 'http://issues.test/bob/tool',
      url: 'http://issues.test/api/v1/repos/bob/tool',
      owner: { login: 'bob' },
    });
    expect(await failure(server.api(w.bob.token).user.createCurrentUserRepo({ name: 'tool' }))).toEqual({
      status: 409,
      error: apiError('The repository with the same name already exists.'),
    });
    const orgRepo = await server.api(w.alice.token).orgs.createOrgRepo('acme', { name: 'site' });
    expect(orgRepo.data.full_name).toBe('acme/site');
    expect((await failure(server.api(w.bob.token).orgs.createOrgRepo('acme', { name: 'mine' }))).status).toBe(403);
    expect((await failure(server.api(w.bob.token).orgs.createOrgRepo('nope', { name: 'x' }))).status).toBe(404);
  });

  it("creates organizations with Gitea's Organization shape", async () => {
    const res = await server.api(w.bob.token).orgs.orgCreate({ username: 'bobcorp', full_name: 'Bob Corp', visibility: 'public' });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({ name: 'bobcorp', username: 'bobcorp', full_name: 'Bob Corp', visibility: 'public' });
    expect((await failure(server.api(w.bob.token).orgs.orgCreate({ username: 'alice' }))).status).toBe(422);
  });

  it('adds collaborators (repository admins only) whose permission takes effect', async () => {
    expect((await failure(server.api(w.bob.token).repos.repoAddCollaborator('alice', 'pub', 'dave', { permission: 'write' }))).status).toBe(
      403,
    );
    expect(
      (await failure(server.api(w.alice.token).repos.repoAddCollaborator('alice', 'pub', 'nobody', { permission: 'write' }))).status,
    ).toBe(422);
    expect((await failure(server.api(w.dave.token).repos.issueListIssues('acme', 'secret', {}))).status).toBe(404);
    const added = await server.api(w.alice.token).repos.repoAddCollaborator('acme', 'secret', 'dave', { permission: 'read' });
    expect(added.status).toBe(204);
    expect((await server.api(w.dave.token).repos.issueListIssues('acme', 'secret', {})).status).toBe(200);
    expect((await failure(server.api(w.dave.token).repos.issueCreateLabel('acme', 'secret', { name: 'x', color: 'ffffff' }))).status).toBe(
      403,
    );
  });

  it('creates and lists labels with X-Total-Count', async () => {
    const res = await server.api(w.alice.token).repos.issueListLabels('alice', 'pub', {});
    expect(res.data.map((l) => [l.name, l.color])).toEqual([
      ['bug', 'ee0701'],
      ['docs', 'aabbcc'],
      ['ui', '00aabb'],
    ]);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect((await server.api().repos.issueListLabels('alice', 'pub', { limit: 1, page: 2 })).data.map((l) => l.name)).toEqual(['docs']);
    expect((await failure(server.api(w.dave.token).repos.issueCreateLabel('alice', 'pub', { name: 'x', color: 'ffffff' }))).status).toBe(
      403,
    );
  });

  it('creates and lists milestones by state and name', async () => {
    const api = server.api(w.alice.token).repos;
    const closed = await api.issueCreateMilestone('alice', 'pub', { title: 'v0', state: 'closed', description: 'done' });
    expect(closed.data).toMatchObject({ title: 'v0', state: 'closed', description: 'done', due_on: null });
    expect(closed.data.closed_at).not.toBeNull();
    const v2 = (await api.issueGetMilestonesList('alice', 'pub', {})).data.find((m) => m.title === 'v2')!;
    expect(v2.due_on).toBe('2030-06-01T12:00:00Z');
    expect((await api.issueGetMilestonesList('alice', 'pub', {})).data.map((m) => m.title)).toEqual(['v1', 'v2']);
    expect((await api.issueGetMilestonesList('alice', 'pub', { state: 'closed' })).data.map((m) => m.title)).toEqual(['v0']);
    expect((await api.issueGetMilestonesList('alice', 'pub', { state: 'all', name: 'V' })).data).toHaveLength(3);
    expect((await api.issueGetMilestonesList('alice', 'pub', { state: 'all', name: '2' })).data.map((m) => m.title)).toEqual(['v2']);
    await api.issueCreateIssue('alice', 'pub', { title: 'in v1', milestone: w.milestones.v1 });
    expect((await api.issueGetMilestonesList('alice', 'pub', { name: 'v1' })).data[0]).toMatchObject({ open_issues: 1, closed_issues: 0 });
  });

  it('adds and lists dependencies, across repositories, hiding blockers the caller cannot see', async () => {
    const api = server.api(w.alice.token).repos;
    const blocked = (await api.issueCreateIssue('alice', 'pub', { title: 'blocked' })).data;
    const publicBlocker = (await api.issueCreateIssue('acme', 'tools', { title: 'tools blocker' })).data;
    const privateBlocker = (await api.issueCreateIssue('alice', 'priv', { title: 'private blocker' })).data;
    const res = await api.issueCreateIssueDependencies('alice', 'pub', String(blocked.number), {
      owner: 'acme',
      repo: 'tools',
      index: publicBlocker.number,
    });
    expect(res.status).toBe(201);
    expect(res.data.number).toBe(blocked.number);
    await api.issueCreateIssueDependencies('alice', 'pub', String(blocked.number), {
      owner: 'alice',
      repo: 'priv',
      index: privateBlocker.number,
    });
    expect((await api.issueListIssueDependencies('alice', 'pub', String(blocked.number))).data.map((i) => i.title)).toEqual([
      'tools blocker',
      'private blocker',
    ]);
    expect(
      (await server.api(w.dave.token).repos.issueListIssueDependencies('alice', 'pub', String(blocked.number))).data.map((i) => i.title),
    ).toEqual(['tools blocker']);
    expect(
      (await failure(api.issueCreateIssueDependencies('alice', 'pub', String(blocked.number), { index: blocked.number }))).status,
    ).toBe(422);
    expect((await failure(api.issueCreateIssueDependencies('alice', 'pub', String(blocked.number), { index: 98765 }))).status).toBe(404);
    expect(
      (
        await failure(
          api.issueCreateIssueDependencies('acme', 'tools', String(publicBlocker.number), {
            owner: 'alice',
            repo: 'pub',
            index: blocked.number,
          }),
        )
      ).status,
    ).toBe(422);
    expect(
      (await failure(server.api(w.dave.token).repos.issueCreateIssueDependencies('alice', 'pub', String(blocked.number), { index: 1 })))
        .status,
    ).toBe(403);
  });

  it('creates pull requests (issues flagged as pulls) and review requests', async () => {
    const res = await server.api(w.bob.token).repos.repoCreatePullRequest('alice', 'pub', {
      title: 'Add feature',
      head: 'feature',
      base: 'main',
      body: 'please',
      reviewers: ['carol'],
    });
    expect(res.status).toBe(201);
    expect(res.data).toMatchObject({
      title: 'Add feature',
      body: 'please',
      state: 'open',
      merged: false,
      draft: false,
      head: { ref: 'feature' },
      base: { ref: 'main' },
      html_url: `http://issues.test/alice/pub/pulls/${res.data.number}`,
    });
    expect(res.data.requested_reviewers!.map((u) => u.login)).toEqual(['carol']);
    const reviews = await server
      .api(w.bob.token)
      .repos.repoCreatePullReviewRequests('alice', 'pub', res.data.number!, { reviewers: ['alice', 'carol'] });
    expect(reviews.status).toBe(201);
    expect(reviews.data.map((r) => [r.user!.login, r.state])).toEqual([['alice', 'REQUEST_REVIEW']]);
    const asIssue = await server.api().repos.issueGetIssue('alice', 'pub', res.data.number!);
    expect(asIssue.data.pull_request).toMatchObject({ merged: false, draft: false });
    expect((await server.api(w.carol.token).repos.issueSearchIssues({ review_requested: true })).data.map((i) => i.title)).toEqual([
      'Add feature',
    ]);
    const plain = (await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', { title: 'not a pull' })).data;
    expect(
      (await failure(server.api(w.alice.token).repos.repoCreatePullReviewRequests('alice', 'pub', plain.number!, { reviewers: ['carol'] })))
        .status,
    ).toBe(404);
    expect(
      (
        await failure(
          server.api(w.alice.token).repos.repoCreatePullReviewRequests('alice', 'pub', res.data.number!, { reviewers: ['nobody'] }),
        )
      ).status,
    ).toBe(404);
  });

  it('requests reviews only from people who can read the repository (422 otherwise, as Gitea), storing nothing', async () => {
    const priv = (await server.api(w.bob.token).repos.repoCreatePullRequest('alice', 'priv', { title: 'Secret fix', head: 'fix' })).data;
    const before = (await server.store.searchIssues({ repoIds: [priv.base!.repo_id!], state: 'all', limit: 50 })).total;
    const refused = (reason: string) => `${reason} [user_id: ${w.bob.id}, repo_id: ${priv.base!.repo_id}]`;
    // dave cannot see alice/priv at all: neither a pull request nor a review request may name him.
    const created = await server.sendJson('POST', '/repos/alice/priv/pulls', { title: 'x', head: 'y', reviewers: ['dave'] }, w.bob.token);
    expect(created).toEqual({ status: 422, body: apiError(refused("Reviewer can't read")) });
    const requested = await server.sendJson(
      'POST',
      `/repos/alice/priv/pulls/${priv.number}/requested_reviewers`,
      { reviewers: ['carol', 'dave'] },
      w.bob.token,
    );
    expect(requested).toEqual({ status: 422, body: apiError(refused("Reviewer can't read")) });
    const org = await server.sendJson(
      'POST',
      `/repos/alice/priv/pulls/${priv.number}/requested_reviewers`,
      { reviewers: ['acme'] },
      w.bob.token,
    );
    expect(org).toEqual({ status: 422, body: apiError(refused("Organization can't be added as reviewer")) });
    expect((await server.store.searchIssues({ repoIds: [priv.base!.repo_id!], state: 'all', limit: 50 })).total).toBe(before);
    expect((await server.api(w.alice.token).repos.issueGetIssue('alice', 'priv', priv.number!)).data.pull_request).toBeTruthy();
    expect((await server.store.getIssue(priv.base!.repo_id!, priv.number!))!.reviewRequestIds).toEqual([]);
    // carol reads alice/priv (a read collaborator): she may be asked.
    const ok = await server.sendJson(
      'POST',
      `/repos/alice/priv/pulls/${priv.number}/requested_reviewers`,
      { reviewers: ['carol'] },
      w.bob.token,
    );
    expect(ok.status).toBe(201);
    expect((await server.store.getIssue(priv.base!.repo_id!, priv.number!))!.reviewRequestIds).toEqual([w.carol.id]);
  });
});
