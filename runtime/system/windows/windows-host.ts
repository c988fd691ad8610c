/**
 * @module
 * The Windows host adapter: the four operations through PowerShell and CIM (`Win32_Service`,
 * `Win32_BIOS`), one `powershell.exe` per call, launched with `execFile` and an argument array.
 *
 * The service name travels as the environment variable `LOOM_SERVICE_NAME`, never inside the
 * script text (see `powershell-scripts.ts`). It cannot run on this project's Linux CI: its tests
 * replay recorded PowerShell output through a fake {@link CommandRunner}.
 *
 * StartService and StopService scripts wait inside PowerShell until the service settles (up to
 * the whole wait). They run in a pool of their own, apart from GetService and the BIOS serial, so
 * that a query never waits behind a slow start or stop.
 */
import { raceAbort } from '../abort.js';
import {
  type CommandResult,
  type CommandRunner,
  createExecFileRunner,
  limitConcurrency,
  spawnFailureToHostError,
} from '../command-runner.js';
import {
  type HostAdapter,
  HostError,
  type HostErrorKind,
  type ServiceInfo,
  type ServiceOperationOptions,
  type StopServiceOptions,
} from '../host-adapter.js';
import { WINDOWS_NAME_RULES } from '../service-name.js';
import { toServiceStatus, toStartType, win32ReturnError } from './cim-mapping.js';
import { BIOS_SERIAL_SCRIPT, encodeScript, GET_SERVICE_SCRIPT, START_SERVICE_SCRIPT, STOP_SERVICE_SCRIPT } from './powershell-scripts.js';

/** Options of {@link WindowsHost}. */
export interface WindowsHostOptions {
  /** Runs `powershell.exe`, within the two limits below. @default `execFile` */
  readonly runner?: CommandRunner;
  /** Most GetService / BIOS serial scripts at once. @default 4 */
  readonly maxConcurrentQueries?: number;
  /** Most StartService / StopService scripts at once (a pool apart from the queries). @default 4 */
  readonly maxConcurrentJobs?: number;
  /** @default 'powershell.exe' */
  readonly powershell?: string;
  /** How long start and stop wait for the service to settle (csi-proxy: 30 s). @default 30000 */
  readonly waitTimeoutMs?: number;
}

/** Slack for PowerShell's own start-up on top of the wait inside the script. */
const STARTUP_SLACK_MS = 15_000;
const SCRIPT_KINDS = new Set<HostErrorKind>([
  'not_found',
  'dependents_running',
  'precondition_failed',
  'timeout',
  'permission_denied',
  'command_failed',
]);

type ScriptResult = Record<string, unknown> & { ok: true };

/**
 * @example
 * ```ts
 * const host = new WindowsHost();
 * await host.getService('MSiSCSI'); // { displayName: 'Microsoft iSCSI Initiator Service', startType: 3, status: 1 }
 * ```
 */
export class WindowsHost implements HostAdapter {
  readonly kind = 'windows';
  readonly nameRules = WINDOWS_NAME_RULES;
  /** GetService and the BIOS serial: never queued behind a start or stop. */
  readonly #queries: CommandRunner;
  /** StartService and StopService: each holds its slot until the service settles. */
  readonly #jobs: CommandRunner;
  readonly #powershell: string;
  readonly #waitTimeoutMs: number;

  constructor(options: WindowsHostOptions = {}) {
    const runner = options.runner ?? createExecFileRunner();
    this.#queries = limitConcurrency(runner, options.maxConcurrentQueries ?? 4);
    this.#jobs = limitConcurrency(runner, options.maxConcurrentJobs ?? 4);
    this.#powershell = options.powershell ?? 'powershell.exe';
    this.#waitTimeoutMs = options.waitTimeoutMs ?? 30_000;
  }

  async getBiosSerial(options: ServiceOperationOptions = {}): Promise<string> {
    const result = await this.#invoke(BIOS_SERIAL_SCRIPT, {}, options.signal);
    const serial = typeof result.serialNumber === 'string' ? result.serialNumber.trim() : '';
    if (serial === '') throw new HostError('unavailable', 'Win32_BIOS reports no serial number');
    return serial;
  }

  async getService(name: string, options: ServiceOperationOptions = {}): Promise<ServiceInfo> {
    const result = await this.#invoke(GET_SERVICE_SCRIPT, { LOOM_SERVICE_NAME: name }, options.signal);
    return {
      displayName: String(result.displayName ?? ''),
      startType: toStartType(String(result.startMode ?? '')),
      status: toServiceStatus(String(result.state ?? '')),
    };
  }

  async startService(name: string, options: ServiceOperationOptions = {}): Promise<void> {
    await this.#invoke(START_SERVICE_SCRIPT, this.#env(name), options.signal, 'StartService');
  }

  async stopService(name: string, options: StopServiceOptions): Promise<void> {
    await this.#invoke(
      STOP_SERVICE_SCRIPT,
      { ...this.#env(name), LOOM_FORCE: options.force ? 'true' : 'false' },
      options.signal,
      'StopService',
    );
  }

  async close(): Promise<void> {
    // Nothing held between calls: one PowerShell process per call.
  }

  #env(name: string): Record<string, string> {
    return { LOOM_SERVICE_NAME: name, LOOM_TIMEOUT_MS: String(this.#waitTimeoutMs) };
  }

  async #invoke(
    script: string,
    env: Record<string, string>,
    signal: AbortSignal | undefined,
    method?: 'StartService' | 'StopService',
  ): Promise<ScriptResult> {
    const args = ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-EncodedCommand', encodeScript(script)];
    let run: CommandResult;
    try {
      const pool = method === undefined ? this.#queries : this.#jobs;
      run = await raceAbort(pool.run(this.#powershell, args, { env, signal, timeoutMs: this.#waitTimeoutMs + STARTUP_SLACK_MS }), signal);
    } catch (error) {
      throw spawnFailureToHostError(error, this.#powershell, signal);
    }
    const result = parseScriptOutput(run.stdout);
    if (!result) {
      const output = (run.stderr.trim() || run.stdout.trim() || 'no output').split(/\r?\n/).slice(0, 5).join(' ');
      throw new HostError('command_failed', `${this.#powershell} exited with ${run.exitCode} without a result: ${output}`);
    }
    if (result.ok === true) return result as ScriptResult;
    if (result.kind === 'win32' && typeof result.code === 'number' && method) {
      throw win32ReturnError(method, String(result.service ?? env.LOOM_SERVICE_NAME), result.code);
    }
    const kind = SCRIPT_KINDS.has(result.kind as HostErrorKind) ? (result.kind as HostErrorKind) : 'command_failed';
    throw new HostError(kind, String(result.message ?? 'PowerShell reported a failure without a message'));
  }
}

/** The JSON object on the last line that holds one (PowerShell may print warnings before it). */
export function parseScriptOutput(stdout: string): Record<string, unknown> | undefined {
  const lines = stdout
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{'));
  const last = lines.at(-1);
  if (last === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(last);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
