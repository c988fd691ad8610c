/**
 * @module
 * The one reader of command-line options every `loom` command's parser walks: `--out=dir` and
 * `--out dir` alike, and flags that may carry their value glued on (`-Ivendor`, as protoc spells it).
 */
import { UsageError } from './usage-error.js';

/** One argument of a command line, as a parser reads it. */
export interface OptionToken {
  /** The argument as given (`--out=gen`). */
  readonly arg: string;
  /** Its flag (`--out`), or the argument itself when it is not an option with a value. */
  readonly flag: string;
  /** The flag's value: the part after `=`, the glued part, or the next argument (which is then consumed). */
  value(): string;
}

/**
 * Walks `argv` argument by argument; calling `value()` on a token takes its value.
 *
 * @example
 * for (const t of readOptions(['--out', 'gen', 'api.yaml'], 'generate')) {
 *   if (t.flag === '--out') out = t.value(); else inputs.push(t.arg);
 * }
 */
export function* readOptions(
  argv: readonly string[],
  command: UsageError['command'],
  glued: readonly string[] = [],
): Generator<OptionToken> {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const prefix = glued.find((g) => arg.startsWith(g) && arg.length > g.length);
    const flag = eq > 0 ? arg.slice(0, eq) : (prefix ?? arg);
    const inline = eq > 0 ? arg.slice(eq + 1) : prefix !== undefined ? arg.slice(prefix.length) : undefined;
    yield {
      arg,
      flag,
      value: () => {
        if (inline !== undefined) return inline;
        const next = argv[++i];
        // A lone `-` is a value (standard input, by convention); any other dash starts an option.
        if (next === undefined || (next.startsWith('-') && next !== '-')) throw new UsageError(`${flag} needs a value`, command);
        return next;
      },
    };
  }
}
