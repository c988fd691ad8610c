import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../runtime/server/options.js';
import { isolatedEnv, runServerCommand } from '../support/server-harness.js';

describe('the server command line', () => {
  it('--help lists every option with its default and environment variable, and exits 0', async () => {
    const { code, stdout, stderr } = await runServerCommand(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout.split('\n')[0]).toBe('Usage: npm start -- [options]');
    for (const option of OPTIONS) {
      expect(stdout).toContain(`(env ${option.env}; default: ${option.default ?? 'unset'}`);
    }
  });

  it('stops on invalid configuration with one line and exit code 2', async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [[], { PORT: 'http' }, 'loom: invalid configuration: invalid PORT: must be an integer from 0 to 65535 (got "http")\n'],
      [
        ['--host-adapter', 'launchd'],
        {},
        'loom: invalid configuration: invalid --host-adapter: must be one of auto, systemd, windows, simulated (got "launchd")\n',
      ],
      [
        [],
        { DATABASE_URL: 'mysql://db/loom' },
        'loom: invalid configuration: invalid DATABASE_URL: must be a SQLite file path, a file: URL, :memory: ' +
          'or a postgres:// URL (got "mysql://db/loom")\n',
      ],
      [['--frobnicate'], {}, 'loom: invalid configuration: unknown option --frobnicate (see --help)\n'],
    ];
    for (const [args, env, expected] of cases) {
      const { code, stdout, stderr } = await runServerCommand(args, env);
      expect(code).toBe(2);
      expect(stderr).toBe(expected);
      expect(stdout).toBe('');
    }
  });

  it('--version prints the package version', async () => {
    const { code, stdout } = await runServerCommand(['--version']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^loom \d+\.\d+\.\d+\n$/);
  });

  it('stops with one line and exit code 1 when the HTTP port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'loom-cli-'));
    try {
      const { code, stderr } = await runServerCommand([], isolatedEnv(dir, { PORT: String(port) }));
      expect(code).toBe(1);
      expect(stderr).toBe(
        `loom: cannot start: port ${port} is already in use on 127.0.0.1; stop the other process or choose another PORT\n`,
      );
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops with one line and exit code 1 when the gRPC port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'loom-cli-'));
    try {
      const { code, stderr } = await runServerCommand([], isolatedEnv(dir, { GRPC_PORT: String(port) }));
      expect(code).toBe(1);
      expect(stderr).toBe(
        `loom: cannot start: gRPC port ${port} is already in use on 127.0.0.1; stop the other process or choose another GRPC_PORT\n`,
      );
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops with one line and exit code 1 when the database cannot be opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loom-cli-'));
    try {
      // A regular file where the database directory should be.
      writeFileSync(join(dir, 'not-a-dir'), '');
      const { code, stderr } = await runServerCommand([], isolatedEnv(dir, { DATABASE_URL: join(dir, 'not-a-dir', 'loom.db') }));
      expect(code).toBe(1);
      expect(stderr.startsWith(`loom: cannot start: cannot open the database (SQLite ${join(dir, 'not-a-dir', 'loom.db')}): `)).toBe(true);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops with one line and exit code 1 when the simulated host file is invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loom-cli-'));
    try {
      const file = join(dir, 'hosts.yaml');
      writeFileSync(file, 'services:\n  - { name: web, dependsOn: [nowhere] }\n');
      const { code, stderr } = await runServerCommand([], isolatedEnv(dir, { SIMULATED_HOST_FILE: file }));
      expect(code).toBe(1);
      expect(stderr.startsWith('loom: cannot start: cannot open the simulated host adapter: ')).toBe(true);
      expect(stderr).toContain(file);
      expect(stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
