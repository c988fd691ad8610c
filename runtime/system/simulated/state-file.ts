/**
 * @module
 * Persistence of the simulated host's statuses in a JSON file, so that a restarted server finds
 * its services as it left them (as a real host would).
 *
 * The file has the shape of a host file (it can itself serve as `SIMULATED_HOST_FILE`); on load
 * only the statuses of services that the current table still has are taken from it. Writes go to
 * a temporary file renamed over the old one, one at a time, so a crash never leaves half a file.
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

  /** The saved statuses by service key, or undefined when nothing was saved yet. */
  async load(): Promise<Map<string, ServiceStatus> | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new HostTableError(`cannot read simulated host state ${this.path}: ${(error as Error).message}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new HostTableError(`${this.path}: not valid JSON (delete it to start from the host table): ${(error as Error).message}`);
    }
    const table = parseHostTable(value, this.path, this.rules);
    return new Map(table.services.map((s) => [this.rules.normalize(s.name).key, s.status]));
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
