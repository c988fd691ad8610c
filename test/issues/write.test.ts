/**
 * Create, edit and deadline through gitea-js on both engines: permissions, writer-only fields,
 * deadlines, assignees, state changes with dependencies (412), events and timeline comments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssueEventMap } from '../../runtime/issues/api/events.js';
import { apiError, ENGINES, failure, startServer, type TestServer } from '../support/issues-harness.js';
import { buildWorld, type World } from './world.js';

describe.each(ENGINES)('issue writes on %s', (engine) => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    server = await startServer(engine);
    w = await buildWorld(server);
  });
  afterAll(async () => server?.close());

  const count = async (repo = 'pub') => {
    const res = await server.api(w.alice.token).repos.issueListIssues('alice', repo, { state: 'all', limit: 1 });
    return Number(res.headers.get('x-total-count'));
  };

  it("labels every JSON answer application/json;charset=utf-8, as Gitea's ctx.JSON does", async () => {
    const auth = { Authorization: `token ${w.alice.token}` };
    const json = { ...auth, 'Content-Type': 'application/json' };
    const created = await server.fetch('/repos/alice/pub/issues', { method: 'POST', headers: json, body: '{"title":"labelled"}' });
    const { number } = (await created.clone().json()) as { number: number };
    const answers = [
      created,
      await server.fetch(`/repos/alice/pub/issues/${number}`, { headers: auth }),
      await server.fetch('/repos/alice/pub/issues?limit=1', { headers: auth }),
      await server.fetch('/repos/alice/pub/labels', { headers: auth }),
      await server.fetch('/repos/alice/pub/issues/999999', { headers: auth }),
      await server.fetch('/no/such/route', { headers: auth }),
      await server.fetch('/repos/issues/search?since=yesterday'),
      await server.fetch('/repos/alice/pub/issues', { method: 'POST', headers: json, body: '{"title":5}' }),
    ];
    expect(answers.map((r) => [r.status, r.headers.get('content-type')])).toEqual(
      [201, 200, 200, 200, 404, 404, 422, 422].map((status) => [status, 'application/json;charset=utf-8']),
    );
  });

  describe('create', () => {
    it('stores a lone surrogate escape as U+FFFD, as Gitea decodes it, and reads it back so', async () => {
      const res = await server.fetch('/repos/alice/pub/issues', {
        method: 'POST',
        headers: { Authorization: `token ${w.alice.token}`, 'Content-Type': 'application/json' },
        body: '{"title":"half \\ud800 pair","body":"bug \\ud83d\\udc1b"}',
      });
      expect(res.status).toBe(201);
      const created = (await res.json()) as { number: number; title: string; body: string };
      expect([created.title, created.body]).toEqual(['half \ufffd pair', 'bug \u{1f41b}']);
      const read = (await server.api(w.alice.token).repos.issueGetIssue('alice', 'pub', created.number)).data;
      expect([read.title, read.body]).toEqual(['half \ufffd pair', 'bug \u{1f41b}']);
    });

    it('answers 201 with the issue as Gitea renders it, poster being the caller', async () => {
      const res = await server
        .api(w.bob.token)
        .repos.issueCreateIssue('alice', 'pub', { title: '  Crash on start  ', body: 'Steps: run it', ref: 'refs/heads/main' });
      expect(res.status).toBe(201);
      const issue = res.data as Record<string, unknown>;
      expect(issue).toMatchObject({
        title: 'Crash on start',
        body: 'Steps: run it',
        ref: 'refs/heads/main',
        state: 'open',
        comments: 0,
        labels: [],
        milestone: null,
        assignee: null,
        assignees: null,
        closed_at: null,
        due_date: null,
        pull_request: null,
        is_locked: false,
        pin_order: 0,
        time_estimate: 0,
        original_author: '',
        original_author_id: 0,
        assets: [],
        repository: { name: 'pub', owner: 'alice', full_name: 'alice/pub' },
      });
      // Exactly the keys of Gitea 1.25.3's Issue (notes §1.1), no more, no fewer.
      expect(Object.keys(issue).sort()).toEqual([
        'assets',
        'assignee',
        'assignees',
        'body',
        'closed_at',
        'comments',
        'created_at',
        'due_date',
        'html_url',
        'id',
        'is_locked',
        'labels',
        'milestone',
        'number',
        'original_author',
        'original_author_id',
        'pin_order',
        'pull_request',
        'ref',
        'repository',
        'state',
        'time_estimate',
        'title',
        'updated_at',
        'url',
        'user',
      ]);
      expect(issue.url).toBe(`http://issues.test/api/v1/repos/alice/pub/issues/${issue.number}`);
      expect(issue.html_url).toBe(`http://issues.test/alice/pub/issues/${issue.number}`);
      expect((issue.user as { login: string; username: string }).login).toBe('bob');
      expect((issue.user as { username: string }).username).toBe('bob');
      expect(issue.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      const fetched = await server.api().repos.issueGetIssue('alice', 'pub', issue.number as number);
      expect(fetched.data.title).toBe('Crash on start');
    });

    it('applies labels, milestone, assignees and deadline for writers (deadline: 23:59:59 of the date in its own offset)', async () => {
      const res = await server.api(w.bob.token).repos.issueCreateIssue('alice', 'pub', {
        title: 'writer fields',
        labels: [w.labels.ui, w.labels.bug, 999999],
        milestone: w.milestones.v1,
        assignee: 'bob',
        assignees: ['alice'],
        due_date: '2025-01-31T10:00:00+05:00',
      });
      expect(res.data.labels!.map((l) => l.name)).toEqual(['bug', 'ui']);
      expect(res.data.labels![0]).toEqual({
        id: w.labels.bug,
        name: 'bug',
        exclusive: false,
        is_archived: false,
        color: 'ee0701',
        description: '',
        url: `http://issues.test/api/v1/repos/alice/pub/labels/${w.labels.bug}`,
      });
      expect(res.data.milestone!.id).toBe(w.milestones.v1);
      expect(res.data.assignees!.map((u) => u.login)).toEqual(['alice', 'bob']);
      expect(res.data.assignee!.login).toBe('alice');
      // 2025-01-31T23:59:59+05:00 rendered in the server zone (UTC).
      expect(res.data.due_date).toBe('2025-01-31T18:59:59Z');
    });

    it('silently ignores writer-only fields for a caller without write access', async () => {
      const res = await server.api(w.dave.token).repos.issueCreateIssue('alice', 'pub', {
        title: 'from a reader',
        labels: [w.labels.bug],
        milestone: w.milestones.v1,
        assignees: ['nobody-at-all'],
        due_date: '2025-01-31T10:00:00Z',
      });
      expect(res.status).toBe(201);
      expect(res.data).toMatchObject({ labels: [], milestone: null, assignees: null, due_date: null });
      expect(res.data.user!.login).toBe('dave');
    });

    it('answers 422 for an unknown assignee and stores nothing', async () => {
      const before = await count();
      const f = await failure(
        server.api(w.bob.token).repos.issueCreateIssue('alice', 'pub', { title: 'x', assignees: ['bob', 'ghost-user'] }),
      );
      expect(f).toEqual({ status: 422, error: apiError('Assignee does not exist: [name: ghost-user]') });
      expect(await count()).toBe(before);
    });

    it('answers 422 for an assignee without write access to the repository', async () => {
      const f = await failure(server.api(w.bob.token).repos.issueCreateIssue('alice', 'priv', { title: 'x', assignee: 'dave' }));
      expect(f.status).toBe(422);
      expect((f.error as { message: string }).message).toContain('does not have access');
    });

    it('creates closed issues with closed: true and records the close on the timeline', async () => {
      const states: IssueEventMap['issue.state_changed'][] = [];
      const off = server.events.subscribe('issue.state_changed', (e) => void states.push(e));
      const res = await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', { title: 'born closed', closed: true });
      off();
      expect(res.status).toBe(201);
      expect(res.data.state).toBe('closed');
      expect(res.data.closed_at).not.toBeNull();
      expect(res.data.comments).toBe(1);
      expect(states.map((e) => [e.issue.index, e.oldState, e.newState])).toEqual([[res.data.number, 'open', 'closed']]);
    });

    it('answers 401 to anonymous callers on a public repository and 404 on a private one', async () => {
      expect(await failure(server.api().repos.issueCreateIssue('alice', 'pub', { title: 'x' }))).toEqual({
        status: 401,
        error: apiError('token is required'),
      });
      expect((await failure(server.api().repos.issueCreateIssue('alice', 'priv', { title: 'x' }))).status).toBe(404);
      expect((await failure(server.api(w.dave.token).repos.issueCreateIssue('alice', 'priv', { title: 'x' }))).status).toBe(404);
    });

    it('lets a read collaborator create (without writer fields) on a private repository', async () => {
      const res = await server.api(w.carol.token).repos.issueCreateIssue('alice', 'priv', { title: 'reader issue', assignees: ['alice'] });
      expect(res.status).toBe(201);
      expect(res.data.assignees).toBeNull();
    });

    it('answers 423 in an archived repository', async () => {
      await server.api(w.alice.token).user.createCurrentUserRepo({ name: 'old' });
      const repo = (await server.store.findRepo('alice', 'old'))!;
      await server.store.setRepoArchived(repo.id, true);
      const f = await failure(server.api(w.alice.token).repos.issueCreateIssue('alice', 'old', { title: 'x' }));
      expect(f).toEqual({ status: 423, error: apiError('repo alice/old is archived') });
    });
  });

  describe('edit (PATCH)', () => {
    const create = async (token: string, title = 'to edit', extra: Record<string, unknown> = {}) =>
      (await server.api(token).repos.issueCreateIssue('alice', 'pub', { title, ...extra })).data;

    it('answers 201, applies title/body/ref and ignores an empty title', async () => {
      const issue = await create(w.alice.token);
      const res = await server
        .api(w.alice.token)
        .repos.issueEditIssue('alice', 'pub', issue.number!, { title: '', body: 'new body', ref: 'v1.0' });
      expect(res.status).toBe(201);
      expect(res.data).toMatchObject({ title: 'to edit', body: 'new body', ref: 'v1.0' });
      const cleared = await server.api(w.alice.token).repos.issueEditIssue('alice', 'pub', issue.number!, { body: '' });
      expect(cleared.data.body).toBe('');
    });

    it('records title and state changes as timeline comments and publishes them on the bus', async () => {
      const issue = await create(w.alice.token, 'old title');
      const titles: IssueEventMap['issue.title_changed'][] = [];
      const states: IssueEventMap['issue.state_changed'][] = [];
      const off1 = server.events.subscribe('issue.title_changed', (e) => void titles.push(e));
      const off2 = server.events.subscribe('issue.state_changed', (e) => void states.push(e));
      const res = await server
        .api(w.bob.token)
        .repos.issueEditIssue('alice', 'pub', issue.number!, { title: 'new title', state: 'closed' });
      off1();
      off2();
      expect(res.data).toMatchObject({ title: 'new title', state: 'closed', comments: 2 });
      expect(res.data.closed_at).not.toBeNull();
      expect(titles.map((e) => [e.oldTitle, e.newTitle, e.actor.name])).toEqual([['old title', 'new title', 'bob']]);
      expect(states.map((e) => [e.oldState, e.newState])).toEqual([['open', 'closed']]);
      const timeline = await server.store.listComments(issue.id!);
      expect(timeline.map((c) => [c.type, c.oldValue, c.newValue])).toEqual([
        ['title', 'old title', 'new title'],
        ['state', 'open', 'closed'],
      ]);
      // The same PATCH again changes nothing and records nothing (idempotent).
      const again = await server
        .api(w.bob.token)
        .repos.issueEditIssue('alice', 'pub', issue.number!, { title: 'new title', state: 'closed' });
      expect(again.data).toMatchObject({ title: 'new title', state: 'closed', comments: 2 });
    });

    it('reopens for any state other than "closed" (the Issues API rule) and clears closed_at', async () => {
      const issue = await create(w.alice.token, 'reopen me', { closed: true });
      const res = await server.api(w.alice.token).repos.issueEditIssue('alice', 'pub', issue.number!, { state: 'whatever' });
      expect(res.data).toMatchObject({ state: 'open', closed_at: null });
    });

    it('lets the poster without write access change title, body and state but ignores writer fields', async () => {
      const issue = await create(w.dave.token, 'dave wrote this');
      const res = await server.api(w.dave.token).repos.issueEditIssue('alice', 'pub', issue.number!, {
        title: 'dave edited',
        body: 'b',
        state: 'closed',
        milestone: w.milestones.v1,
        assignees: ['alice'],
        due_date: '2025-03-01T00:00:00Z',
      });
      expect(res.status).toBe(201);
      expect(res.data).toMatchObject({
        title: 'dave edited',
        body: 'b',
        state: 'closed',
        milestone: null,
        assignees: null,
        due_date: null,
      });
    });

    it('answers 403 with an empty body to a non-poster without write access', async () => {
      const issue = await create(w.alice.token);
      const res = await server.fetch(`/repos/alice/pub/issues/${issue.number}`, {
        method: 'PATCH',
        headers: { Authorization: `token ${w.dave.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'hijack' }),
      });
      expect(res.status).toBe(403);
      expect(await res.text()).toBe('');
      expect((await server.api().repos.issueGetIssue('alice', 'pub', issue.number!)).data.title).toBe('to edit');
    });

    it('replaces assignees, clears them with [], and sets/removes the milestone', async () => {
      const issue = await create(w.alice.token, 'assign', { assignees: ['bob'] });
      const api = server.api(w.alice.token).repos;
      expect(
        (await api.issueEditIssue('alice', 'pub', issue.number!, { assignees: ['alice'] })).data.assignees!.map((u) => u.login),
      ).toEqual(['alice']);
      expect((await api.issueEditIssue('alice', 'pub', issue.number!, { assignees: [] })).data.assignees).toBeNull();
      expect((await api.issueEditIssue('alice', 'pub', issue.number!, { milestone: w.milestones.v2 })).data.milestone!.title).toBe('v2');
      expect((await api.issueEditIssue('alice', 'pub', issue.number!, { milestone: 0 })).data.milestone).toBeNull();
      expect((await failure(api.issueEditIssue('alice', 'pub', issue.number!, { assignees: ['no-such-user'] }))).status).toBe(422);
    });

    it("sets the deadline to 23:59:59 of the date in the value's own offset; unset_due_date clears it", async () => {
      const issue = await create(w.alice.token);
      const api = server.api(w.alice.token).repos;
      const set = await api.issueEditIssue('alice', 'pub', issue.number!, { due_date: '2025-06-15T03:00:00-07:00' });
      expect(set.data.due_date).toBe('2025-06-16T06:59:59Z');
      const unset = await api.issueEditIssue('alice', 'pub', issue.number!, { unset_due_date: true, due_date: '2025-06-15T03:00:00Z' });
      expect(unset.data.due_date).toBeNull();
      const zero = await api.issueEditIssue('alice', 'pub', issue.number!, { due_date: '0001-01-01T00:00:00Z' });
      expect(zero.data.due_date).toBeNull();
      expect(await failure(api.issueEditIssue('alice', 'pub', issue.number!, { unset_due_date: false }))).toEqual({
        status: 400,
        error: apiError('The due_date cannot be empty'),
      });
    });

    it('answers 412 when closing an issue with open dependencies and changes nothing', async () => {
      const blocker = await create(w.alice.token, 'blocker');
      const blocked = await create(w.alice.token, 'blocked');
      const api = server.api(w.alice.token).repos;
      await api.issueCreateIssueDependencies('alice', 'pub', String(blocked.number), {
        owner: 'alice',
        repo: 'pub',
        index: blocker.number,
      });
      const f = await failure(api.issueEditIssue('alice', 'pub', blocked.number!, { state: 'closed', title: 'should not stick' }));
      expect(f).toEqual({ status: 412, error: apiError('cannot close this issue or pull request because it still has open dependencies') });
      const after = await api.issueGetIssue('alice', 'pub', blocked.number!);
      expect(after.data).toMatchObject({ state: 'open', title: 'blocked', comments: 0 });
      await api.issueEditIssue('alice', 'pub', blocker.number!, { state: 'closed' });
      expect((await api.issueEditIssue('alice', 'pub', blocked.number!, { state: 'closed' })).data.state).toBe('closed');
    });

    it('answers 404 for a missing issue and 401 without a token', async () => {
      expect((await failure(server.api(w.alice.token).repos.issueEditIssue('alice', 'pub', 99999, { title: 'x' }))).status).toBe(404);
      expect((await failure(server.api().repos.issueEditIssue('alice', 'pub', 1, { title: 'x' }))).status).toBe(401);
    });
  });

  describe('deadline', () => {
    it('stores 23:59:59 of the given date in the server zone and answers 201', async () => {
      const issue = (await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', { title: 'deadline' })).data;
      const res = await server
        .api(w.bob.token)
        .repos.issueEditIssueDeadline('alice', 'pub', issue.number!, { due_date: '2025-01-31T10:00:00+05:00' });
      expect(res.status).toBe(201);
      expect(res.data).toEqual({ due_date: '2025-01-31T23:59:59Z' });
      expect((await server.api().repos.issueGetIssue('alice', 'pub', issue.number!)).data.due_date).toBe('2025-01-31T23:59:59Z');
    });

    it('removes the deadline for null and answers with the Unix epoch', async () => {
      const issue = (
        await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', { title: 'deadline', due_date: '2025-01-01T00:00:00Z' })
      ).data;
      const res = await server.fetch(`/repos/alice/pub/issues/${issue.number}/deadline`, {
        method: 'POST',
        headers: { Authorization: `token ${w.alice.token}`, 'Content-Type': 'application/json' },
        body: '{"due_date":null}',
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ due_date: '1970-01-01T00:00:00Z' });
      expect((await server.api().repos.issueGetIssue('alice', 'pub', issue.number!)).data.due_date).toBeNull();
    });

    it('answers 403 "Not repo writer" to the poster without write access, and 404 for a missing issue', async () => {
      const issue = (await server.api(w.dave.token).repos.issueCreateIssue('alice', 'pub', { title: 'mine' })).data;
      expect(
        await failure(
          server.api(w.dave.token).repos.issueEditIssueDeadline('alice', 'pub', issue.number!, { due_date: '2025-01-01T00:00:00Z' }),
        ),
      ).toEqual({ status: 403, error: apiError('Not repo writer') });
      expect(
        (
          await failure(
            server.api(w.alice.token).repos.issueEditIssueDeadline('alice', 'pub', 424242, { due_date: '2025-01-01T00:00:00Z' }),
          )
        ).status,
      ).toBe(404);
    });
  });
});

describe('deadline endpoint in a non-UTC server zone', () => {
  it('uses the configured zone for the end of day and renders times with the zone offset', async () => {
    const server = await startServer('sqlite', { timeZone: 'Asia/Kolkata' });
    try {
      const alice = await server.createUser('alice');
      await server.api(alice.token).user.createCurrentUserRepo({ name: 'r' });
      await server.api(alice.token).repos.issueCreateIssue('alice', 'r', { title: 'x' });
      const res = await server.api(alice.token).repos.issueEditIssueDeadline('alice', 'r', 1, { due_date: '2025-01-31T22:00:00-08:00' });
      expect(res.data).toEqual({ due_date: '2025-01-31T23:59:59+05:30' });
    } finally {
      await server.close();
    }
  });
});
