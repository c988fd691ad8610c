/**
 * `maxBodyBytes` of `connectRoutes`: the request body limit is the caller's to set, over a real
 * socket, for declared and for chunked bodies; `authorize` still runs before any of the body is read.
 */
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemServiceDescriptor } from '../../generated/system/v1alpha1/system.codec.js';
import type { SystemService } from '../../generated/system/v1alpha1/system.server.js';
import { type ConnectRoutesOptions, connectRoutes } from '../../runtime/rpc/connect-server.js';
import { RpcError } from '../../runtime/rpc/errors.js';
import { fakeService } from './fake-service.js';

const impl = fakeService<SystemService>(SystemServiceDescriptor, {
  getService: async (request) => ({ displayName: request.name, startType: 2, status: 4 }),
});

let server: ServerType | undefined;
afterEach(async () => {
  (server as Server | undefined)?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function start(options: ConnectRoutesOptions): Promise<number> {
  const app = new Hono();
  app.route('/', connectRoutes(SystemServiceDescriptor, impl, options));
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return (server.address() as AddressInfo).port;
}

/** POSTs `parts` as separate writes (chunked unless a content-length is given). */
function post(port: number, parts: string[], headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1alpha1.System/GetService',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        answered = true;
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c: string) => (text += c))
          .on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    for (const part of parts) req.write(part);
    req.end();
  });
}

describe('connectRoutes maxBodyBytes', () => {
  const message = '{"name":"db"}';

  it('takes a body of exactly the limit and refuses one byte more, declared or chunked', async () => {
    const port = await start({ maxBodyBytes: message.length + 4 });
    expect(await post(port, [message, '    '])).toEqual({
      status: 200,
      body: { displayName: 'db', startType: 'AUTOMATIC', status: 'RUNNING' },
    });
    const refused = { status: 429, body: { code: 'resource_exhausted', message: 'request body is larger than the limit of 17 bytes' } };
    expect(await post(port, [message, '     '])).toEqual(refused);
    expect(await post(port, [message, '     '], { 'content-length': String(message.length + 5) })).toEqual({
      status: 429,
      body: { code: 'resource_exhausted', message: 'request body of 18 bytes is larger than the limit of 17 bytes' },
    });
  });

  it('runs authorize before reading the body', async () => {
    const port = await start({
      maxBodyBytes: 4,
      authorize: () => {
        throw new RpcError('unauthenticated', 'no token');
      },
    });
    expect(await post(port, [message])).toEqual({ status: 401, body: { code: 'unauthenticated', message: 'no token' } });
  });

  it('refuses a limit that is not a byte count when the routes are built', () => {
    expect(() => connectRoutes(SystemServiceDescriptor, impl, { maxBodyBytes: -1 })).toThrow(
      'maxBodyBytes must be a non-negative integer, got -1',
    );
    expect(() => connectRoutes(SystemServiceDescriptor, impl, { maxBodyBytes: 1.5 })).toThrow(RangeError);
  });
});
