/**
 * The server's time zone through the API (Gitea's `DEFAULT_UI_LOCATION`): by default the
 * process's own zone, otherwise the configured one; times render with its offset (`Z` where the
 * offset is zero, as Go does), the deadline endpoint ends the day in it, and deadlines that would
 * render outside the years 0001–9999 in it are refused. The zone is API-level, so SQLite suffices.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, startServer, type TestServer } from '../support/issues-harness.js';

describe('the server time zone', () => {
  let server: TestServer | undefined;
  const savedTz = process.env.TZ;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  /** A server in `timeZone` (`undefined`: none configured) with one issue by alice, and a deadline call. */
  async function serve(timeZone: string | undefined) {
    server = await startServer('sqlite', { timeZone });
    const alice = await server.createUser('alice');
    await server.api(alice.token).user.createCurrentUserRepo({ name: 'r' });
    const issue = (await server.api(alice.token).repos.issueCreateIssue('alice', 'r', { title: 'x' })).data;
    const call = (method: string, path: string, body: unknown) => server!.sendJson(method, path, body, alice.token);
    return {
      issue,
      deadline: async (due_date: string) => call('POST', '/repos/alice/r/issues/1/deadline', { due_date }),
      edit: async (body: unknown) => call('PATCH', '/repos/alice/r/issues/1', body),
    };
  }

  it("defaults to the process's zone", async () => {
    process.env.TZ = 'America/New_York';
    const { issue, deadline } = await serve(undefined);
    expect(issue.created_at).toMatch(/-0[45]:00$/);
    expect(await deadline('2025-01-31T10:00:00+05:00')).toEqual({ status: 201, body: { due_date: '2025-01-31T23:59:59-05:00' } });
  });

  it("renders Z wherever the zone's offset is zero, as Go does, and an alias of UTC as UTC", async () => {
    const london = await serve('Europe/London');
    expect(await london.deadline('2025-01-15T10:00:00Z')).toEqual({ status: 201, body: { due_date: '2025-01-15T23:59:59Z' } });
    expect(await london.deadline('2025-07-15T10:00:00Z')).toEqual({ status: 201, body: { due_date: '2025-07-15T23:59:59+01:00' } });
    await server!.close();
    const utc = await serve('Etc/UTC');
    expect(utc.issue.created_at).toMatch(/Z$/);
  });

  it("ends days of the first century in the zone's own offset of the time", async () => {
    // Berlin kept local mean time (+00:53:28) then; Go prints the offset's hours and minutes.
    const { deadline } = await serve('Europe/Berlin');
    expect(await deadline('0050-06-15T10:00:00Z')).toEqual({ status: 201, body: { due_date: '0050-06-15T23:59:59+00:53' } });
  });

  it('refuses deadlines that would render past 9999 in the zone, and keeps those that do not', async () => {
    const { deadline, edit } = await serve('Asia/Kolkata');
    expect(await deadline('9999-12-31T10:00:00Z')).toEqual({ status: 201, body: { due_date: '9999-12-31T23:59:59+05:30' } });
    // 23:59:59 UTC on the last day is 05:29:59 in Kolkata on the first day of year 10000.
    expect(await edit({ due_date: '9999-12-31T20:00:00Z' })).toEqual({
      status: 422,
      body: apiError('[DueDate]: the deadline must fall between the years 0001 and 9999'),
    });
    expect((await server!.api().repos.issueGetIssue('alice', 'r', 1)).data.due_date).toBe('9999-12-31T23:59:59+05:30');
  });
});
