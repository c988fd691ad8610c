/**
 * @module
 * The simulated host: an in-process service manager with dependencies, pending states that settle
 * after a delay, and optional persistence. It is the default where no service manager is
 * available (containers, CI) and the host of most tests.
 *
 * Semantics (those of the Windows service control manager, which the proto mirrors):
 * - Starting a service first starts what it depends on (`dependsOn`), then passes through
 *   START_PENDING for `startDelayMs` and settles at RUNNING. Starting a running service succeeds.
 * - Stopping passes through STOP_PENDING for `stopDelayMs` and settles at STOPPED. Stopping a
 *   stopped service succeeds. A service whose dependents are active (running or pending) is not
 *   stopped: `force: false` fails with `dependents_running`; `force: true` stops the dependents
 *   first, deepest first.
 * - An operation that finds a service mid-transition waits for the transition to settle, then
 *   decides again. Every decision is taken synchronously on the event loop, so concurrent callers
 *   can never see a running service whose dependency is stopped.
 * - A DISABLED service refuses to start (`precondition_failed`), as does a service needing one.
 * - Transitions run to completion even if the caller's signal aborts: the caller just stops waiting.
 * - `close()` settles transitions in flight at once, so a shutdown never waits for a simulated delay.
 * - The state file only ever holds settled statuses: a service in transition is saved with the
 *   status it is leaving (STOPPED while START_PENDING, RUNNING while STOP_PENDING), so a crash in
 *   the middle of a transition leaves a file the next start accepts.
 */
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import { raceAbort } from '../abort.js';
import { type HostAdapter, HostError, type ServiceInfo, type ServiceOperationOptions, type StopServiceOptions } from '../host-adapter.js';
import { createSimulatedNameRules, type ServiceNameRules } from '../service-name.js';
import { DEFAULT_HOST_TABLE } from './default-table.js';
import { loadHostTableFile, parseHostTable, type SimulatedHostTable, type SimulatedServiceSpec } from './host-table.js';
import { StateFile } from './state-file.js';

/** Options of the {@link SimulatedHost} constructor: an already parsed table and state. */
export interface SimulatedHostOptions {
  /** The services. @default DEFAULT_HOST_TABLE */
  readonly table?: SimulatedHostTable;
  /** How long START_PENDING lasts. @default 250 */
  readonly startDelayMs?: number;
  /** How long STOP_PENDING lasts. @default 250 */
  readonly stopDelayMs?: number;
  /** Service names are case-sensitive, as on systemd. @default true */
  readonly caseSensitive?: boolean;
  /** Statuses to start from (by service key), e.g. read back from a state file. */
  readonly initialStatuses?: ReadonlyMap<string, ServiceStatus>;
  /** Where settled statuses are saved after each change. */
  readonly stateFile?: StateFile;
  /** Called on every status change (pending and settled), e.g. for logs or tests. */
  readonly onStatusChange?: (name: string, status: ServiceStatus) => void;
}

/** Options of {@link createSimulatedHost}: files to read the table and state from. */
export interface CreateSimulatedHostOptions extends Omit<SimulatedHostOptions, 'table' | 'initialStatuses' | 'stateFile'> {
  /** A YAML or JSON host file (`SIMULATED_HOST_FILE`); the default table when absent. */
  readonly tableFile?: string;
  /** A JSON file the statuses are saved in and restored from. */
  readonly stateFile?: string;
}

interface Entry {
  readonly spec: SimulatedServiceSpec;
  /** Keys of the services this one depends on. */
  readonly needs: readonly string[];
  /** Keys of the services that depend on this one. */
  readonly neededBy: string[];
  status: ServiceStatus;
  /** The last settled status: `status`, or while in transition the status it is leaving. What is saved. */
  settled: ServiceStatus;
  /** Set while START_PENDING or STOP_PENDING; resolves when the status settles. */
  transition?: Promise<void>;
  /** Ends the current transition's delay at once (used by close()). */
  settleNow?: () => void;
}

/**
 * Loads the table (file or default) and saved statuses, then builds the host.
 *
 * @example
 * ```ts
 * const host = await createSimulatedHost({ tableFile: process.env.SIMULATED_HOST_FILE, stateFile: './data/sim.json' });
 * ```
 */
