/**
 * @module
 * Command-line flags and environment → one typed, validated {@link ServerConfig}.
 * Precedence: flag, then environment variable, then the default in `options.ts`.
 * Every problem becomes a {@link ConfigError} whose message is one line naming the
 * flag or variable the user actually set, so `main.ts` can print it and exit 2.
 */
import { canonicalTimeZone } from '../issues/api/time.js';
import { bearerTokenProblem } from '../system/token-syntax.js';
import {
  HOST_ADAPTERS,
  type HostAdapterName,
  LOG_FORMATS,
  LOG_LEVELS,
  type LogFormat,
  type LogLevel,
  OPTIONS,
  type OptionSpec,
  SERVICE_NAMES,
  type ServiceName,
} from './options.js';

/** Everything the composition root needs to start. */
export interface ServerConfig {
  /** Services to run, in a stable order. */
  readonly services: readonly ServiceName[];
  readonly host: string;
  /** HTTP port; 0 lets the OS pick one (the banner prints the real one). */
  readonly port: number;
  readonly grpcPort: number;
  readonly grpcHost: string;
  readonly grpcSocket?: string;
  readonly databaseUrl: string;
  /** Origin clients reach the server on, without a trailing slash; unset means `http://localhost:<port>`. */
  readonly publicUrl?: string;
  readonly demo: boolean;
  readonly adminUser?: string;
  readonly adminPassword?: string;
  /** IANA zone the Issues API renders times in; unset means the process's zone. */
  readonly timeZone?: string;
  readonly hostAdapter: HostAdapterName;
  readonly simulatedHostFile?: string;
  readonly simulatedHostState?: string;
  readonly systemToken?: string;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  readonly shutdownTimeoutMs: number;
  /** The HTTP server's timeouts and body budget (`http-limits.ts`). */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly bodyIdleTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly bodyBudgetBytes: number;
  readonly drainGraceMs: number;
}

/** What the command line asked for: run the server, or just print help or the version. */
export type ConfigRequest =
  | { readonly kind: 'run'; readonly config: ServerConfig }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' };

/** Invalid configuration. The message is one line, ready to print without a stack trace. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Environment as `process.env` has it. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Where a raw value came from, so errors name what the user typed. */
interface RawValue {
  readonly text: string;
  readonly source: string;
}

/** The longest shutdown bound we accept: beyond this an orchestrator has long since sent SIGKILL. */
const MAX_SHUTDOWN_TIMEOUT_MS = 600_000;
/** The longest HTTP timeout we accept: an hour. */
const MAX_TIMEOUT_MS = 3_600_000;
/** The body budget's range: one small body, up to 16 GiB. */
const MIN_BODY_BUDGET_BYTES = 1024;
const MAX_BODY_BUDGET_BYTES = 16 * 1024 * 1024 * 1024;

/**
 * Reads flags and environment into a validated configuration.
 *
 * @throws ConfigError with a one-line message for unknown flags, bad values and conflicts.
 * @example
 * ```ts
 * const request = parseConfig(['--port', '8080', '--services=issues'], { LOG_LEVEL: 'debug' });
 * if (request.kind === 'run') request.config.port; // 8080
 * ```
 */
