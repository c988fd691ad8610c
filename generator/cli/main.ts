/**
 * @module
 * The `loom` process entry: runs {@link runCli} on `process.argv`, sets the exit code,
 * and turns Ctrl-C into a clean stop of `--watch`.
 *
 * @example
 * // npx tsx generator/cli/main.ts generate schemas --out generated
 */
import { runCli } from './cli.js';

const stopSignal = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});

const code = await runCli(process.argv.slice(2), {
  cwd: process.cwd(),
  debug: process.env.LOOM_DEBUG === '1',
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stopSignal,
});
// Exit explicitly: the signal listeners above would otherwise keep nothing alive, but
// plugins or watchers might; a finished CLI run should never hang. First let the output drain:
// a write to a pipe that would block is queued, and exit() would drop it (a long
// `loom implement` report read through a pipe lost its last hundred lines).
await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
process.exit(code);
