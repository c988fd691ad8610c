/**
 * @module
 * The table of every server option: its flag, its environment variable, its default
 * and what it means. One table feeds the parser (`config.ts`), `--help` (`help.ts`)
 * and the documentation, so the three cannot drift apart.
 */
import { DEFAULT_SQLITE_PATH } from '../issues/store/defaults.js';
import { HOST_ADAPTER_VALUES, type HostAdapterSetting } from '../system/host-adapter.js';
import { DEFAULT_HTTP_LIMITS } from './http-limits.js';

/** How the raw text of an option is read. */
export type OptionKind = 'port' | 'integer' | 'string' | 'url' | 'enum' | 'list' | 'boolean' | 'secret';

/** One configurable setting of the server. */
export interface OptionSpec {
  /** Key in the parsed {@link ServerConfig}. */
  readonly key: string;
  /** Long flag without the leading dashes (`port` for `--port`); absent for secrets, which belong in the environment only. */
  readonly flag?: string;
  /** Environment variable read when the flag is absent. */
  readonly env: string;
  readonly kind: OptionKind;
  /** Default as the user would type it; `undefined` means unset. */
  readonly default?: string;
  /** Allowed values for `enum` and `list` options. */
  readonly choices?: readonly string[];
  /** Placeholder shown in `--help` (`<n>`, `<url>`). */
  readonly placeholder?: string;
  /** One line for `--help` and the docs. */
  readonly description: string;
}

/** The services the composition root knows how to run. */
export const SERVICE_NAMES = ['issues', 'system'] as const;
/** One of {@link SERVICE_NAMES}. */
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** `HOST_ADAPTER`'s values: the System service's own list, so the two cannot drift apart. */
export const HOST_ADAPTERS = HOST_ADAPTER_VALUES;
/** One of {@link HOST_ADAPTERS}. */
export type HostAdapterName = HostAdapterSetting;

/** `LOG_LEVEL`'s values: pino's levels, and `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `LOG_FORMAT`'s values. */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * Every option, in the order `--help` lists them.
 *
 * @example
 * ```ts
 * const port = OPTIONS.find((o) => o.key === 'port');
 * port?.env; // 'PORT'
 * ```
 */
