/**
 * Request bodies exactly as Gitea's Go SDK (`code.gitea.io/sdk/gitea`, used by `tea`) sends them,
 * on both engines. Go marshals every option it leaves out as `null` (nil pointers and slices), and
 * Gitea decodes `null` as "absent": such bodies must change only what they set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, ENGINES, startServer, type TestServer } from '../support/issues-harness.js';
import { buildWorld, type World } from './world.js';

/** `sdk.EditIssueOption` with nothing set: Go's field order, every pointer and slice `null`. */
const EDIT_NOTHING = {
  title: '',
  body: null,
  ref: null,
  assignees: null,
  milestone: null,
  state: null,
  due_date: null,
  unset_due_date: null,
};

describe.each(ENGINES)('Go SDK bodies on %s', (engine) => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    server = await startServer(engine);
    w = await buildWorld(server);
  });
  afterAll(async () => server?.close());

  const send = (method: string, path: string, body: unknown, token = w.alice.token) => server.sendJson(method, path, body, token);

  /** A closed issue with a deadline, assignees, a milestone and a ref: everything an edit could wrongly reset. */
  async function richIssue(): Promise<number> {
    const created = await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', {
      title: 'rich',
      body: 'original body',
      ref: 'refs/heads/main',
      assignees: ['bob'],
      milestone: w.milestones.v1,
      due_date: '2030-01-15T12:00:00Z',
      closed: true,
    });
    return created.data.number!;
  }

  it('creates an issue from sdk.CreateIssueOption with nil slices and deadline (201)', async () => {
    const res = await send('POST', '/repos/alice/pub/issues', {
      title: 'From tea',
      body: '',
      ref: '',
      assignees: null,
      due_date: null,
      milestone: 0,
      labels: null,
      closed: false,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'From tea',
      body: '',
      state: 'open',
      assignees: null,
      labels: [],
      milestone: null,
      due_date: null,
    });
  });

  it('creates with every optional field null, the way a hand-written Go struct of pointers sends it', async () => {
    const res = await send('POST', '/repos/alice/pub/issues', {
      title: 'all null',
      body: null,
      ref: null,
      assignee: null,
      assignees: null,
      due_date: null,
      milestone: null,
      labels: null,
      closed: null,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'all null', body: '', ref: '', state: 'open', due_date: null });
  });

  it('sdk.EditIssueOption with only a title edits the title alone: state, deadline, assignees, milestone, body and ref stay', async () => {
    const index = await richIssue();
    const before = (await server.api(w.alice.token).repos.issueGetIssue('alice', 'pub', index)).data;
    const res = await send('PATCH', `/repos/alice/pub/issues/${index}`, { ...EDIT_NOTHING, title: 'renamed by tea' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'renamed by tea',
      body: 'original body',
      ref: 'refs/heads/main',
      state: 'closed',
      due_date: before.due_date,
      milestone: { id: w.milestones.v1 },
      assignees: [{ login: 'bob' }],
    });
  });

  it('changes nothing for an sdk.EditIssueOption with nothing set', async () => {
    const index = await richIssue();
    const before = (await server.api(w.alice.token).repos.issueGetIssue('alice', 'pub', index)).data;
    const res = await send('PATCH', `/repos/alice/pub/issues/${index}`, EDIT_NOTHING);
    expect(res.status).toBe(201);
    expect(res.body).toEqual(before);
  });

  it('reopens and sets a deadline through sdk.EditIssueOption, leaving the nulls alone', async () => {
    const index = await richIssue();
    const res = await send('PATCH', `/repos/alice/pub/issues/${index}`, {
      ...EDIT_NOTHING,
      state: 'open',
      due_date: '2031-03-01T08:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      state: 'open',
      due_date: '2031-03-01T23:59:59Z',
      body: 'original body',
      assignees: [{ login: 'bob' }],
    });
    const removed = await send('PATCH', `/repos/alice/pub/issues/${index}`, { ...EDIT_NOTHING, unset_due_date: true });
    expect(removed.body).toMatchObject({ due_date: null, state: 'open' });
  });

  it('reads {"body":"x","due_date":null} as a body change only; unset_due_date false without a date is still 400', async () => {
    const index = await richIssue();
    const before = (await server.api(w.alice.token).repos.issueGetIssue('alice', 'pub', index)).data;
    const res = await send('PATCH', `/repos/alice/pub/issues/${index}`, { body: 'x', due_date: null });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: 'x', due_date: before.due_date, state: 'closed' });
    const empty = await send('PATCH', `/repos/alice/pub/issues/${index}`, { due_date: null, unset_due_date: false });
    expect(empty).toEqual({ status: 400, body: apiError('The due_date cannot be empty') });
  });

  it('removes a deadline with sdk.EditDeadlineOption{Deadline: nil}', async () => {
    const index = await richIssue();
    const res = await send('POST', `/repos/alice/pub/issues/${index}/deadline`, { due_date: null });
    expect(res).toEqual({ status: 201, body: { due_date: '1970-01-01T00:00:00Z' } });
  });

  it('creates a pull request from sdk.CreatePullRequestOption with nil slices (201)', async () => {
    const res = await send('POST', '/repos/alice/pub/pulls', {
      head: 'feature',
      base: 'main',
      title: 'PR from tea',
      body: '',
      assignee: '',
      assignees: null,
      reviewers: null,
      team_reviewers: null,
      milestone: 0,
      labels: null,
      due_date: null,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'PR from tea', assignees: null, requested_reviewers: null, due_date: null });
  });

  it("accepts tea's setup options: a user with nil pointers, a milestone without due date, a collaborator without permission", async () => {
    const user = await send(
      'POST',
      '/admin/users',
      {
        source_id: 0,
        login_name: '',
        username: 'gopher',
        full_name: '',
        email: 'gopher@example.com',
        password: 'gopher-password',
        must_change_password: null,
        send_notify: false,
        visibility: null,
      },
      server.adminToken,
    );
    expect(user.status).toBe(201);
    expect(user.body).toMatchObject({ login: 'gopher', visibility: 'public' });
    const milestone = await send('POST', '/repos/alice/pub/milestones', { title: 'v9', description: '', state: 'open', due_on: null });
    expect(milestone.status).toBe(201);
    expect(milestone.body).toMatchObject({ title: 'v9', due_on: null });
    const collaborator = await send('PUT', '/repos/alice/pub/collaborators/gopher', { permission: null });
    expect(collaborator.status).toBe(204);
    expect(await server.store.getPermission((await server.store.findRepo('alice', 'pub'))!.id, user.body.id)).toBe('write');
  });

  it('still answers 422 for a value of the wrong type, naming the type a value must have', async () => {
    const res = await send('POST', '/repos/alice/pub/issues', { title: 'x', milestone: 'v1' });
    expect(res).toEqual({ status: 422, body: apiError('[Milestone]: must be integer') });
  });
});
