/**
 * @module
 * Starts the real server process (`node --import tsx runtime/server/main.ts`) for
 * end-to-end tests: free ports, a temporary SQLite database, the simulated host, JSON
 * logs parsed line by line, and the `ready` record giving the bound addresses.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT_DIR = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT_DIR, 'runtime/server/main.ts');

/** A log record as the server writes it. */
export type LogRecord = Record<string, unknown> & { msg?: string; level?: number };

export interface ServerProcess {
  readonly child: ChildProcess;
  /** `http://localhost:<port>` */
  readonly origin: string;
  readonly httpPort: number;
  /** The `ready` record. */
  readonly ready: LogRecord;
  /** Every JSON log line so far (keeps growing). */
  readonly logs: LogRecord[];
  readonly tempDir: string;
  /** Resolves with the exit code once the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Sends the signal and waits for the exit; removes the temp dir. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Environment for a server alone on free ports with its own database. */
export function isolatedEnv(tempDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    GRPC_PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: join(tempDir, 'loom.db'),
    HOST_ADAPTER: 'simulated',
    LOG_FORMAT: 'json',
    LOOM_DEMO: '0',
    ...extra,
  };
}

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  // Start from a clean slate so a developer's own PORT or DATABASE_URL cannot leak in.
  const base: NodeJS.ProcessEnv = { NODE_OPTIONS: '' };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[name] !== undefined) base[name] = process.env[name];
  return { ...base, ...env };
}

/**
 * Starts the server and waits for its `ready` log record.
 *
 * @example
 * ```ts
 * const server = await startServerProcess();
 * await fetch(`${server.origin}/healthz`);
 * expect((await server.stop()).code).toBe(0);
 * ```
 */
export async function startServerProcess(
  options: {
    env?: Record<string, string> | ((tempDir: string) => Record<string, string>);
    args?: string[];
    /** The repository to run the server of (a copy, in the guide's walkthrough). @default this one */
    root?: string;
  } = {},
): Promise<ServerProcess> {
  const tempDir = mkdtempSync(join(tmpdir(), 'loom-server-'));
  const env = isolatedEnv(tempDir, typeof options.env === 'function' ? options.env(tempDir) : options.env);
  const root = options.root ?? ROOT_DIR;
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'runtime/server/main.ts'), ...(options.args ?? [])], {
    cwd: root,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogRecord[] = [];
  let stderr = '';
  let pending = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  const ready = new Promise<LogRecord>((resolveReady, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.trim() === '') continue;
        let record: LogRecord;
        try {
          record = JSON.parse(line) as LogRecord;
        } catch {
          record = { msg: 'non-json stdout', line };
        }
        logs.push(record);
        if (record.msg === 'ready') resolveReady(record);
      }
    });
    void exited.then(({ code }) =>
      reject(new Error(`server exited with ${code} before it was ready\nstderr: ${stderr}\nlogs: ${JSON.stringify(logs.slice(-5))}`)),
    );
  });
  let record: LogRecord;
  try {
    record = await ready;
  } catch (error) {
    rmSync(tempDir, { recursive: true, force: true });
    throw error;
  }
  const origin = String(record['http']);
  return {
    child,
    origin,
    httpPort: Number(new URL(origin).port),
    ready: record,
    logs,
    tempDir,
    exited,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const result = await exited;
      rmSync(tempDir, { recursive: true, force: true });
      return result;
    },
  };
}

/** Runs the server command to completion (for `--help` and configuration errors). */
export function runServerCommand(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      cwd: ROOT_DIR,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}
