/**
 * The System module in the server: its start-up record about remote Connect callers (logged once
 * when HTTP listens beyond this machine and no SYSTEM_TOKEN is set, and not otherwise), and the
 * refusal of such callers through the whole composition (`listenHttp` → the shared app → the
 * Connect routes), which must hand the Node socket down for the peer check to see it.
 */
import { Socket } from 'node:net';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseConfig, type ServerConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startServer } from '../server.js';
import { createSystemModule } from './system.js';

const ROOT_DIR = resolve(import.meta.dirname, '../../..');
const REFUSED = 'System Connect calls from other hosts are refused because SYSTEM_TOKEN is not set; set SYSTEM_TOKEN to allow them';

function config(env: Record<string, string>): ServerConfig {
  const request = parseConfig([], { HOST_ADAPTER: 'simulated', LOOM_SERVICES: 'system', ...env });
  if (request.kind !== 'run') throw new Error('expected a run configuration');
  return request.config;
}

/** Opens and closes the module, returning what it logged and its banner facts. */
async function open(env: Record<string, string>): Promise<{ records: Record<string, unknown>[]; facts: Record<string, string> }> {
  const records: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') records.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ level: 'info', format: 'json', destination });
  const module = await createSystemModule({ config: config(env), logger, rootDir: ROOT_DIR, origin: 'http://localhost:3000' });
  try {
    return { records, facts: Object.fromEntries(module.summary('http://localhost:3000').facts) };
  } finally {
    await module.close();
  }
}

describe('the System module at start-up', () => {
  it('says once that remote Connect calls are refused when HOST is not loopback and there is no token', async () => {
    const { records, facts } = await open({ HOST: '0.0.0.0' });
    expect(records.filter((r) => r['msg'] === REFUSED)).toEqual([expect.objectContaining({ level: 30, host: '0.0.0.0' })]);
    expect(facts['System token']).toBe('not set: Connect calls from other hosts are refused (set SYSTEM_TOKEN to allow them)');
  });

  it.each([
    ['HTTP on loopback', { HOST: '127.0.0.1' }],
    ['HTTP on localhost', { HOST: 'localhost' }],
    ['a token set', { HOST: '0.0.0.0', SYSTEM_TOKEN: 's3cret' }],
  ])('says nothing of it with %s', async (_label, env) => {
    const { records } = await open(env);
    expect(records.some((r) => r['msg'] === REFUSED)).toBe(false);
    expect(records.some((r) => r['msg'] === 'host adapter ready')).toBe(true);
  });
});

describe('the System module in the running server', () => {
  it('refuses Connect calls from another host without SYSTEM_TOKEN, and serves the rest of the server', async () => {
    const logger = createLogger({ level: 'silent', format: 'json' });
    const server = await startServer({
      config: config({ HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0' }),
      logger,
      factories: { system: createSystemModule, issues: () => Promise.reject(new Error('not started in this test')) },
      rootDir: ROOT_DIR,
    });
    // The test can only connect over loopback, so the sockets the server accepts report another
    // host: `remoteAddress` is a non-configurable getter over Node's `_getpeername()`, patched here.
    type PeerSocket = Socket & { server?: unknown; _getpeername(): { address?: string; family?: string; port?: number } };
    const proto = Socket.prototype as PeerSocket;
    const original = proto._getpeername;
    proto._getpeername = function (this: PeerSocket) {
      const peer = original.call(this);
      return this.server !== undefined && this.localPort === server.port ? { ...peer, address: '198.51.100.23', family: 'IPv4' } : peer;
    };
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const stop = await fetch(`${url}/v1alpha1.System/StopService`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"db","force":true}',
      });
      expect(stop.status).toBe(403);
      expect(await stop.json()).toEqual({
        code: 'permission_denied',
        message:
          'calls from other hosts are refused while no SYSTEM_TOKEN is set; set SYSTEM_TOKEN to allow them (with "authorization: ' +
          'Bearer <token>")',
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      // From this machine again: served, and db was never stopped.
      proto._getpeername = original;
      const get = await fetch(`${url}/v1alpha1.System/GetService`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"db"}',
      });
      expect([get.status, await get.json()]).toEqual([200, { displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' }]);
    } finally {
      proto._getpeername = original;
      await server.shutdown();
    }
  });
});
