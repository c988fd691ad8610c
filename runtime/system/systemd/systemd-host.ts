/**
 * @module
 * The systemd host adapter: `systemctl` through a {@link CommandRunner} (argument arrays, `--`
 * before every unit name, `--no-ask-password` so polkit never prompts), the BIOS serial from DMI.
 *
 * - GetService: `systemctl show --property=… -- <unit>`, mapped by the tables of `state-mapping.ts`.
 *   An unknown unit shows `LoadState=not-found` and exit 0 → `not_found`.
 * - StartService: idempotent (a running unit is left alone); a masked unit is refused; then
 *   `systemctl start` and polling until the unit settles, within `waitTimeoutMs` → `timeout`.
 * - StopService: reads the reverse dependencies that propagate a stop (`RequiredBy`, `BoundBy`,
 *   `ConsistsOf`, `RequisiteOf`, §6.5). With active dependents, `force: false` refuses
 *   (`dependents_running`, like Win32 return code 3); `force: true` names them in the same
 *   `systemctl stop` transaction. Then polling until the unit is stopped.
 *
 * `systemctl start` and `stop` block until their job ends, which can take the whole wait. They run
 * in a pool of their own, apart from the `systemctl show` queries (GetService, `/readyz`, the
 * checks and polling of start and stop), so that a query never waits behind a slow job.
 */

import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import { raceAbort, sleep } from '../abort.js';
import { type CommandRunner, createExecFileRunner, limitConcurrency, spawnFailureToHostError } from '../command-runner.js';
import {
  type HostAdapter,
  HostError,
  isHostError,
  type ServiceInfo,
  type ServiceOperationOptions,
  type StopServiceOptions,
} from '../host-adapter.js';
import { SYSTEMD_NAME_RULES } from '../service-name.js';
import { DMI_PRODUCT_SERIAL, readDmiSerial } from './dmi-serial.js';
import { parseShowOutput, splitUnitList, type UnitProperties } from './show-output.js';
import { isActiveState, toServiceStatus, toStartType } from './state-mapping.js';
import { classifySystemctlFailure } from './systemctl-errors.js';

/** Options of {@link SystemdHost}. */
export interface SystemdHostOptions {
  /** Runs `systemctl`, within the two limits below. @default `execFile` */
  readonly runner?: CommandRunner;
  /** Most `systemctl show` queries at once. @default 4 */
  readonly maxConcurrentQueries?: number;
  /** Most `systemctl start`/`stop` jobs at once (a pool apart from the queries). @default 4 */
  readonly maxConcurrentJobs?: number;
  /** @default 'systemctl' */
  readonly systemctl?: string;
  /** @default '/sys/class/dmi/id/product_serial' */
  readonly serialPath?: string;
  /** How long start and stop wait for the unit to settle (csi-proxy: 30 s). @default 30000 */
  readonly waitTimeoutMs?: number;
  /** Polling interval while waiting (csi-proxy: 200 ms). @default 200 */
  readonly pollIntervalMs?: number;
}

/** The properties GetService needs. */
export const STATE_PROPERTIES = ['Id', 'Description', 'LoadState', 'ActiveState', 'SubState', 'UnitFileState', 'FreezerState'];
/** Reverse dependencies through which systemd propagates a stop (system-rpc-notes §6.5). */
export const STOP_PROPAGATING_PROPERTIES = ['RequiredBy', 'BoundBy', 'ConsistsOf', 'RequisiteOf'];

/**
 * @example
 * ```ts
 * const host = new SystemdHost();
 * await host.getService('ssh.service'); // { displayName: 'OpenBSD Secure Shell server', startType: 2, status: 4 }
 * ```
 */
export class SystemdHost implements HostAdapter {
  readonly kind = 'systemd';
  readonly nameRules = SYSTEMD_NAME_RULES;
  /** `systemctl show`: quick, never queued behind a job. */
  readonly #queries: CommandRunner;
  /** `systemctl start`/`stop`: each holds its slot until the job ends. */
  readonly #jobs: CommandRunner;
  readonly #systemctl: string;
  readonly #serialPath: string;
  readonly #waitTimeoutMs: number;
  readonly #pollIntervalMs: number;

  constructor(options: SystemdHostOptions = {}) {
    const runner = options.runner ?? createExecFileRunner();
    this.#queries = limitConcurrency(runner, options.maxConcurrentQueries ?? 4);
    this.#jobs = limitConcurrency(runner, options.maxConcurrentJobs ?? 4);
    this.#systemctl = options.systemctl ?? 'systemctl';
    this.#serialPath = options.serialPath ?? DMI_PRODUCT_SERIAL;
    this.#waitTimeoutMs = options.waitTimeoutMs ?? 30_000;
    this.#pollIntervalMs = options.pollIntervalMs ?? 200;
  }

