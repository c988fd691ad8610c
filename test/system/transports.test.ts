/**
 * Every operation and every error code of the System service over real sockets: Connect JSON and
 * Connect binary over HTTP, gRPC over TCP and over the Unix socket, through the generated typed clients.
 */
import { stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSystemConnectClient, type SystemClient } from '../../generated/system/v1alpha1/system.client.js';
import { createSystemGrpcClient } from '../../generated/system/v1alpha1/system.grpc.js';
import { ServiceStatus, StartType } from '../../generated/system/v1alpha1/system.types.js';
import { RpcError } from '../../runtime/rpc/index.js';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';
import { RPC_CODE_BY_HOST_ERROR } from '../../runtime/system/error-mapping.js';
import type { HostErrorKind } from '../../runtime/system/host-adapter.js';
import { FailingHost } from './support/failing-host.js';
import { type RunningSystem, startSystem } from './support/system-server.js';

type Transport = 'connect-json' | 'connect-binary' | 'grpc-tcp' | 'grpc-unix';

function clientFor(transport: Transport, system: RunningSystem, headers?: HeadersInit): { client: SystemClient; close(): void } {
  switch (transport) {
    case 'connect-json':
    case 'connect-binary':
      return {
        client: createSystemConnectClient({
          baseUrl: system.baseUrl,
          binary: transport === 'connect-binary' ? protobufBinary : undefined,
          headers,
        }),
        close() {},
      };
    case 'grpc-tcp':
    case 'grpc-unix': {
      const client = createSystemGrpcClient(transport === 'grpc-tcp' ? system.grpcAddress : `unix:${system.socketPath}`, { headers });
      return { client, close: () => client.close() };
    }
  }
}

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

const TRANSPORTS: Transport[] = ['connect-json', 'connect-binary', 'grpc-tcp', 'grpc-unix'];

describe.each(TRANSPORTS)('System over %s', (transport) => {
  let system: RunningSystem;
  let client: SystemClient;
  let closeClient: () => void;

  beforeAll(async () => {
    system = await startSystem(new FailingHost({ startDelayMs: 5, stopDelayMs: 5 }));
    ({ client, close: closeClient } = clientFor(transport, system));
  });
  afterAll(async () => {
    closeClient();
    await system.close();
  });

  it('GetBIOSSerialNumber returns the host serial', async () => {
    expect(await client.getBIOSSerialNumber({})).toEqual({ serialNumber: 'SIM-0001' });
  });

  it('GetService returns display name, start type and status', async () => {
    expect(await client.getService({ name: 'db' })).toEqual({
      displayName: 'Database',
      startType: StartType.AUTOMATIC,
      status: ServiceStatus.RUNNING,
    });
    expect(await client.getService({ name: 'legacy' })).toEqual({
      displayName: 'Legacy Agent',
      startType: StartType.DISABLED,
      status: ServiceStatus.STOPPED,
    });
  });

  it('StartService starts a service and its dependency; starting again succeeds', async () => {
    expect(await client.stopService({ name: 'db', force: true })).toEqual({});
    expect((await client.getService({ name: 'web' })).status).toBe(ServiceStatus.STOPPED);
    expect(await client.startService({ name: 'worker' })).toEqual({});
    expect((await client.getService({ name: 'db' })).status).toBe(ServiceStatus.RUNNING);
    expect((await client.getService({ name: 'worker' })).status).toBe(ServiceStatus.RUNNING);
    expect(await client.startService({ name: 'worker' })).toEqual({});
  });

  it('StopService without force refuses while dependents run: FAILED_PRECONDITION', async () => {
    await client.startService({ name: 'web' });
    const error = await rpcError(client.stopService({ name: 'db', force: false }));
    expect([error.code, error.message]).toEqual([
      'failed_precondition',
      'cannot stop db: dependent services are running: web, worker (use force to stop them too)',
    ]);
    expect((await client.getService({ name: 'db' })).status).toBe(ServiceStatus.RUNNING);
  });

  it('StopService with force stops the dependents too; stopping again succeeds', async () => {
    await client.stopService({ name: 'db', force: true });
    for (const name of ['db', 'web', 'worker']) expect((await client.getService({ name })).status).toBe(ServiceStatus.STOPPED);
    expect(await client.stopService({ name: 'db', force: false })).toEqual({});
  });

  it('NOT_FOUND for an unknown service, INVALID_ARGUMENT for a bad name', async () => {
    const missing = await rpcError(client.getService({ name: 'nope' }));
    expect([missing.code, missing.message]).toEqual(['not_found', 'service "nope" does not exist']);
    const bad = await rpcError(client.startService({ name: 'db; reboot' }));
    expect([bad.code, bad.message]).toEqual([
      'invalid_argument',
      'invalid service name "db; reboot": ";" at position 2 is not allowed (allowed: letters, digits and : _ . @ -)',
    ]);
    expect((await rpcError(client.getService({}))).code).toBe('invalid_argument');
  });

  it('FAILED_PRECONDITION for a disabled service', async () => {
    const error = await rpcError(client.startService({ name: 'legacy' }));
    expect([error.code, error.message]).toEqual(['failed_precondition', 'service legacy is disabled and cannot be started']);
  });

  it.each(Object.entries(RPC_CODE_BY_HOST_ERROR) as Array<[HostErrorKind, string]>)(
    'host error %s arrives as %s with its message',
    async (kind, code) => {
      const error = await rpcError(client.getService({ name: `fail-${kind}` }));
      expect([error.code, error.message]).toEqual([code, `simulated ${kind} for fail-${kind}`]);
    },
  );

  it('DEADLINE_EXCEEDED when the client deadline passes during an operation', async () => {
    const error = await rpcError(client.startService({ name: 'hang' }, { timeoutMs: 100 }));
    expect(error.code).toBe('deadline_exceeded');
  });
});

describe.each(TRANSPORTS)('System with SYSTEM_TOKEN over %s', (transport) => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem(new FailingHost({ startDelayMs: 1, stopDelayMs: 1 }), { token: 's3cret-token' });
  });
  afterAll(() => system.close());

  it.each([
    ['no token', undefined, 'this service requires "authorization: Bearer <token>"'],
    ['a wrong token', { authorization: 'Bearer wrong' }, 'invalid bearer token'],
    ['another scheme', { authorization: 'Basic czNjcmV0LXRva2Vu' }, 'invalid bearer token'],
  ])('refuses %s with UNAUTHENTICATED, before touching the host', async (_label, headers, message) => {
    const { client, close } = clientFor(transport, system, headers);
    try {
      const error = await rpcError(client.stopService({ name: 'db', force: true }));
      expect([error.code, error.message]).toEqual(['unauthenticated', message]);
      expect((system.handler.host as FailingHost).snapshot().services.find((s) => s.name === 'db')!.status).toBe(ServiceStatus.RUNNING);
    } finally {
      close();
    }
  });

  it('serves calls that carry the token', async () => {
    const { client, close } = clientFor(transport, system, { authorization: 'Bearer s3cret-token' });
    try {
      expect(await client.getBIOSSerialNumber({})).toEqual({ serialNumber: 'SIM-0001' });
    } finally {
      close();
    }
  });
});

describe('the gRPC Unix socket', () => {
  it('is created owner-only (0600) and removed on close', async () => {
    const system = await startSystem(new FailingHost());
    const mode = (await stat(system.socketPath)).mode & 0o777;
    expect(mode.toString(8)).toBe('600');
    await system.close();
    await expect(stat(system.socketPath)).rejects.toThrow('ENOENT');
  });
});
