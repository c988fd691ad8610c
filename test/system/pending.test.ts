/**
 * Pending states as a client sees them: while a start is in progress, GetService reports
 * START_PENDING on both transports (it never waits for the start), and the start completes.
 */
import { describe, expect, it } from 'vitest';
import { createSystemGrpcClient } from '../../generated/system/v1alpha1/system.grpc.js';
import { ServiceStatus } from '../../generated/system/v1alpha1/system.types.js';
import { FailingHost } from './support/failing-host.js';
import { startSystem } from './support/system-server.js';

describe('a start in progress', () => {
  it('shows as START_PENDING over Connect and gRPC, then the start answers', async () => {
    let seenPending!: () => void;
    const pending = new Promise<void>((resolve) => (seenPending = resolve));
    // A delay no test waits for: close() settles it.
    const host = new FailingHost({
      startDelayMs: 60_000,
      onStatusChange: (name, status) => {
        if (name === 'cache' && status === ServiceStatus.START_PENDING) seenPending();
      },
    });
    const system = await startSystem(host);
    const grpc = createSystemGrpcClient(system.grpcAddress);
    try {
      const post = (method: string, body: string) =>
        fetch(`${system.baseUrl}/v1alpha1.System/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const starting = post('StartService', '{"name":"cache"}');
      await pending;
      const res = await post('GetService', '{"name":"cache"}');
      expect(await res.text()).toBe('{"displayName":"Cache","startType":"MANUAL","status":"START_PENDING"}');
      expect(await grpc.getService({ name: 'cache' })).toEqual({ displayName: 'Cache', startType: 3, status: ServiceStatus.START_PENDING });
      await host.close();
      const started = await starting;
      expect([started.status, await started.text()]).toEqual([200, '{}']);
      expect(await grpc.getService({ name: 'db' }).catch((e: { code: string }) => e.code)).toBe('unavailable');
    } finally {
      grpc.close();
      await system.close();
    }
  });
});
