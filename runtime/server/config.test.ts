import { describe, expect, it } from 'vitest';
import { DEFAULT_SQLITE_PATH } from '../issues/store/defaults.js';
import { ConfigError, parseConfig, type ServerConfig } from './config.js';

function run(argv: string[], env: Record<string, string> = {}): ServerConfig {
  const request = parseConfig(argv, env);
  if (request.kind !== 'run') throw new Error(`expected run, got ${request.kind}`);
  return request.config;
}

function failure(argv: string[], env: Record<string, string> = {}): string {
  try {
    parseConfig(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    expect(run([])).toEqual({
      services: ['issues', 'system'],
      host: '0.0.0.0',
      port: 3000,
      grpcPort: 50051,
      grpcHost: '127.0.0.1',
      grpcSocket: undefined,
      databaseUrl: './data/loom.db',
      publicUrl: undefined,
      demo: true,
      adminUser: undefined,
      adminPassword: undefined,
      hostAdapter: 'auto',
      simulatedHostFile: undefined,
      simulatedHostState: undefined,
      systemToken: undefined,
      logLevel: 'info',
      logFormat: 'auto',
      shutdownTimeoutMs: 10_000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      bodyIdleTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      bodyBudgetBytes: 64 * 1024 * 1024,
      drainGraceMs: 1_000,
    });
  });

  it('reads the HTTP limits, and refuses a headers timeout past the request timeout', () => {
    const config = run(['--request-timeout', '0', '--body-budget=1048576'], {
      LOOM_BODY_IDLE_TIMEOUT_MS: '2500',
      LOOM_DRAIN_GRACE_MS: '0',
    });
    expect(config).toMatchObject({ requestTimeoutMs: 0, bodyBudgetBytes: 1_048_576, bodyIdleTimeoutMs: 2_500, drainGraceMs: 0 });
    expect(failure([], { LOOM_HEADERS_TIMEOUT_MS: '40000' })).toBe(
      'LOOM_HEADERS_TIMEOUT_MS (40000) must not exceed LOOM_REQUEST_TIMEOUT_MS (30000)',
    );
    expect(failure(['--body-budget', '10'])).toBe('invalid --body-budget: must be an integer from 1024 to 17179869184 (got "10")');
    expect(failure(['--headers-timeout', '0'])).toMatch(/^invalid --headers-timeout: must be an integer from 1 to 3600000/);
  });

  it('opens the same SQLite file by default as createStore does', () => {
    expect(run([]).databaseUrl).toBe(DEFAULT_SQLITE_PATH);
  });

  it('reads the environment, and flags win over it', () => {
    const env = {
      PORT: '8080',
      GRPC_PORT: '9090',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      LOOM_DEMO: '0',
      HOST_ADAPTER: 'simulated',
      SYSTEM_TOKEN: 's3cret',
      LOG_LEVEL: 'debug',
    };
    const config = run(['--port=8081', '--services', 'system,issues', '--log-level', 'warn'], env);
    expect(config.port).toBe(8081);
    expect(config.grpcPort).toBe(9090);
    expect(config.databaseUrl).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(config.demo).toBe(false);
    expect(config.hostAdapter).toBe('simulated');
    expect(config.systemToken).toBe('s3cret');
    expect(config.logLevel).toBe('warn');
    expect(config.services).toEqual(['issues', 'system']);
  });

  it('treats an empty variable as unset', () => {
    expect(run([], { PORT: '', LOOM_DEMO: ' ' })).toMatchObject({ port: 3000, demo: true });
  });

  it('accepts --no-demo, --demo and boolean words', () => {
    expect(run(['--no-demo']).demo).toBe(false);
    expect(run(['--demo'], { LOOM_DEMO: '0' }).demo).toBe(true);
    expect(run([], { LOOM_DEMO: 'off' }).demo).toBe(false);
  });

  it('asks for help and version', () => {
    expect(parseConfig(['--port', 'x', '--help'], {})).toEqual({ kind: 'help' });
    expect(parseConfig(['-h'], {})).toEqual({ kind: 'help' });
    expect(parseConfig(['--version'], {})).toEqual({ kind: 'version' });
  });

  it('names the flag or variable that is wrong, in one line', () => {
    expect(failure([], { PORT: 'abc' })).toBe('invalid PORT: must be an integer from 0 to 65535 (got "abc")');
    expect(failure(['--port', '70000'])).toBe('invalid --port: must be an integer from 0 to 65535 (got "70000")');
    expect(failure([], { HOST_ADAPTER: 'launchd' })).toBe(
      'invalid HOST_ADAPTER: must be one of auto, systemd, windows, simulated (got "launchd")',
    );
    expect(failure(['--services', 'issues,billing'])).toBe(
      'invalid --services: unknown service "billing"; known services are issues, system (got "issues,billing")',
    );
    expect(failure([], { LOG_LEVEL: 'loud' })).toBe(
      'invalid LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    );
    expect(failure([], { LOOM_DEMO: 'maybe' })).toBe('invalid LOOM_DEMO: must be 1 or 0 (true/false, yes/no, on/off) (got "maybe")');
    expect(failure(['--bogus'])).toBe('unknown option --bogus (see --help)');
    expect(failure(['serve'])).toBe('unexpected argument "serve" (options start with --; see --help)');
    expect(failure(['--port'])).toBe('--port needs a value (<port>)');
    expect(failure(['--port', '1', '--port', '2'])).toBe('--port is given more than once');
    for (const message of [failure([], { PORT: 'abc' }), failure(['--bogus'])]) expect(message).not.toContain('\n');
  });

  it('rejects database URLs no engine understands, without echoing passwords', () => {
    expect(failure([], { DATABASE_URL: 'mysql://root:hunter2@db/loom' })).toBe(
      'invalid DATABASE_URL: must be a SQLite file path, a file: URL, :memory: or a postgres:// URL (got "mysql://root:***@db/loom")',
    );
    expect(failure([], { DATABASE_URL: './data/' })).toContain('names a directory');
    expect(run([], { DATABASE_URL: 'file:./data/x.db' }).databaseUrl).toBe('file:./data/x.db');
    expect(run([], { DATABASE_URL: ':memory:' }).databaseUrl).toBe(':memory:');
  });

  it('keeps secrets off the command line', () => {
    expect(failure(['--system-token', 'x'])).toBe(
      '--system-token is not accepted on the command line (it would show in ps); set SYSTEM_TOKEN instead',
    );
  });

  it('refuses a SYSTEM_TOKEN no client could send, without echoing it', () => {
    const hint = '; use printable ASCII without spaces (it is sent as "authorization: Bearer <token>")';
    expect(failure([], { SYSTEM_TOKEN: 'correct horse battery' })).toBe(`invalid SYSTEM_TOKEN: contains a space at position 8${hint}`);
    expect(failure([], { SYSTEM_TOKEN: 'abc\u0007def' })).toBe(`invalid SYSTEM_TOKEN: contains a control character at position 4${hint}`);
    expect(failure([], { SYSTEM_TOKEN: 'pässword' })).toBe(`invalid SYSTEM_TOKEN: contains a non-ASCII character at position 2${hint}`);
    // Surrounding whitespace is trimmed like every variable's (a trailing newline from a secret file).
    expect(run([], { SYSTEM_TOKEN: ' s3cret-~!#\n' }).systemToken).toBe('s3cret-~!#');
  });

  it('refuses conflicting settings', () => {
    expect(failure([], { PORT: '5000', GRPC_PORT: '5000' })).toBe('PORT and GRPC_PORT must differ (both are 5000)');
    // Without the System service there is no gRPC listener to clash with.
    expect(run(['--services', 'issues'], { PORT: '5000', GRPC_PORT: '5000' }).port).toBe(5000);
    expect(failure([], { LOOM_ADMIN_USER: 'root' })).toBe('LOOM_ADMIN_USER and LOOM_ADMIN_PASSWORD must be set together');
    expect(failure([], { LOOM_PUBLIC_URL: 'ftp://x' })).toBe(
      'invalid LOOM_PUBLIC_URL: must be an absolute http:// or https:// URL (got "ftp://x")',
    );
  });

  it('normalises the public URL', () => {
    expect(run([], { LOOM_PUBLIC_URL: 'https://loom.example.com/' }).publicUrl).toBe('https://loom.example.com');
  });
});
