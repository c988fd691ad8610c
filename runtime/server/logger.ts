/**
 * @module
 * The process logger: pino writing one JSON object per line, or coloured lines through
 * pino-pretty when a person is watching (stdout is a terminal, or `LOG_FORMAT=pretty`).
 */
import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { LogFormat, LogLevel } from './options.js';

export type { Logger } from 'pino';

/** How {@link createLogger} chooses its output. */
export interface LoggerOptions {
  readonly level: LogLevel;
  readonly format: LogFormat;
  /** Whether stdout is a terminal; decides `auto`. @default process.stdout.isTTY */
  readonly isTTY?: boolean;
  /** Where lines go; tests pass a collecting stream. @default stdout (fd 1), written synchronously */
  readonly destination?: DestinationStream;
}

/**
 * Creates the server's root logger.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: 'info', format: 'auto' });
 * log.info({ port: 3000 }, 'listening');
 * ```
 */
export function createLogger(options: LoggerOptions): Logger {
  const pretty = options.format === 'pretty' || (options.format === 'auto' && (options.isTTY ?? process.stdout.isTTY === true));
  const base = { level: options.level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  if (pretty) {
    const stream = prettyStream(options.destination);
    if (stream !== undefined) return pino(base, stream);
  }
  // Synchronous writes: a log line written just before `process.exit` must not be lost,
  // and the shutdown summary is exactly such a line.
  return pino(base, options.destination ?? pino.destination({ fd: 1, sync: true }));
}

/**
 * pino-pretty is a development dependency: an install with `--omit=dev` lacks it, and
 * the server then keeps logging JSON instead of failing to start.
 */
function prettyStream(destination: DestinationStream | undefined): DestinationStream | undefined {
  try {
    const require = createRequire(import.meta.url);
    const build = require('pino-pretty') as (options: Record<string, unknown>) => DestinationStream;
    return build({ colorize: true, sync: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname', destination: destination ?? 1 });
  } catch {
    return undefined;
  }
}
