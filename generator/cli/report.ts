/**
 * @module
 * What `loom generate` prints: a summary line, the files it touched, warnings as
 * `file:line: warning: …`, and for `--check` the list of differences.
 */
import { relative } from 'node:path';
import { formatDiagnostic } from '../loaders/diagnostics.js';
import type { Diagnostic } from '../model/model.js';
import type { GenerateOutcome } from './generate.js';

/** Where the CLI writes (injectable so tests run in process). */
export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * Prints a finished run. Returns the exit code: 1 when `--check` found differences.
 *
 * @example
 * report(outcome, { quiet: false, elapsedMs: 412, cwd }, io);
 * // loom: 3 written, 9 unchanged, 1 deleted in generated (0.41 s)
 */
export function report(outcome: GenerateOutcome, options: { quiet: boolean; elapsedMs: number; cwd: string }, io: CliIO): number {
  for (const w of outcome.warnings) io.stderr(`${formatDiagnostic(w)}\n`);
  const { missing, stale, unchanged, extra } = outcome.plan;
  const rel = relative(options.cwd, outcome.outDir);
  const out = rel === '' ? '.' : rel.startsWith('..') ? outcome.outDir : rel;
  const time = `${(options.elapsedMs / 1000).toFixed(2)} s`;
  if (outcome.checked) {
    const problems = [
      ...stale.map((p) => `stale    ${out}/${p}`),
      ...missing.map((p) => `missing  ${out}/${p}`),
      ...extra.map((p) => `extra    ${out}/${p} (no longer generated)`),
    ];
    if (problems.length === 0) {
      if (!options.quiet) io.stdout(`loom: ${out} is up to date (${unchanged.length} files, ${time})\n`);
      return 0;
    }
    io.stderr(`loom: ${out} differs from what the schemas give; run 'loom generate' (or 'npm run generate'):\n`);
    for (const line of problems) io.stderr(`  ${line}\n`);
    return 1;
  }
  if (!options.quiet) {
    for (const p of missing) io.stdout(`  wrote    ${out}/${p}\n`);
    for (const p of stale) io.stdout(`  updated  ${out}/${p}\n`);
    for (const p of extra) io.stdout(`  deleted  ${out}/${p}\n`);
    const warnings = outcome.warnings.length > 0 ? `, ${outcome.warnings.length} warning${outcome.warnings.length === 1 ? '' : 's'}` : '';
    io.stdout(
      `loom: ${missing.length + stale.length} written, ${unchanged.length} unchanged, ` +
        `${extra.length} deleted in ${out}${warnings} (${time})\n`,
    );
  }
  return 0;
}

/**
 * Prints an error the way a person can act on it: schema errors as `file:line: error: …`
 * lines, anything else as one line; a stack trace only with `LOOM_DEBUG=1`.
 */
export function reportError(error: unknown, io: CliIO, debug: boolean): void {
  const diagnostics = (error as { diagnostics?: readonly Diagnostic[] } | null)?.diagnostics;
  if (Array.isArray(diagnostics) && diagnostics.length > 0) {
    for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
    io.stderr(`loom: ${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}; nothing was written\n`);
  } else if ((error as Error | null)?.name === 'UsageError') {
    const command = (error as { command?: string }).command ?? 'generate';
    io.stderr(`loom: ${(error as Error).message}\nRun 'loom ${command} --help' for usage.\n`);
  } else {
    io.stderr(`loom: error: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
}
