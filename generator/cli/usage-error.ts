/**
 * @module
 * The error of a command line `loom` cannot use, shared by every command's argument parser.
 */

/** A usage mistake: printed with a hint to `--help`, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The command whose `--help` the message points to. */
  readonly command: 'generate' | 'init' | 'implement';
  constructor(message: string, command: 'generate' | 'init' | 'implement' = 'generate') {
    super(message);
    this.command = command;
  }
}
