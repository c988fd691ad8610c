/**
 * `LOOM_ADMIN_USER` / `LOOM_ADMIN_PASSWORD` as the composition root passes them on: the
 * administrator exists after the first start, is the demo data's administrator too, and
 * signs in with the configured password (never printed).
 */
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-harness.js';

describe('the bootstrap administrator', () => {
  it('is created on first start and can sign in', async () => {
    const password = 'root-password-9d1e-not-for-logs';
    const server = await startServerProcess({
      env: { LOOM_SERVICES: 'issues', LOOM_DEMO: '1', LOOM_ADMIN_USER: 'root', LOOM_ADMIN_PASSWORD: password },
    });
    try {
      const basic = `Basic ${Buffer.from(`root:${password}`).toString('base64')}`;
      const me = await fetch(`${server.origin}/api/v1/user`, { headers: { authorization: basic } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ login: 'root', is_admin: true });
      expect(server.logs.find((record) => record.msg === 'demo data ready')).toMatchObject({ users: ['root', 'alice', 'bob', 'carol'] });
      expect(JSON.stringify(server.logs)).not.toContain(password);
      const wrong = await fetch(`${server.origin}/api/v1/user`, {
        headers: { authorization: `Basic ${Buffer.from('root:nope').toString('base64')}` },
      });
      expect(wrong.status).toBe(401);
    } finally {
      expect((await server.stop()).code).toBe(0);
    }
  });
});
