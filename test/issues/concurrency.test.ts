/**
 * 200 concurrent creates through HTTP on both engines: every request succeeds and the issue
 * numbers are exactly 1..200, without gaps or duplicates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startServer, type TestServer } from '../support/issues-harness.js';

describe.each(ENGINES)('concurrent creates on %s', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(engine);
    token = (await server.createUser('alice')).token;
    await server.api(token).user.createCurrentUserRepo({ name: 'busy' });
  });
  afterAll(async () => server?.close());

  it('allocates 1..200 to 200 simultaneous requests', async () => {
    const api = server.api(token).repos;
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api.issueCreateIssue('alice', 'busy', { title: `concurrent ${i}`, body: `body ${i}` })),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const numbers = results.map((r) => r.data.number!).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    for (const [i, r] of results.entries()) expect(r.data).toMatchObject({ title: `concurrent ${i}`, body: `body ${i}` });
    const listed = await api.issueListIssues('alice', 'busy', { limit: 1 });
    expect(listed.headers.get('x-total-count')).toBe('200');
  });
});
