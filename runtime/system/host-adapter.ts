/**
 * @module
 * The host adapter: the one interface between the System service and an operating system's
 * service manager (systemd, the Windows service control manager, or the simulated host).
 *
 * Adapters speak in domain terms and fail with {@link HostError}; the handler maps those to RPC
 * codes, so that no adapter knows about Connect or gRPC.
 */
import type { ServiceStatus, StartType } from '../../generated/system/v1alpha1/system.types.js';
import type { ServiceNameRules } from './service-name.js';

/** What `GetService` reports about one service. */
export interface ServiceInfo {
  readonly displayName: string;
  readonly startType: StartType;
  readonly status: ServiceStatus;
}

/** Options of a state-changing call. */
export interface ServiceOperationOptions {
  /**
   * Aborted when the caller gives up (client cancel or deadline). The adapter stops *waiting*;
   * a job already handed to the service manager is not undone, just as with `systemctl` or `sc`.
   */
  readonly signal?: AbortSignal;
}

/** Options of {@link HostAdapter.stopService}. */
export interface StopServiceOptions extends ServiceOperationOptions {
  /** Stop running dependents first instead of refusing with `dependents_running`. */
  readonly force: boolean;
}

/**
 * One operating system's service manager.
 *
 * Names reach the adapter already validated and normalized by {@link ServiceNameRules.normalize}
 * of the adapter's own `nameRules`, so an adapter never sees a hostile string.
 *
 * @example
 * ```ts
 * const host: HostAdapter = new SimulatedHost();
 * await host.startService('web', {});           // starts `db` first: web depends on it
 * await host.stopService('db', { force: true }); // stops `web`, then `db`
 * console.log(await host.getService('db'));     // { displayName: 'Database', startType: 2, status: 1 }
 * await host.close();
 * ```
 */
export interface HostAdapter {
  /** `systemd`, `windows`, `simulated`: for logs and health output. */
  readonly kind: HostAdapterKind;
  /** How this host spells service names (characters, length, case). */
  readonly nameRules: ServiceNameRules;
  getBiosSerial(options?: ServiceOperationOptions): Promise<string>;
  getService(name: string, options?: ServiceOperationOptions): Promise<ServiceInfo>;
  /** Starts the service and what it depends on; resolves once it runs. Starting a running service succeeds. */
  startService(name: string, options?: ServiceOperationOptions): Promise<void>;
  /** Stops the service; resolves once it is stopped. Stopping a stopped service succeeds. */
  stopService(name: string, options: StopServiceOptions): Promise<void>;
  /** Releases timers, files and child processes. */
  close(): Promise<void>;
}

/** The service managers Loom drives. */
export type HostAdapterKind = 'systemd' | 'windows' | 'simulated';

/**
 * What `HOST_ADAPTER` accepts: an adapter kind, or `auto` to detect one. Here, beside the kinds,
 * so that the server's option table reads it without loading the adapters themselves.
 */
export const HOST_ADAPTER_VALUES = ['auto', 'systemd', 'windows', 'simulated'] as const satisfies readonly ('auto' | HostAdapterKind)[];
/** One of {@link HOST_ADAPTER_VALUES}. */
export type HostAdapterSetting = (typeof HOST_ADAPTER_VALUES)[number];

/**
 * Why a host operation failed. The handler maps each kind to one RPC code:
 *
 * | kind | RPC code |
 * |---|---|
 * | `invalid_name` | invalid_argument |
 * | `not_found` | not_found |
 * | `dependents_running`, `precondition_failed` (disabled, masked) | failed_precondition |
 * | `permission_denied` | permission_denied |
 * | `timeout` | deadline_exceeded |
 * | `canceled` | canceled |
 * | `unavailable` (no service manager, no DMI) | unavailable |
 * | `command_failed` (the manager ran and failed, or answered nonsense) | internal |
 */
export type HostErrorKind =
  | 'invalid_name'
  | 'not_found'
  | 'dependents_running'
  | 'precondition_failed'
  | 'permission_denied'
  | 'timeout'
  | 'canceled'
  | 'unavailable'
  | 'command_failed';

/**
 * A failure of the host, in domain terms.
 *
 * @example
 * ```ts
 * throw new HostError('not_found', 'service "nope" does not exist');
 * ```
 */
export class HostError extends Error {
  constructor(
    readonly kind: HostErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HostError';
  }
}

/** True when `error` is a {@link HostError}, optionally of the given kind. */
export function isHostError(error: unknown, kind?: HostErrorKind): error is HostError {
  return error instanceof HostError && (kind === undefined || error.kind === kind);
}