export function parseConfig(argv: readonly string[], env: Environment): ConfigRequest {
  const flags = readFlags(argv);
  if (flags.has('help')) return { kind: 'help' };
  if (flags.has('version')) return { kind: 'version' };

  const raw = (key: string): RawValue | undefined => {
    const spec = specFor(key);
    const flagged = spec.flag === undefined ? undefined : flags.get(spec.flag);
    if (flagged !== undefined) return { text: flagged, source: `--${spec.flag}` };
    const fromEnv = env[spec.env];
    // An empty variable (`PORT=` in a compose file) means "not set", not "set to nothing".
    if (fromEnv !== undefined && fromEnv.trim() !== '') return { text: fromEnv.trim(), source: spec.env };
    if (spec.default !== undefined) return { text: spec.default, source: `default of ${spec.env}` };
    return undefined;
  };
  const required = (key: string): RawValue => {
    const value = raw(key);
    // Only options with defaults are read through here, so this is a bug in OPTIONS, not user input.
    if (value === undefined) throw new Error(`option ${key} has no default`);
    return value;
  };

  const services = parseServices(required('services'));
  const port = parsePort(required('port'));
  const grpcPort = parsePort(required('grpcPort'));
  const config: ServerConfig = {
    services,
    host: parseNonEmpty(required('host')),
    port,
    grpcPort,
    grpcHost: parseNonEmpty(required('grpcHost')),
    grpcSocket: optional(raw('grpcSocket'), parseNonEmpty),
    databaseUrl: parseDatabaseUrl(required('databaseUrl')),
    publicUrl: optional(raw('publicUrl'), parsePublicUrl),
    demo: parseBoolean(required('demo')),
    adminUser: optional(raw('adminUser'), parseNonEmpty),
    adminPassword: optional(raw('adminPassword'), (value) => value.text),
    timeZone: optional(raw('timeZone'), parseTimeZone),
    hostAdapter: parseChoice(required('hostAdapter'), HOST_ADAPTERS),
    simulatedHostFile: optional(raw('simulatedHostFile'), parseNonEmpty),
    simulatedHostState: optional(raw('simulatedHostState'), parseNonEmpty),
    systemToken: optional(raw('systemToken'), parseToken),
    logLevel: parseChoice(required('logLevel'), LOG_LEVELS),
    logFormat: parseChoice(required('logFormat'), LOG_FORMATS),
    shutdownTimeoutMs: parseInteger(required('shutdownTimeoutMs'), 0, MAX_SHUTDOWN_TIMEOUT_MS),
    headersTimeoutMs: parseInteger(required('headersTimeoutMs'), 1, MAX_TIMEOUT_MS),
    requestTimeoutMs: parseInteger(required('requestTimeoutMs'), 0, MAX_TIMEOUT_MS),
    bodyIdleTimeoutMs: parseInteger(required('bodyIdleTimeoutMs'), 0, MAX_TIMEOUT_MS),
    keepAliveTimeoutMs: parseInteger(required('keepAliveTimeoutMs'), 1, MAX_TIMEOUT_MS),
    bodyBudgetBytes: parseInteger(required('bodyBudgetBytes'), MIN_BODY_BUDGET_BYTES, MAX_BODY_BUDGET_BYTES),
    drainGraceMs: parseInteger(required('drainGraceMs'), 0, MAX_SHUTDOWN_TIMEOUT_MS),
  };
  checkConsistency(config);
  return { kind: 'run', config };
}

/** The origin printed in the banner and given to `/docs`: the public URL, else localhost on the bound port. */
export function publicOrigin(config: ServerConfig, boundPort: number): string {
  return config.publicUrl ?? `http://localhost:${boundPort}`;
}

function specFor(key: string): OptionSpec {
  const spec = OPTIONS.find((option) => option.key === key);
  if (spec === undefined) throw new Error(`unknown option key ${key}`);
  return spec;
}

/** Parses `--name value`, `--name=value`, bare booleans `--demo` / `--no-demo`, and `-h`. */
function readFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') {
      flags.set('help', '1');
      continue;
    }
    if (arg === '-v' || arg === '--version') {
      flags.set('version', '1');
      continue;
    }
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}" (options start with --; see --help)`);
    const eq = arg.indexOf('=');
    let name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    let value = eq === -1 ? undefined : arg.slice(eq + 1);
    let spec = OPTIONS.find((option) => option.flag === name);
    if (spec === undefined && name.startsWith('no-') && value === undefined) {
      const positive = OPTIONS.find((option) => option.flag === name.slice(3));
      if (positive?.kind === 'boolean') {
        spec = positive;
        name = positive.flag!;
        value = '0';
      }
    }
    if (spec === undefined) {
      const secret = OPTIONS.find((option) => option.kind === 'secret' && option.env.toLowerCase().replace(/_/g, '-') === name);
      if (secret !== undefined)
        throw new ConfigError(`--${name} is not accepted on the command line (it would show in ps); set ${secret.env} instead`);
      throw new ConfigError(`unknown option --${name} (see --help)`);
    }
    if (value === undefined) {
      if (spec.kind === 'boolean') value = '1';
      else {
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--'))
          throw new ConfigError(`--${name} needs a value (${spec.placeholder ?? '<value>'})`);
        value = next;
        i++;
      }
    }
    if (flags.has(name)) throw new ConfigError(`--${name} is given more than once`);
    flags.set(name, value);
  }
  return flags;
}

