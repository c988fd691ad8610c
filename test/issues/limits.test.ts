/**
 * Input at the edges, over HTTP on both engines: arrays past the contract's `maxItems`, a body of
 * many distinct words, deadlines whose end of day leaves the years 0001–9999, impossible UTC
 * offsets, NUL in a snake_case query parameter, and a new user's e-mail already in use. Each is
 * a documented answer (never a 500), and a rejected request stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError, ENGINES, failure, startServer, type TestServer } from '../support/issues-harness.js';
import { buildWorld, type World } from './world.js';

describe.each(ENGINES)('limits on %s', (engine) => {
  let server: TestServer;
  let w: World;
  beforeAll(async () => {
    server = await startServer(engine);
    w = await buildWorld(server);
  });
  afterAll(async () => server?.close());

  const send = (method: string, path: string, body: unknown, token = w.alice.token) => server.sendJson(method, path, body, token);
  const total = async () =>
    Number(
      (await server.api(w.alice.token).repos.issueListIssues('alice', 'pub', { state: 'all', limit: 1 })).headers.get('x-total-count'),
    );
  const ids = (n: number) => Array.from({ length: n }, (_, i) => 5_000_000 + i);
  const names = (n: number) => Array.from({ length: n }, (_, i) => `nobody${i}`);

  describe('arrays', () => {
    it.each([
      ['labels', { labels: ids(1001) }, '[Labels]: must NOT have more than 1000 items'],
      ['assignees', { assignees: names(1001) }, '[Assignees]: must NOT have more than 1000 items'],
      ['a huge labels array', { labels: ids(60_000) }, '[Labels]: must NOT have more than 1000 items'],
    ])('answers 422 for too many %s on create and stores nothing', async (_name, extra, message) => {
      const before = await total();
      expect(await send('POST', '/repos/alice/pub/issues', { title: 'too many', ...extra })).toEqual({
        status: 422,
        body: apiError(message),
      });
      expect(await total()).toBe(before);
    });

    it('answers 422 for too many assignees or reviewers on edit and pull requests, changing nothing', async () => {
      const issue = (await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', { title: 'keep me', assignees: ['bob'] })).data;
      expect((await send('PATCH', `/repos/alice/pub/issues/${issue.number}`, { title: 'changed', assignees: names(1001) })).status).toBe(
        422,
      );
      expect((await server.api().repos.issueGetIssue('alice', 'pub', issue.number!)).data).toMatchObject({
        title: 'keep me',
        assignees: [{ login: 'bob' }],
      });
      expect((await send('POST', '/repos/alice/pub/pulls', { title: 'pr', head: 'x', reviewers: names(1001) })).status).toBe(422);
    });

    it('refuses the report’s bodies (250,000 assignees, 100,000 labels) before parsing them, in Gitea’s order', async () => {
      const before = await total();
      const assignees = JSON.stringify({ title: 'x', assignees: Array(250_000).fill(0) });
      const labels = JSON.stringify({ title: 'x', labels: Array(100_000).fill('l') });
      for (const body of [assignees, labels]) {
        const res = await server.fetch('/repos/alice/pub/issues', {
          method: 'POST',
          headers: { Authorization: `token ${w.alice.token}`, 'Content-Type': 'application/json' },
          body,
        });
        expect(res.status).toBe(422);
        expect(((await res.json()) as { message: string }).message).toMatch(/^\[(Assignees|Labels)\]: must NOT have more than 1000 items$/);
      }
      // A repository the caller cannot see is 404 first, as for any body Gitea cannot bind.
      const hidden = await server.fetch('/repos/alice/priv/issues', {
        method: 'POST',
        headers: { Authorization: `token ${w.dave.token}`, 'Content-Type': 'application/json' },
        body: assignees,
      });
      expect(hidden.status).toBe(404);
      expect(await total()).toBe(before);
    });

    it('takes up to 1000 label ids, dropping the unknown ones as Gitea does', async () => {
      const res = await send('POST', '/repos/alice/pub/issues', { title: 'many labels', labels: [...ids(999), w.labels.bug] });
      expect(res.status).toBe(201);
      expect(res.body.labels.map((l: { name: string }) => l.name)).toEqual(['bug']);
    });

    it('answers an assignee list of unknown users with 422 naming the first', async () => {
      const res = await send('POST', '/repos/alice/pub/issues', { title: 'x', assignees: names(1000) });
      expect(res).toEqual({ status: 422, body: apiError('Assignee does not exist: [name: nobody0]') });
    });
  });

  describe('strings', () => {
    // Gitea's field sizes, from its bindings (`MaxSize(40)`) and columns (`VARCHAR(255)`). Before,
    // PostgreSQL answered 500 for a label name, milestone title or token name of ~2,700 characters
    // (its btree index refused the row) and SQLite stored a 950,000-character description.
    const long = (n: number) => 'x'.repeat(n);
    it.each<[string, string, string, () => Record<string, unknown>, string]>([
      [
        'a label name',
        'POST',
        '/repos/alice/pub/labels',
        () => ({ name: long(2_700), color: 'ee0701' }),
        '[Name]: must NOT have more than 255 characters',
      ],
      [
        'a label description',
        'POST',
        '/repos/alice/pub/labels',
        () => ({ name: 'n', color: 'abc', description: long(256) }),
        '[Description]: must NOT have more than 255 characters',
      ],
      [
        'a milestone title',
        'POST',
        '/repos/alice/pub/milestones',
        () => ({ title: long(2_700) }),
        '[Title]: must NOT have more than 255 characters',
      ],
      [
        'an issue title',
        'POST',
        '/repos/alice/pub/issues',
        () => ({ title: long(256) }),
        '[Title]: must NOT have more than 255 characters',
      ],
      [
        'an issue ref',
        'POST',
        '/repos/alice/pub/issues',
        () => ({ title: 't', ref: long(256) }),
        '[Ref]: must NOT have more than 255 characters',
      ],
      [
        'an organization description',
        'POST',
        '/orgs',
        () => ({ username: 'bigorg', description: long(950_000) }),
        '[Description]: must NOT have more than 255 characters',
      ],
      [
        'a repository description',
        'POST',
        '/user/repos',
        () => ({ name: 'big', description: long(2_049) }),
        '[Description]: must NOT have more than 2048 characters',
      ],
    ])('answers 422 for %s past its size, storing nothing', async (_name, method, path, body, message) => {
      const before = await total();
      expect(await send(method, path, body())).toEqual({ status: 422, body: apiError(message) });
      expect(await total()).toBe(before);
    });

    it('answers 422 for a token name past 255 characters and a user e-mail past 254', async () => {
      const basic = `Basic ${Buffer.from(`alice:${w.alice.password}`).toString('base64')}`;
      const token = await server.fetch('/users/alice/tokens', {
        method: 'POST',
        headers: { Authorization: basic, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: long(2_700) }),
      });
      expect(token.status).toBe(422);
      expect(await token.json()).toEqual(apiError('[Name]: must NOT have more than 255 characters'));
      const user = await send(
        'POST',
        '/admin/users',
        { username: 'mail', email: `${long(950_000)}@example.com`, password: 'pw-pw-pw' },
        server.adminToken,
      );
      expect(user).toEqual({ status: 422, body: apiError('[Email]: must NOT have more than 254 characters') });
      expect(await server.store.findUserByName('mail')).toBeUndefined();
      expect(await server.store.findUserByName('bigorg')).toBeUndefined();
      expect(await server.store.findRepo('alice', 'big')).toBeUndefined();
    });

    it('takes values at their size', async () => {
      expect((await send('POST', '/repos/alice/pub/labels', { name: long(255), color: 'abc', description: long(255) })).status).toBe(201);
      expect((await send('POST', '/repos/alice/pub/milestones', { title: long(255) })).status).toBe(201);
      expect((await send('POST', '/repos/alice/pub/issues', { title: long(255), ref: long(255) })).status).toBe(201);
    });
  });

  describe('a body of many distinct words', () => {
    // About 950 KB, under the 1 MiB request limit; its words alone overflowed a PostgreSQL tsvector.
    const words = Array.from({ length: 100_000 }, (_, i) => `v${(i * 7919).toString(36)}z`);
    const body = words.join(' ');

    it('is created and edited (201), returned whole and found by its words', async () => {
      const created = await send('POST', '/repos/alice/pub/issues', { title: 'vocabulary', body });
      expect(created.status).toBe(201);
      expect(created.body.body).toBe(body);
      const found = await server.api(w.alice.token).repos.issueListIssues('alice', 'pub', { q: words[5]!, state: 'all' });
      expect(found.data.map((i) => i.number)).toEqual([created.body.number]);
      const edited = await send('PATCH', `/repos/alice/pub/issues/${created.body.number}`, { body: `${body} more` });
      expect(edited.status).toBe(201);
      expect((await server.api().repos.issueGetIssue('alice', 'pub', created.body.number)).data.body).toBe(`${body} more`);
    });
  });

  describe('deadline years', () => {
    let index: number;
    beforeAll(async () => {
      index = (await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', { title: 'deadline years' })).data.number!;
    });
    const deadline = (due_date: string) => send('POST', `/repos/alice/pub/issues/${index}/deadline`, { due_date });
    const outOfRange = { status: 422, body: apiError('[DueDate]: the deadline must fall between the years 0001 and 9999') };

    it('keeps years 0001–0099 literal on the deadline endpoint', async () => {
      expect(await deadline('0050-06-15T10:00:00Z')).toEqual({ status: 201, body: { due_date: '0050-06-15T23:59:59Z' } });
      expect((await server.api().repos.issueGetIssue('alice', 'pub', index)).data.due_date).toBe('0050-06-15T23:59:59Z');
      expect(await deadline('0001-01-02T00:00:00Z')).toEqual({ status: 201, body: { due_date: '0001-01-02T23:59:59Z' } });
      expect(await deadline('9999-12-31T10:00:00Z')).toEqual({ status: 201, body: { due_date: '9999-12-31T23:59:59Z' } });
    });

    it('answers 422 for a deadline in year 0000, and leaves the stored one', async () => {
      expect(await deadline('0000-06-15T10:00:00Z')).toEqual(outOfRange);
      expect((await server.api().repos.issueGetIssue('alice', 'pub', index)).data.due_date).toBe('9999-12-31T23:59:59Z');
    });

    it('answers 422 on edit and create when the end of day passes 9999 in the server zone', async () => {
      expect(await send('PATCH', `/repos/alice/pub/issues/${index}`, { due_date: '9999-12-31T23:00:00-05:00' })).toEqual(outOfRange);
      expect((await server.api().repos.issueGetIssue('alice', 'pub', index)).data.due_date).toBe('9999-12-31T23:59:59Z');
      const before = await total();
      expect(await send('POST', '/repos/alice/pub/issues', { title: 'x', due_date: '9999-12-31T10:00:00-05:00' })).toEqual(outOfRange);
      expect(await total()).toBe(before);
      // The same date east of UTC ends the day before 10000 in UTC.
      const east = await send('POST', '/repos/alice/pub/issues', { title: 'east', due_date: '9999-12-31T10:00:00+05:00' });
      expect(east.body.due_date).toBe('9999-12-31T18:59:59Z');
      const early = await send('PATCH', `/repos/alice/pub/issues/${index}`, { due_date: '0099-03-01T12:00:00Z' });
      expect(early.body.due_date).toBe('0099-03-01T23:59:59Z');
    });
  });

  it.each(['+99:99', '+24:00', '-12:60'])('answers 422 for the UTC offset %s in dates', async (offset) => {
    const res = await server.fetch(`/repos/alice/pub/issues?since=${encodeURIComponent(`2025-01-01T00:00:00${offset}`)}`);
    expect(res.status).toBe(422);
    const issue = (await server.api(w.alice.token).repos.issueCreateIssue('alice', 'pub', { title: 'offset' })).data;
    expect((await send('PATCH', `/repos/alice/pub/issues/${issue.number}`, { due_date: `2025-01-01T00:00:00${offset}` })).status).toBe(422);
    expect(
      (await send('POST', `/repos/alice/pub/issues/${issue.number}/deadline`, { due_date: `2025-01-01T00:00:00${offset}` })).status,
    ).toBe(422);
  });

  it('names a query parameter holding NUL by its wire name', async () => {
    const res = await server.fetch('/repos/alice/pub/issues?created_by=bob%00');
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual(apiError('[created_by]: must not contain NUL characters'));
    const search = await server.fetch('/repos/issues/search?review_requested=1&owner=%00');
    expect(await search.json()).toEqual(apiError('[owner]: must not contain NUL characters'));
  });

  it('answers 422 "e-mail already in use" for a new user with a taken address, in any case', async () => {
    const create = (username: string, email: string) =>
      send('POST', '/admin/users', { username, email, password: 'some-password' }, server.adminToken);
    expect(await create('alice2', 'alice@example.com')).toEqual({
      status: 422,
      body: apiError('e-mail already in use [email: alice@example.com]'),
    });
    expect(await create('alice3', 'ALICE@Example.com')).toEqual({
      status: 422,
      body: apiError('e-mail already in use [email: ALICE@Example.com]'),
    });
    expect(await server.store.findUserByName('alice2')).toBeUndefined();
    // The name is checked first, as in Gitea.
    expect(await create('alice', 'alice@example.com')).toEqual({ status: 422, body: apiError('user already exists [name: alice]') });
    expect((await create('alice4', 'alice4@example.com')).status).toBe(201);
    expect(
      await failure(
        server.api(server.adminToken).admin.adminCreateUser({ username: 'bob2', email: 'bob@example.com', password: 'x-password' }),
      ),
    ).toEqual({
      status: 422,
      error: apiError('e-mail already in use [email: bob@example.com]'),
    });
  });
});
