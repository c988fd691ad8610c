/**
 * The real server process, as `npm start` runs it: both services, a temporary SQLite
 * database with demo data, the simulated host, free ports. Exercised over HTTP (Issues API,
 * Connect), over gRPC with a client built from the proto file alone, and through the
 * operational endpoints.
 */
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR, type ServerProcess, startServerProcess } from '../support/server-harness.js';

let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({ env: { LOOM_DEMO: '1' } });
});

afterAll(async () => {
  if (server === undefined) return;
  const { code } = await server.stop('SIGTERM');
  expect(code).toBe(0);
});

async function connect(method: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${server.origin}/v1alpha1.System/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('start-up', () => {
  it('logs progress and a ready record with the addresses, the database, the adapter and example calls', () => {
    const messages = server.logs.map((record) => record.msg);
    expect(messages).toContain('opening the database and applying migrations');
    expect(messages.some((msg) => msg === 'seeding demo data')).toBe(true);
    const ready = server.ready;
    expect(ready['services']).toEqual(['issues', 'system']);
    expect(ready['http']).toBe(`http://localhost:${server.httpPort}`);
    expect(ready['docs']).toBe(`http://localhost:${server.httpPort}/docs`);
    const endpoints = ready['endpoints'] as Record<string, string>;
    expect(endpoints['gRPC']).toMatch(/^127\.0\.0\.1:\d+$/);
    const facts = ready['facts'] as Record<string, string>;
    expect(facts['Database']).toBe(`SQLite ${join(server.tempDir, 'loom.db')}`);
    expect(facts['Host adapter']).toBe('simulated');
    expect(facts['Demo data']).toBe('seeded: 300 issues in 4 repositories');
    const examples = ready['examples'] as string[];
    expect(examples.some((line) => line.startsWith(`curl '${server.origin}/api/v1/`))).toBe(true);
    expect(examples.some((line) => line.includes(`${server.origin}/v1alpha1.System/GetService`))).toBe(true);
    expect(examples.some((line) => line.startsWith('grpcurl '))).toBe(true);
  });
});

describe('operations', () => {
  it('GET /healthz answers while the process is up', async () => {
    const res = await fetch(`${server.origin}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz checks the database and the host adapter', async () => {
    const res = await fetch(`${server.origin}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { database: { status: 'ok' }, hostAdapter: { status: 'ok' } } });
  });

  it('echoes X-Request-Id and logs the request with it', async () => {
    const res = await fetch(`${server.origin}/healthz`, { headers: { 'X-Request-Id': 'e2e-request-7' } });
    expect(res.headers.get('x-request-id')).toBe('e2e-request-7');
    await res.arrayBuffer();
    // The log line is written before the response is sent, so it is already on stdout or in the pipe.
    for (let i = 0; i < 100 && !server.logs.some((record) => record['reqId'] === 'e2e-request-7'); i++)
      await new Promise((r) => setTimeout(r, 20));
    const line = server.logs.find((record) => record['reqId'] === 'e2e-request-7')!;
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/healthz', status: 200 });
    expect(typeof line['durationMs']).toBe('number');
  });
});

describe('Issues API over HTTP', () => {
  it('searches the demo issues with Gitea headers', async () => {
    const res = await fetch(`${server.origin}/api/v1/repos/issues/search?limit=5`, { headers: { 'X-Request-Id': 'e2e-issues-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('e2e-issues-1');
    const total = Number(res.headers.get('x-total-count'));
    expect(total).toBeGreaterThan(5);
    const items = (await res.json()) as { number: number; title: string; state: string }[];
    expect(items).toHaveLength(5);
    for (const item of items) expect(item.state).toBe('open');
  });

  it('serves gitea-js given a base URL that ends in a slash, as Gitea does', async () => {
    // gitea-js appends `/api/v1` to the base URL, so every request path starts `//api/v1/`.
    const api = giteaApi(`${server.origin}/`);
    const { data, headers } = await api.repos.issueSearchIssues({ limit: 2 });
    expect(data).toHaveLength(2);
    expect(Number(headers.get('x-total-count'))).toBeGreaterThan(2);
    const health = await fetch(`${server.origin}//healthz/`);
    expect(health.status).toBe(200);
  });

  it('the printed demo sign-in reads a private repository that anonymous callers cannot see', async () => {
    const example = (server.ready['examples'] as string[]).find((line) => line.startsWith('curl -u '))!;
    const [, credentials, url] = /^curl -u (\S+) '([^']+)'$/.exec(example)!;
    const signedIn = await fetch(url!, { headers: { authorization: `Basic ${Buffer.from(credentials!).toString('base64')}` } });
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as unknown[]).length).toBeGreaterThan(0);
    expect((await fetch(url!)).status).toBe(404);
  });

  it('answers unknown API paths in the API’s own (Gitea) error shape, other paths in the server’s', async () => {
    const api = await fetch(`${server.origin}/api/v1/no/such/route`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ message: 'not found' });
    const other = await fetch(`${server.origin}/no/such/route`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: 'not_found', message: 'no route for GET /no/such/route' });
  });
});

