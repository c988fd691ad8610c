/**
 * @module
 * Running host commands (`systemctl`, `powershell.exe`) without a shell.
 *
 * Adapters receive a {@link CommandRunner} instead of calling `child_process` themselves, so tests
 * replay recorded outputs through a fake and production runs {@link createExecFileRunner}: always
 * `execFile` with an argument array, never a command string, so a service name is one argv entry
 * and no shell ever parses it.
 */
import { execFile } from 'node:child_process';
import { abortError } from './abort.js';
import { HostError } from './host-adapter.js';

/** What a finished command produced. A non-zero exit is a result, not an exception. */
export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of one {@link CommandRunner} call. */
export interface CommandOptions {
  /** Extra environment variables (merged over the server's environment). */
  readonly env?: Readonly<Record<string, string>>;
  /** Kills the command when aborted. */
  readonly signal?: AbortSignal;
  /** Kills the command after this many milliseconds; it then rejects with a `TimeoutError`. */
  readonly timeoutMs?: number;
}

/**
 * Runs one program with an argument array.
 *
 * Rejects only when the program could not run to an exit code: not installed (`code: 'ENOENT'`),
 * not permitted (`EACCES`), killed by a timeout (`name: 'TimeoutError'`) or an abort (`AbortError`).
 */
export interface CommandRunner {
  run(file: string, args: readonly string[], options?: CommandOptions): Promise<CommandResult>;
}

/**
 * The production runner: `child_process.execFile`, no shell, output capped at 4 MiB.
 *
 * @example
 * ```ts
 * const runner = limitConcurrency(createExecFileRunner(), 4);
 * const { exitCode, stdout } = await runner.run('systemctl', ['show', '--property=Id', '--', 'nginx.service']);
 * ```
 */
export function createExecFileRunner(): CommandRunner {
  return {
    run(file, args, options = {}) {
      return new Promise((resolve, reject) => {
        execFile(
          file,
          [...args],
          {
            env: options.env ? { ...process.env, ...options.env } : process.env,
            signal: options.signal,
            timeout: options.timeoutMs ?? 0,
            maxBuffer: 4 * 1024 * 1024,
            windowsHide: true,
            encoding: 'utf8',
          },
          (error, stdout, stderr) => {
            if (!error) return resolve({ exitCode: 0, stdout, stderr });
            const failure = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
            if (typeof failure.code === 'number') return resolve({ exitCode: failure.code, stdout, stderr });
            if (failure.killed && options.timeoutMs && !options.signal?.aborted) {
              const timeout = new Error(`${file} did not finish within ${options.timeoutMs} ms`);
              timeout.name = 'TimeoutError';
              return reject(timeout);
            }
            reject(error);
          },
        );
      });
    },
  };
}

/**
 * Caps how many commands run at once (the notes recommend a small global limit on `systemctl`
 * processes: fifty racing clients must not fork fifty of them). A call whose `signal` aborts while
 * it waits for a slot leaves the queue without running: a canceled StartService must not start
 * the service later.
 *
 * Adapters keep one limit for queries and another for start/stop jobs (which block until the
 * service settles), so that a query never waits behind a slow start.
 */
export function limitConcurrency(runner: CommandRunner, limit: number): CommandRunner {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`limitConcurrency: limit must be a positive integer, got ${limit}`);
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    // Hand the slot directly to the next waiter; otherwise free it.
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const acquire = (signal: AbortSignal | undefined): Promise<void> => {
    if (running < limit) {
      running++;
      return Promise.resolve();
    }
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = waiting.indexOf(granted);
        if (index !== -1) waiting.splice(index, 1);
        reject(signal!.reason);
      };
      const granted = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      waiting.push(granted);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  };
  return {
    async run(file, args, options) {
      await acquire(options?.signal);
      try {
        return await runner.run(file, args, options);
      } finally {
        release();
      }
    },
  };
}

/** Classifies a runner rejection: systemctl missing, not executable, killed by timeout or abort. */
export function spawnFailureToHostError(error: unknown, file: string, signal: AbortSignal | undefined): HostError {
  if (error instanceof HostError) return error;
  if (signal?.aborted) return abortError(signal);
  const failure = error as NodeJS.ErrnoException;
  if (failure.name === 'TimeoutError') return new HostError('timeout', failure.message, { cause: error });
  if (failure.code === 'ENOENT') return new HostError('unavailable', `${file} is not installed on this host`, { cause: error });
  if (failure.code === 'EACCES' || failure.code === 'EPERM') {
    return new HostError('permission_denied', `not permitted to run ${file}: ${failure.message}`, { cause: error });
  }
  return new HostError('command_failed', `cannot run ${file}: ${failure.message}`, { cause: error });
}
