/**
 * @module
 * `loom` as a function: argv in, exit code out, output through injected writers.
 * `main.ts` binds it to the process; tests call it in process.
 */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { GENERATOR_VERSION } from '../emit.js';
import type { CliArgs, GenerateArgs, ImplementArgs } from './args.js';
import { parseArgs } from './args.js';
import { generate } from './generate.js';
import { GENERATE_HELP, IMPLEMENT_HELP, INIT_HELP, MAIN_HELP } from './help.js';
import type { InitArgs } from './init.js';
import { initProject, initSummary } from './init.js';
import { resolveInputs } from './inputs.js';
import type { CliIO } from './report.js';
import { report, reportError } from './report.js';
import { watchFolders } from './watch.js';

export interface CliOptions extends CliIO {
  readonly cwd: string;
  /** Print stack traces (`LOOM_DEBUG=1`). */
  readonly debug?: boolean;
  /** For `--watch`: resolves when watching should stop (Ctrl-C in `main.ts`). */
  readonly stopSignal?: Promise<void>;
  /** For `--watch`: called after each regeneration (tests wait on it). */
  readonly onRegenerated?: (exitCode: number) => void;
}

/**
 * Runs the CLI.
 *
 * @returns the exit code: 0 ok, 1 `--check` found differences (or missing handler methods), 2 usage,
 *   schema or handler errors (`loom` without a command prints the usage on stderr and exits 2)
 *
 * @example
 * const code = await runCli(['generate', 'schemas', '--out', 'generated'], {
 *   cwd: process.cwd(), stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t),
 * });
 */
export async function runCli(argv: readonly string[], options: CliOptions): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    reportError(e, options, options.debug ?? false);
    return 2;
  }
  switch (args.command) {
    case 'help':
      options.stdout(
        args.topic === 'generate'
          ? GENERATE_HELP
          : args.topic === 'init'
            ? INIT_HELP
            : args.topic === 'implement'
              ? IMPLEMENT_HELP
              : MAIN_HELP,
      );
      return 0;
    case 'version':
      options.stdout(`${GENERATOR_VERSION}\n`);
      return 0;
    case 'usage':
      options.stderr(MAIN_HELP);
      return 2;
    case 'generate':
      return args.watch ? watchMode(args, options) : once(args, options);
    case 'init':
      return init(args, options);
    case 'implement':
      return implement(args, options);
  }
}

function init(args: InitArgs, options: CliOptions): number {
  try {
    const outcome = initProject(args, options.cwd);
    if (outcome.kind === 'exists') {
      const names = outcome.files.map((f) => `  ${f}\n`).join('');
      options.stderr(
        `loom: not creating a project in ${outcome.dir}: these files exist and would be overwritten:\n${names}Nothing was written.\n`,
      );
      return 2;
    }
    options.stdout(initSummary(outcome, options.cwd));
    return 0;
  } catch (e) {
    reportError(e, options, options.debug ?? false);
    return 2;
  }
}

async function implement(args: ImplementArgs, options: CliOptions): Promise<number> {
  try {
    // Loaded here only: ts-morph and the scaffolder stay out of every other command's start-up.
    const { runImplement } = await import('./implement.js');
    return await runImplement(args, options);
  } catch (e) {
    reportError(e, options, options.debug ?? false);
    return 2;
  }
}

async function once(args: GenerateArgs, options: CliOptions): Promise<number> {
  const started = performance.now();
  try {
    const outcome = await generate(args, options.cwd);
    return report(outcome, { quiet: args.quiet, elapsedMs: performance.now() - started, cwd: options.cwd }, options);
  } catch (e) {
    reportError(e, options, options.debug ?? false);
    return 2;
  }
}

async function watchMode(args: GenerateArgs, options: CliOptions): Promise<number> {
  let dirs: string[];
  try {
    const { root } = await resolveInputs(args.inputs, options.cwd, { out: resolve(options.cwd, args.out) });
    dirs = [root, ...args.importPaths, ...args.templates].map((d) => resolve(options.cwd, d)).filter((d) => existsSync(d));
  } catch (e) {
    reportError(e, options, options.debug ?? false);
    return 2;
  }
  const first = await once(args, options);
  const shown = dirs.map((d) => relative(options.cwd, d) || '.').join(', ');
  options.stdout(`loom: watching ${shown} (Ctrl-C stops)\n`);
  const stop = watchFolders({
    dirs,
    ignore: resolve(options.cwd, args.out),
    onChange: async (changed) => {
      if (!args.quiet) options.stdout(`loom: ${changed.map((c) => relative(options.cwd, c)).join(', ')} changed\n`);
      // Not `onRegenerated?.(await once(…))`: an optional call skips evaluating its arguments.
      const code = await once(args, options);
      options.onRegenerated?.(code);
    },
  });
  options.onRegenerated?.(first);
  await (options.stopSignal ?? new Promise<void>(() => {}));
  await stop();
  return 0;
}