export const OPTIONS: readonly OptionSpec[] = [
  {
    key: 'services',
    flag: 'services',
    env: 'LOOM_SERVICES',
    kind: 'list',
    choices: SERVICE_NAMES,
    default: SERVICE_NAMES.join(','),
    placeholder: '<list>',
    description: 'Comma-separated services to run: issues (HTTP API) and/or system (Connect + gRPC).',
  },
  {
    key: 'host',
    flag: 'host',
    env: 'HOST',
    kind: 'string',
    default: '0.0.0.0',
    placeholder: '<address>',
    description: 'Interface the HTTP server listens on (127.0.0.1 keeps it local).',
  },
  {
    key: 'port',
    flag: 'port',
    env: 'PORT',
    kind: 'port',
    default: '3000',
    placeholder: '<port>',
    description: 'HTTP port for the Issues API, the Connect routes, /docs and the health checks; 0 picks a free port.',
  },
  {
    key: 'grpcPort',
    flag: 'grpc-port',
    env: 'GRPC_PORT',
    kind: 'port',
    default: '50051',
    placeholder: '<port>',
    description: 'gRPC (HTTP/2) port of the System service; 0 picks a free port.',
  },
  {
    key: 'grpcHost',
    flag: 'grpc-host',
    env: 'GRPC_HOST',
    kind: 'string',
    default: '127.0.0.1',
    placeholder: '<address>',
    description: 'Interface gRPC listens on; loopback by default because these calls change node state.',
  },
  {
    key: 'grpcSocket',
    flag: 'grpc-socket',
    env: 'GRPC_SOCKET',
    kind: 'string',
    placeholder: '<path>',
    description: 'Also serve gRPC on this Unix socket (created owner-only, mode 0600).',
  },
  {
    key: 'databaseUrl',
    flag: 'database-url',
    env: 'DATABASE_URL',
    kind: 'url',
    default: DEFAULT_SQLITE_PATH,
    placeholder: '<url>',
    description: 'Issues database: a SQLite file path (file: URLs too) or a postgres:// URL.',
  },
  {
    key: 'publicUrl',
    flag: 'public-url',
    env: 'LOOM_PUBLIC_URL',
    kind: 'url',
    placeholder: '<url>',
    description: 'Origin clients use to reach this server (behind a proxy); defaults to http://localhost:<port>.',
  },
  {
    key: 'demo',
    flag: 'demo',
    env: 'LOOM_DEMO',
    kind: 'boolean',
    default: '1',
    placeholder: '<0|1>',
    description: 'Seed demo users, repositories and issues into an empty database; 0 disables it.',
  },
  {
    key: 'adminUser',
    env: 'LOOM_ADMIN_USER',
    kind: 'string',
    description: 'Bootstrap administrator created on first start (with LOOM_ADMIN_PASSWORD).',
  },
  {
    key: 'adminPassword',
    env: 'LOOM_ADMIN_PASSWORD',
    kind: 'secret',
    description: 'Password of the bootstrap administrator; environment only, never a flag.',
  },
  {
    key: 'timeZone',
    flag: 'time-zone',
    env: 'LOOM_TIME_ZONE',
    kind: 'string',
    placeholder: '<zone>',
    description: "IANA time zone the Issues API renders times and ends deadline days in; unset means the process's zone (TZ).",
  },
  {
    key: 'hostAdapter',
    flag: 'host-adapter',
    env: 'HOST_ADAPTER',
    kind: 'enum',
    choices: HOST_ADAPTERS,
    default: 'auto',
    placeholder: '<name>',
    description: 'Service manager the System service drives: auto (systemd, windows or simulated), systemd, windows, simulated.',
  },
  {
    key: 'simulatedHostFile',
    flag: 'simulated-host-file',
    env: 'SIMULATED_HOST_FILE',
    kind: 'string',
    placeholder: '<path>',
    description: 'YAML or JSON service table for the simulated host (default: the built-in table).',
  },
  {
    key: 'simulatedHostState',
    flag: 'simulated-host-state',
    env: 'SIMULATED_HOST_STATE',
    kind: 'string',
    placeholder: '<path>',
    description: 'JSON file where the simulated host keeps service statuses across restarts (default: memory only).',
  },
  {
    key: 'systemToken',
    env: 'SYSTEM_TOKEN',
    kind: 'secret',
    description:
      'Bearer token the System service requires on Connect and gRPC (printable ASCII, no spaces); ' +
      'unset means Connect answers callers on this machine only.',
  },
  {
    key: 'logLevel',
    flag: 'log-level',
    env: 'LOG_LEVEL',
    kind: 'enum',
    choices: LOG_LEVELS,
    default: 'info',
    placeholder: '<level>',
    description: 'Least severe log level written: fatal, error, warn, info, debug, trace or silent.',
  },
  {
    key: 'logFormat',
    flag: 'log-format',
    env: 'LOG_FORMAT',
    kind: 'enum',
    choices: LOG_FORMATS,
    default: 'auto',
    placeholder: '<format>',
    description: 'json (one object per line), pretty (colours), or auto: pretty when stdout is a terminal.',
  },
  {
    key: 'headersTimeoutMs',
    flag: 'headers-timeout',
    env: 'LOOM_HEADERS_TIMEOUT_MS',
    kind: 'integer',
    default: String(DEFAULT_HTTP_LIMITS.headersTimeoutMs),
    placeholder: '<ms>',
    description: "Time for a request's headers to arrive; slower clients get 408 and are disconnected.",
  },
  {
    key: 'requestTimeoutMs',
    flag: 'request-timeout',
    env: 'LOOM_REQUEST_TIMEOUT_MS',
    kind: 'integer',
    default: String(DEFAULT_HTTP_LIMITS.requestTimeoutMs),
    placeholder: '<ms>',
    description: 'Time for a whole request (headers and body) to arrive; 0 for no limit. At least the headers timeout.',
  },
  {
    key: 'bodyIdleTimeoutMs',
    flag: 'body-idle-timeout',
    env: 'LOOM_BODY_IDLE_TIMEOUT_MS',
    kind: 'integer',
    default: String(DEFAULT_HTTP_LIMITS.bodyIdleTimeoutMs),
    placeholder: '<ms>',
    description: 'Time a request body may send nothing before it is answered 408; 0 for no limit.',
  },
  {
    key: 'keepAliveTimeoutMs',
    flag: 'keep-alive-timeout',
    env: 'LOOM_KEEP_ALIVE_TIMEOUT_MS',
    kind: 'integer',
    default: String(DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
    placeholder: '<ms>',
    description: 'Time an idle keep-alive connection is kept open; behind a load balancer, longer than its idle timeout.',
  },
  {
    key: 'bodyBudgetBytes',
    flag: 'body-budget',
    env: 'LOOM_BODY_BUDGET_BYTES',
    kind: 'integer',
    default: String(DEFAULT_HTTP_LIMITS.bodyBudgetBytes),
    placeholder: '<bytes>',
    description: 'Request body bytes all requests together may hold; past it, requests with a body get 503 before they are read.',
  },
  {
    key: 'drainGraceMs',
    flag: 'drain-grace',
    env: 'LOOM_DRAIN_GRACE_MS',
    kind: 'integer',
    default: String(DEFAULT_HTTP_LIMITS.drainGraceMs),
    placeholder: '<ms>',
    description: 'On shutdown, how long idle keep-alive connections may still bring one request (answered, with Connection: close).',
  },
  {
    key: 'shutdownTimeoutMs',
    flag: 'shutdown-timeout',
    env: 'LOOM_SHUTDOWN_TIMEOUT_MS',
    kind: 'integer',
    default: '10000',
    placeholder: '<ms>',
    description: 'How long SIGTERM/SIGINT waits for in-flight requests before closing connections.',
  },
];