  getBiosSerial(): Promise<string> {
    return readDmiSerial(this.#serialPath);
  }

  async getService(unit: string, options: ServiceOperationOptions = {}): Promise<ServiceInfo> {
    return toServiceInfo(await this.#showExisting(unit, STATE_PROPERTIES, options.signal));
  }

  async startService(unit: string, options: ServiceOperationOptions = {}): Promise<void> {
    const props = await this.#showExisting(unit, STATE_PROPERTIES, options.signal);
    const info = toServiceInfo(props);
    if (info.status === ServiceStatus.RUNNING) return;
    if (info.startType === StartType.DISABLED) {
      throw new HostError('precondition_failed', `unit ${unit} is masked and cannot be started`);
    }
    await this.#settle(unit, 'start', ['start', '--no-ask-password', '--', unit], ServiceStatus.RUNNING, options.signal);
  }

  async stopService(unit: string, options: StopServiceOptions): Promise<void> {
    const props = await this.#showExisting(unit, [...STATE_PROPERTIES, ...STOP_PROPAGATING_PROPERTIES], options.signal);
    if (toServiceStatus(props) === ServiceStatus.STOPPED) return;
    const dependents = [...new Set(STOP_PROPAGATING_PROPERTIES.flatMap((p) => splitUnitList(props.get(p))))]
      // Only services: targets and slices that group a unit are not "dependent services".
      .filter((d) => d.endsWith('.service'));
    const active = dependents.length > 0 ? await this.#activeUnits(dependents, options.signal) : [];
    if (active.length > 0 && !options.force) {
      throw new HostError(
        'dependents_running',
        `cannot stop ${unit}: dependent units are running: ${active.join(', ')} (use force to stop them too)`,
      );
    }
    // One transaction: systemd orders the stops itself, dependents first.
    await this.#settle(unit, 'stop', ['stop', '--no-ask-password', '--', ...active, unit], ServiceStatus.STOPPED, options.signal);
  }

  async close(): Promise<void> {
    // Nothing held: every systemctl run has finished when its call returned.
  }

  /** Runs a start/stop job, then polls until the unit settles, all within `waitTimeoutMs`. */
  async #settle(unit: string, action: 'start' | 'stop', args: string[], target: ServiceStatus, callerSignal?: AbortSignal): Promise<void> {
    const deadline = AbortSignal.timeout(this.#waitTimeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
    try {
      const result = await this.#run(this.#jobs, args, signal);
      if (result.exitCode !== 0) throw classifySystemctlFailure(result, action, unit);
      for (;;) {
        const props = await this.#show([unit], STATE_PROPERTIES, signal).then((units) => units[0] ?? new Map<string, string>());
        const status = toServiceStatus(props);
        if (status === target) return;
        if (props.get('ActiveState') === 'failed') {
          throw new HostError(
            'command_failed',
            `unit ${unit} failed to ${action}: ActiveState=failed SubState=${props.get('SubState') ?? ''}`,
          );
        }
        // A oneshot unit that ran and exited is inactive after a successful start: the job is done.
        if (action === 'start' && status === ServiceStatus.STOPPED) return;
        await sleep(this.#pollIntervalMs, signal);
      }
    } catch (error) {
      if (isHostError(error, 'timeout') && deadline.aborted && !callerSignal?.aborted) {
        throw new HostError('timeout', `timed out after ${this.#waitTimeoutMs} ms waiting for ${unit} to ${action}`, { cause: error });
      }
      throw error;
    }
  }

  async #showExisting(unit: string, properties: string[], signal?: AbortSignal): Promise<UnitProperties> {
    const [props] = await this.#show([unit], properties, signal);
    // systemctl show exits 0 for an unknown unit and says LoadState=not-found; a unit whose file
    // was deleted while it runs says the same but is active, and still exists for our purposes.
    if (!props || (props.get('LoadState') === 'not-found' && toServiceStatus(props) === ServiceStatus.STOPPED)) {
      throw new HostError('not_found', `unit ${unit} does not exist`);
    }
    return props;
  }

  async #activeUnits(units: string[], signal?: AbortSignal): Promise<string[]> {
    const shown = await this.#show(units, ['Id', 'ActiveState'], signal);
    return shown.filter((u) => isActiveState(u.get('ActiveState'))).map((u) => u.get('Id') ?? '');
  }

  async #show(units: string[], properties: string[], signal?: AbortSignal): Promise<UnitProperties[]> {
    const result = await this.#run(this.#queries, ['show', `--property=${properties.join(',')}`, '--', ...units], signal);
    if (result.exitCode !== 0) throw classifySystemctlFailure(result, 'show', units.join(' '));
    return parseShowOutput(result.stdout);
  }

  async #run(pool: CommandRunner, args: string[], signal?: AbortSignal) {
    try {
      return await raceAbort(pool.run(this.#systemctl, args, { signal }), signal);
    } catch (error) {
      throw spawnFailureToHostError(error, this.#systemctl, signal);
    }
  }
}

function toServiceInfo(props: UnitProperties): ServiceInfo {
  return {
    displayName: props.get('Description') || props.get('Id') || '',
    startType: toStartType(props),
    status: toServiceStatus(props),
  };
}
