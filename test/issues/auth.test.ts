/**
 * Authentication in every form Gitea accepts, 401 for wrong credentials (never a fallback to
 * anonymous), token scopes, token creation through Basic auth and the bootstrap administrator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, apiError, ENGINES, failure, startServer, type TestServer } from '../support/issues-harness.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe.each(ENGINES)('authentication on %s', (engine) => {
  let server: TestServer;
  let alice: Awaited<ReturnType<TestServer['createUser']>>;
  beforeAll(async () => {
    server = await startServer(engine);
    alice = await server.createUser('alice');
    await server.api(alice.token).user.createCurrentUserRepo({ name: 'pub' });
  });
  afterAll(async () => server?.close());

  const whoAmI = async (init: { headers?: Record<string, string>; query?: string }) => {
    const res = await server.fetch(`/user${init.query ?? ''}`, { headers: init.headers });
    return { status: res.status, body: (await res.json()) as { login?: string; message?: string } };
  };

  it.each([
    ['Authorization: token', () => ({ headers: { Authorization: `token ${alice.token}` } })],
    ['Authorization: Bearer', () => ({ headers: { Authorization: `Bearer ${alice.token}` } })],
    ['Authorization: bearer (any case)', () => ({ headers: { Authorization: `bEaReR ${alice.token}` } })],
    ['Basic with the password', () => ({ headers: { Authorization: `Basic ${b64(`alice:${alice.password}`)}` } })],
    ['Basic with the token as user name', () => ({ headers: { Authorization: `Basic ${b64(`${alice.token}:`)}` } })],
    ['Basic with the token and x-oauth-basic', () => ({ headers: { Authorization: `Basic ${b64(`${alice.token}:x-oauth-basic`)}` } })],
    ['Basic with the token as password', () => ({ headers: { Authorization: `Basic ${b64(`alice:${alice.token}`)}` } })],
    ['?token=', () => ({ query: `?token=${alice.token}` })],
    ['?access_token=', () => ({ query: `?access_token=${alice.token}` })],
  ])('accepts %s', async (_name, init) => {
    expect(await whoAmI(init())).toMatchObject({ status: 200, body: { login: 'alice' } });
  });

  it.each<[string, { headers?: Record<string, string>; query?: string }]>([
    ['an unknown token', { headers: { Authorization: 'token 0123456789abcdef0123456789abcdef01234567' } }],
    ['a malformed bearer', { headers: { Authorization: 'Bearer' } }],
    ['a wrong password', { headers: { Authorization: `Basic ${b64('alice:wrong')}` } }],
    ['an unknown user', { headers: { Authorization: `Basic ${b64('nobody:pw')}` } }],
    ['undecodable Basic', { headers: { Authorization: 'Basic !!!' } }],
    ['an unknown scheme', { headers: { Authorization: 'Digest abc' } }],
    ['a bad ?token=', { query: '?token=nope' }],
    ['a bad ?access_token=', { query: '?access_token=nope' }],
  ])('answers 401 for %s, even on public reads', async (_name, init) => {
    expect(await whoAmI(init)).toEqual({ status: 401, body: apiError('invalid username, password or token') });
    const list = await server.fetch(`/repos/alice/pub/issues${init.query ?? ''}`, { headers: init.headers });
    expect(list.status).toBe(401);
  });

  it('answers 401 for a token spelled in upper-case hex (Gitea issues and accepts lower case only)', async () => {
    const upper = alice.token.toUpperCase();
    for (const init of [
      { headers: { Authorization: `token ${upper}` } },
      { headers: { Authorization: `Basic ${b64(`${upper}:`)}` } },
      { query: `?token=${upper}` },
    ]) {
      expect(await whoAmI(init)).toEqual({ status: 401, body: apiError('invalid username, password or token') });
    }
  });

  it('lets an administrator act as another user with ?sudo= or a Sudo header, and refuses everyone else', async () => {
    const admin = { Authorization: `token ${server.adminToken}` };
    expect(await whoAmI({ headers: admin, query: '?sudo=alice' })).toMatchObject({ status: 200, body: { login: 'alice' } });
    expect(await whoAmI({ headers: { ...admin, Sudo: 'alice' } })).toMatchObject({ status: 200, body: { login: 'alice' } });
    // What an administrator writes as another user is that user's.
    const created = await server.fetch('/repos/alice/pub/issues?sudo=alice', {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: '{"title":"filed for alice"}',
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { user: { login: string } }).user.login).toBe('alice');
    expect(await whoAmI({ headers: admin, query: '?sudo=nobody' })).toEqual({ status: 404, body: apiError('not found') });
    const refused = { status: 403, body: { message: 'Only administrators allowed to sudo.' } };
    expect(await whoAmI({ headers: { Authorization: `token ${alice.token}` }, query: '?sudo=root' })).toEqual(refused);
    expect(await whoAmI({ headers: { Sudo: 'alice' } })).toEqual(refused);
    // Refused before anything is stored.
    const before = Number((await server.fetch('/repos/alice/pub/issues?state=all')).headers.get('x-total-count'));
    const write = await server.fetch('/repos/alice/pub/issues', {
      method: 'POST',
      headers: { Authorization: `token ${alice.token}`, Sudo: 'root', 'Content-Type': 'application/json' },
      body: '{"title":"x"}',
    });
    expect(write.status).toBe(403);
    expect(Number((await server.fetch('/repos/alice/pub/issues?state=all')).headers.get('x-total-count'))).toBe(before);
  });

  it('answers 401 "token is required" to anonymous calls that need a user', async () => {
    expect(await whoAmI({})).toEqual({ status: 401, body: apiError('token is required') });
  });

  it('enforces token scopes: read:issue may list but not create', async () => {
    const reader = await server.createUser('reader', ['read:issue']);
    expect((await server.api(reader.token).repos.issueListIssues('alice', 'pub', {})).status).toBe(200);
    expect(await failure(server.api(reader.token).repos.issueCreateIssue('alice', 'pub', { title: 'x' }))).toEqual({
      status: 403,
      error: apiError('token does not have at least one of required scope(s), required=[write:issue], token scope=read:issue'),
    });
  });

  describe('access tokens', () => {
    const create = (username: string, authorization: string | undefined, body: unknown) =>
      server.fetch(`/users/${username}/tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
        body: JSON.stringify(body),
      });

    it('creates a 40-hex token once, shown in sha1 only in the creation answer', async () => {
      const res = await create('alice', `Basic ${b64(`alice:${alice.password}`)}`, { name: 'ci', scopes: ['write:issue'] });
      expect(res.status).toBe(201);
      const token = (await res.json()) as Record<string, unknown>;
      expect(token).toMatchObject({ name: 'ci', scopes: ['write:issue'] });
      expect(token.sha1).toMatch(/^[0-9a-f]{40}$/);
      expect(token.token_last_eight).toBe((token.sha1 as string).slice(-8));
      expect((await whoAmI({ headers: { Authorization: `token ${token.sha1}` } })).status).toBe(403);
    });

    it('requires Basic auth: 401 with a token header or without credentials', async () => {
      expect(await (await create('alice', `token ${alice.token}`, { name: 'x', scopes: ['all'] })).json()).toEqual(
        apiError('auth required'),
      );
      expect((await create('alice', undefined, { name: 'x', scopes: ['all'] })).status).toBe(401);
    });

    it('refuses tokens for another user (403), duplicate names and missing scopes (400)', async () => {
      await server.createUser('bob');
      expect((await create('bob', `Basic ${b64(`alice:${alice.password}`)}`, { name: 'x', scopes: ['all'] })).status).toBe(403);
      const basic = `Basic ${b64(`alice:${alice.password}`)}`;
      expect((await create('alice', basic, { name: 'dup', scopes: ['all'] })).status).toBe(201);
      expect(await (await create('alice', basic, { name: 'dup', scopes: ['all'] })).json()).toEqual(
        apiError('access token name has been used already'),
      );
      expect(await (await create('alice', basic, { name: 'none' })).json()).toEqual(apiError('access token must have a scope'));
      expect((await create('alice', basic, { name: 'weird', scopes: ['write:everything'] })).status).toBe(400);
    });

    it('works through gitea-js with Basic auth passed as request params', async () => {
      const res = await server.api().users.userCreateToken(
        'alice',
        { name: 'via-gitea-js', scopes: ['read:issue'] },
        {
          headers: { Authorization: `Basic ${b64(`alice:${alice.password}`)}` },
        },
      );
      expect(res.status).toBe(201);
      expect(res.data.name).toBe('via-gitea-js');
      expect((await server.api(res.data.sha1!).repos.issueListIssues('alice', 'pub', {})).status).toBe(200);
    });

    it('lets the administrator create tokens for other users', async () => {
      const res = await create('alice', `Basic ${b64(`${ADMIN.name}:${ADMIN.password}`)}`, { name: 'by-admin', scopes: ['read:user'] });
      expect(res.status).toBe(201);
    });
  });

  it('bootstraps the administrator once from LOOM_ADMIN_USER / LOOM_ADMIN_PASSWORD', async () => {
    const root = await server.api(server.adminToken).user.userGetCurrent();
    expect(root.data).toMatchObject({ login: ADMIN.name, is_admin: true, active: true });
  });

  it('lets only administrators create users', async () => {
    const f = await failure(server.api(alice.token).admin.adminCreateUser({ username: 'eve', email: 'eve@example.com', password: 'pw' }));
    expect(f).toEqual({ status: 403, error: apiError('user should be the site admin') });
    expect((await failure(server.api().admin.adminCreateUser({ username: 'eve', email: 'eve@example.com' }))).status).toBe(401);
  });
});
