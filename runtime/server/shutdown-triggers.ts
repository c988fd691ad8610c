/**
 * @module
 * What starts a shutdown, and what forces one, as seen from a process run under wrappers:
 * `npm start` is npm → sh → node. Ctrl-C in a terminal signals the whole process group, and a
 * wrapper may relay the same signal to its child, so the server can receive one Ctrl-C twice
 * within milliseconds; read as "a second Ctrl-C, exit now", that cut in-flight requests. And
 * SIGTERM sent to npm alone reaches the shell, which dies of it without passing it on, leaving
 * the server orphaned and serving; so under npm the server also stops when its parent is gone.
 *
 * - The first SIGTERM or SIGINT, or the parent's exit (under npm), starts a graceful shutdown.
 * - The same trigger again within {@link DUPLICATE_SIGNAL_MS} is the same request delivered twice
 *   and is ignored.
 * - A signal after that forces the exit.
 */

/** How long after the first signal another one counts as the same request, in milliseconds. */
export const DUPLICATE_SIGNAL_MS = 1_000;
/** How often the parent is checked for, in milliseconds. */
const PARENT_POLL_MS = 200;

/** Why a shutdown began. */
export type ShutdownTrigger =
  | { readonly kind: 'signal'; readonly signal: NodeJS.Signals }
  /** The process that started this one (npm's shell) exited. */
  | { readonly kind: 'parent-exited'; readonly parentPid: number };

/** Options of {@link watchShutdownTriggers}. */
export interface ShutdownTriggerOptions {
  /** The first trigger: begin a graceful shutdown. Called once. */
  readonly onStop: (trigger: ShutdownTrigger) => void;
  /** A signal well after the first: exit without waiting. */
  readonly onForce: (signal: NodeJS.Signals) => void;
  /** A repeat within {@link DUPLICATE_SIGNAL_MS}, ignored (for the log). */
  readonly onDuplicate?: (signal: NodeJS.Signals) => void;
  /** Also stop when the parent process exits. @default run by an npm script, outside Windows */
  readonly watchParent?: boolean;
  /** Where signals are heard; tests pass an emitter. @default process */
  readonly signals?: Pick<NodeJS.Process, 'on' | 'off'>;
  /** The parent's pid now; tests pass a function. @default () => process.ppid */
  readonly parentPid?: () => number;
}

/**
 * Installs the SIGTERM/SIGINT handlers (and the parent watch); returns a function removing them.
 *
 * @example
 * ```ts
 * watchShutdownTriggers({
 *   onStop: (trigger) => void server.shutdown().then(() => process.exit(0)),
 *   onForce: () => process.exit(1),
 * });
 * ```
 */
export function watchShutdownTriggers(options: ShutdownTriggerOptions): () => void {
  const signals = options.signals ?? process;
  const parentPid = options.parentPid ?? (() => process.ppid);
  const watchParent = options.watchParent ?? (process.env['npm_lifecycle_event'] !== undefined && process.platform !== 'win32');
  let stoppedAt: number | undefined;
  const stop = (trigger: ShutdownTrigger) => {
    stoppedAt = performance.now();
    options.onStop(trigger);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppedAt === undefined) stop({ kind: 'signal', signal });
    else if (performance.now() - stoppedAt < DUPLICATE_SIGNAL_MS) options.onDuplicate?.(signal);
    else options.onForce(signal);
  };
  signals.on('SIGTERM', onSignal);
  signals.on('SIGINT', onSignal);
  let poll: NodeJS.Timeout | undefined;
  if (watchParent) {
    const parent = parentPid();
    poll = setInterval(() => {
      if (parentPid() === parent) return;
      clearInterval(poll);
      if (stoppedAt === undefined) stop({ kind: 'parent-exited', parentPid: parent });
    }, PARENT_POLL_MS);
    // The watch must not keep a process alive that has nothing else to do.
    poll.unref();
  }
  return () => {
    signals.off('SIGTERM', onSignal);
    signals.off('SIGINT', onSignal);
    clearInterval(poll);
  };
}
