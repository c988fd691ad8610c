/**
 * @module
 * Persistence of the simulated host's statuses in a JSON file, so that a restarted server finds
 * its services as it left them (as a real host would).
 *
 * The file has the shape of a host file (it can itself serve as `SIMULATED_HOST_FILE`); on load
 * only the statuses of services that the current table still has are taken from it. Writes go to
 * a temporary file renamed over the old one, one at a time, so a crash never leaves half a file.
 *
 * The host saves settled statuses only, but a file written by an older version may hold a pending
 * one: START_PENDING is read as STOPPED and STOP_PENDING as RUNNING, the status the transition
 * started from (it never finished). Every other problem is an error that names the file and says
 * that deleting it starts from the host table.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import type { ServiceNameRules } from '../service-name.js';
import { HostTableError, parseHostTable, type SimulatedHostTable } from './host-table.js';

const STATUS_NAMES = invert(ServiceStatus);
const START_TYPE_NAMES = invert(StartType);

/**
 * @example
 * ```ts
 * const file = new StateFile('./data/simulated-host.json', rules);
 * const saved = await file.load();  // Map { 'db' => 1 } or undefined when there is no file yet
 * file.save(table);                 // queued; `await file.flush()` to wait for it
 * ```
 */
export class StateFile {
  #chain: Promise<void> = Promise.resolve();
  #error: unknown;

  constructor(
    readonly path: string,
    private readonly rules: ServiceNameRules,
  ) {}

  /**
   * The saved statuses by service key, or undefined when nothing was saved yet.
   * @throws HostTableError for a file that cannot be read or used; its message says to delete it.
   */
  async load(): Promise<Map<string, ServiceStatus> | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw this.#loadError(`cannot read simulated host state ${this.path}: ${(error as Error).message}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.#loadError(`${this.path}: not valid JSON: ${(error as Error).message}`);
    }
    let table: SimulatedHostTable;
    try {
      table = parseHostTable(settlePending(value), this.path, this.rules);
    } catch (error) {
      if (error instanceof HostTableError) throw this.#loadError(error.message);
      throw error;
    }
    return new Map(table.services.map((s) => [this.rules.normalize(s.name).key, s.status]));
  }

  #loadError(message: string): HostTableError {
    return new HostTableError(`${message} (delete ${this.path} to start from the statuses of the host table)`);
  }

  /** Queues a write of `table`; writes never overlap and the last one wins. */
  save(table: SimulatedHostTable): void {
    const text = `${JSON.stringify(toJson(table), null, 2)}\n`;
    this.#chain = this.#chain.then(async () => {
      try {
        await mkdir(dirname(this.path), { recursive: true });
        const temp = `${this.path}.${process.pid}.tmp`;
        await writeFile(temp, text, 'utf8');
        await rename(temp, this.path);
      } catch (error) {
        // Kept for flush(): a failed write must not break the service operation that caused it.
        this.#error = error;
      }
    });
  }

  /** Waits for queued writes; rethrows the last write error, if any. */
  async flush(): Promise<void> {
    await this.#chain;
    if (this.#error !== undefined) {
      const error = this.#error;
      this.#error = undefined;
      throw error;
    }
  }
}

/** What an unfinished transition is read as: the status it started from. */
const SETTLED_FROM_PENDING = new Map<unknown, string>([
  ['START_PENDING', 'STOPPED'],
  [ServiceStatus.START_PENDING, 'STOPPED'],
  ['STOP_PENDING', 'RUNNING'],
  [ServiceStatus.STOP_PENDING, 'RUNNING'],
]);

/** A copy of a parsed state file whose pending statuses are replaced by {@link SETTLED_FROM_PENDING}. */
function settlePending(value: unknown): unknown {
  if (!isRecord(value) || !Array.isArray(value.services)) return value;
  return {
    ...value,
    services: value.services.map((service: unknown) => {
      if (!isRecord(service)) return service;
      const settled = SETTLED_FROM_PENDING.get(service.status);
      return settled === undefined ? service : { ...service, status: settled };
    }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toJson(table: SimulatedHostTable): unknown {
  return {
    biosSerial: table.biosSerial,
    services: table.services.map((s) => ({
      name: s.name,
      displayName: s.displayName,
      startType: START_TYPE_NAMES.get(s.startType),
      status: STATUS_NAMES.get(s.status),
      ...(s.dependsOn.length > 0 ? { dependsOn: s.dependsOn } : {}),
    })),
  };
}

function invert<T extends Record<string, number>>(values: T): Map<number, string> {
  return new Map(Object.entries(values).map(([name, value]) => [value, name]));
}
