/**
 * @module
 * Starting the services the way production does, on the compiled output (`npm run build`, then
 * `node dist/runtime/server/main.js`), beside the TypeScript sources run through tsx
 * (`node --import tsx runtime/server/main.ts`, what `npm run dev` runs) in the same rounds:
 *
 * - `server.start_ms`: from spawning the process to the first `200` of `/readyz`, median of the
 *   rounds; baseline: the tsx start.
 * - `server.rss_mb`: the process's resident memory once ready, median; baseline: the tsx start.
 *
 * Both start on the same SQLite file, migrated and seeded by a first start that is not counted, so
 * the rounds measure starting, not seeding. Rounds alternate compiled and tsx.
 *
 * `npx tsx bench/server.ts` runs it alone; `npm run bench -- server` through the runner.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchResult, median, printResults, result } from './results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.LOOM_BENCH_SERVER_ROUNDS ?? 5);

const COMMANDS = {
  compiled: ['dist/runtime/server/main.js'],
  tsx: ['--import', 'tsx', 'runtime/server/main.ts'],
} as const;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resident memory of a process, in bytes (Linux: `VmRSS` of `/proc/<pid>/status`). */
function rssOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Starts the server, waits until `/readyz` answers 200, and stops it; resolves to the start time and memory. */
async function startOnce(args: readonly string[], database: string): Promise<{ ms: number; rss: number }> {
  const [port, grpcPort] = [await freePort(), await freePort()];
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), GRPC_PORT: String(grpcPort), DATABASE_URL: database, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited (${child.exitCode}) before it was ready`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { ms: performance.now() - started, rss: rssOf(child.pid!) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/** Runs the server start benchmark; see the module documentation. */
export async function benchServer(onProgress: (line: string) => void = console.log): Promise<BenchResult[]> {
  onProgress('  npm run build');
  await new Promise<void>((resolve, reject) =>
    execFile('npm', ['run', '--silent', 'build'], { cwd: ROOT }, (error, _out, stderr) => (error ? reject(new Error(stderr)) : resolve())),
  );
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-server-'));
  const database = join(dir, 'bench.db');
  try {
    await startOnce(COMMANDS.compiled, database); // migrates and seeds; not counted
    const compiled: { ms: number; rss: number }[] = [];
    const tsx: { ms: number; rss: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      compiled.push(await startOnce(COMMANDS.compiled, database));
      tsx.push(await startOnce(COMMANDS.tsx, database));
      const [c, t] = [compiled.at(-1)!, tsx.at(-1)!];
      onProgress(
        `  round ${round}: compiled ${c.ms.toFixed(0)} ms ${(c.rss / 2 ** 20).toFixed(0)} MB, ` +
          `tsx ${t.ms.toFixed(0)} ms ${(t.rss / 2 ** 20).toFixed(0)} MB`,
      );
    }
    const ms = (runs: { ms: number }[]) => median(runs.map((r) => r.ms));
    const mb = (runs: { rss: number }[]) => median(runs.map((r) => r.rss / 2 ** 20));
    return [result('server.start_ms', ms(compiled), ms(tsx), 'ms'), result('server.rss_mb', mb(compiled), mb(tsx), 'MB')];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) printResults(await benchServer());
