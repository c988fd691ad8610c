/**
 * @module
 * Host errors → RPC errors: the table that makes Loom's System service stricter than csi-proxy
 * (which answers UNKNOWN for everything) while staying compatible with its clients, which only
 * look for a non-OK status.
 */
import { type RpcCode, RpcError } from '../rpc/index.js';
import { HostError, type HostErrorKind } from './host-adapter.js';

/** The RPC code of each host error kind (system-rpc-notes §6.9). */
export const RPC_CODE_BY_HOST_ERROR: Readonly<Record<HostErrorKind, RpcCode>> = {
  invalid_name: 'invalid_argument',
  not_found: 'not_found',
  dependents_running: 'failed_precondition',
  precondition_failed: 'failed_precondition',
  permission_denied: 'permission_denied',
  timeout: 'deadline_exceeded',
  canceled: 'canceled',
  unavailable: 'unavailable',
  command_failed: 'internal',
};

/**
 * Maps anything an adapter threw to an {@link RpcError}.
 *
 * - a {@link HostError} keeps its message under the code of {@link RPC_CODE_BY_HOST_ERROR};
 * - when the call's signal was aborted, its reason wins (the RPC runtime aborts with
 *   `RpcError('deadline_exceeded' | 'canceled')`);
 * - anything else is a bug: `internal` with a fixed message, the original kept as `cause`.
 *
 * @example
 * ```ts
 * toSystemRpcError(new HostError('not_found', 'service "x" does not exist'));
 * // RpcError { code: 'not_found', message: 'service "x" does not exist' }
 * ```
 */
export function toSystemRpcError(error: unknown, signal?: AbortSignal): RpcError {
  if (error instanceof RpcError) return error;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    if (reason instanceof RpcError) return reason;
    if (!(error instanceof HostError) || error.kind === 'canceled' || error.kind === 'timeout') {
      const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
      return new RpcError(timedOut ? 'deadline_exceeded' : 'canceled', timedOut ? 'the deadline expired' : 'the call was canceled', {
        cause: error,
      });
    }
  }
  if (error instanceof HostError) return new RpcError(RPC_CODE_BY_HOST_ERROR[error.kind], error.message, { cause: error });
  return new RpcError('internal', 'internal error in the System service', { cause: error });
}
