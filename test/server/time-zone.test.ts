/**
 * `LOOM_TIME_ZONE` / `--time-zone` on a real server process: an unknown zone stops it at start-up
 * (one line, exit code 2), a known one is the zone the Issues API renders times in (and the ready
 * record says which).
 */
import { describe, expect, it } from 'vitest';
import { runServerCommand, startServerProcess } from '../support/server-harness.js';

describe('the Issues time zone at start-up', () => {
  it('refuses an unknown zone with one line and exit code 2', async () => {
    const { code, stdout, stderr } = await runServerCommand(['--services', 'issues'], { LOOM_TIME_ZONE: 'Mars/Olympus' });
    expect(code).toBe(2);
    expect(stderr).toBe(
      'loom: invalid configuration: invalid LOOM_TIME_ZONE: must be an IANA time zone such as Europe/Berlin or UTC (got "Mars/Olympus")\n',
    );
    expect(stdout).toBe('');
  });

  it("renders the Issues API's times in the configured zone", async () => {
    const server = await startServerProcess({
      args: ['--services', 'issues', '--time-zone', 'Asia/Kolkata'],
      env: { LOOM_ADMIN_USER: 'root', LOOM_ADMIN_PASSWORD: 'root-password', TZ: 'UTC' },
    });
    try {
      expect((server.ready['facts'] as Record<string, string>)['Time zone']).toBe('Asia/Kolkata');
      const res = await fetch(`${server.origin}/api/v1/user`, {
        headers: { Authorization: `Basic ${Buffer.from('root:root-password').toString('base64')}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { created: string }).created).toMatch(/\+05:30$/);
    } finally {
      await server.stop();
    }
  });
});