function optional<T>(value: RawValue | undefined, parse: (value: RawValue) => T): T | undefined {
  return value === undefined ? undefined : parse(value);
}

function invalid(value: RawValue, expected: string): ConfigError {
  return new ConfigError(`invalid ${value.source}: ${expected} (got ${JSON.stringify(redact(value.text))})`);
}

/** Never echo a database password into logs or terminals. */
function redact(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

function parseNonEmpty(value: RawValue): string {
  if (value.text === '') throw invalid(value, 'must not be empty');
  return value.text;
}

function parseInteger(value: RawValue, min: number, max: number): number {
  if (!/^\d+$/.test(value.text)) throw invalid(value, `must be an integer from ${min} to ${max}`);
  const n = Number(value.text);
  if (n < min || n > max) throw invalid(value, `must be an integer from ${min} to ${max}`);
  return n;
}

function parsePort(value: RawValue): number {
  return parseInteger(value, 0, 65_535);
}

function parseBoolean(value: RawValue): boolean {
  const text = value.text.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw invalid(value, 'must be 1 or 0 (true/false, yes/no, on/off)');
}

function parseChoice<T extends string>(value: RawValue, choices: readonly T[]): T {
  const found = choices.find((choice) => choice === value.text.toLowerCase());
  if (found === undefined) throw invalid(value, `must be one of ${choices.join(', ')}`);
  return found;
}

function parseServices(value: RawValue): readonly ServiceName[] {
  const names = value.text
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (names.length === 0) throw invalid(value, `must name at least one of ${SERVICE_NAMES.join(', ')}`);
  for (const name of names) {
    if (!(SERVICE_NAMES as readonly string[]).includes(name)) {
      throw invalid(value, `unknown service "${name}"; known services are ${SERVICE_NAMES.join(', ')}`);
    }
  }
  // Keep a fixed order so start-up and the banner read the same whatever order the user typed.
  return SERVICE_NAMES.filter((name) => names.includes(name));
}

function parseDatabaseUrl(value: RawValue): string {
  const text = value.text;
  if (/^postgres(ql)?:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      if (url.hostname === '' && !url.searchParams.has('host')) throw new Error('no host');
    } catch {
      throw invalid(value, 'is not a valid postgres:// URL (postgres://user@host:5432/database)');
    }
    return text;
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme !== null && scheme[1]!.toLowerCase() !== 'file') {
    throw invalid(value, 'must be a SQLite file path, a file: URL, :memory: or a postgres:// URL');
  }
  if (text.endsWith('/')) throw invalid(value, 'names a directory; give a SQLite file such as ./data/loom.db');
  return text;
}

/** A bearer token clients can actually send; the message never echoes it. */
function parseToken(value: RawValue): string {
  const problem = bearerTokenProblem(value.text);
  if (problem !== undefined) throw new ConfigError(`invalid ${value.source}: ${problem}`);
  return value.text;
}

/** An IANA zone the runtime knows, spelled as the Issues service keeps it (`Etc/UTC` → `UTC`). */
function parseTimeZone(value: RawValue): string {
  try {
    return canonicalTimeZone(value.text);
  } catch {
    throw invalid(value, 'must be an IANA time zone such as Europe/Berlin or UTC');
  }
}

function parsePublicUrl(value: RawValue): string {
  let url: URL;
  try {
    url = new URL(value.text);
  } catch {
    throw invalid(value, 'must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(value, 'must be an absolute http:// or https:// URL');
  return value.text.replace(/\/+$/, '');
}

function checkConsistency(config: ServerConfig): void {
  const grpc = config.services.includes('system');
  if (grpc && config.port !== 0 && config.port === config.grpcPort) {
    throw new ConfigError(`PORT and GRPC_PORT must differ (both are ${config.port})`);
  }
  if (config.requestTimeoutMs !== 0 && config.headersTimeoutMs > config.requestTimeoutMs) {
    // Node refuses it too: the headers are part of the request.
    throw new ConfigError(
      `LOOM_HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not exceed LOOM_REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`,
    );
  }
  if ((config.adminUser === undefined) !== (config.adminPassword === undefined)) {
    throw new ConfigError('LOOM_ADMIN_USER and LOOM_ADMIN_PASSWORD must be set together');
  }
}
