/**
 * @module
 * A {@link CommandRunner} that replays recorded command output, for testing adapters on machines
 * without the real service manager (no systemd in CI containers, no Windows at all).
 *
 * Each step names the exact argv it expects and the recorded reply, so a test proves both what
 * the adapter runs and what it makes of the answer.
 */
import type { CommandOptions, CommandResult, CommandRunner } from '../command-runner.js';

/** One expected command and its recorded reply. */
export interface ScriptedStep {
  /** The program expected (`systemctl`, `powershell.exe`); any when omitted. */
  readonly file?: string;
  /** The exact argument array expected; any when omitted. */
  readonly args?: readonly string[];
  /** The recorded result, or an error to reject with (ENOENT, TimeoutError), or a function of the call. */
  readonly reply: CommandResult | Error | ((call: RecordedCall) => CommandResult);
}

/** A command the adapter ran, as the runner saw it. */
export interface RecordedCall {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>> | undefined;
}

/**
 * @example
 * ```ts
 * const runner = new ScriptedRunner([
 *   { args: ['show', '--property=Id', '--', 'a.service'], reply: { exitCode: 0, stdout: 'Id=a.service\n', stderr: '' } },
 * ]);
 * const host = new SystemdHost({ runner });
 * ```
 */
export class ScriptedRunner implements CommandRunner {
  /** Every command run, in order. */
  readonly calls: RecordedCall[] = [];
  readonly #steps: ScriptedStep[];

  constructor(steps: readonly ScriptedStep[]) {
    this.#steps = [...steps];
  }

  /** Steps not consumed yet (a test usually expects 0). */
  get remaining(): number {
    return this.#steps.length;
  }

  async run(file: string, args: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
    const call: RecordedCall = { file, args: [...args], env: options.env };
    this.calls.push(call);
    const step = this.#steps.shift();
    if (!step) throw new Error(`ScriptedRunner: unexpected command ${file} ${JSON.stringify(args)}`);
    if (step.file !== undefined && step.file !== file) {
      throw new Error(`ScriptedRunner: expected ${step.file}, got ${file}`);
    }
    if (step.args !== undefined && JSON.stringify(step.args) !== JSON.stringify(args)) {
      throw new Error(`ScriptedRunner: expected args ${JSON.stringify(step.args)}, got ${JSON.stringify(args)}`);
    }
    if (step.reply instanceof Error) throw step.reply;
    return typeof step.reply === 'function' ? step.reply(call) : step.reply;
  }
}

/** A successful result with `stdout`. */
export function ok(stdout: string): CommandResult {
  return { exitCode: 0, stdout, stderr: '' };
}

/** A failed result with `stderr`. */
export function failed(exitCode: number, stderr: string): CommandResult {
  return { exitCode, stdout: '', stderr };
}
