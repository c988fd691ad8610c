/**
 * Who may call the System service's Connect routes, over real sockets. Without SYSTEM_TOKEN only
 * this machine: loopback peers (IPv4, IPv6, IPv4-mapped) and Unix-socket peers are served, a peer
 * on another host gets PERMISSION_DENIED (403) and nothing changes. With SYSTEM_TOKEN the token
 * alone decides, wherever the caller is.
 *
 * A peer on another host cannot be had here (the tests reach loopback only), so one server reports
 * another address for its connections: its `connection` listener, which runs before the HTTP
 * parser, gives each accepted socket a `remoteAddress` of 203.0.113.7 (TEST-NET-3). Everything
 * after that is the real path: `@hono/node-server` puts the socket in the bindings and the
 * Connect routes read it from there.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceStatus } from '../../generated/system/v1alpha1/system.types.js';
import { systemConnectRoutes } from '../../runtime/system/serve.js';
import { SimulatedHost } from '../../runtime/system/simulated/simulated-host.js';
import { SystemHandler } from '../../runtime/system/system-handler.js';

const REMOTE = '203.0.113.7';
const REFUSED = {
  code: 'permission_denied',
  message:
    'calls from other hosts are refused while no SYSTEM_TOKEN is set; set SYSTEM_TOKEN to allow them (with "authorization: ' +
    'Bearer <token>")',
};

interface Served {
  readonly host: SimulatedHost;
  /** POSTs JSON to a System method; answers status and parsed body. */
  call(method: string, body: string, headers?: Record<string, string>): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

const open: Served[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** The System Connect routes on a real HTTP server, listening on `where` (a TCP host or a Unix socket path). */
async function serve(where: { host: string } | { path: string }, options: { token?: string; peerAddress?: string } = {}): Promise<Served> {
  const host = new SimulatedHost({ startDelayMs: 1, stopDelayMs: 1 });
  const handler = new SystemHandler(host);
  const app = new Hono();
  app.route('/', systemConnectRoutes(handler, { token: options.token }));
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  if (options.peerAddress !== undefined) {
    const address = options.peerAddress;
    server.prependListener('connection', (socket: Socket) => Object.defineProperty(socket, 'remoteAddress', { value: address }));
  }
  await new Promise<void>((resolve) => ('path' in where ? server.listen(where.path, resolve) : server.listen(0, where.host, resolve)));
  const target = 'path' in where ? { socketPath: where.path } : { host: where.host, port: (server.address() as AddressInfo).port };
  const served: Served = {
    host,
    call: (method, body, headers = {}) =>
      new Promise((resolve, reject) => {
        const req = httpRequest(
          { ...target, method: 'POST', path: `/v1alpha1.System/${method}`, headers: { 'content-type': 'application/json', ...headers } },
          (res) => {
            let text = '';
            res
              .setEncoding('utf8')
              .on('data', (chunk: string) => (text += chunk))
              .on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject).end(body);
      }),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await handler.close();
    },
  };
  open.push(served);
  return served;
}

function statusOf(served: Served, name: string): ServiceStatus {
  return served.host.snapshot().services.find((s) => s.name === name)!.status;
}

describe('System Connect routes without SYSTEM_TOKEN', () => {
  it.each([['127.0.0.1'], ['::1']])('serve a caller on loopback %s, StopService included', async (address) => {
    const served = await serve({ host: address });
    expect(await served.call('GetService', '{"name":"db"}')).toEqual({
      status: 200,
      body: { displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' },
    });
    expect(await served.call('StopService', '{"name":"db","force":true}')).toEqual({ status: 200, body: {} });
    expect(statusOf(served, 'db')).toBe(ServiceStatus.STOPPED);
  });

  it('serve a caller whose loopback address a dual-stack listener reports as IPv4-mapped', async () => {
    const served = await serve({ host: '127.0.0.1' }, { peerAddress: '::ffff:127.0.0.1' });
    expect((await served.call('GetBIOSSerialNumber', '{}')).status).toBe(200);
  });

  it('serve a caller on a Unix socket', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loom-access-'));
    try {
      const served = await serve({ path: join(dir, 'http.sock') });
      expect(await served.call('GetBIOSSerialNumber', '{}')).toEqual({ status: 200, body: { serialNumber: 'SIM-0001' } });
      await served.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuse a caller on another host with PERMISSION_DENIED (403) naming SYSTEM_TOKEN, before touching the host', async () => {
    const served = await serve({ host: '127.0.0.1' }, { peerAddress: REMOTE });
    expect(await served.call('StopService', '{"name":"db","force":true}')).toEqual({ status: 403, body: REFUSED });
    expect(await served.call('StartService', '{"name":"cache"}')).toEqual({ status: 403, body: REFUSED });
    expect(await served.call('GetService', '{"name":"db"}')).toEqual({ status: 403, body: REFUSED });
    expect(statusOf(served, 'db')).toBe(ServiceStatus.RUNNING);
    expect(statusOf(served, 'cache')).toBe(ServiceStatus.STOPPED);
  });

  it('refuse an address that only looks local (127.0.0.1 mapped into another IPv6 prefix)', async () => {
    const served = await serve({ host: '127.0.0.1' }, { peerAddress: '2001:db8::ffff:127.0.0.1' });
    expect(await served.call('GetService', '{"name":"db"}')).toEqual({ status: 403, body: REFUSED });
  });
});

describe('System Connect routes with SYSTEM_TOKEN', () => {
  it('serve a caller on another host that sends the token, and refuse one that does not with UNAUTHENTICATED', async () => {
    const served = await serve({ host: '127.0.0.1' }, { token: 's3cret', peerAddress: REMOTE });
    expect(await served.call('StopService', '{"name":"db","force":true}', { authorization: 'Bearer s3cret' })).toEqual({
      status: 200,
      body: {},
    });
    expect(statusOf(served, 'db')).toBe(ServiceStatus.STOPPED);
    const anonymous = await served.call('StartService', '{"name":"db"}');
    expect([anonymous.status, (anonymous.body as { code: string }).code]).toEqual([401, 'unauthenticated']);
    expect(statusOf(served, 'db')).toBe(ServiceStatus.STOPPED);
  });

  it('require the token from loopback callers too', async () => {
    const served = await serve({ host: '127.0.0.1' }, { token: 's3cret' });
    expect((await served.call('GetService', '{"name":"db"}')).status).toBe(401);
  });
});
