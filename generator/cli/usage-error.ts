/**
 * @module
 * The error of a command line `loom` cannot use, shared by every command's argument parser.
 */

/** A usage mistake: printed with a hint to `--help`, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
