/**
 * @module
 * Choosing the host adapter from `HOST_ADAPTER`:
 *
 * | value | adapter |
 * |---|---|
 * | `auto` (default) | `windows` on win32; `systemd` when `/run/systemd/system` exists and `systemctl --version` runs; else `simulated` |
 * | `systemd` | {@link SystemdHost} |
 * | `windows` | {@link WindowsHost} |
 * | `simulated` | {@link SimulatedHost}, from `SIMULATED_HOST_FILE` or the default table; statuses saved in `SIMULATED_HOST_STATE` if set |
 */
import { access } from 'node:fs/promises';
import { assertNever } from '../util/assert-never.js';
import { type CommandRunner, createExecFileRunner } from './command-runner.js';
import { HOST_ADAPTER_VALUES, type HostAdapter, type HostAdapterKind, type HostAdapterSetting } from './host-adapter.js';
import { type CreateSimulatedHostOptions, createSimulatedHost } from './simulated/simulated-host.js';
import { SystemdHost, type SystemdHostOptions } from './systemd/systemd-host.js';
import { WindowsHost, type WindowsHostOptions } from './windows/windows-host.js';

export { HOST_ADAPTER_VALUES, type HostAdapterSetting };

/** Options of {@link createHostAdapter}. */
export interface HostAdapterFactoryOptions {
  /** Which adapter; wins over `HOST_ADAPTER` in `env`. */
  readonly hostAdapter?: HostAdapterSetting;
  /** The simulated host's table file; wins over `SIMULATED_HOST_FILE` in `env`. */
  readonly simulatedHostFile?: string;
  /** The simulated host's state file; wins over `SIMULATED_HOST_STATE` in `env`. */
  readonly simulatedHostState?: string;
  /** Read for `HOST_ADAPTER`, `SIMULATED_HOST_FILE`, `SIMULATED_HOST_STATE` when not given above. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** Used for the `auto` probe (`systemctl --version`) and by command-driven adapters. */
  readonly runner?: CommandRunner;
  /** Whether a path exists; for the `/run/systemd/system` probe. */
  readonly exists?: (path: string) => Promise<boolean>;
  readonly simulated?: Omit<CreateSimulatedHostOptions, 'tableFile' | 'stateFile'>;
  readonly systemd?: Omit<SystemdHostOptions, 'runner'>;
  readonly windows?: Omit<WindowsHostOptions, 'runner'>;
}

/** `HOST_ADAPTER` holds something other than the four accepted values. */
export class HostAdapterConfigError extends Error {
  override readonly name = 'HostAdapterConfigError';
}

/**
 * Builds the adapter `HOST_ADAPTER` asks for.
 *
 * @example
 * ```ts
 * const host = await createHostAdapter();                            // auto
 * const sim = await createHostAdapter({ env: { HOST_ADAPTER: 'simulated', SIMULATED_HOST_FILE: './hosts.yaml' } });
 * const fromConfig = await createHostAdapter({ hostAdapter: config.hostAdapter, simulatedHostFile: config.simulatedHostFile });
 * ```
 * @throws HostAdapterConfigError for an unknown `HOST_ADAPTER`; HostTableError for a bad host file.
 */
export async function createHostAdapter(options: HostAdapterFactoryOptions = {}): Promise<HostAdapter> {
  const env = options.env ?? process.env;
  const setting = parseHostAdapterSetting(options.hostAdapter ?? env.HOST_ADAPTER);
  const kind = setting === 'auto' ? await detectHostAdapter(options) : setting;
  switch (kind) {
    case 'systemd':
      return new SystemdHost({ ...options.systemd, ...(options.runner ? { runner: options.runner } : {}) });
    case 'windows':
      return new WindowsHost({ ...options.windows, ...(options.runner ? { runner: options.runner } : {}) });
    case 'simulated':
      return createSimulatedHost({
        ...options.simulated,
        tableFile: nonEmpty(options.simulatedHostFile ?? env.SIMULATED_HOST_FILE),
        stateFile: nonEmpty(options.simulatedHostState ?? env.SIMULATED_HOST_STATE),
      });
    default:
      return assertNever(kind, 'host adapter');
  }
}

/** Validates a `HOST_ADAPTER` value (absent or empty means `auto`). */
export function parseHostAdapterSetting(value: string | undefined): HostAdapterSetting {
  const setting = (value ?? '').trim().toLowerCase() || 'auto';
  if (!(HOST_ADAPTER_VALUES as readonly string[]).includes(setting)) {
    throw new HostAdapterConfigError(`HOST_ADAPTER must be one of ${HOST_ADAPTER_VALUES.join(', ')}; got ${JSON.stringify(value)}`);
  }
  return setting as HostAdapterSetting;
}

/** What `auto` resolves to on this machine. */
export async function detectHostAdapter(
  options: Pick<HostAdapterFactoryOptions, 'platform' | 'runner' | 'exists'> = {},
): Promise<HostAdapterKind> {
  if ((options.platform ?? process.platform) === 'win32') return 'windows';
  const exists = options.exists ?? pathExists;
  // `/run/systemd/system` is how sd_booted() tells that systemd is PID 1; a container may ship
  // systemctl without running systemd, hence the second check.
  if (!(await exists('/run/systemd/system'))) return 'simulated';
  try {
    const { exitCode } = await (options.runner ?? createExecFileRunner()).run('systemctl', ['--version'], { timeoutMs: 5_000 });
    return exitCode === 0 ? 'systemd' : 'simulated';
  } catch {
    return 'simulated';
  }
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
