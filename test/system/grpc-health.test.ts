/**
 * `grpc.health.v1.Health` on the System service's gRPC listener, through the generated health
 * client over a real port: `Check` and `Watch` for the whole server and for `v1alpha1.System`,
 * following the readiness checks, NOT_FOUND / SERVICE_UNKNOWN for other names, NOT_SERVING once
 * shutdown begins (ending open watches), and no token needed while the System service requires one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHealthGrpcClient } from '../../generated/grpc/health/v1/health.grpc.js';
import { HealthCheckResponse_ServingStatus as Status } from '../../generated/grpc/health/v1/health.types.js';
import { SystemServiceDescriptor } from '../../generated/system/v1alpha1/system.codec.js';
import { createGrpcClient } from '../../runtime/rpc/index.js';
import { createGrpcHealth } from '../../runtime/server/grpc-health.js';
import type { ReadinessCheck } from '../../runtime/server/health.js';
import { type SystemGrpcHandle, serveSystemGrpc } from '../../runtime/system/serve.js';
import { SimulatedHost } from '../../runtime/system/simulated/simulated-host.js';
import { SystemHandler } from '../../runtime/system/system-handler.js';

/** What the host adapter check does next: pass, fail, or never answer. */
let hostState: 'up' | 'down' | 'hung';
const hostCheck: ReadinessCheck = {
  name: 'hostAdapter',
  check: (signal) =>
    hostState === 'up'
      ? Promise.resolve()
      : hostState === 'down'
        ? Promise.reject(new Error('service manager gone'))
        : new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
};
const otherCheck: ReadinessCheck = { name: 'database', check: () => Promise.resolve() };

let shutdown: AbortController;
let handle: SystemGrpcHandle;
let health: ReturnType<typeof createHealthGrpcClient>;

beforeEach(async () => {
  hostState = 'up';
  shutdown = new AbortController();
  handle = await serveSystemGrpc(new SystemHandler(new SimulatedHost()), {
    grpcPort: 0,
    token: 'secret-token',
    health: createGrpcHealth({
      services: { 'v1alpha1.System': [hostCheck], 'demo.Other': [otherCheck] },
      shutdown: shutdown.signal,
      timeoutMs: 100,
      pollMs: 20,
    }),
  });
  health = createHealthGrpcClient(handle.addresses[0]!);
});

afterEach(async () => {
  health.close();
  await handle.close(100);
});

/** The first `count` statuses a watch of `service` reports, then the watch is cancelled. */
async function watch(service: string, count: number, between: (seen: number) => void = () => {}): Promise<number[]> {
  const controller = new AbortController();
  const seen: number[] = [];
  try {
    for await (const { status } of health.watch({ service }, { signal: controller.signal })) {
      seen.push(status);
      if (seen.length === count) break;
      between(seen.length);
    }
  } finally {
    controller.abort();
  }
  return seen;
}

describe('gRPC health checking', () => {
  it('answers SERVING for the server and each service while their checks pass, without the token', async () => {
    expect(await health.check({ service: '' })).toEqual({ status: Status.SERVING });
    expect(await health.check({ service: 'v1alpha1.System' })).toEqual({ status: Status.SERVING });
    // The System service itself still wants the token.
    const system = createGrpcClient(SystemServiceDescriptor, handle.addresses[0]!);
    try {
      await expect(system.getService({ name: 'db' })).rejects.toMatchObject({ code: 'unauthenticated' });
    } finally {
      system.close();
    }
  });

  it('answers NOT_SERVING when a check fails or does not answer in time, for that service and the server', async () => {
    hostState = 'down';
    expect(await health.check({ service: 'v1alpha1.System' })).toEqual({ status: Status.NOT_SERVING });
    expect(await health.check({ service: '' })).toEqual({ status: Status.NOT_SERVING });
    expect(await health.check({ service: 'demo.Other' })).toEqual({ status: Status.SERVING });
    hostState = 'hung';
    expect(await health.check({ service: 'v1alpha1.System' })).toEqual({ status: Status.NOT_SERVING });
  });

  it('answers NOT_FOUND to Check and SERVICE_UNKNOWN to Watch for a service it does not know', async () => {
    await expect(health.check({ service: 'v1alpha1.Disk' })).rejects.toMatchObject({ name: 'RpcError', code: 'not_found' });
    expect(await watch('v1alpha1.Disk', 1)).toEqual([Status.SERVICE_UNKNOWN]);
  });

  it('watches: the status now, then each change', async () => {
    const seen = await watch('v1alpha1.System', 3, (n) => {
      hostState = n === 1 ? 'down' : 'up';
    });
    expect(seen).toEqual([Status.SERVING, Status.NOT_SERVING, Status.SERVING]);
  });

  it('says NOT_SERVING once shutdown begins, and ends open watches so the listener can close', async () => {
    const seen: number[] = [];
    const watching = (async () => {
      for await (const { status } of health.watch({ service: '' })) {
        seen.push(status);
        if (seen.length === 1) shutdown.abort();
      }
    })();
    await watching;
    expect(seen).toEqual([Status.SERVING, Status.NOT_SERVING]);
    expect(await health.check({ service: '' })).toEqual({ status: Status.NOT_SERVING });
  });
});