describe('System service over Connect', () => {
  it('GetService answers in proto3 JSON, with the request id', async () => {
    const res = await connect('GetService', { name: 'db' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({ displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' });
  });

  it('an unknown service is a Connect not_found error', async () => {
    const res = await connect('GetService', { name: 'no-such-service' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('System service over gRPC', () => {
  it('serves the same handler to a client built from the proto file alone', async () => {
    const definition = protoLoader.loadSync(join(ROOT_DIR, 'schemas/system/v1alpha1/system.proto'), { enums: String, defaults: true });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      v1alpha1: { System: grpc.ServiceClientConstructor };
    };
    const address = (server.ready['endpoints'] as Record<string, string>)['gRPC']!;
    const client = new loaded.v1alpha1.System(address, grpc.credentials.createInsecure());
    try {
      const call = <T>(method: string, request: object) =>
        new Promise<T>((resolve, reject) =>
          client[method]!(request, (error: grpc.ServiceError | null, response: T) => (error ? reject(error) : resolve(response))),
        );
      expect(await call('GetService', { name: 'web' })).toEqual({ displayName: 'Web Server', startType: 'AUTOMATIC', status: 'RUNNING' });
      expect(await call('GetBIOSSerialNumber', {})).toEqual({ serialNumber: 'SIM-0001' });
      await expect(call('GetService', { name: 'no-such-service' })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    } finally {
      client.close();
    }
  });
});

describe('gRPC health checking', () => {
  it('answers grpc.health.v1 Check with SERVING, to a client built from the proto file alone', async () => {
    const definition = protoLoader.loadSync(join(ROOT_DIR, 'schemas/grpc/health/v1/health.proto'), { enums: String, defaults: true });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as {
      grpc: {
        health: { v1: { Health: grpc.ServiceClientConstructor } };
      };
    };
    const client = new loaded.grpc.health.v1.Health(
      (server.ready['endpoints'] as Record<string, string>)['gRPC']!,
      grpc.credentials.createInsecure(),
    );
    try {
      const check = (service: string) =>
        new Promise<unknown>((resolve, reject) =>
          client['check']!({ service }, (error: grpc.ServiceError | null, response: unknown) =>
            error ? reject(error) : resolve(response),
          ),
        );
      expect(await check('')).toEqual({ status: 'SERVING' });
      expect(await check('v1alpha1.System')).toEqual({ status: 'SERVING' });
      await expect(check('v1alpha1.Volume')).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    } finally {
      client.close();
    }
  });
});

describe('/docs', () => {
  it('serves both generated documents with servers pointing at this server', async () => {
    const issues = (await (await fetch(`${server.origin}/docs/openapi/issues.json`)).json()) as {
      servers: { url: string }[];
      paths: object;
    };
    expect(issues.servers).toEqual([{ url: `${server.origin}/api/v1`, description: 'This server' }]);
    expect(Object.keys(issues.paths)).toContain('/repos/issues/search');
    const system = (await (await fetch(`${server.origin}/docs/openapi/system.json`)).json()) as {
      servers: { url: string }[];
      paths: object;
    };
    expect(system.servers).toEqual([{ url: server.origin, description: 'This server' }]);
    expect(Object.keys(system.paths)).toContain('/v1alpha1.System/GetService');
  });
});
