/**
 * @module
 * How loaders report problems: {@link SchemaError} for input the generator cannot use,
 * {@link Diagnostic} warnings for things it can work around.
 */
import type { Diagnostic, SourceLocation } from '../model/model.js';

/**
 * `file:line` or `file#/json/pointer`, the way people click through to a location.
 * @example formatLocation({ file: 'api.yaml', line: 12, pointer: '/paths/~1x' }) // 'api.yaml:12 (/paths/~1x)'
 */
export function formatLocation(source: SourceLocation): string {
  if (source.line !== undefined) return `${source.file}:${source.line}${source.pointer ? ` (${source.pointer})` : ''}`;
  if (source.pointer !== undefined) return `${source.file}#${source.pointer}`;
  return source.file;
}

/**
 * One line per diagnostic.
 * @example formatDiagnostic(warning('ignored', { file: 'a.proto', line: 3 })) // 'a.proto:3: warning: ignored'
 */
export function formatDiagnostic(d: Diagnostic): string {
  return `${formatLocation(d.source)}: ${d.severity}: ${d.message}`;
}

/**
 * Thrown when a schema cannot be turned into the model. Carries every problem found
 * (not just the first), each with a file, a line or JSON pointer, and a sentence saying
 * what to change. The message lists them, so printing `error.message` is enough.
 *
 * @example
 * try {
 *   await loadSchemas(['api.yaml'], { root: '.' });
 * } catch (e) {
 *   if (e instanceof SchemaError) for (const d of e.diagnostics) console.error(formatDiagnostic(d));
 * }
 */
export class SchemaError extends Error {
  readonly diagnostics: readonly Diagnostic[];

  constructor(diagnostics: readonly Diagnostic[]) {
    const lines = diagnostics.map(formatDiagnostic);
    super(lines.length === 1 ? lines[0] : `${lines.length} schema errors:\n${lines.join('\n')}`);
    this.name = 'SchemaError';
    this.diagnostics = diagnostics;
  }
}

/** An error diagnostic. */
export function error(message: string, source: SourceLocation): Diagnostic {
  return { severity: 'error', message, source };
}

/** A warning diagnostic. */
export function warning(message: string, source: SourceLocation): Diagnostic {
  return { severity: 'warning', message, source };
}