export async function createSimulatedHost(options: CreateSimulatedHostOptions = {}): Promise<SimulatedHost> {
  const rules = createSimulatedNameRules({ caseSensitive: options.caseSensitive ?? true });
  const table = options.tableFile ? await loadHostTableFile(options.tableFile, rules) : DEFAULT_HOST_TABLE;
  const stateFile = options.stateFile ? new StateFile(options.stateFile, rules) : undefined;
  const initialStatuses = await stateFile?.load();
  return new SimulatedHost({ ...options, table, stateFile, initialStatuses });
}

/** @see the module documentation for the semantics. */
export class SimulatedHost implements HostAdapter {
  readonly kind = 'simulated';
  readonly nameRules: ServiceNameRules;
  readonly #entries = new Map<string, Entry>();
  readonly #biosSerial: string;
  readonly #startDelayMs: number;
  readonly #stopDelayMs: number;
  readonly #stateFile: StateFile | undefined;
  readonly #onStatusChange: ((name: string, status: ServiceStatus) => void) | undefined;
  #closed = false;

  constructor(options: SimulatedHostOptions = {}) {
    this.nameRules = createSimulatedNameRules({ caseSensitive: options.caseSensitive ?? true });
    this.#startDelayMs = options.startDelayMs ?? 250;
    this.#stopDelayMs = options.stopDelayMs ?? 250;
    this.#stateFile = options.stateFile;
    this.#onStatusChange = options.onStatusChange;
    const source = options.table ?? DEFAULT_HOST_TABLE;
    // Statuses from a state file are applied, then the whole table is checked again: a state saved
    // under an older host file must not produce a running service with a stopped dependency.
    const table: SimulatedHostTable = {
      biosSerial: source.biosSerial,
      services: source.services.map((spec) => ({
        ...spec,
        status: options.initialStatuses?.get(this.#key(spec.name)) ?? spec.status,
      })),
    };
    const label = options.initialStatuses
      ? `simulated host table with the statuses saved in ${options.stateFile?.path ?? 'the state file'}` +
        ' (delete it to start from the statuses of the host table)'
      : 'simulated host table';
    const checked = parseHostTable(tableToJson(table), label, this.nameRules);
    this.#biosSerial = checked.biosSerial;
    for (const spec of checked.services) {
      this.#entries.set(this.#key(spec.name), {
        spec,
        needs: spec.dependsOn.map((d) => this.#key(d)),
        neededBy: [],
        status: spec.status,
        settled: spec.status,
      });
    }
    for (const [key, entry] of this.#entries) {
      for (const need of entry.needs) this.#entries.get(need)!.neededBy.push(key);
    }
  }

  async getBiosSerial(): Promise<string> {
    this.#checkOpen();
    return this.#biosSerial;
  }

  async getService(name: string): Promise<ServiceInfo> {
    this.#checkOpen();
    const { spec, status } = this.#lookup(name);
    return { displayName: spec.displayName, startType: spec.startType, status };
  }

