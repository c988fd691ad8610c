/**
 * Bad input of every kind gets a documented 4xx with a Gitea JSON body — never a 500 — and
 * leaves nothing stored.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, ENGINES, startServer, type TestServer } from '../support/issues-harness.js';

describe.each(ENGINES)('bad input on %s', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(engine);
    token = (await server.createUser('alice')).token;
    await server.api(token).user.createCurrentUserRepo({ name: 'pub' });
    await server.api(token).repos.issueCreateIssue('alice', 'pub', { title: 'existing' });
  });
  afterAll(async () => server?.close());

  const post = (path: string, body: string | undefined, contentType: string | null = 'application/json', method = 'POST') =>
    server.fetch(path, {
      method,
      headers: { Authorization: `token ${token}`, ...(contentType ? { 'Content-Type': contentType } : {}) },
      // Bytes, so that fetch adds no `text/plain` type of its own when none is given.
      body: body === undefined ? undefined : new TextEncoder().encode(body),
    });
  const total = async () =>
    Number(
      (await server.fetch('/repos/alice/pub/issues?state=all', { headers: { Authorization: `token ${token}` } })).headers.get(
        'x-total-count',
      ),
    );

  it.each([
    ['malformed JSON', '{"title": "x",', 'application/json', /^\[\]: /],
    ['a JSON array', '[1,2]', 'application/json', /^\[\]: must be object$/],
    ['JSON null', 'null', 'application/json', /^\[\]: must be object$/],
    ['a number title', '{"title": 5}', 'application/json', /^\[Title\]: must be string$/],
    ['a string for labels', '{"title": "x", "labels": "bug"}', 'application/json', /^\[Labels\]: must be array$/],
    ['a string in labels', '{"title": "x", "labels": ["bug"]}', 'application/json', /^\[Labels.0\]: must be integer$/],
    ['a string milestone', '{"title": "x", "milestone": "v1"}', 'application/json', /^\[Milestone\]: must be integer$/],
    ['an unknown field', '{"title": "x", "admin": true}', 'application/json', /^\[\]: json: unknown field "admin"$/],
    ['a missing title', '{"body": "x"}', 'application/json', /^\[Title\]: Required$/],
    ['a blank title', '{"title": "   "}', 'application/json', /^\[Title\]: Required$/],
    ['an invalid due_date', '{"title": "x", "due_date": "tomorrow"}', 'application/json', /^\[DueDate\]: /],
    ['a missing Content-Type', '{"title": "x"}', null, /^\[\]: Empty Content-Type$/],
    ['an XML Content-Type', '<title>x</title>', 'application/xml', /^\[\]: Unsupported Content-Type$/],
  ])('answers 422 for %s on create and stores nothing', async (_name, body, type, message) => {
    const before = await total();
    const res = await post('/repos/alice/pub/issues', body, type);
    expect(res.status).toBe(422);
    const json = (await res.json()) as { message: string; url: string };
    expect(json.url).toBe('http://issues.test/api/swagger');
    expect(json.message).toMatch(message);
    expect(await total()).toBe(before);
  });

  it("answers a malformed write in Gitea's order: 404 for a repository the caller cannot see, 401 without a token, then 422", async () => {
    const owner = await server.createUser('olga');
    await server.api(owner.token).user.createCurrentUserRepo({ name: 'hidden', private: true });
    const stranger = await server.createUser('sam');
    const send = (path: string, auth: string | undefined, body: string, method = 'POST') =>
      server.fetch(path, {
        method,
        headers: { ...(auth ? { Authorization: `token ${auth}` } : {}), 'Content-Type': 'application/json' },
        body,
      });
    const status = async (res: Promise<Response>) => {
      const r = await res;
      return [r.status, ((await r.json()) as { message: string }).message];
    };
    // Anonymous: 401 on a public repository, 404 on a private one, whatever the body holds.
    expect(await status(send('/repos/alice/pub/issues', undefined, '{bad'))).toEqual([401, 'token is required']);
    expect(await status(send('/repos/alice/pub/issues', undefined, '{"title":5}'))).toEqual([401, 'token is required']);
    expect(await status(send('/repos/olga/hidden/issues', undefined, '{bad'))).toEqual([404, 'not found']);
    expect(await status(send('/repos/olga/hidden/issues/1/deadline', undefined, '{}'))).toEqual([404, 'not found']);
    // Signed in without access to it, or naming no repository: 404.
    expect(await status(send('/repos/olga/hidden/issues/1', stranger.token, '{bad', 'PATCH'))).toEqual([404, 'not found']);
    expect(await status(send('/repos/olga/nothing/issues', stranger.token, '{bad'))).toEqual([404, 'not found']);
    // Anonymous on an endpoint without a repository: 401.
    expect(await status(send('/user/repos', undefined, '{"name":5}'))).toEqual([401, 'token is required']);
    // With a token and access, the binding error stands.
    expect((await send('/repos/olga/hidden/issues', owner.token, '{bad')).status).toBe(422);
  });

  it('refuses an anonymous write before reading its body, and leaves unknown routes 404 for everyone', async () => {
    // The body is declared and never sent: the answer can only come from the headers.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.baseUrl}/api/v1/repos/alice/pub/issues`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '100000' },
        agent: false,
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body: text });
          req.destroy();
        });
      });
      req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
      req.flushHeaders();
    });
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toEqual(apiError('token is required'));
    const unknown = await server.fetch('/repos/alice/pub/nonsense', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
  });

  it('answers 413 with a JSON body for an oversized request', async () => {
    const before = await total();
    // Plain node:http on its own connection: the server answers before reading the whole body and
    // closes that connection, which must not disturb the pooled connections of the other tests.
    const payload = JSON.stringify({ title: 'big', body: 'x'.repeat(2 * 1024 * 1024) });
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${server.baseUrl}/api/v1/repos/alice/pub/issues`,
        {
          method: 'POST',
          agent: false,
          headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
        },
        (res) => {
          let text = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (text += chunk))
            .on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual(apiError('request body is larger than 1048576 bytes'));
    expect(await total()).toBe(before);
  });

  it('rejects a malformed PATCH without changing the issue', async () => {
    const res = await post('/repos/alice/pub/issues/1', '{"title": ', 'application/json', 'PATCH');
    expect(res.status).toBe(422);
    const wrongType = await post('/repos/alice/pub/issues/1', '{"state": 1}', 'application/json', 'PATCH');
    expect(wrongType.status).toBe(422);
    expect((await server.api().repos.issueGetIssue('alice', 'pub', 1)).data.title).toBe('existing');
  });

  it('rejects invalid deadline values with 422', async () => {
    expect((await post('/repos/alice/pub/issues/1/deadline', '{"due_date": "31/01/2025"}')).status).toBe(422);
    expect((await post('/repos/alice/pub/issues/1/deadline', '{}')).status).toBe(422);
  });

  it.each([
    ['page=1000000000', 0],
    ['page=0', 1],
    ['page=-5', 1],
    ['limit=-1', 1],
    ['limit=0&page=-1', 1],
  ])('treats out-of-range paging %s calmly (200)', async (query, length) => {
    const res = await server.fetch(`/repos/alice/pub/issues?${query}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(length);
    expect(res.headers.get('x-total-count')).toBe('1');
  });

  it.each(['page=99999999999999999999', 'page=abc', 'limit=abc', 'limit=1e99', 'page=1.5', 'priority_repo_id=x'])(
    'answers the non-integer paging value %s with 422 and a JSON body',
    async (query) => {
      const res = await server.fetch(`/repos/issues/search?${query}`);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { message: string }).message).toMatch(/^\[(page|limit|priority_repo_id)\]: /);
    },
  );

  it.each([`'; DROP TABLE issues; --`, `" OR 1=1 --`, `*`, `NEAR(a b)`, `title:crash AND body:*`, `%' OR '1'='1`, `\\`, `🙂 ünïcødé`])(
    'keeps the keyword %j harmless (200, no 500)',
    async (q) => {
      const res = await server.fetch(`/repos/issues/search?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      const list = await server.fetch(
        `/repos/alice/pub/issues?q=${encodeURIComponent(q)}&labels=${encodeURIComponent(q)}&milestones=${encodeURIComponent(q)}`,
      );
      expect(list.status).toBe(200);
    },
  );

  it('stores injection strings literally', async () => {
    const title = `Robert'); DROP TABLE issues;-- "quoted" <b>html</b> \u202e`;
    const res = await post('/repos/alice/pub/issues', JSON.stringify({ title, body: "1' OR '1'='1", ref: '$(rm -rf /)' }));
    expect(res.status).toBe(201);
    const issue = (await res.json()) as { number: number; title: string; body: string; ref: string };
    expect(issue).toMatchObject({ title, body: "1' OR '1'='1", ref: '$(rm -rf /)' });
    expect((await server.api().repos.issueGetIssue('alice', 'pub', issue.number)).data.title).toBe(title);
  });

  it.each([
    [`/repos/alice/pub/issues?created_by=${encodeURIComponent("' OR '1'='1")}`, 404],
    [`/repos/${encodeURIComponent("alice' --")}/pub/issues`, 404],
    ['/repos/alice/pub/issues/abc', 404],
    ['/repos/alice/pub/issues/99999999999999999999', 404],
    ['/repos/alice/pub/issues/-1', 404],
    [`/repos/issues/search?owner=${encodeURIComponent("x' OR 1=1")}`, 400],
    ['/repos/issues/search?since=2025-01-01', 422],
    ['/repos/issues/search?before=%00', 422],
    ['/no/such/route', 404],
  ])('answers %s with %i and a JSON body', async (path, status) => {
    const res = await server.fetch(path);
    expect(res.status).toBe(status);
    const body = (await res.json()) as { message: string; url: string };
    expect(body.url).toBe('http://issues.test/api/swagger');
    expect(typeof body.message).toBe('string');
  });

  it.each([
    ['a NUL in the title', { title: 'a\u0000b' }, 422, '[Title]: must not contain NUL characters'],
    ['a NUL in an assignee', { title: 'x', assignees: ['bo\u0000b'] }, 422, '[Assignees.0]: must not contain NUL characters'],
    ['a label id beyond 64 bits', { title: 'ok', labels: [1e20] }, 201, undefined],
    ['a milestone id beyond 64 bits', { title: 'ok', milestone: 1e20 }, 201, undefined],
  ])('answers %s without touching the database wrongly', async (_name, body, status, message) => {
    const res = await post('/repos/alice/pub/issues', JSON.stringify(body));
    expect(res.status).toBe(status);
    const json = (await res.json()) as { message?: string; labels?: unknown[]; milestone?: unknown };
    if (message) expect(json.message).toBe(message);
    else expect(json).toMatchObject({ labels: [], milestone: null });
  });

  it.each([
    ['/repos/alice%00/pub/issues', 404],
    ['/repos/alice/pub/issues?labels=%00', 422],
    ['/repos/alice/pub/issues?created_by=bob%00', 422],
    ['/repos/issues/search?owner=%00', 422],
  ])('answers NUL characters in %s with %i', async (path, status) => {
    expect((await server.fetch(path)).status).toBe(status);
  });

  it('answers a Basic credential containing NUL with 401', async () => {
    const res = await server.fetch('/user', {
      headers: { Authorization: `Basic ${Buffer.from('al\u0000ice:pw\u0000').toString('base64')}` },
    });
    expect(res.status).toBe(401);
  });

  it('answers an out-of-range milestone on edit with 422', async () => {
    const res = await post('/repos/alice/pub/issues/1', JSON.stringify({ milestone: 1e20 }), 'application/json', 'PATCH');
    expect(res.status).toBe(422);
  });

  it('answers 422 for invalid users, repositories and labels in the setup endpoints', async () => {
    const admin = (path: string, body: unknown) =>
      server.fetch(path, {
        method: 'POST',
        headers: { Authorization: `token ${server.adminToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await admin('/admin/users', { username: "bad'name", email: 'x@example.com' })).status).toBe(422);
    expect((await admin('/admin/users', { username: 'okname', email: 'not-an-email' })).status).toBe(422);
    expect((await admin('/admin/users', { username: 'okname' })).status).toBe(422);
    expect((await admin('/user/repos', { name: '../etc' })).status).toBe(422);
    expect((await admin('/repos/alice/pub/labels', { name: 'x', color: 'red' })).status).toBe(422);
    expect((await admin('/repos/alice/pub/issues', { title: 'x', assignees: ["' OR 1=1 --"] })).status).toBe(422);
  });
});
