import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseConfig, type ServerConfig } from './config.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';
import { type ServiceFactory, type ServiceModule, StartupError } from './service-module.js';

function config(env: Record<string, string> = {}): ServerConfig {
  const request = parseConfig([], { PORT: '0', HOST: '127.0.0.1', LOOM_SERVICES: 'issues', LOG_FORMAT: 'json', ...env });
  if (request.kind !== 'run') throw new Error('expected run');
  return request.config;
}

function collectingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', format: 'json', destination }) };
}

/** A service with a route that waits until the test opens the gate. */
function gatedService() {
  const events: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const module: ServiceModule = {
    name: 'issues',
    checks: [{ name: 'database', check: async () => {} }],
    documents: [],
    mount(app) {
      app.get('/slow', async (c) => {
        arrived();
        await gate;
        return c.json({ done: true });
      });
      app.get('/boom', () => {
        throw new Error('kaput');
      });
      // What mounted services do: answer with a Response of their own (a sub-app's fetch, Connect).
      app.get('/own', () => new Response('{"own":true}', { headers: { 'content-type': 'application/json' } }));
      // A Response whose headers cannot be changed.
      app.get('/moved', () => Response.redirect('http://example.test/elsewhere', 301));
    },
    summary: (origin) => ({ facts: [['database', 'fake']], examples: [`curl ${origin}/slow`] }),
    async drain() {
      events.push('drained');
    },
    async close() {
      events.push('closed');
    },
  };
  const factory: ServiceFactory = async () => module;
  return { factory, events, open: () => open(), arrival };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const unusedFactory: ServiceFactory = async () => {
  throw new Error('not configured in this test');
};

describe('startServer', () => {
  it('serves health, logs each request with its id, and answers unknown routes and errors in JSON', async () => {
    const service = gatedService();
    const { lines, logger } = collectingLogger();
    const server = await startServer({
      config: config(),
      logger,
      factories: { issues: service.factory, system: unusedFactory },
      rootDir: process.cwd(),
    });
    try {
      const health = await get(server.port, '/healthz', { 'X-Request-Id': 'client-chosen-42' });
      expect(health.status).toBe(200);
      expect(health.headers['x-request-id']).toBe('client-chosen-42');
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });

      const ready = await get(server.port, '/readyz');
      expect(JSON.parse(ready.body)).toEqual({ status: 'ready', checks: { database: { status: 'ok' } } });
      expect(ready.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

      const root = await get(server.port, '/');
      expect(root.status).toBe(302);
      expect(root.headers['location']).toBe('/docs');

      const missing = await get(server.port, '/nope?token=secret');
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body)).toEqual({ error: 'not_found', message: 'no route for GET /nope' });

      const boom = await get(server.port, '/boom');
      expect(boom.status).toBe(500);
      expect(JSON.parse(boom.body)).toEqual({
        error: 'internal',
        message: 'internal server error',
        requestId: boom.headers['x-request-id'],
      });

      const own = await get(server.port, '/own', { 'X-Request-Id': 'own-1' });
      expect([own.status, own.body, own.headers['x-request-id']]).toEqual([200, '{"own":true}', 'own-1']);
      const moved = await get(server.port, '/moved', { 'X-Request-Id': 'moved-1' });
      expect([moved.status, moved.headers['location'], moved.headers['x-request-id']]).toEqual([
        301,
        'http://example.test/elsewhere',
        'moved-1',
      ]);
      // An id that is not a sane token is replaced, not echoed.
      const odd = await get(server.port, '/healthz', { 'X-Request-Id': 'a b<c>' });
      expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      service.open();
      await server.shutdown();
    }
    const requests = lines.filter((line) => line['msg'] === 'request');
    expect(requests.map((line) => [line['method'], line['path'], line['status'], line['level']])).toEqual([
      ['GET', '/healthz', 200, 30],
      ['GET', '/readyz', 200, 30],
      ['GET', '/', 302, 30],
      // The query string (which may hold a token) is not logged.
      ['GET', '/nope', 404, 40],
      ['GET', '/boom', 500, 50],
      ['GET', '/own', 200, 30],
      ['GET', '/moved', 301, 30],
      ['GET', '/healthz', 200, 30],
    ]);
    expect(requests[0]!['reqId']).toBe('client-chosen-42');
    expect(typeof requests[0]!['durationMs']).toBe('number');
    expect((requests[4]!['err'] as { message: string }).message).toBe('kaput');
  });

  it('finishes an in-flight request on shutdown, refuses new connections, then closes the services', async () => {
    const service = gatedService();
    const { logger } = collectingLogger();
    const server = await startServer({
      config: config(),
      logger,
      factories: { issues: service.factory, system: unusedFactory },
      rootDir: process.cwd(),
    });
    const inFlight = get(server.port, '/slow');
    await service.arrival;
    const stopped = server.shutdown();
    expect(server.shutdown()).toBe(stopped);

    await expect(get(server.port, '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // Own listeners stop with HTTP; resources are released only once HTTP has drained.
    expect(service.events).toEqual(['drained']);
    service.open();
    const reply = await inFlight;
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ done: true });
    expect(reply.headers['connection']).toBe('close');
    expect(await stopped).toEqual({ inFlightAtStart: 1, abandoned: 0, failures: [] });
    expect(service.events).toEqual(['drained', 'closed']);
  });

  it('cuts off requests still running when the shutdown bound runs out', async () => {
    const service = gatedService();
    const { logger } = collectingLogger();
    const server = await startServer({
      config: config({ LOOM_SHUTDOWN_TIMEOUT_MS: '50' }),
      logger,
      factories: { issues: service.factory, system: unusedFactory },
      rootDir: process.cwd(),
    });
    const inFlight = get(server.port, '/slow');
    await service.arrival;
    expect(await server.shutdown()).toEqual({ inFlightAtStart: 1, abandoned: 1, failures: [] });
    await expect(inFlight).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(service.events).toEqual(['drained', 'closed']);
    service.open();
  });

  it('explains a taken port before opening any service', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const service = gatedService();
    const { logger } = collectingLogger();
    try {
      const start = startServer({
        config: config({ PORT: String(port) }),
        logger,
        factories: { issues: service.factory, system: unusedFactory },
        rootDir: process.cwd(),
      });
      await expect(start).rejects.toThrow(StartupError);
      await expect(start).rejects.toThrow(`port ${port} is already in use on 127.0.0.1; stop the other process or choose another PORT`);
      expect(service.events).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('closes the services already open and frees the port when a later one fails', async () => {
    const service = gatedService();
    const { logger } = collectingLogger();
    const failing: ServiceFactory = async () => {
      throw new StartupError('cannot open the host adapter');
    };
    const start = startServer({
      config: config({ LOOM_SERVICES: 'issues,system' }),
      logger,
      factories: { issues: service.factory, system: failing },
      rootDir: process.cwd(),
    });
    await expect(start).rejects.toThrow('cannot open the host adapter');
    expect(service.events).toEqual(['closed']);
  });

  it('answers 503 while the services are still opening', async () => {
    const service = gatedService();
    const { logger } = collectingLogger();
    let release!: () => void;
    const opened = new Promise<void>((resolve) => (release = resolve));
    let origin!: string;
    const slowFactory: ServiceFactory = async (context) => {
      origin = context.origin;
      await opened;
      return service.factory(context);
    };
    const starting = startServer({
      config: config(),
      logger,
      factories: { issues: slowFactory, system: unusedFactory },
      rootDir: process.cwd(),
    });
    while (origin === undefined) await new Promise((resolve) => setImmediate(resolve));
    const port = Number(new URL(origin).port);
    expect(origin).toBe(`http://localhost:${port}`);
    const early = await get(port, '/readyz');
    expect(early.status).toBe(503);
    expect(early.headers['retry-after']).toBe('1');
    expect(JSON.parse(early.body)).toEqual({ error: 'unavailable', message: 'the server is starting' });
    release();
    const server = await starting;
    expect((await get(port, '/readyz')).status).toBe(200);
    service.open();
    await server.shutdown();
  });
});