  async startService(name: string, options: ServiceOperationOptions = {}): Promise<void> {
    this.#checkOpen();
    await raceAbort(this.#start(this.#key(name), []), options.signal);
  }

  async stopService(name: string, options: StopServiceOptions): Promise<void> {
    this.#checkOpen();
    await raceAbort(this.#stop(this.#key(name), options.force), options.signal);
  }

  /** The current table, statuses included (pending states as they are now). */
  snapshot(): SimulatedHostTable {
    return {
      biosSerial: this.#biosSerial,
      services: [...this.#entries.values()].map((e) => ({ ...e.spec, status: e.status })),
    };
  }

  /**
   * The table as the state file keeps it: settled statuses only. A transition in flight when the
   * process dies never happened, as far as the next start is concerned, and a table of settled
   * statuses is always one `parseHostTable` accepts (a service starts only once its dependencies
   * have settled at RUNNING, and stops only once its dependents have settled at STOPPED).
   */
  #settledTable(): SimulatedHostTable {
    return {
      biosSerial: this.#biosSerial,
      services: [...this.#entries.values()].map((e) => ({ ...e.spec, status: e.settled })),
    };
  }

  /**
   * Settles transitions in flight at once (as if their delay had passed), so that the saved state
   * holds no pending status, then waits for queued state writes. Later calls fail with `unavailable`.
   */
  async close(): Promise<void> {
    this.#closed = true;
    // Settling one transition can let a waiting operation start the next (a dependent after its
    // dependency); those run without delay now, so this loop ends.
    for (;;) {
      const pending = [...this.#entries.values()].filter((e) => e.transition);
      if (pending.length === 0) break;
      for (const entry of pending) entry.settleNow?.();
      await Promise.all(pending.map((e) => e.transition));
    }
    await this.#stateFile?.flush();
  }

  async #start(key: string, chain: readonly string[]): Promise<void> {
    const entry = this.#entry(key);
    for (;;) {
      if (entry.transition) {
        await entry.transition;
        continue;
      }
      if (entry.status === ServiceStatus.RUNNING) return;
      if (entry.spec.startType === StartType.DISABLED) {
        const why = chain.length > 0 ? ` (needed by ${chain.map((k) => this.#entry(k).spec.name).join(' <- ')})` : '';
        throw new HostError('precondition_failed', `service ${entry.spec.name} is disabled and cannot be started${why}`);
      }
      const stoppedNeeds = entry.needs.filter((n) => this.#entry(n).status !== ServiceStatus.RUNNING || this.#entry(n).transition);
      if (stoppedNeeds.length > 0) {
        // Start dependencies (in parallel, as a service manager would), then decide again:
        // another caller may have changed things while we waited.
        await Promise.all(stoppedNeeds.map((n) => this.#start(n, [...chain, key])));
        continue;
      }
      this.#setStatus(entry, ServiceStatus.START_PENDING);
      await this.#transition(entry, this.#startDelayMs, ServiceStatus.RUNNING);
      return;
    }
  }

  async #stop(key: string, force: boolean): Promise<void> {
    const entry = this.#entry(key);
    for (;;) {
      if (entry.transition) {
        await entry.transition;
        continue;
      }
      if (entry.status === ServiceStatus.STOPPED) return;
      const active = entry.neededBy.filter((d) => this.#entry(d).status !== ServiceStatus.STOPPED);
      if (active.length > 0) {
        if (!force) {
          const names = active.map((d) => this.#entry(d).spec.name).join(', ');
          throw new HostError(
            'dependents_running',
            `cannot stop ${entry.spec.name}: dependent services are running: ${names} (use force to stop them too)`,
          );
        }
        // Each dependent stops its own dependents first, so the deepest stop first.
        await Promise.all(active.map((d) => this.#stop(d, true)));
        continue;
      }
      this.#setStatus(entry, ServiceStatus.STOP_PENDING);
      await this.#transition(entry, this.#stopDelayMs, ServiceStatus.STOPPED);
      return;
    }
  }

  #transition(entry: Entry, delayMs: number, settled: ServiceStatus): Promise<void> {
    let settleNow!: () => void;
    const delay = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.#closed ? 0 : delayMs);
      settleNow = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const transition = delay.then(() => {
      entry.transition = undefined;
      entry.settleNow = undefined;
      this.#setStatus(entry, settled);
      this.#stateFile?.save(this.#settledTable());
    });
    entry.transition = transition;
    entry.settleNow = settleNow;
    return transition;
  }

  #setStatus(entry: Entry, status: ServiceStatus): void {
    entry.status = status;
    if (status !== ServiceStatus.START_PENDING && status !== ServiceStatus.STOP_PENDING) entry.settled = status;
    this.#onStatusChange?.(entry.spec.name, status);
  }

  #lookup(name: string): Entry {
    const entry = this.#entries.get(this.#key(name));
    if (!entry) throw new HostError('not_found', `service ${JSON.stringify(name)} does not exist`);
    return entry;
  }

  #entry(key: string): Entry {
    return this.#entries.get(key) ?? this.#lookup(key);
  }

  #key(name: string): string {
    return this.nameRules.caseSensitive ? name : name.toLowerCase();
  }

  #checkOpen(): void {
    if (this.#closed) throw new HostError('unavailable', 'the simulated host is closed');
  }
}

/** The table in host-file shape, so that one validator checks both files and restored state. */
function tableToJson(table: SimulatedHostTable): unknown {
  return {
    biosSerial: table.biosSerial,
    services: table.services.map((s) => ({ ...s, dependsOn: [...s.dependsOn] })),
  };
}
