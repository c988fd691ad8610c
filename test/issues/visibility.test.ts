/**
 * Owner visibility over HTTP on both engines: the public repositories of a private organization or
 * user, and of a limited organization, through search, list and get, for anonymous callers,
 * signed-in strangers, members and collaborators, and the site administrator (Gitea: a private
 * owner shows itself to its members, collaborators and admins only; a limited one to signed-in
 * users only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, failure, startServer, type TestServer } from '../support/issues-harness.js';

describe.each(ENGINES)('owner visibility on %s', (engine) => {
  let server: TestServer;
  let tokens: Record<'owner' | 'stranger' | 'collaborator' | 'hermit', string>;

  beforeAll(async () => {
    server = await startServer(engine);
    const owner = await server.createUser('olga');
    const stranger = await server.createUser('mallory');
    const collaborator = await server.createUser('carl');
    // A private user: created by the administrator with that visibility, signing in for a token.
    await server
      .api(server.adminToken)
      .admin.adminCreateUser({ username: 'hermit', email: 'hermit@example.com', password: 'hermit-password', visibility: 'private' });
    const basic = { headers: { Authorization: `Basic ${Buffer.from('hermit:hermit-password').toString('base64')}` } };
    const hermit = (await server.api().users.userCreateToken('hermit', { name: 'cli', scopes: ['all'] }, basic)).data.sha1!;
    tokens = { owner: owner.token, stranger: stranger.token, collaborator: collaborator.token, hermit };

    const o = server.api(owner.token);
    await o.orgs.orgCreate({ username: 'hideout', visibility: 'private' });
    await o.orgs.orgCreate({ username: 'club', visibility: 'limited' });
    await o.orgs.orgCreate({ username: 'plaza' });
    for (const [org, repo] of [
      ['hideout', 'plans'],
      ['club', 'news'],
      ['plaza', 'square'],
    ] as const) {
      await o.orgs.createOrgRepo(org, { name: repo });
      await o.repos.issueCreateIssue(org, repo, { title: `visibility probe in ${org}` });
    }
    await o.repos.repoAddCollaborator('hideout', 'plans', 'carl', { permission: 'read' });
    const h = server.api(hermit);
    await h.user.createCurrentUserRepo({ name: 'diary' });
    await h.repos.issueCreateIssue('hermit', 'diary', { title: 'visibility probe of hermit' });
    await h.repos.repoAddCollaborator('hermit', 'diary', 'carl', { permission: 'write' });
  });
  afterAll(async () => server?.close());

  const REPOS = ['hideout/plans', 'club/news', 'plaza/square', 'hermit/diary'] as const;

  /** What a caller finds: the repositories the search shows, and which of them list and get answer 200. */
  async function seen(token: string | undefined) {
    const api = server.api(token);
    const found = (await api.repos.issueSearchIssues({ q: 'visibility probe', limit: 50 })).data
      .map((i) => i.repository!.full_name!)
      .sort();
    const readable: string[] = [];
    for (const full of REPOS) {
      const [owner, repo] = full.split('/') as [string, string];
      const list = await api.repos.issueListIssues(owner, repo, {}).then(
        () => 200,
        (e: { status: number }) => e.status,
      );
      const get = await api.repos.issueGetIssue(owner, repo, 1).then(
        () => 200,
        (e: { status: number }) => e.status,
      );
      // A repository the caller may not see is answered exactly like a missing one.
      expect([list, get], full).toSatisfy(([a, b]: number[]) => a === b && (a === 200 || a === 404));
      if (list === 200) readable.push(full);
    }
    return { search: found, readable: readable.sort() };
  }

  it('shows anonymous callers only public owners', async () => {
    expect(await seen(undefined)).toEqual({ search: ['plaza/square'], readable: ['plaza/square'] });
    expect((await failure(server.api().repos.issueGetIssue('hideout', 'plans', 1))).status).toBe(404);
  });

  it('shows a signed-in non-member limited owners as well, but no private one', async () => {
    expect(await seen(tokens.stranger)).toEqual({ search: ['club/news', 'plaza/square'], readable: ['club/news', 'plaza/square'] });
  });

  it('shows members their private organization, and the private user their own repositories', async () => {
    expect(await seen(tokens.owner)).toEqual({
      search: ['club/news', 'hideout/plans', 'plaza/square'],
      readable: ['club/news', 'hideout/plans', 'plaza/square'],
    });
    expect((await seen(tokens.hermit)).readable).toContain('hermit/diary');
  });

  it('shows collaborators the repositories they collaborate on behind a private owner', async () => {
    const all = ['club/news', 'hermit/diary', 'hideout/plans', 'plaza/square'];
    expect(await seen(tokens.collaborator)).toEqual({ search: all, readable: all });
  });

  it('shows the site administrator everything', async () => {
    const all = ['club/news', 'hermit/diary', 'hideout/plans', 'plaza/square'];
    expect(await seen(server.adminToken)).toEqual({ search: all, readable: all });
  });
});
