/**
 * Search, list and get through gitea-js on both engines: every filter of the Issues API, keyword
 * handling, paging with Gitea's `Link` and `X-Total-Count`, and visibility.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, ENGINES, failure, startServer, type TestServer } from '../support/issues-harness.js';
import { buildWorld, type World } from './world.js';

describe.each(ENGINES)('issue reads on %s', (engine) => {
  let server: TestServer;
  let w: World;
  const n: Record<string, number> = {};
  let m: { v1: number; v2: number };
  beforeAll(async () => {
    server = await startServer(engine);
    w = await buildWorld(server);
    const a = server.api(w.alice.token).repos;
    await server.api(w.alice.token).user.createCurrentUserRepo({ name: 'list' });
    await a.repoAddCollaborator('alice', 'list', 'bob', { permission: 'write' });
    const bug = (await a.issueCreateLabel('alice', 'list', { name: 'bug', color: 'ff0000' })).data.id!;
    const ui = (await a.issueCreateLabel('alice', 'list', { name: 'ui', color: '00ff00' })).data.id!;
    const docs = (await a.issueCreateLabel('alice', 'list', { name: 'docs', color: '0000ff' })).data.id!;
    m = {
      v1: (await a.issueCreateMilestone('alice', 'list', { title: 'v1' })).data.id!,
      v2: (await a.issueCreateMilestone('alice', 'list', { title: 'v2' })).data.id!,
    };
    n.crash = (
      await a.issueCreateIssue('alice', 'list', {
        title: 'Crash on start',
        body: 'the app crashes, cc @carol',
        labels: [bug],
        milestone: m.v1,
        assignees: ['bob'],
      })
    ).data.number!;
    n.glitch = (
      await server
        .api(w.bob.token)
        .repos.issueCreateIssue('alice', 'list', { title: 'UI glitch', body: 'flicker', labels: [ui], milestone: m.v2 })
    ).data.number!;
    n.docs = (await a.issueCreateIssue('alice', 'list', { title: 'Docs typo', body: 'teh', labels: [docs, bug], closed: true })).data
      .number!;
    n.pull = (
      await server
        .api(w.bob.token)
        .repos.repoCreatePullRequest('alice', 'list', { title: 'Fix crash', head: 'fix', base: 'main', reviewers: ['alice'] })
    ).data.number!;
    n.plain = (await server.api(w.dave.token).repos.issueCreateIssue('alice', 'list', { title: 'Plain', body: 'nothing special' })).data
      .number!;
    // Private material that must never leak.
    await a.issueCreateIssue('alice', 'priv', { title: 'Secret crash', body: 'crash in private', assignees: ['bob'] });
  });
  afterAll(async () => server?.close());

  it('answers JSON whatever Accept asks for, as Gitea does (never 406)', async () => {
    for (const accept of ['text/html', 'text/plain', 'application/vnd.github.v3+json', 'nonsense']) {
      const res = await server.fetch(`/repos/alice/list/issues/${n.plain}`, {
        headers: { Accept: accept, Authorization: `token ${w.alice.token}` },
      });
      expect([res.status, res.headers.get('content-type'), ((await res.json()) as { title: string }).title]).toEqual([
        200,
        'application/json;charset=utf-8',
        'Plain',
      ]);
    }
  });

  const list = async (query: Record<string, unknown>, token = w.alice.token) => {
    const res = await server.api(token).repos.issueListIssues('alice', 'list', query as never);
    return { numbers: res.data.map((i) => i.number), total: Number(res.headers.get('x-total-count')), link: res.headers.get('link'), res };
  };

  describe('list', () => {
    it('returns open issues and pull requests, newest first, by default', async () => {
      const r = await list({});
      expect(r.numbers).toEqual([n.plain, n.pull, n.glitch, n.crash]);
      expect(r.total).toBe(4);
      expect(r.link).toBeNull();
      expect(r.res.headers.get('access-control-expose-headers')).toBe('Link, X-Total-Count');
    });

    it('selects closed, all, and treats unknown states as open', async () => {
      expect((await list({ state: 'closed' })).numbers).toEqual([n.docs]);
      expect((await list({ state: 'all' })).numbers).toEqual([n.plain, n.pull, n.docs, n.glitch, n.crash]);
      expect((await list({ state: 'bogus' })).numbers).toEqual([n.plain, n.pull, n.glitch, n.crash]);
    });

    it('filters by type', async () => {
      expect((await list({ type: 'pulls' })).numbers).toEqual([n.pull]);
      expect((await list({ type: 'issues' })).numbers).toEqual([n.plain, n.glitch, n.crash]);
      const pull = (await list({ type: 'pulls' })).res.data[0]!;
      expect(pull.pull_request).toEqual({
        merged: false,
        merged_at: null,
        draft: false,
        html_url: `http://issues.test/alice/list/pulls/${n.pull}`,
      });
      expect(pull.html_url).toBe(`http://issues.test/alice/list/pulls/${n.pull}`);
    });

    it('filters labels any-of, discarding unknown names', async () => {
      expect((await list({ state: 'all', labels: 'bug' })).numbers).toEqual([n.docs, n.crash]);
      expect((await list({ state: 'all', labels: 'ui,docs' })).numbers).toEqual([n.docs, n.glitch]);
      expect((await list({ state: 'all', labels: 'bug,nope' })).numbers).toEqual([n.docs, n.crash]);
      // Only unknown names: the filter is dropped.
      expect((await list({ state: 'all', labels: 'nope' })).total).toBe(5);
    });

    it('filters milestones by name or id, names first, ignoring unknown values', async () => {
      expect((await list({ milestones: 'v1' })).numbers).toEqual([n.crash]);
      expect((await list({ milestones: `ignore,${m.v2},v1` })).numbers).toEqual([n.glitch, n.crash]);
    });

    it('searches the keyword in title and body, trimmed; a NUL makes it empty', async () => {
      expect((await list({ q: 'crash' })).numbers.sort()).toEqual([n.crash, n.pull].sort());
      expect((await list({ q: '  flicker  ' })).numbers).toEqual([n.glitch]);
      expect((await list({ q: 'flick\u0000er' })).total).toBe(4);
      expect((await list({ q: 'zebra' })).numbers).toEqual([]);
      // No keyword match but a matching label: the label result (the Issues API's rule).
      expect((await list({ q: 'zebra', labels: 'ui' })).numbers).toEqual([n.glitch]);
      expect((await list({ q: 'zebra', labels: 'nope' })).numbers).toEqual([]);
    });

    it('filters by since/before on the update time and answers 422 for invalid dates', async () => {
      expect((await list({ since: '2000-01-01T00:50:01+00:00' })).total).toBe(4);
      expect((await list({ since: '2100-01-01T00:00:00Z' })).total).toBe(0);
      expect((await list({ before: '2000-01-01T00:00:00Z' })).total).toBe(0);
      const f = await failure(server.api(w.alice.token).repos.issueListIssues('alice', 'list', { since: 'yesterday' }));
      expect(f.status).toBe(422);
      expect(
        (await failure(server.api(w.alice.token).repos.issueListIssues('alice', 'list', { before: '2025-02-30T00:00:00Z' }))).status,
      ).toBe(422);
    });

    it('filters by created_by, assigned_by and mentioned_by, and answers 404 for unknown users', async () => {
      expect((await list({ state: 'all', created_by: 'bob' })).numbers).toEqual([n.pull, n.glitch]);
      expect((await list({ state: 'all', assigned_by: 'bob' })).numbers).toEqual([n.crash]);
      expect((await list({ state: 'all', mentioned_by: 'carol' })).numbers).toEqual([n.crash]);
      expect((await failure(server.api(w.alice.token).repos.issueListIssues('alice', 'list', { created_by: 'nobody' }))).status).toBe(404);
      expect((await failure(server.api(w.alice.token).repos.issueListIssues('alice', 'list', { assigned_by: 'nobody' }))).status).toBe(404);
      expect((await failure(server.api(w.alice.token).repos.issueListIssues('alice', 'list', { mentioned_by: 'nobody' }))).status).toBe(
        404,
      );
    });

    it("pages with Gitea's Link header (next, last, first, prev; keys sorted) and X-Total-Count", async () => {
      const r = await list({ state: 'all', limit: 2, page: 2 });
      expect(r.numbers).toEqual([n.docs, n.glitch]);
      expect(r.total).toBe(5);
      const u = (page: number) => `<http://issues.test/api/v1/repos/alice/list/issues?limit=2&page=${page}&state=all>`;
      expect(r.link).toBe(`${u(3)}; rel="next",${u(3)}; rel="last",${u(1)}; rel="first",${u(1)}; rel="prev"`);
      const last = await list({ state: 'all', limit: 2, page: 3 });
      expect(last.numbers).toEqual([n.crash]);
      expect(last.link).toBe(`${u(1)}; rel="first",${u(2)}; rel="prev"`);
      const beyond = await list({ state: 'all', limit: 2, page: 99 });
      expect(beyond.numbers).toEqual([]);
      expect(beyond.total).toBe(5);
      expect(beyond.link).toBe(`${u(1)}; rel="first",${u(2)}; rel="prev"`);
    });

    it('routes a path with a trailing slash or doubled slashes as Gitea does, and links without them', async () => {
      const res = await server.fetch('//repos/alice//list/issues/?state=all&limit=2&page=2', {
        headers: { Authorization: `token ${w.alice.token}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { number: number }[]).map((i) => i.number)).toEqual([n.docs, n.glitch]);
      const u = (page: number) => `<http://issues.test/api/v1/repos/alice/list/issues?limit=2&page=${page}&state=all>`;
      expect(res.headers.get('link')).toBe(`${u(3)}; rel="next",${u(3)}; rel="last",${u(1)}; rel="first",${u(1)}; rel="prev"`);
    });

    it('answers 404 for a private repository to anonymous and unrelated callers, 200 to readers', async () => {
      expect((await failure(server.api().repos.issueListIssues('alice', 'priv', {}))).status).toBe(404);
      expect((await failure(server.api(w.dave.token).repos.issueListIssues('alice', 'priv', {}))).status).toBe(404);
      expect((await failure(server.api(w.dave.token).repos.issueListIssues('alice', 'missing', {}))).error).toEqual(apiError('not found'));
      expect((await server.api(w.carol.token).repos.issueListIssues('alice', 'priv', {})).data.map((i) => i.title)).toEqual([
        'Secret crash',
      ]);
    });
  });

  describe('page sizes from configuration', () => {
    it('lists 30 by default and at most 50; search 20 by default', async () => {
      await server.api(w.alice.token).user.createCurrentUserRepo({ name: 'bulk' });
      const repo = (await server.store.findRepo('alice', 'bulk'))!;
      await server.store.importIssues(
        Array.from({ length: 60 }, (_, i) => ({ repoId: repo.id, posterId: w.alice.id, title: `bulk ${i}` })),
      );
      const api = server.api(w.alice.token).repos;
      expect((await api.issueListIssues('alice', 'bulk', {})).data).toHaveLength(30);
      expect((await api.issueListIssues('alice', 'bulk', { limit: 0 })).data).toHaveLength(30);
      const capped = await api.issueListIssues('alice', 'bulk', { limit: 500 });
      expect(capped.data).toHaveLength(50);
      expect(capped.headers.get('x-total-count')).toBe('60');
      expect(capped.headers.get('link')).toBe(
        '<http://issues.test/api/v1/repos/alice/bulk/issues?limit=500&page=2>; ' +
          'rel="next",<http://issues.test/api/v1/repos/alice/bulk/issues?limit=500&page=2>; rel="last"',
      );
      const search = await api.issueSearchIssues({ q: 'bulk' });
      expect(search.data).toHaveLength(20);
      expect(search.headers.get('x-total-count')).toBe('60');
      expect((await api.issueSearchIssues({ q: 'bulk', limit: 10 })).data).toHaveLength(10);
    });

    it('honours configured sizes', async () => {
      const small = await startServer('sqlite', { defaultPagingNum: 2, maxResponseItems: 3, issuePagingNum: 1 });
      try {
        const alice = await small.createUser('alice');
        await small.api(alice.token).user.createCurrentUserRepo({ name: 'r' });
        for (let i = 0; i < 4; i++) await small.api(alice.token).repos.issueCreateIssue('alice', 'r', { title: `i${i}` });
        expect((await small.api(alice.token).repos.issueListIssues('alice', 'r', {})).data).toHaveLength(2);
        expect((await small.api(alice.token).repos.issueListIssues('alice', 'r', { limit: 10 })).data).toHaveLength(3);
        expect((await small.api(alice.token).repos.issueSearchIssues({})).data).toHaveLength(1);
      } finally {
        await small.close();
      }
    });
  });

  describe('search', () => {
    const search = async (query: Record<string, unknown>, token?: string) => {
      const res = await server.api(token).repos.issueSearchIssues(query as never);
      return { titles: res.data.map((i) => i.title), total: Number(res.headers.get('x-total-count')), res };
    };

    it('shows anonymous callers public repositories only', async () => {
      const r = await search({ q: 'crash', state: 'all' });
      expect(r.titles.sort()).toEqual(['Crash on start', 'Fix crash']);
    });

    it('adds the private repositories the caller can read', async () => {
      expect((await search({ q: 'crash' }, w.carol.token)).titles.sort()).toEqual(['Crash on start', 'Fix crash', 'Secret crash']);
      expect((await search({ q: 'crash' }, w.dave.token)).titles.sort()).toEqual(['Crash on start', 'Fix crash']);
    });

    it('limits a public-only token to public repositories', async () => {
      const limited = await server.createUser('carla', ['read:issue', 'public-only']);
      await server.api(w.alice.token).repos.repoAddCollaborator('alice', 'priv', 'carla', { permission: 'read' });
      expect((await search({ q: 'crash' }, limited.token)).titles.sort()).toEqual(['Crash on start', 'Fix crash']);
      const f = await failure(server.api(limited.token).repos.issueListIssues('alice', 'priv', {}));
      expect(f).toEqual({ status: 403, error: apiError('token scope is limited to public issues') });
    });

    it('applies assigned, created, mentioned and review_requested for signed-in callers only', async () => {
      expect((await search({ assigned: true, state: 'all' }, w.bob.token)).titles.sort()).toEqual(['Crash on start', 'Secret crash']);
      expect((await search({ created: true, state: 'all' }, w.bob.token)).titles.sort()).toEqual(['Fix crash', 'UI glitch']);
      expect((await search({ created: true, type: 'pulls' }, w.bob.token)).titles).toEqual(['Fix crash']);
      expect((await search({ mentioned: true }, w.carol.token)).titles).toEqual(['Crash on start']);
      expect((await search({ review_requested: true }, w.alice.token)).titles).toEqual(['Fix crash']);
      // Anonymous: the personal filters are ignored.
      expect((await search({ assigned: true, q: 'crash' })).total).toBe(2);
    });

    it('filters labels (any-of) and milestones by name, and answers 422 for invalid dates', async () => {
      expect((await search({ labels: 'ui', state: 'all' })).titles).toEqual(['UI glitch']);
      expect((await search({ labels: 'ui,docs', state: 'all' })).titles).toEqual(['Docs typo', 'UI glitch']);
      expect((await search({ milestones: 'v2' })).titles).toEqual(['UI glitch']);
      expect((await search({ milestones: 'v1,v2' })).titles).toEqual(['UI glitch', 'Crash on start']);
      expect((await failure(server.api().repos.issueSearchIssues({ since: 'not a date' }))).status).toBe(422);
      expect((await failure(server.api().repos.issueSearchIssues({ before: '2025-13-01T00:00:00Z' }))).status).toBe(422);
    });

    it('returns an empty list for a keyword without matches, unless labels or milestones are given', async () => {
      expect((await search({ q: 'zebra' })).titles).toEqual([]);
      expect((await search({ q: 'zebra', milestones: 'v2' })).titles).toEqual(['UI glitch']);
      expect((await search({ q: '\u0000', labels: 'ui' })).titles).toEqual(['UI glitch']);
    });

    it('puts the priority repository first', async () => {
      const tools = (await server.store.findRepo('acme', 'tools'))!;
      await server.api(w.alice.token).repos.issueCreateIssue('acme', 'tools', { title: 'crash in tools' });
      await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', { title: 'crash in pub (newest)' });
      const r = await search({ q: 'crash', priority_repo_id: tools.id });
      expect(r.titles[0]).toBe('crash in tools');
    });
  });

  describe('get', () => {
    it('returns one issue with its labels, milestone and assignees; 404 for unknown numbers', async () => {
      const res = await server.api().repos.issueGetIssue('alice', 'list', n.crash!);
      expect(res.status).toBe(200);
      expect(res.data.labels!.map((l) => l.name)).toEqual(['bug']);
      expect(res.data.milestone!.title).toBe('v1');
      expect(res.data.assignees!.map((u) => u.login)).toEqual(['bob']);
      // Anonymous viewers get placeholder emails.
      expect(res.data.user!.email).toBe('alice@noreply.issues.test');
      expect((await failure(server.api().repos.issueGetIssue('alice', 'list', 9999))).error).toEqual(apiError('not found'));
    });

    it('answers a trailing slash like the path without it, including 404s', async () => {
      const res = await server.fetch(`/repos/alice/list/issues/${n.crash}/`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { title: string }).title).toBe('Crash on start');
      const missing = await server.fetch('/repos/alice/list/issues/9999/');
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual(apiError('not found'));
    });

    it('hides private issues from callers without access', async () => {
      expect((await failure(server.api().repos.issueGetIssue('alice', 'priv', 1))).status).toBe(404);
      expect((await failure(server.api(w.dave.token).repos.issueGetIssue('alice', 'priv', 1))).status).toBe(404);
      expect((await server.api(w.carol.token).repos.issueGetIssue('alice', 'priv', 1)).data.title).toBe('Secret crash');
    });
  });
});
