/**
 * The same service driven by Loom's generated client (`generated/issues/openapi.client.ts`)
 * over real HTTP on both engines: the six operations, their headers and Gitea's errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssueClient, UserClient } from '../../generated/issues/openapi.client.js';
import { ApiError } from '../../runtime/entries/client.js';
import { apiError, ENGINES, startServer, type TestServer } from '../support/issues-harness.js';

describe.each(ENGINES)('generated client on %s', (engine) => {
  let server: TestServer;
  let issues: IssueClient;
  let anonymous: IssueClient;
  beforeAll(async () => {
    server = await startServer(engine);
    const alice = await server.createUser('alice');
    await server.api(alice.token).user.createCurrentUserRepo({ name: 'proj' });
    issues = new IssueClient({ baseUrl: server.baseUrl, headers: { authorization: `token ${alice.token}` } });
    anonymous = new IssueClient({ baseUrl: server.baseUrl });
  });
  afterAll(async () => server?.close());

  it('creates, gets, edits and sets deadlines', async () => {
    const created = await issues.issueCreateIssueWithResponse({
      owner: 'alice',
      repo: 'proj',
      body: { title: 'From the generated client', body: 'typed' },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ number: 1, title: 'From the generated client', body: 'typed', state: 'open', assignees: null });
    expect((await anonymous.issueGetIssue({ owner: 'alice', repo: 'proj', index: 1 })).title).toBe('From the generated client');
    const edited = await issues.issueEditIssueWithResponse({
      owner: 'alice',
      repo: 'proj',
      index: 1,
      body: { state: 'closed', title: 'Renamed' },
    });
    expect(edited.response.status).toBe(201);
    expect(edited.data).toMatchObject({ title: 'Renamed', state: 'closed', comments: 2 });
    const deadline = await issues.issueEditIssueDeadline({
      owner: 'alice',
      repo: 'proj',
      index: 1,
      body: { due_date: '2025-12-31T08:00:00-10:00' },
    });
    expect(deadline).toEqual({ due_date: '2025-12-31T23:59:59Z' });
  });

  it('lists and searches with X-Total-Count and Link', async () => {
    for (let i = 0; i < 3; i++) await issues.issueCreateIssue({ owner: 'alice', repo: 'proj', body: { title: `listed ${i}` } });
    const page = await issues.issueListIssuesWithResponse({ owner: 'alice', repo: 'proj', state: 'all', limit: 2, page: 1 });
    expect(page.data.map((i) => i.title)).toEqual(['listed 2', 'listed 1']);
    expect(page.response.headers.get('x-total-count')).toBe('4');
    expect(page.response.headers.get('link')).toBe(
      '<http://issues.test/api/v1/repos/alice/proj/issues?limit=2&page=2&state=all>; ' +
        'rel="next",<http://issues.test/api/v1/repos/alice/proj/issues?limit=2&page=2&state=all>; rel="last"',
    );
    const found = await anonymous.issueSearchIssuesWithResponse({ q: 'listed', type: 'issues' });
    expect(found.data).toHaveLength(3);
    expect(found.response.headers.get('x-total-count')).toBe('3');
  });

  it("rejects with ApiError carrying Gitea's body", async () => {
    const missing = await anonymous.issueGetIssue({ owner: 'alice', repo: 'proj', index: 404 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).status).toBe(404);
    expect((missing as ApiError).body).toEqual(apiError('not found'));
    const unauthenticated = await anonymous
      .issueCreateIssue({ owner: 'alice', repo: 'proj', body: { title: 'x' } })
      .catch((e: unknown) => e);
    expect((unauthenticated as ApiError).status).toBe(401);
    const invalid = await issues.issueListIssues({ owner: 'alice', repo: 'proj', since: 'soon' }).catch((e: unknown) => e);
    expect((invalid as ApiError).status).toBe(422);
    const me = await new UserClient({ baseUrl: server.baseUrl, headers: { authorization: `token ${server.adminToken}` } }).userGetCurrent();
    expect(me.login).toBe('root');
  });
});
