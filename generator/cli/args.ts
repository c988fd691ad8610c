/**
 * @module
 * Command-line parsing for `loom`. Hand-written rather than a dependency: the option set
 * is small, and cold start matters (the generator is benchmarked as a fresh process).
 */

import type { InitArgs } from './init.js';
import { parseInitArgs } from './init.js';
import { readOptions } from './options.js';
import { UsageError } from './usage-error.js';

/** Where generated code imports the runtime from unless `--runtime` says otherwise: the `loom` package. */
export const DEFAULT_RUNTIME = 'loom';

/** Options of `loom generate`. */
export interface GenerateArgs {
  readonly command: 'generate';
  /** Schema files or folders, as given. */
  readonly inputs: readonly string[];
  readonly out: string;
  /** `-I` proto import folders. */
  readonly importPaths: readonly string[];
  /** Import base of the runtime entries in generated code. @default 'loom' */
  readonly runtime: string;
  readonly templates: readonly string[];
  readonly plugins: readonly string[];
  readonly check: boolean;
  readonly watch: boolean;
  readonly quiet: boolean;
  /** `--lenient`: what the OpenAPI loader would refuse but can step past is a warning, and stepped past. */
  readonly lenient: boolean;
}

/** Options of `loom implement`. */
export interface ImplementArgs {
  readonly command: 'implement';
  /** Folders (or files) of hand-written handlers, as given. */
  readonly folders: readonly string[];
  /** The folder `loom generate` wrote the contracts to. @default 'generated' */
  readonly contracts: string;
  /** Path template of a new handler file (`{service}`, `{Service}`); read from existing handlers when absent. */
  readonly newFile: string | undefined;
  /** Class name template of a new handler; read from existing handlers when absent. */
  readonly className: string | undefined;
  readonly check: boolean;
  readonly quiet: boolean;
}

/**
 * What to do: generate, implement, print help or the version, or (`usage`: `loom` with no
 * command at all) print the usage as an error.
 */
export type CliArgs =
  | GenerateArgs
  | InitArgs
  | ImplementArgs
  | { readonly command: 'help'; readonly topic?: 'generate' | 'init' | 'implement' }
  | { readonly command: 'version' }
  | { readonly command: 'usage' };

export { UsageError };

/**
 * Parses `argv` (without `node` and the script).
 *
 * @example
 * parseArgs(['generate', 'schemas', '--out', 'generated', '-I', 'vendor']);
 * // { command: 'generate', inputs: ['schemas'], out: 'generated', importPaths: ['vendor'], … }
 */
export function parseArgs(argv: readonly string[]): CliArgs {
  const [command, ...rest] = argv;
  // Nothing asked for is a mistake (exit 2), not a request for help: a script that lost its
  // arguments must not pass.
  if (command === undefined) return { command: 'usage' };
  if (command === '--help' || command === '-h' || command === 'help') {
    return rest[0] === 'generate' || rest[0] === 'init' || rest[0] === 'implement'
      ? { command: 'help', topic: rest[0] }
      : { command: 'help' };
  }
  if (command === '--version' || command === '-v') return { command: 'version' };
  if (command === 'init') return parseInitArgs(rest);
  if (command === 'implement') return parseImplementArgs(rest);
  if (command !== 'generate') throw new UsageError(`unknown command '${command}'`);

  const inputs: string[] = [];
  const importPaths: string[] = [];
  const templates: string[] = [];
  const plugins: string[] = [];
  let out: string | undefined;
  let runtime = DEFAULT_RUNTIME;
  let check = false;
  let watch = false;
  let quiet = false;
  let lenient = false;
  for (const { arg, flag, value } of readOptions(rest, 'generate', ['-I'])) {
    switch (flag) {
      case '--help':
      case '-h':
        return { command: 'help', topic: 'generate' };
      case '--out':
      case '-o':
        out = value();
        break;
      case '-I':
      case '--import-path':
        importPaths.push(value());
        break;
      case '--runtime':
        runtime = value();
        break;
      case '--templates':
        templates.push(value());
        break;
      case '--plugin':
        plugins.push(value());
        break;
      case '--check':
        check = true;
        break;
      case '--watch':
      case '-w':
        watch = true;
        break;
      case '--quiet':
      case '-q':
        quiet = true;
        break;
      case '--lenient':
        lenient = true;
        break;
      default:
        if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
        inputs.push(arg);
    }
  }
  if (inputs.length === 0) throw new UsageError('no schema files or folders given');
  if (out === undefined) throw new UsageError('--out <dir> is required');
  if (check && watch) throw new UsageError('--check and --watch cannot be combined');
  return { command: 'generate', inputs, out, importPaths, runtime, templates, plugins, check, watch, quiet, lenient };
}

/**
 * The options of a run that shape what it writes, spelled as on the command line, for the header
 * of every generated file (`--runtime ../runtime/entries`); undefined when all are defaults.
 *
 * @example
 * outputParameters(parseArgs(['generate', 'api.yaml', '-o', 'gen', '--runtime', '../rt']) as GenerateArgs); // '--runtime ../rt'
 */
export function outputParameters(args: GenerateArgs): string | undefined {
  const parts: string[] = [];
  if (args.runtime !== DEFAULT_RUNTIME) parts.push(`--runtime ${args.runtime}`);
  for (const dir of args.templates) parts.push(`--templates ${dir}`);
  for (const plugin of args.plugins) parts.push(`--plugin ${plugin}`);
  // What was refused and stepped past is not in the output: a reader of it should know.
  if (args.lenient) parts.push('--lenient');
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * Parses the arguments of `loom implement`.
 *
 * @example
 * parseArgs(['implement', 'runtime', '--contracts', 'generated', '--check']);
 * // { command: 'implement', folders: ['runtime'], contracts: 'generated', check: true, … }
 */
function parseImplementArgs(rest: readonly string[]): CliArgs {
  const folders: string[] = [];
  let contracts = 'generated';
  let newFile: string | undefined;
  let className: string | undefined;
  let check = false;
  let quiet = false;
  for (const { arg, flag, value } of readOptions(rest, 'implement')) {
    switch (flag) {
      case '--help':
      case '-h':
        return { command: 'help', topic: 'implement' };
      case '--contracts':
        contracts = value();
        break;
      case '--new-file':
        newFile = value();
        break;
      case '--class-name':
        className = value();
        break;
      case '--check':
        check = true;
        break;
      case '--quiet':
      case '-q':
        quiet = true;
        break;
      default:
        if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`, 'implement');
        folders.push(arg);
    }
  }
  if (folders.length === 0) throw new UsageError('no handler folders given', 'implement');
  for (const [option, template] of [
    ['--new-file', newFile],
    ['--class-name', className],
  ] as const) {
    if (template !== undefined && !/\{service\}/i.test(template)) {
      throw new UsageError(`${option} must contain {Service} or {service}, or every new handler would get the same name`, 'implement');
    }
  }
  return { command: 'implement', folders, contracts, newFile, className, check, quiet };
}
