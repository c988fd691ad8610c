/**
 * @module
 * `npm start`: the Loom server process. Reads flags and environment, opens the configured
 * services (migrating and, on an empty database, seeding the Issues store; picking the
 * System host adapter), serves HTTP and gRPC, prints where and how to call them, and
 * shuts down gracefully on SIGTERM/SIGINT, or when npm's shell is gone
 * (`shutdown-triggers.ts`). Building is not done here: `npm start`'s `prestart` runs
 * `npm run build` (generate, then compile into `dist/`).
 *
 * Exit codes: 0 after a clean shutdown, 1 when start-up or shutdown fails, 2 for invalid configuration.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNever } from '../util/assert-never.js';
import { bannerRecord, renderBanner } from './banner.js';
import { ConfigError, type ConfigRequest, parseConfig, type ServerConfig } from './config.js';
import { renderHelp } from './help.js';
import { createLogger, type Logger } from './logger.js';
import { type RunningServer, startServer } from './server.js';
import { StartupError } from './service-module.js';
import { type ShutdownTrigger, watchShutdownTriggers } from './shutdown-triggers.js';

/**
 * The project folder: the nearest one above this module with a `package.json`. That is the
 * repository root both when the sources run (`runtime/server/main.ts`) and when the compiled
 * build does (`dist/runtime/server/main.js`), which reads `generated/*.openapi.json` from there.
 */
const ROOT_DIR = projectRoot(dirname(fileURLToPath(import.meta.url)));

function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '../..');
  }
}

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_CONFIG = 2;

async function main(): Promise<void> {
  let request: ConfigRequest;
  try {
    request = parseConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`loom: invalid configuration: ${error.message}\n`);
    process.exit(EXIT_CONFIG);
  }
  switch (request.kind) {
    case 'help':
      process.stdout.write(renderHelp('npm start --'));
      return;
    case 'version':
      process.stdout.write(`loom ${packageVersion()}\n`);
      return;
    case 'run':
      await run(request.config);
      return;
    default:
      assertNever(request);
  }
}

async function run(config: ServerConfig): Promise<void> {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  installCrashHandlers(logger);

  let server: RunningServer | undefined;
  let stopping: ShutdownTrigger | undefined;
  const stop = (running: RunningServer, trigger: ShutdownTrigger) => {
    logger.info(
      { ...describeTrigger(trigger), inFlight: running.inFlight(), timeoutMs: config.shutdownTimeoutMs },
      'shutting down: no new connections, finishing in-flight requests',
    );
    running.shutdown().then(
      (result) => {
        logger.info(
          result,
          result.abandoned === 0 ? 'stopped cleanly' : `stopped: ${result.abandoned} request(s) cut off by the shutdown bound`,
        );
        process.exit(result.failures.length === 0 ? EXIT_OK : EXIT_FAILURE);
      },
      (error: unknown) => {
        logger.fatal({ err: error }, 'shutdown failed');
        process.exit(EXIT_FAILURE);
      },
    );
  };
  // Installed before start-up, which can take a while (migrations, demo data): a signal then
  // lets the services finish opening and closes them properly instead of killing the process
  // in the middle of a migration.
  watchShutdownTriggers({
    onStop(trigger) {
      stopping = trigger;
      if (server !== undefined) stop(server, trigger);
      else logger.info(describeTrigger(trigger), 'signal during start-up: stopping as soon as the services are open');
    },
    onDuplicate(signal) {
      // npm relays the terminal's Ctrl-C, which reached this process too: one request, not two.
      logger.info({ signal }, 'signal repeated within a second: already shutting down');
    },
    onForce(signal) {
      // A second Ctrl-C means "now": skip the drain.
      logger.warn({ signal }, 'second signal: exiting without waiting for in-flight requests');
      process.exit(EXIT_FAILURE);
    },
  });

  try {
    // Loaded only now: `--help` and configuration errors answer without loading
    // database drivers, protobufjs or grpc-js.
    const { SERVICE_FACTORIES } = await import('./services/index.js');
    server = await startServer({ config, logger, factories: SERVICE_FACTORIES, rootDir: ROOT_DIR });
  } catch (error) {
    if (error instanceof StartupError) {
      // Something the operator can fix: one line, no stack trace.
      logger.fatal({ reason: error.message }, 'cannot start');
      process.stderr.write(`loom: cannot start: ${error.message}\n`);
    } else {
      logger.fatal({ err: error }, 'cannot start: unexpected error');
    }
    process.exit(EXIT_FAILURE);
  }
  if (stopping !== undefined) {
    stop(server, stopping);
    return;
  }

  const banner = bannerRecord(server);
  if (pretty) {
    // A person is reading: the banner says it all, the log line just marks the moment.
    logger.info({ http: banner.http }, 'ready');
    process.stdout.write(renderBanner(banner));
  } else {
    logger.info(banner, 'ready');
  }
}

/** Anything that escapes every handler is a bug: log it as one structured record, then exit. */
function installCrashHandlers(logger: Logger): void {
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(EXIT_FAILURE);
  });
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled promise rejection');
    process.exit(EXIT_FAILURE);
  });
}

/** A shutdown's cause, for the log: `{ signal: 'SIGTERM' }` or `{ parentExited: 4242 }`. */
function describeTrigger(trigger: ShutdownTrigger): Record<string, unknown> {
  return trigger.kind === 'signal' ? { signal: trigger.signal } : { parentExited: trigger.parentPid };
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve(ROOT_DIR, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

await main();
