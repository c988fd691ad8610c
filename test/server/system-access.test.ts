/**
 * The System service's access settings as the composition root wires them: `SYSTEM_TOKEN`
 * on Connect and on gRPC (TCP and the owner-only Unix socket), and the token never printed.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR, type ServerProcess, startServerProcess } from '../support/server-harness.js';

const TOKEN = 'token-7f3a9c2e-not-for-logs';
let server: ServerProcess;
let socketPath: string;

beforeAll(async () => {
  server = await startServerProcess({
    env: (dir) => ({ LOOM_SERVICES: 'system', SYSTEM_TOKEN: TOKEN, GRPC_SOCKET: join(dir, 'system.sock') }),
  });
  socketPath = join(server.tempDir, 'system.sock');
});

afterAll(async () => {
  if (server !== undefined) expect((await server.stop()).code).toBe(0);
});

type SystemClient = InstanceType<grpc.ServiceClientConstructor>;

function grpcClient(address: string, token?: string): SystemClient {
  const definition = protoLoader.loadSync(join(ROOT_DIR, 'schemas/system/v1alpha1/system.proto'), { enums: String, defaults: true });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    v1alpha1: { System: grpc.ServiceClientConstructor };
  };
  const client = new loaded.v1alpha1.System(address, grpc.credentials.createInsecure());
  if (token !== undefined) {
    const call = client['GetService']!.bind(client);
    client['GetService'] = (request: object, callback: grpc.requestCallback<unknown>) => {
      const metadata = new grpc.Metadata();
      metadata.set('authorization', `Bearer ${token}`);
      return call(request, metadata, callback);
    };
  }
  return client;
}

function getService(client: SystemClient, name: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    client['GetService']!({ name }, (error: grpc.ServiceError | null, response: unknown) => (error ? reject(error) : resolve(response))),
  );
}

describe('SYSTEM_TOKEN and GRPC_SOCKET', () => {
  it('is required on Connect', async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${server.origin}/v1alpha1.System/GetService`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"name":"db"}',
      });
    const anonymous = await call({});
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'unauthenticated' });
    const wrong = await call({ authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    const right = await call({ authorization: `Bearer ${TOKEN}` });
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' });
  });

  it('is required on gRPC over TCP and over the owner-only Unix socket', async () => {
    const endpoints = server.ready['endpoints'] as Record<string, string>;
    const socket = endpoints['gRPC (unix socket)']!;
    expect(socket).toBe(`unix:${socketPath}`);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    for (const address of [endpoints['gRPC']!, socket]) {
      const anonymous = grpcClient(address);
      await expect(getService(anonymous, 'db')).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
      anonymous.close();
      const authorized = grpcClient(address, TOKEN);
      expect(await getService(authorized, 'db')).toEqual({ displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' });
      authorized.close();
    }
  });

  it('declares the bearer token in the served document, so "Try it out" can send it', async () => {
    const doc = (await (await fetch(`${server.origin}/docs/openapi/system.json`)).json()) as {
      security: unknown;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.security).toEqual([{ bearerToken: [] }]);
    expect(doc.components.securitySchemes['bearerToken']).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('never prints the token: the examples read it from the environment', () => {
    expect((server.ready['facts'] as Record<string, string>)['System token']).toBe('required');
    const examples = server.ready['examples'] as string[];
    expect(examples.every((line) => line.includes('-H "authorization: Bearer $SYSTEM_TOKEN"'))).toBe(true);
    expect(JSON.stringify(server.logs)).not.toContain(TOKEN);
    expect(server.stderr()).not.toContain(TOKEN);
  });
});
