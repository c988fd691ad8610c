/**
 * @module
 * The gRPC health checking protocol (`grpc.health.v1.Health`) on the gRPC listener, so that
 * Kubernetes gRPC probes, load balancers and `grpc_health_probe` can ask the server what `/readyz`
 * tells HTTP callers: `""` is the server as a whole, a service's full name (`v1alpha1.System`) that
 * service. A service is SERVING when each of its checks answers within the bound, NOT_SERVING when
 * one fails or shutdown has begun. `Check` on a name the server does not know is NOT_FOUND;
 * `Watch` answers SERVICE_UNKNOWN for it, as the protocol says, then the status again each time it
 * changes (checked every `pollMs`).
 *
 * @see https://github.com/grpc/grpc/blob/master/doc/health-checking.md
 */

import type { HealthService } from '../../generated/grpc/health/v1/health.server.js';
import type { HealthCheckRequest, HealthCheckResponse } from '../../generated/grpc/health/v1/health.types.js';
import { HealthCheckResponse_ServingStatus as Status } from '../../generated/grpc/health/v1/health.types.js';
import { RpcError } from '../rpc/errors.js';
import type { RpcContext } from '../rpc/types.js';
import type { ReadinessCheck } from './health.js';

/** Options of {@link createGrpcHealth}. */
export interface GrpcHealthOptions {
  /** Each service the listener serves, by full name, with the checks it needs. */
  readonly services: Readonly<Record<string, readonly ReadinessCheck[]>>;
  /**
   * Aborted when shutdown begins: everything is NOT_SERVING from then on, and each `Watch` says so
   * and ends, so that open watches do not hold up the listener's graceful close.
   */
  readonly shutdown: AbortSignal;
  /** Bound on each check, as for `/readyz`. @default 2000 */
  readonly timeoutMs?: number;
  /** How often a `Watch` looks again. @default 5000 */
  readonly pollMs?: number;
}

/**
 * The `Health` service for `addHealthServiceToGrpc`.
 *
 * @example
 * ```ts
 * addHealthServiceToGrpc(server, createGrpcHealth({ services: { 'v1alpha1.System': [hostAdapterCheck] }, shutdown: draining.signal }));
 * // grpcurl -plaintext 127.0.0.1:50051 grpc.health.v1.Health/Check → { "status": "SERVING" }
 * ```
 */
export function createGrpcHealth({ services, shutdown, timeoutMs = 2000, pollMs = 5000 }: GrpcHealthOptions): HealthService {
  // `""` stands for the whole server: every check of every service.
  const known = new Map<string, readonly ReadinessCheck[]>([['', Object.values(services).flat()], ...Object.entries(services)]);

  async function statusOf(checks: readonly ReadinessCheck[]): Promise<Status> {
    if (shutdown.aborted) return Status.NOT_SERVING;
    const results = await Promise.all(checks.map((check) => passes(check, timeoutMs)));
    return results.every(Boolean) ? Status.SERVING : Status.NOT_SERVING;
  }

  return {
    async check(request: HealthCheckRequest): Promise<HealthCheckResponse> {
      const checks = known.get(request.service);
      if (checks === undefined) throw new RpcError('not_found', `unknown service ${JSON.stringify(request.service)}`);
      return { status: await statusOf(checks) };
    },

    async *watch(request: HealthCheckRequest, ctx: RpcContext): AsyncIterable<HealthCheckResponse> {
      const checks = known.get(request.service);
      const stop = AbortSignal.any([ctx.signal, shutdown]);
      let last: Status | undefined;
      while (!ctx.signal.aborted) {
        const status = checks === undefined ? Status.SERVICE_UNKNOWN : await statusOf(checks);
        if (status !== last) {
          last = status;
          yield { status };
        }
        if (shutdown.aborted) return;
        await sleep(pollMs, stop);
      }
    },
  };
}

/** Whether a check answers within the bound. */
async function passes(check: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = new Promise<false>((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true }));
  try {
    return await Promise.race([check.check(signal).then(() => true), timedOut]);
  } catch {
    return false;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
